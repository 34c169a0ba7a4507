import { spawnSync } from "node:child_process";
import http from "node:http";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { withPgRole, withTwoPgNodes } from "../support/pg-role";
import { postJson, squidexToken, startServer, tempDataDir } from "../support/server";

const root = path.resolve(import.meta.dirname, "../..");

describe("server lifecycle", () => {
  it("creates and seeds the store on first start, keeps it on restart, and stops cleanly on SIGTERM", async () => {
    const dataDir = tempDataDir();
    const first = await startServer({ dataDir });
    console.log(`start to /healthz (first start, seeding): ${first.startMs} ms`);
    expect(first.output()).toContain("demo content created");
    const pages = await postJson(`${first.url}/api/rest`, { url: "core-pages", language: "de" });
    expect(pages.json.items.length).toBeGreaterThan(0);
    await expect.poll(() => first.output()).toContain('"url":"/api/rest"');
    const requestLog = first.output().split("\n").find((l) => l.includes('"url":"/api/rest"'));
    expect(requestLog).toMatch(/"req":\{"id":"[\w-]+","method":"POST"/);
    expect(await first.stop("SIGTERM")).toBe(0);
    expect(first.output()).toContain('"msg":"stopped"');

    const second = await startServer({ dataDir });
    console.log(`start to /healthz (existing store): ${second.startMs} ms`);
    expect(second.output()).not.toContain("demo content created");
    const again = await postJson(`${second.url}/api/rest`, { url: "core-pages", language: "de" });
    expect(again.json.items).toEqual(pages.json.items);
    // Ready once the renderer is loaded and the critical pages and the theme CSS are warm.
    await expect.poll(async () => (await fetch(`${second.url}/readyz`)).status, { timeout: 15_000 }).toBe(200);
    expect(await (await fetch(`${second.url}/readyz`)).json()).toMatchObject({ status: "ready", renderer: true, warm: true, database: "ok" });
    // Warmed under the host visitors use (localhost:PORT for the demo).
    const port = new URL(second.url).port;
    const cacheState = await new Promise<string | undefined>((resolve, reject) => {
      http.get({ host: "127.0.0.1", port, path: "/", headers: { host: `localhost:${port}` } }, (res) => resolve(res.resume().headers["x-page-cache"] as string | undefined)).on("error", reject);
    });
    expect(cacheState).toBe("hit");
    expect(second.output()).toContain("critical pages cached");
    expect(await second.stop()).toBe(0);
  });

  it("lets an in-flight request finish before it exits", async () => {
    const server = await startServer();
    // Send the headers and half the body, stop the server, then finish the request.
    const body = JSON.stringify({ url: "gm-content-practitioners", language: "de", cache: false });
    const { port } = new URL(server.url);
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port, path: "/api/rest", method: "POST", headers: { "content-type": "application/json" } }, (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on("error", reject);
      req.write(body.slice(0, 10));
      setTimeout(() => {
        exit = server.stop("SIGTERM");
        setTimeout(() => req.end(body.slice(10)), 300);
      }, 200);
    });
    let exit: Promise<number | null> = Promise.resolve(null);
    const res = await response;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).items.length).toBeGreaterThan(0);
    expect(await exit).toBe(0);
    expect(server.output()).toContain('"msg":"stopped"');
  });

  it("refuses to start with a bad setting and names it", () => {
    const run = spawnSync(process.execPath, ["server.js"], {
      cwd: root,
      env: { ...process.env, PORT: "not-a-port", DATA_DIR: tempDataDir() },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr + run.stdout).toMatch(/Invalid environment:[\s\S]*PORT/);
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;
describe.skipIf(!pgUrl)("on PostgreSQL (TEST_DATABASE_URL)", () => {
  it("serves the demo from PostgreSQL and answers /healthz 503 while the database is unreachable", async () => {
    await withPgRole("praxis_t", async ({ url, role, admin }) => {
      const server = await startServer({ env: { DATABASE_URL: url } });
      try {
        const health = await (await fetch(`${server.url}/healthz`)).json();
        expect(health).toMatchObject({ status: "ok", dialect: "postgres" });
        const pages = await postJson(`${server.url}/api/rest`, { url: "core-pages", language: "de" });
        expect(pages.json.items.length).toBeGreaterThan(0);

        await admin.query(`alter role ${role} nologin`);
        await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where usename = $1`, [role]);
        const down = await fetch(`${server.url}/healthz`);
        expect(down.status).toBe(503);
        expect(await down.json()).toMatchObject({ status: "error", database: "unreachable" });

        await admin.query(`alter role ${role} login`);
        const up = await fetch(`${server.url}/healthz`);
        expect(up.status).toBe(200);
      } catch (error) {
        console.error(server.output().split("\n").slice(-45).join("\n"));
        throw error;
      } finally {
        await server.stop();
      }
    });
  });
});

describe.skipIf(!pgUrl)("two app nodes on one PostgreSQL database", () => {
  it("a change made through one node shows on the other at once (LISTEN/NOTIFY)", async () => {
    await withTwoPgNodes("praxis_n", async (a, b) => {
      const read = async () =>
        (await postJson(`${b.url}/api/rest`, { url: "core-theme-colors", language: "de" })).json.items.find((c: { id: string }) => c.id === "color-ocker")
          ?.data.hexcode;
      expect(await read()).toBe("#D9A441");
      // b now has the colours cached for an hour; change them through a.
      const patch = await fetch(`${a.url}/api/squidex/api/content/praxisnetz/core-theme-colors/color-ocker`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${await squidexToken(a)}`, "content-type": "application/json" },
        body: JSON.stringify({ hexcode: { iv: "#123456" } }),
      });
      expect(patch.status).toBe(200);
      await expect.poll(read, { timeout: 3000 }).toBe("#123456");
    });
  });
});
