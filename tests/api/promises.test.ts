import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { squidexToken, startServer, type RunningServer } from "../support/server";

/**
 * Promises of the content-core issue over real HTTP: blocks show what they declare, stored profile
 * addresses stay put (also through a side-table rebuild), search through the Squidex API finds
 * German names however they are typed, X-NoTotal, the flush-cache texts, pages past the end.
 */
let server: RunningServer;
let auth: Record<string, string>;
const api = () => `${server.url}/api/squidex/api/content/praxisnetz`;

beforeAll(async () => {
  server = await startServer({ env: { FLUSH_TOKEN } });
  auth = { authorization: `Bearer ${await squidexToken(server)}`, "content-type": "application/json" };
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const page = async (p: string) => (await fetch(`${server.url}${p}`)).text();
/** The HTML of the first block of a kind on a page. */
const blockHtml = (html: string, kind: string) => {
  const start = html.indexOf(`data-block="${kind}"`);
  expect(start, kind).toBeGreaterThan(-1);
  const next = html.indexOf("data-block=", start + 10);
  return html.slice(start, next === -1 ? undefined : next);
};
const profileLinks = (html: string) => [...html.matchAll(/href="\/practitioners\/([a-z0-9-]+)"/g)].map((m) => m[1]!);
const cards = (html: string) => [...html.matchAll(/data-practitioner="([^"]+)"/g)].map((m) => m[1]!);
const firstSlugs = async (n: number) => cards(await page("/practitioners")).slice(0, n);

const FLUSH_TOKEN = "promises-test-flush-token-0123456789";

describe("blocks show what they declare", () => {
  it("lists show the first practitioners by name, as many as their limit", async () => {
    const home = blockHtml(await page("/"), "block-practitioner-smalllist");
    expect(profileLinks(home)).toEqual(await firstSlugs(5));
    const about = blockHtml(await page("/ueber-uns"), "block-practitioner-list");
    expect(cards(about)).toEqual(await firstSlugs(6));
  });

  it("a single block shows its practitioner with their own free slots; the booking block the soonest slots of visible practitioners", async () => {
    const single = blockHtml(await page("/ratgeber/rueckenschmerzen"), "block-practitioner-single");
    expect(cards(single)).toEqual(["juergen-weiss"]);
    const slots = [...single.matchAll(/dateTime="([^"]+)"/g)].map((m) => m[1]!);
    expect(slots.length).toBeGreaterThan(0);
    expect(slots.length).toBeLessThanOrEqual(6);
    const booking = blockHtml(await page("/termine"), "block-book-appointment");
    const times = [...booking.matchAll(/dateTime="([^"]+)"/g)].map((m) => m[1]!);
    expect(times.length).toBeGreaterThan(0);
    expect(times.length).toBeLessThanOrEqual(12);
    expect([...times].sort()).toEqual(times);
    expect(booking).not.toContain("Friedrich Bär");
  });

  it("the overview block is the directory: same count and search as /practitioners", async () => {
    const count = (html: string) => html.match(/(\d+) Behandelnde gefunden/)?.[1];
    expect(count(await page("/behandelnde"))).toBe(count(await page("/practitioners")));
    expect(count(await page("/behandelnde?q=koeln"))).toBe(count(await page("/practitioners?q=koeln")));
    expect(Number(count(await page("/practitioners?q=koeln")))).toBeGreaterThan(0);
  });
});

describe("the directory and search", () => {
  it("a page past the end shows the last page", async () => {
    const pages = Number((await page("/practitioners")).match(/Seite 1 von (\d+)/)?.[1]);
    expect(pages).toBeGreaterThan(1);
    expect(cards(await page("/practitioners?page=999"))).toEqual(cards(await page(`/practitioners?page=${pages}`)));
  });

  it("finds Müller through the Squidex API however it is typed, every word in some field, and says -1 with X-NoTotal", async () => {
    const search = async (q: string, headers: Record<string, string> = {}) =>
      (await (await fetch(`${api()}/gm-content-practitioners?$search=${encodeURIComponent(q)}&$top=200`, { headers: { ...auth, ...headers } })).json()) as {
        total: number;
        items: Array<{ id: string; data: { name: { iv: string }; city: { iv: string } } }>;
      };
    const mueller = (await search("Müller")).items.map((i) => i.id);
    expect(mueller.length).toBeGreaterThan(0);
    for (const q of ["Mueller", "Muller", "MÜLLER", "müll"]) expect((await search(q)).items.map((i) => i.id), q).toEqual(mueller);
    const both = await search("weiss kassel");
    expect(both.items.map((i) => i.data.name.iv)).toEqual(["Jürgen Weiß"]);
    expect((await search("weiss xqzzy")).items).toEqual([]);
    const all = await search("a");
    expect(all.total).toBeGreaterThan(0);
    const quiet = await search("a", { "x-nototal": "1" });
    // As Squidex: uncounted, a page that is not full still tells its length; a full page says -1.
    expect(all.total).toBeLessThan(200);
    expect(quiet.total).toBe(all.total);
    expect(quiet.items.map((i) => i.id)).toEqual(all.items.map((i) => i.id));
    const firstOnly = await fetch(`${api()}/gm-content-practitioners?$search=a&$top=1`, { headers: { ...auth, "x-nototal": "1" } });
    expect(((await firstOnly.json()) as { total: number }).total).toBe(-1);
  });
});

describe("profile addresses stay put", () => {
  it("a later namesake gets -2 and nobody's address moves, also when the side table is made anew", async () => {
    const created = await fetch(`${api()}/gm-content-practitioners?publish=true`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ name: { iv: "Jürgen Weiß" }, city: { iv: "Bremen" }, display: { iv: true }, websites: { iv: ["PRAXISNETZ"] } }),
    });
    expect(created.status).toBe(201);
    const check = async () => {
      expect(await page("/practitioners/juergen-weiss")).toContain("Kassel");
      const second = await page("/practitioners/juergen-weiss-2");
      expect(second).toContain("Bremen");
      expect(await page("/sitemap.xml")).toContain("/practitioners/juergen-weiss-2");
    };
    await check();
    // The new item's id (a UUID) sorts before the seeded ones: a rebuild in id order would move the addresses.
    await server.stop();
    const db = new Database(path.join(server.dataDir, "praxisnetz.sqlite"));
    db.prepare("delete from content_indexes").run();
    db.close();
    server = await startServer({ dataDir: server.dataDir, env: { FLUSH_TOKEN } });
    await check();
  }, 60_000);
});

describe("the flush-cache page", () => {
  it("speaks both languages from the dictionary", async () => {
    const get = await page("/manage/flushcache");
    expect(get).toContain("<title>Cache leeren / Flush cache</title>");
    expect(get).toContain("Leert die Inhalts- und Seiten-Caches");
    const post = async () => (await fetch(`${server.url}/manage/flushcache`, { method: "POST", headers: { origin: server.url }, body: new URLSearchParams({ token: FLUSH_TOKEN }) })).text();
    const withoutToken = await fetch(`${server.url}/manage/flushcache`, { method: "POST", headers: { origin: server.url }, body: new URLSearchParams() });
    expect(await withoutToken.text()).toContain("Ohne gültigen Schlüssel wird nichts geleert. / Without a valid secret nothing is flushed.");
    expect(await post()).toContain("Cache geleert. / Cache flushed.");
    expect(await post()).toContain("Der Cache wurde gerade erst geleert. / The cache was flushed a moment ago.");
  });
});
