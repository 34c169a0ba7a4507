import { createHash } from "node:crypto";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, startServer, type RunningServer } from "../support/server";

/** The internal API over real HTTP against the production build, on a freshly seeded store. */
let server: RunningServer;
let db: Database.Database;

type Row = { id: string; schema_name: string; status: string; data: string; published_data: string | null };
const rows = (schema: string) =>
  (db.prepare("select id, schema_name, status, data, published_data from contents where schema_name = ?").all(schema) as Row[]).map((r) => ({
    ...r,
    data: JSON.parse(r.data) as Record<string, Record<string, unknown>>,
  }));
const snapshot = () => db.prepare("select id, version, data, published_data, status from contents order by id").all();

beforeAll(async () => {
  server = await startServer();
  db = new Database(path.join(server.dataDir, "praxisnetz.sqlite"), { readonly: true });
});
afterAll(async () => {
  db?.close();
  await server?.stop();
});

describe("server", () => {
  it("answers /healthz with the database status", async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ok", database: "ok", dialect: "sqlite" });
  });

  it("sends security headers and a request id", async () => {
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/]+=*')+;/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-request-id")).toMatch(/^[\w-]+$/);
    const html = await res.text();
    // Every inline script React Router writes is admitted by its hash, and no render marker is left.
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*application\/ld\+json)[^>]*>([\s\S]*?)<\/script>/g)];
    expect(inline.length).toBeGreaterThan(0);
    for (const [, text] of inline) expect(csp).toContain(`'sha256-${createHash("sha256").update(text!).digest("base64")}'`);
    expect(html).not.toContain("nonce=");
    // Anything that is not a page gets the policy without inline scripts.
    const json = await fetch(`${server.url}/healthz`);
    expect(json.headers.get("content-security-policy")).toMatch(/script-src 'self';/);
  });

  it("compresses responses and caches hashed build assets for a year", async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const asset = html.match(/\/assets\/[\w.-]+\.js/)![0];
    const res = await fetch(`${server.url}${asset}`, { headers: { "accept-encoding": "gzip" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("immutable");
    expect(res.headers.get("cache-control")).toContain("max-age=31536000");
    expect(res.headers.get("content-encoding")).toBe("gzip");
  });

  it("renders the German home page from the store", async () => {
    const res = await fetch(`${server.url}/`);
    const html = await res.text();
    const home = rows("core-pages").find((p) => (p.data.seo?.de as { slug?: string })?.slug === "home")!;
    const hero = (home.data.blocks!.de as Array<{ schemaId: string; heading?: string }>).find((b) => b.schemaId === "block-hero")!;
    expect(html).toMatch(new RegExp(`<h1[^>]*>${hero.heading}</h1>`));
    expect(html).toContain(`<title>${(home.data.seo!.de as { seotitle: string }).seotitle}</title>`);
  });
});

