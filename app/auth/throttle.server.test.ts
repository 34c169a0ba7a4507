import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DB, type RawDatabase } from "~/content/db";
import { createRateLimits } from "~/lib/rate-limit.server";
import { ACCOUNT_LIMIT, ADDRESS_LIMIT, delayFor, DEVICE_LIMIT, LoginThrottle, WINDOW_SECONDS } from "./throttle.server";

/** LoginThrottle on a real SQLite file, opened twice (two app nodes on one store). */
let dir: string;
let first: { db: DB; raw: RawDatabase };
let second: { db: DB; raw: RawDatabase };

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-throttle-"));
  const file = path.join(dir, "store.sqlite");
  first = await openDatabase({ sqlitePath: file });
  second = await openDatabase({ sqlitePath: file });
  // The table is made by the app's rate limits at start (services.server.ts awaits this before the throttle is used).
  expect(await createRateLimits(first.raw, { perHour: 1000 }).ready()).toBe(true);
});
afterAll(async () => {
  await first?.db.destroy();
  await second?.db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("delayFor", () => {
  it("is 0 for the first failures, then doubles from 250 ms up to 4 s", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 20].map(delayFor)).toEqual([0, 0, 0, 250, 500, 1000, 2000, 4000, 4000, 4000]);
  });
});

describe("LoginThrottle", () => {
  it("refuses an account after ACCOUNT_LIMIT failures, counted across two connections, with a Retry-After within the window", async () => {
    const a = new LoginThrottle(first.raw);
    const b = new LoginThrottle(second.raw);
    const email = "Someone@Example.com";
    const delays: number[] = [];
    for (let i = 0; i < ACCOUNT_LIMIT; i++) {
      expect(await (i % 2 ? a : b).check(email, `198.51.100.${i}`)).toEqual({ delayMs: 0 });
      delays.push(await (i % 2 ? b : a).failed(email, `198.51.100.${i}`));
    }
    expect(delays).toEqual([0, 0, 250, 500, 1000, 2000, 4000, 4000, 4000, 4000].map((_, i) => delayFor(i + 1)));
    for (const t of [a, b]) {
      // Refused whatever the case or spaces of the address, from any client address.
      const verdict = await t.check(" someone@example.COM ".trim().toLowerCase(), "192.0.2.99");
      expect(verdict.retryAfterSeconds).toBeGreaterThan(WINDOW_SECONDS - 60);
      expect(verdict.retryAfterSeconds).toBeLessThanOrEqual(WINDOW_SECONDS);
    }
    // Another account is not affected.
    expect(await a.check("other@example.com", "192.0.2.99")).toEqual({ delayMs: 0 });
  });

  it("a success clears the account's count (not the address's)", async () => {
    const t = new LoginThrottle(first.raw);
    const email = "clears@example.com";
    for (let i = 0; i < 5; i++) await t.failed(email, "192.0.2.10");
    await t.succeeded(email);
    expect(await t.failed(email, "192.0.2.11")).toBe(0);
    // The address still has its 5 failures (5 / 5 = 1 for the delay: none yet).
    const rows = first.raw.dialect === "sqlite" ? (first.raw.sqlite.prepare("select key, points from rate_limits where key like 'login:ip%'").all() as Array<{ key: string; points: number }>) : [];
    expect(rows.find((r) => r.key.endsWith("192.0.2.10"))?.points).toBe(5);
  });

  it("refuses an address after ADDRESS_LIMIT failures over many accounts", async () => {
    const t = new LoginThrottle(first.raw);
    const ip = "192.0.2.200";
    for (let i = 0; i < ADDRESS_LIMIT - 1; i++) await t.failed(`spray-${i}@example.com`, ip);
    expect(await t.check("spray-new@example.com", ip)).toEqual({ delayMs: 0 });
    // Address failures count towards the delay too, one step per 5.
    expect(await t.failed("spray-last@example.com", ip)).toBe(delayFor(Math.floor(ADDRESS_LIMIT / 5)));
    const verdict = await new LoginThrottle(second.raw).check("spray-new@example.com", ip);
    expect(verdict.retryAfterSeconds).toBeGreaterThan(0);
    expect(await t.check("spray-new@example.com", "192.0.2.201")).toEqual({ delayMs: 0 });
  });

  it("strangers locking an account do not lock out a trusted device, which has its own budget; setting a password ends the lock", async () => {
    const a = new LoginThrottle(first.raw);
    const b = new LoginThrottle(second.raw);
    const email = "owner@example.com";
    // Ten failures from ten addresses, in parallel, half on each node.
    await Promise.all(Array.from({ length: ACCOUNT_LIMIT }, (_, i) => (i % 2 ? a : b).failed(email, `198.51.100.${100 + i}`)));
    expect((await a.check(email, "192.0.2.77")).retryAfterSeconds).toBeGreaterThan(0);
    expect(await b.check(email, "192.0.2.77", "owner-laptop")).toEqual({ delayMs: 0 });

    // The device's own failures: delayed from the third, refused at DEVICE_LIMIT, on either node, that device only.
    const delays: number[] = [];
    for (let i = 0; i < DEVICE_LIMIT; i++) delays.push(await (i % 2 ? a : b).failed(email, "192.0.2.77", "owner-laptop"));
    expect(delays).toEqual(Array.from({ length: DEVICE_LIMIT }, (_, i) => delayFor(i + 1)));
    expect((await a.check(email, "192.0.2.77", "owner-laptop")).retryAfterSeconds).toBeGreaterThan(WINDOW_SECONDS - 60);
    expect(await b.check(email, "192.0.2.77", "owner-phone")).toEqual({ delayMs: 0 });
    // A device's success clears its own count, not the strangers' lock.
    await a.succeeded(email, "owner-phone");
    expect((await b.check(email, "192.0.2.78")).retryAfterSeconds).toBeGreaterThan(0);

    // A new password: the lock on strangers (and the owner on a new device) ends, on every node.
    await a.cleared(email);
    expect(await b.check(email, "192.0.2.78")).toEqual({ delayMs: 0 });
  });

  it("stores no e-mail address in the table", async () => {
    const rows = first.raw.dialect === "sqlite" ? (first.raw.sqlite.prepare("select key from rate_limits").all() as Array<{ key: string }>) : [];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.key).not.toMatch(/@/);
  });

  it("counts in memory when the store fails (and still refuses)", async () => {
    const { db, raw } = await openDatabase({ sqlitePath: path.join(dir, "broken.sqlite") });
    const warnings: unknown[] = [];
    const logged = new LoginThrottle(raw, { warn: (...args: unknown[]) => void warnings.push(args) }, "rate_limits_gone");
    for (let i = 0; i < ACCOUNT_LIMIT; i++) await logged.failed("mem@example.com", "192.0.2.50");
    expect((await logged.check("mem@example.com", "192.0.2.51")).retryAfterSeconds).toBeGreaterThan(0);
    expect(warnings.length).toBeGreaterThan(0);
    await db.destroy();
  });
});
