import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchJson, startServer, type RunningServer } from "../support/server";

/** POST /api/event (issue 24) over real HTTP against the production build, with a low per-address limit. */

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0 MarkerAgent/7.7";
const EVENTS_PER_MINUTE = 30;

describe("POST /api/event", () => {
  let server: RunningServer;
  let db: Database.Database;
  beforeAll(async () => {
    server = await startServer({ env: { ANALYTICS_EVENTS_PER_MINUTE: String(EVENTS_PER_MINUTE) } });
    db = new Database(path.join(server.dataDir, "praxisnetz.sqlite"), { readonly: true, fileMustExist: true });
  }, 60_000);
  afterAll(async () => {
    db?.close();
    await server?.stop();
  });

  const send = (body: unknown, headers: Record<string, string> = {}) =>
    fetchJson(`${server.url}/api/event`, {
      method: "POST",
      body: typeof body === "string" ? body : JSON.stringify(body),
      headers: { "content-type": "text/plain", "user-agent": BROWSER, "accept-language": "de-CH,de;q=0.9", ...headers },
    });
  const page = (path: string) => db.prepare("select sum(pageviews) as n from analytics_breakdown where dim = 'page' and value = ?").get(path) as { n: number | null };
  /** The collector writes within about a second; wait for it (no time is asserted). */
  const stored = async (path: string) => expect.poll(() => page(path).n ?? 0, { timeout: 10_000, interval: 100 }).toBeGreaterThan(0);

  it("stores a page view in the daily rollups and answers 202", async () => {
    const res = await send({ n: "pageview", u: "http://praxis.example/ueber-uns?x=1", d: "praxis.example", r: "https://www.google.de/", w: 390 });
    expect(res.status).toBe(202);
    expect(res.headers.get("cache-control")).toBe("no-store");
    await stored("/ueber-uns");
    const today = new Date().toISOString().slice(0, 10);
    expect(db.prepare("select visitors, pageviews, visits, bounces from analytics_daily where day = ?").get(today)).toEqual({ visitors: 1, pageviews: 1, visits: 1, bounces: 1 });
    const dims = db.prepare("select dim, value, visitors from analytics_breakdown where dim <> 'page' order by dim").all();
    expect(dims).toEqual([
      { dim: "country", value: "CH", visitors: 1 },
      { dim: "device", value: "mobile", visitors: 1 },
      { dim: "source", value: "google.de", visitors: 1 },
    ]);
  });

  it("accepts the long field names, JSON, custom events with props and revenue", async () => {
    const res = await send(
      { name: "Buchung", url: "http://praxis.example/termine", domain: "praxis.example", props: { art: "Erstgespräch" }, revenue: { currency: "EUR", amount: 49.5 } },
      { "content-type": "application/json" },
    );
    expect(res.status).toBe(202);
    await send({ n: "pageview", u: "http://praxis.example/after-event", d: "praxis.example" });
    await stored("/after-event");
    expect(db.prepare("select name, prop, value, events from analytics_props").all()).toEqual([{ name: "Buchung", prop: "art", value: "Erstgespräch", events: 1 }]);
    expect(db.prepare("select name, currency, events, amount from analytics_revenue").all()).toEqual([{ name: "Buchung", currency: "EUR", events: 1, amount: 49.5 }]);
  });

  it("refuses bad input with a 400 and a message, never a 5xx", async () => {
    const cases: Array<[unknown, RegExp]> = [
      ["{not json", /not valid JSON/],
      ["", /empty/],
      [[1, 2], /JSON object/],
      [{ u: "http://praxis.example/", d: "praxis.example" }, /"name" is required/],
      [{ n: "pageview", u: "not a url", d: "praxis.example" }, /absolute http\(s\) URL/],
      [{ n: "pageview", u: "http://praxis.example/", d: 7 }, /"domain" must be a string/],
      [{ n: "pageview", u: "http://praxis.example/", d: "praxis.example", w: -1 }, /screen_width/],
      [{ n: "x", u: "http://praxis.example/", d: "praxis.example", p: [1] }, /props/],
      [{ n: "x", u: "http://praxis.example/", d: "praxis.example", $: { currency: "EUR" } }, /amount/],
    ];
    for (const [body, message] of cases) {
      const res = await send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.message).toMatch(message);
    }
    const form = await send("n=pageview", { "content-type": "application/x-www-form-urlencoded" });
    expect(form.status).toBe(415);
    expect((await fetchJson(`${server.url}/api/event`)).status).toBe(405);
  });

  it("refuses a body over 2 KB with a 413", async () => {
    const res = await send({ n: "pageview", u: `http://praxis.example/${"a".repeat(3000)}`, d: "praxis.example" });
    expect(res.status).toBe(413);
    expect(res.json.message).toMatch(/larger than 2048 bytes/);
  });

  it("ignores bots with a 202 and stores nothing for them", async () => {
    for (const ua of ["Googlebot/2.1 (+http://www.google.com/bot.html)", "Mozilla/5.0 HeadlessChrome/140.0", "curl/8.5.0", ""]) {
      const res = await send({ n: "pageview", u: "http://praxis.example/bot-page", d: "praxis.example" }, { "user-agent": ua });
      expect(res.status, ua).toBe(202);
      expect(res.json.message).toMatch(/bot/);
    }
    await send({ n: "pageview", u: "http://praxis.example/after-bots", d: "praxis.example" });
    await stored("/after-bots");
    expect(page("/bot-page").n).toBeNull();
  });

  it("keeps no address and no user agent in the database", async () => {
    await send({ n: "pageview", u: "http://praxis.example/scan", d: "praxis.example" });
    await stored("/scan");
    const tables = (db.prepare("select name from sqlite_master where type = 'table'").all() as Array<{ name: string }>).map((t) => t.name);
    expect(tables).toContain("analytics_visitors");
    for (const table of tables) {
      const text = JSON.stringify(db.prepare(`select * from "${table}"`).all());
      expect(text, table).not.toContain("MarkerAgent");
      expect(text, table).not.toContain("Firefox/140");
      if (table.startsWith("analytics_")) expect(text, table).not.toContain("127.0.0.1");
    }
  });

  it("answers the same through Express and React Router when the request names an origin; another site's gets a 403", async () => {
    const own = await send({ n: "pageview", u: "http://praxis.example/by-origin", d: "praxis.example" }, { origin: server.url });
    expect(own.status).toBe(202);
    const bad = await send({ n: "pageview" }, { origin: server.url });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/"url" is required/);
    const foreign = await send({ n: "pageview", u: "http://praxis.example/", d: "praxis.example" }, { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    const crossSite = await send({ n: "pageview", u: "http://praxis.example/", d: "praxis.example" }, { "sec-fetch-site": "cross-site" });
    expect(crossSite.status).toBe(403);
    await stored("/by-origin");
  });

  it("limits events per address with a 429", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < EVENTS_PER_MINUTE + 5; i++) statuses.push((await send({ n: "pageview", u: `http://praxis.example/flood`, d: "praxis.example" })).status);
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s !== 202 && s !== 429)).toEqual([]);
    const res = await send({ n: "pageview", u: `http://praxis.example/flood`, d: "praxis.example" });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("60");
    expect(res.json.message).toMatch(/Too many events/);
  });
});

describe("PLAUSIBLE_URL", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ env: { PLAUSIBLE_URL: "https://plausible.example.org/", PLAUSIBLE_DOMAIN: "www.praxis.example" } });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  const page = (consent?: string) => fetch(`${server.url}/ueber-uns`, { headers: consent ? { cookie: `pn_consent=${consent}` } : {} });

  it("is admitted in connect-src only for visitors who allowed statistics, and the page names it as the endpoint", async () => {
    for (const consent of [undefined, "necessary", "functional"]) {
      const res = await page(consent);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-security-policy"), String(consent)).not.toContain("plausible.example.org");
    }
    const res = await page("statistic");
    expect(res.headers.get("content-security-policy")).toMatch(/connect-src 'self'[^;]* https:\/\/plausible\.example\.org/);
    const html = await res.text();
    expect(html).toContain("https://plausible.example.org/api/event");
    expect(html).toContain("www.praxis.example");
  });
});