describe("POST /api/rest", () => {
  it("lists a collection flattened to the language, with de as fallback", async () => {
    const de = await postJson(`${server.url}/api/rest`, { url: "core-pages", language: "de" });
    const en = await postJson(`${server.url}/api/rest`, { url: "core-pages", language: "en" });
    expect(de.status).toBe(200);
    expect(de.json.items.length).toBeGreaterThanOrEqual(7);
    const deHome = de.json.items.find((i: { data: { seo: { slug: string } } }) => i.data.seo.slug === "home");
    const enHome = en.json.items.find((i: { id: string }) => i.id === deHome.id);
    expect(typeof deHome.data.title).toBe("string");
    expect(enHome.data.title).not.toBe(deHome.data.title);
  });

  it("never returns drafts to visitors, even when asked for unpublished items", async () => {
    const drafts = rows("core-pages").filter((r) => r.status !== "Published");
    expect(drafts.length).toBeGreaterThan(0);
    const res = await postJson(`${server.url}/api/rest`, { url: "core-pages", language: "de", unpublished: true });
    const ids = res.json.items.map((i: { id: string }) => i.id);
    for (const d of drafts) expect(ids).not.toContain(d.id);
  });

  it("answers a query in the url", async () => {
    const q = JSON.stringify({ filter: { path: "data.city.iv", op: "eq", value: "Berlin" }, sort: [{ path: "data.name.iv" }] });
    const res = await postJson(`${server.url}/api/rest`, { url: `gm-content-practitioners?q=${encodeURIComponent(q)}`, language: "de" });
    expect(res.status).toBe(200);
    expect(res.json.items.length).toBeGreaterThan(0);
    for (const i of res.json.items) expect(i.data.city).toBe("Berlin");
    const names = res.json.items.map((i: { data: { name: string } }) => i.data.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "de")));
    const paged = await postJson(`${server.url}/api/rest`, { url: "gm-content-practitioners?$top=5&$skip=5", language: "de" });
    expect(paged.json.items).toHaveLength(5);
  });

  it("searches ignoring case, accents and ae/oe/ue spellings, and by prefix", async () => {
    const names = async (search: string) =>
      ((await postJson(`${server.url}/api/rest`, { url: `gm-content-practitioners?$search=${encodeURIComponent(search)}`, language: "de" })).json.items as Array<{ data: { name: string } }>).map((i) => i.data.name);
    for (const search of ["Ömer", "Oemer", "omer", "Yildiz"]) expect(await names(search), search).toContain("Ömer Yıldız");
    for (const search of ["Köln", "Koeln", "koln"]) expect(await names(search), search).toContain("Ömer Yıldız");
    expect((await names("Phys")).length).toBeGreaterThan(0);
  });

  it("shows only practitioners listed on this site, without private fields", async () => {
    const res = await postJson(`${server.url}/api/rest`, { url: "gm-content-practitioners", language: "de" });
    const all = rows("gm-content-practitioners");
    const visible = all.filter(
      (r) => r.status === "Published" && r.data.display?.iv === true && (r.data.websites?.iv as string[]).includes("PRAXISNETZ"),
    );
    expect(all.length).toBeGreaterThan(visible.length);
    expect(res.json.items.map((i: { id: string }) => i.id).sort()).toEqual(visible.map((v) => v.id).sort());
    for (const i of res.json.items) {
      expect(i.data).not.toHaveProperty("email");
      expect(i.data).not.toHaveProperty("phone");
    }
  });

  it("shows appointments as id, practitioner, start, duration and booked only", async () => {
    const res = await postJson(`${server.url}/api/rest`, { url: "gm-appointments", language: "de" });
    expect(res.status).toBe(200);
    expect(res.json.items.length).toBeGreaterThan(0);
    for (const i of res.json.items) {
      expect(Object.keys(i.data).sort()).toEqual(expect.arrayContaining(["booked", "practitioner", "start"]));
      expect(Object.keys(i.data).every((k) => ["booked", "durationMinutes", "practitioner", "start"].includes(k))).toBe(true);
    }
    expect(res.text).not.toMatch(/booker|example\.org/i);
  });

  it("rejects an unknown collection with 400 and a message", async () => {
    const res = await postJson(`${server.url}/api/rest`, { url: "users", language: "de" });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ statusCode: 400 });
    expect(res.json.message).toContain('Unknown collection "users"');
  });

  it("keeps editor-only collections from visitors", async () => {
    const res = await postJson(`${server.url}/api/rest`, { url: "core-backend-navigation", language: "de" });
    expect(res.status).toBe(403);
    expect(res.json.message).toMatch(/editor/);
  });

  it("rejects malformed JSON, wrong types, bad queries and oversized bodies, changing nothing", async () => {
    const before = snapshot();
    const malformed = await postJson(`${server.url}/api/rest`, '{"url": "core-pages",');
    expect(malformed.status).toBe(400);
    expect(malformed.json).toEqual({ message: "The request body is not valid JSON.", statusCode: 400 });

    const wrong = await postJson(`${server.url}/api/rest`, { url: 42, language: "fr", cache: "yes" });
    expect(wrong.status).toBe(400);
    expect(wrong.json.message).toBe("Invalid request body.");
    expect(wrong.json.details).toEqual(
      expect.arrayContaining([expect.stringMatching(/^url:/), expect.stringMatching(/^language:/), expect.stringMatching(/^cache:/)]),
    );

    const array = await postJson(`${server.url}/api/rest`, [1, 2]);
    expect(array.status).toBe(400);

    const badQuery = await postJson(`${server.url}/api/rest`, { url: "core-pages?q={oops", language: "de" });
    expect(badQuery.status).toBe(400);
    expect(badQuery.json.message).toMatch(/not valid JSON/);

    const badOp = await postJson(`${server.url}/api/rest`, {
      url: `core-pages?q=${encodeURIComponent(JSON.stringify({ filter: { path: "id", op: "like", value: 1 } }))}`,
    });
    expect(badOp.status).toBe(400);
    expect(badOp.json.message).toContain('Unknown filter operator "like"');

    const huge = await postJson(`${server.url}/api/rest`, { url: "core-pages", pad: "x".repeat(2 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    expect(huge.json.message).toMatch(/larger than/);

    const text = await fetch(`${server.url}/api/rest`, { method: "POST", headers: { "content-type": "text/plain" }, body: "hi" });
    expect(text.status).toBe(415);

    expect(snapshot()).toEqual(before);
  });

  it("answers GET with 405 and unknown API paths with a JSON 404", async () => {
    const get = await fetch(`${server.url}/api/rest`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    const missing = await postJson(`${server.url}/api/nothing-here`, {});
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ statusCode: 404 });
  });
});

