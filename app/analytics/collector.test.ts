import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { migrate, openDatabase, type DB } from "~/content/db";
import { AnalyticsCollector } from "./collector.server";
import { parseEvent } from "./event";
import { analyticsReport, periodRange } from "./report.server";

let dir: string;
let db: DB;
let close: () => Promise<void>;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-analytics-"));
  const opened = await openDatabase({ sqlitePath: path.join(dir, "a.sqlite") });
  db = opened.db;
  close = () => opened.db.destroy();
  await migrate(db);
});
afterEach(async () => {
  await close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const pageview = (page: string) => parseEvent({ n: "pageview", u: `https://praxis.example${page}`, d: "praxis.example", w: 1600 }, "de-AT");

describe("the collector", () => {
  it("rotates the salt at midnight UTC: the same person is a new visitor, and yesterday's salt and hashes are deleted", async () => {
    let now = new Date("2026-11-27T23:50:00Z");
    const c = new AnalyticsCollector(db, { now: () => now });
    const sender = { ip: "203.0.113.7", userAgent: "Mozilla/5.0 Firefox/140" };
    await c.record(pageview("/"), sender);
    await c.record(pageview("/kontakt"), sender);
    await c.flush();
    const salt27 = (await db.selectFrom("analytics_salts").selectAll().execute()).map((r) => r.salt);
    expect(salt27).toHaveLength(1);

    now = new Date("2026-11-28T00:05:00Z");
    await c.record(pageview("/"), sender);
    await c.flush();
    const salts = await db.selectFrom("analytics_salts").selectAll().execute();
    expect(salts.map((s) => s.day)).toEqual(["2026-11-28"]);
    expect(salts[0]!.salt).not.toBe(salt27[0]);
    // Only today's hashes are kept, and they differ from yesterday's for the same sender.
    const visitors = await db.selectFrom("analytics_visitors").selectAll().execute();
    expect(visitors.map((v) => v.day)).toEqual(["2026-11-28"]);
    expect(visitors[0]!.hash).not.toBe(AnalyticsCollector.visitorHash(salt27[0]!, "praxis.example", sender.ip, sender.userAgent));
    const daily = await db.selectFrom("analytics_daily").selectAll().orderBy("day").execute();
    expect(daily.map((d) => [d.day, d.visitors, d.pageviews, d.bounces])).toEqual([
      ["2026-11-27", 1, 2, 0],
      ["2026-11-28", 1, 1, 1],
    ]);
    await c.close();
  });

  it("stores no address and no user agent anywhere", async () => {
    const c = new AnalyticsCollector(db, { now: () => new Date("2026-11-27T12:00:00Z") });
    await c.record(pageview("/"), { ip: "198.51.100.23", userAgent: "Mozilla/5.0 (X11; Linux x86_64) UniqueAgent/9.9" });
    await c.flush();
    const tables = (await db.introspection.getTables()).map((t) => t.name).filter((n) => n.startsWith("analytics_"));
    expect(tables.length).toBeGreaterThanOrEqual(7);
    for (const table of tables) {
      const rows = await db.selectFrom(table as "analytics_daily").selectAll().execute();
      const text = JSON.stringify(rows);
      expect(text).not.toContain("198.51.100.23");
      expect(text).not.toContain("UniqueAgent");
    }
    await c.close();
  });

  it("reads a year of rollups for the dashboard with the right sums", async () => {
    // 100 000 page views a month as daily rollups: 3 300 a day from 1 100 visitors, 40 pages.
    const days: string[] = [];
    for (let t = Date.parse("2025-11-28T00:00:00Z"); t <= Date.parse("2026-11-27T00:00:00Z"); t += 86_400_000) days.push(new Date(t).toISOString().slice(0, 10));
    expect(days).toHaveLength(365);
    const daily = days.map((day) => ({ day, visitors: 1100, pageviews: 3300, visits: 1200, bounces: 480, visit_seconds: 1200 * 90, events: 50 }));
    for (let i = 0; i < daily.length; i += 100) await db.insertInto("analytics_daily").values(daily.slice(i, i + 100)).execute();
    const pages = days.flatMap((day) => Array.from({ length: 40 }, (_, p) => ({ dim: "page", day, value: `/seite-${p}`, visitors: 10 + p, pageviews: 20 + p, visits: 0, events: 0 })));
    for (let i = 0; i < pages.length; i += 400) await db.insertInto("analytics_breakdown").values(pages.slice(i, i + 400)).execute();
    await db.insertInto("analytics_breakdown").values(days.map((day) => ({ dim: "country", day, value: "DE", visitors: 1000, pageviews: 0, visits: 0, events: 0 }))).execute();
    await db.insertInto("analytics_revenue").values(days.map((day) => ({ day, name: "Buchung", currency: "EUR", events: 2, amount: 49.9 }))).execute();

    const { from, to } = periodRange(new URLSearchParams("period=12mo"), "2026-11-27");
    expect([from, to]).toEqual(["2025-11-28", "2026-11-27"]);
    const report = await analyticsReport(db, from, to);
    expect(report.totals).toEqual({ visitors: 401_500, pageviews: 1_204_500, visits: 438_000, bounces: 175_200, visitSeconds: 39_420_000, events: 18_250 });
    expect(report.series).toHaveLength(365);
    expect(report.series[0]).toEqual({ day: "2025-11-28", visitors: 1100, pageviews: 3300 });
    expect(report.pages).toHaveLength(10);
    expect(report.pages[0]).toMatchObject({ value: "/seite-39", visitors: 49 * 365, pageviews: 59 * 365 });
    expect(report.countries).toEqual([{ value: "DE", visitors: 365_000, pageviews: 0, visits: 0, events: 0 }]);
    expect(report.revenue).toEqual([{ name: "Buchung", currency: "EUR", events: 730, amount: 18_213.5 }]);

    const week = await analyticsReport(db, ...(Object.values(periodRange(new URLSearchParams("period=7d"), "2026-11-27")).slice(1) as [string, string]));
    expect(week.totals.pageviews).toBe(7 * 3300);
    expect(week.series.map((s) => s.day)).toEqual(["2026-11-21", "2026-11-22", "2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27"]);
  });

  it("reads the period from the dashboard's query, a bad one falls back to 30 days", () => {
    expect(periodRange(new URLSearchParams("period=custom&from=2026-01-01&to=2026-01-31"), "2026-11-27")).toEqual({ period: "custom", from: "2026-01-01", to: "2026-01-31" });
    for (const q of ["period=custom&from=2026-02-30&to=2026-03-01", "period=custom&from=2026-03-01&to=2026-01-01", "period=bogus", ""]) {
      expect(periodRange(new URLSearchParams(q), "2026-11-27"), q).toEqual({ period: "30d", from: "2026-10-29", to: "2026-11-27" });
    }
  });
});