describe("POST /api/getcontentitem", () => {
  it("returns a published item, 404 for drafts, hidden practitioners and unknown ids", async () => {
    const page = rows("core-pages").find((p) => p.status === "Published")!;
    const ok = await postJson(`${server.url}/api/getcontentitem`, { url: "core-pages", id: page.id, language: "en" });
    expect(ok.status).toBe(200);
    expect(ok.json.id).toBe(page.id);
    expect(ok.json.data.title).toBe(page.data.title!.en ?? page.data.title!.de);

    const draft = rows("core-pages").find((p) => p.status !== "Published")!;
    expect((await postJson(`${server.url}/api/getcontentitem`, { url: "core-pages", id: draft.id })).status).toBe(404);

    const hidden = rows("gm-content-practitioners").find((r) => r.status === "Published" && r.data.display?.iv === false)!;
    const res = await postJson(`${server.url}/api/getcontentitem`, { url: "gm-content-practitioners", id: hidden.id });
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ statusCode: 404 });

    const otherSite = rows("gm-content-practitioners").find(
      (r) => r.status === "Published" && r.data.display?.iv === true && !(r.data.websites?.iv as string[]).includes("PRAXISNETZ"),
    )!;
    expect((await postJson(`${server.url}/api/getcontentitem`, { url: "gm-content-practitioners", id: otherSite.id })).status).toBe(404);

    expect((await postJson(`${server.url}/api/getcontentitem`, { url: "core-pages", id: "nope" })).status).toBe(404);
    const missingId = await postJson(`${server.url}/api/getcontentitem`, { url: "core-pages" });
    expect(missingId.status).toBe(400);
    expect(missingId.json.details).toEqual([expect.stringMatching(/^id:/)]);
  });
});

describe("assets", () => {
  it("lists assets and serves their content with type, ETag and long caching", async () => {
    const list = await postJson(`${server.url}/api/getassets`, { dummy: 1, language: "de" });
    expect(list.status).toBe(200);
    expect(list.json.items.length).toBeGreaterThan(0);
    const asset = list.json.items[0];
    expect(asset).toMatchObject({ mimeType: expect.any(String), fileSize: expect.any(Number) });
    const res = await fetch(`${server.url}${asset.url}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(asset.mimeType);
    expect(res.headers.get("cache-control")).toContain("max-age=31536000");
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^".+"$/);
    expect((await res.arrayBuffer()).byteLength).toBe(asset.fileSize);
    const again = await fetch(`${server.url}${asset.url}`, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    const missing = await fetch(`${server.url}/api/assets/does-not-exist/x.png`);
    expect(missing.status).toBe(404);
  });

  it("rejects a bad body", async () => {
    const res = await postJson(`${server.url}/api/getassets`, { language: 7 });
    expect(res.status).toBe(400);
  });
});

describe("POST /api/schemas and /api/getThirdPartyScripts", () => {
  it("lists the schemas", async () => {
    const res = await postJson(`${server.url}/api/schemas`, {});
    expect(res.status).toBe(200);
    const names = res.json.items.map((s: { name: string }) => s.name);
    expect(names).toEqual(expect.arrayContaining(["core-pages", "gm-content-practitioners", "gm-appointments"]));
    const pages = res.json.items.find((s: { name: string }) => s.name === "core-pages");
    expect(pages.fields[0].properties.fieldType).toBeTruthy();
  });

  it("lists third-party scripts with their consent category", async () => {
    const res = await postJson(`${server.url}/api/getThirdPartyScripts`, { url: "/", language: "de" });
    expect(res.status).toBe(200);
    expect(res.json.items.length).toBeGreaterThan(0);
    for (const s of res.json.items) {
      expect(["necessary", "functional", "statistic", "marketing", "unclassified"]).toContain(s.category);
      expect(typeof s.src).toBe("string");
    }
    const bad = await postJson(`${server.url}/api/getThirdPartyScripts`, { url: 5 });
    expect(bad.status).toBe(400);
  });
});
