import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { decodeJwt, decodeProtectedHeader, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COLLECTIONS } from "~/content/public-api";
import { demoSchemas } from "~/content/seed/schemas";
import { postJson, squidexToken, startServer, tempDataDir, type RunningServer } from "../support/server";

/**
 * Regression tests for the security review's findings, over real HTTP against the production build.
 * Each describe block starts its own server on its own data dir.
 */

const PNG_2x1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGP8z8DwnwEIGAEAEOkC/4Ab7ZUAAAAASUVORK5CYII=", "base64");
const APP = "praxisnetz";
const SQUIDEX = `/api/squidex/api`;

// ---- helpers ------------------------------------------------------------------------------------

/** POST /api/rest as a visitor. */
const rest = (server: RunningServer, url: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  postJson(`${server.url}/api/rest`, { url, language: "de", ...extra }, { headers });

const withQ = (collection: string, q: unknown) => `${collection}?q=${encodeURIComponent(JSON.stringify(q))}`;
const withFilter = (collection: string, filter: string) => `${collection}?$filter=${encodeURIComponent(filter)}`;

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * A request with node:http: the path goes out byte for byte (fetch would normalise it), and a body is
 * written in chunks that stop as soon as the server has answered (a 413 may come before the end).
 */
function rawRequest(base: string, method: string, requestPath: string, headers: Record<string, string | number> = {}, body?: Buffer): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request({ host: hostname, port, method, path: requestPath, headers }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      const done = () => {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") });
        req.destroy();
      };
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", done);
      res.on("error", done);
      res.on("aborted", done);
    });
    req.on("error", (e) => {
      if (!answered) reject(e);
    });
    if (!body) {
      req.end();
      return;
    }
    const CHUNK = 256 * 1024;
    let offset = 0;
    const pump = () => {
      while (offset < body.length) {
        if (answered || req.destroyed) return;
        const ok = req.write(body.subarray(offset, offset + CHUNK));
        offset += CHUNK;
        if (!ok) {
          req.once("drain", pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

interface ConsentAnswer {
  status: number;
  location: string | null;
  setCookie: string[];
}

/** POST /api/consent as the banner's form does; `origin: null` sends no Origin header. */
async function postConsent(
  server: RunningServer,
  body: string | URLSearchParams,
  opts: { origin?: string | null; headers?: Record<string, string>; contentType?: string | null; method?: string } = {},
): Promise<ConsentAnswer> {
  const headers: Record<string, string> = { ...opts.headers };
  const origin = opts.origin === undefined ? server.url : opts.origin;
  if (origin !== null) headers.origin = origin;
  if (opts.contentType !== null) headers["content-type"] = opts.contentType ?? "application/x-www-form-urlencoded";
  const res = await fetch(`${server.url}/api/consent`, { method: opts.method ?? "POST", redirect: "manual", headers, body: String(body) });
  await res.arrayBuffer();
  return { status: res.status, location: res.headers.get("location"), setCookie: res.headers.getSetCookie() };
}

/**
 * What is wrong with a Location, or null when a browser resolves it to this site: one "/" then neither
 * "/" nor "\\", and nothing a browser strips or rewrites (controls, whitespace, raw non-ASCII).
 */
function unsafeLocation(server: RunningServer, location: string | null): string | null {
  if (typeof location !== "string") return "no Location";
  if (!/^\/(?![/\\])/.test(location)) return `Location ${JSON.stringify(location)} is not a single-slash path`;
  if (/[\u0000-\u0020\u007f-\uffff]/.test(location)) return `Location ${JSON.stringify(location)} has controls, whitespace or raw non-ASCII`;
  const origin = new URL(location, server.url).origin;
  if (origin !== new URL(server.url).origin) return `Location ${JSON.stringify(location)} resolves to ${origin}`;
  return null;
}

/** The consent section's classes: undecided shows it ("block"), decided hides it ("hidden"). */
function bannerClasses(html: string): string[] {
  const tag = html.match(/<section[^>]*\bid="consent"[^>]*>/)?.[0] ?? "";
  return (tag.match(/\bclass="([^"]*)"/)?.[1] ?? "").split(/\s+/);
}

type ContentRow = { id: string; schema_name: string; status: string; data: Record<string, Record<string, unknown>> };
function readContents(db: Database.Database, schema: string): ContentRow[] {
  return (db.prepare("select id, schema_name, status, data from contents where schema_name = ?").all(schema) as Array<Omit<ContentRow, "data"> & { data: string }>).map(
    (r) => ({ ...r, data: JSON.parse(r.data) as ContentRow["data"] }),
  );
}

const openDb = (dataDir: string) => new Database(path.join(dataDir, "praxisnetz.sqlite"), { readonly: true, fileMustExist: true });

function pngForm(name = "pixel.png"): FormData {
  const form = new FormData();
  form.append("file", new Blob([PNG_2x1], { type: "image/png" }), name);
  return form;
}

// ---- 1. private data through filters, sorting and search -------------------------------------------

const PRIVATE_FIELDS: Array<{ collection: string; field: string }> = [
  { collection: "gm-content-practitioners", field: "email" },
  { collection: "gm-content-practitioners", field: "phone" },
  { collection: "gm-appointments", field: "bookerName" },
  { collection: "gm-appointments", field: "bookerEmail" },
  { collection: "gm-appointments", field: "bookerPhone" },
  { collection: "gm-appointments", field: "bookerNote" },
];

/** Every OData operator on one field path, alone, negated and nested in and/or. */
function odataFilters(p: string): Record<string, string> {
  return {
    eq: `${p} eq 'b'`,
    ne: `${p} ne 'b'`,
    lt: `${p} lt 'b'`,
    le: `${p} le 'b'`,
    gt: `${p} gt 'b'`,
    ge: `${p} ge 'b'`,
    in: `${p} in ('a', 'b')`,
    contains: `contains(${p}, 'b')`,
    startswith: `startswith(${p}, 'b')`,
    endswith: `endswith(${p}, 'b')`,
    empty: `empty(${p})`,
    exists: `exists(${p})`,
    "not(eq)": `not (${p} eq 'b')`,
    "not startswith": `not startswith(${p}, 'b')`,
    "and/or nested": `id ne 'x' and (id eq 'y' or (not exists(${p})))`,
    "or/and nested": `(startswith(${p}, 'b') and id ne 'x') or id eq 'y'`,
  };
}

/** Every JSON-query operator on one field path, alone, negated and nested in and/or. */
function jsonFilters(p: string): Record<string, unknown> {
  const ops = ["eq", "ne", "lt", "le", "gt", "ge", "contains", "startsWith", "endsWith"];
  const out: Record<string, unknown> = {};
  for (const op of ops) out[op] = { path: p, op, value: "b" };
  out.in = { path: p, op: "in", value: ["a", "b"] };
  out.empty = { path: p, op: "empty" };
  out.exists = { path: p, op: "exists" };
  out.not = { not: { path: p, op: "startsWith", value: "b" } };
  out["and/or nested"] = {
    and: [{ path: "id", op: "ne", value: "x" }, { or: [{ path: "id", op: "eq", value: "y" }, { not: { path: p, op: "exists" } }] }],
  };
  return out;
}

async function refusals(server: RunningServer, field: string, urls: Record<string, string>): Promise<string[]> {
  const answers = await Promise.all(Object.entries(urls).map(async ([label, url]) => [label, await rest(server, url)] as const));
  const wrong: string[] = [];
  for (const [label, res] of answers) {
    const ok = res.status === 400 && res.json?.statusCode === 400 && typeof res.json?.message === "string" && res.json.message.includes(field);
    if (!ok) wrong.push(`${label} → ${res.status} ${res.status === 400 ? JSON.stringify(res.json?.message) : `total=${res.json?.total}`}`);
  }
  return wrong;
}

/** A server of its own for one describe block, with a read-only handle on its database. */
function ownServer(): { readonly server: RunningServer; readonly db: Database.Database } {
  const own = {} as { server: RunningServer; db: Database.Database };
  beforeAll(async () => {
    own.server = await startServer();
    own.db = openDb(own.server.dataDir);
  });
  afterAll(async () => {
    own.db?.close();
    await own.server?.stop();
  });
  return own;
}

describe("visitor queries never reach private fields", () => {
  const own = ownServer();

  it("covers every field a seeded schema tags private", () => {
    const tagged = demoSchemas.flatMap((s) => s.fields.filter((f) => f.properties.tags?.includes("private")).map((f) => `${s.name}.${f.name}`));
    expect(tagged.length).toBeGreaterThan(0);
    expect(PRIVATE_FIELDS.map((p) => `${p.collection}.${p.field}`)).toEqual(expect.arrayContaining(tagged));
  });

  for (const { collection, field } of PRIVATE_FIELDS) {
    it(`refuses every OData $filter operator on ${collection} ${field} (400 naming the field)`, async () => {
      const urls: Record<string, string> = {};
      for (const p of [`data/${field}/iv`, `data/${field}`, `data.${field}.iv`])
        for (const [op, filter] of Object.entries(odataFilters(p))) urls[`${p} ${op}`] = withFilter(collection, filter);
      expect(await refusals(own.server, field, urls)).toEqual([]);
    });

    it(`refuses every JSON q filter operator on ${collection} ${field} (400 naming the field)`, async () => {
      const urls: Record<string, string> = {};
      for (const p of [`data.${field}.iv`, `data.${field}`])
        for (const [op, filter] of Object.entries(jsonFilters(p))) urls[`q ${p} ${op}`] = withQ(collection, { filter });
      expect(await refusals(own.server, field, urls)).toEqual([]);
    });

    it(`refuses sorting ${collection} by ${field} ($orderby and q.sort)`, async () => {
      expect(
        await refusals(own.server, field, {
          [`$orderby=data/${field}/iv`]: `${collection}?$orderby=${encodeURIComponent(`data/${field}/iv`)}`,
          [`$orderby=data/${field}/iv desc`]: `${collection}?$orderby=${encodeURIComponent(`data/${field}/iv desc`)}`,
          [`$orderby=id,data.${field}`]: `${collection}?$orderby=${encodeURIComponent(`id asc,data.${field} desc`)}`,
          [`q.sort data.${field}.iv`]: withQ(collection, { sort: [{ path: `data.${field}.iv` }] }),
          [`q.sort data.${field} desc`]: withQ(collection, { sort: [{ path: "id" }, { path: `data.${field}`, order: "descending" }] }),
        }),
      ).toEqual([]);
    });
  }

  it("still filters and sorts by visible fields (control)", async () => {
    const ok = [
      withFilter("gm-content-practitioners", "data/city/iv eq 'Berlin'"),
      withFilter("gm-content-practitioners", "startswith(data/name/iv, 'J') or data/city/iv in ('Köln')"),
      withQ("gm-content-practitioners", { filter: { path: "data.city.iv", op: "startsWith", value: "B" }, sort: [{ path: "data.name.iv" }] }),
      withFilter("gm-appointments", "data/booked/iv eq true and data/durationMinutes/iv ge 30"),
      withFilter("gm-appointments", "data/practitioner/iv eq 'prac-001'"),
      `gm-appointments?$orderby=${encodeURIComponent("data/start/iv desc")}`,
      withQ("gm-appointments", { filter: { path: "data.start.iv", op: "gt", value: "2000-01-01" }, sort: [{ path: "data.start.iv" }] }),
    ];
    for (const url of ok) {
      const res = await rest(own.server, url);
      expect(res.status, url).toBe(200);
      expect(res.json.items.length, url).toBeGreaterThan(0);
    }
  });

  it("allows the meta fields id, created, lastModified and version (control)", async () => {
    for (const filter of ["id ne 'x'", "created gt 2000-01-01", "lastModified gt 2000-01-01", "version ge 0"]) {
      const res = await rest(own.server, withFilter("core-pages", filter));
      expect(res.status, filter).toBe(200);
    }
    const sorted = await rest(own.server, `core-pages?$orderby=${encodeURIComponent("lastModified desc,version asc,created,id")}`);
    expect(sorted.status).toBe(200);
  });

  it("refuses the meta fields createdBy, lastModifiedBy, status and newStatus in filters and sorting", async () => {
    const wrong: string[] = [];
    for (const meta of ["createdBy", "lastModifiedBy", "status", "newStatus"]) {
      wrong.push(
        ...(await refusals(own.server, meta, {
          [`$filter ${meta} eq`]: withFilter("core-pages", `${meta} eq 'x'`),
          [`$filter startswith(${meta})`]: withFilter("gm-content-practitioners", `startswith(${meta}, 'c')`),
          [`q filter ${meta}`]: withQ("gm-appointments", { filter: { path: meta, op: "exists" } }),
          [`$orderby ${meta}`]: `core-pages?$orderby=${meta}`,
          [`q.sort ${meta}`]: withQ("core-pages", { sort: [{ path: meta }] }),
        })),
      );
    }
    expect(wrong).toEqual([]);
  });

  it("$search and q.fullText never match private text, but still match visible text", async () => {
    const practitioners = readContents(own.db, "gm-content-practitioners");
    const visible = practitioners
      .filter((r) => r.status === "Published" && r.data.display?.iv === true && (r.data.websites?.iv as string[]).includes("PRAXISNETZ"))
      .sort((a, b) => a.id.localeCompare(b.id))[0]!;
    const email = String(visible.data.email!.iv);
    const phone = String(visible.data.phone!.iv);
    const city = String(visible.data.city!.iv);

    const found: string[] = [];
    const search = async (collection: string, text: string) => {
      for (const url of [`${collection}?$search=${encodeURIComponent(text)}`, withQ(collection, { fullText: text })]) {
        const res = await rest(own.server, url);
        expect(res.status, url).toBe(200);
        if (res.json.total !== 0 || res.json.items.length !== 0) found.push(`${url} → total ${res.json.total}`);
      }
    };
    for (const word of ["Überweisung", "Rollstuhl", "Lindqvist", "buchung01@example.org", "+49 30 00000101"]) await search("gm-appointments", word);
    for (const word of [email, phone]) await search("gm-content-practitioners", word);
    expect(found).toEqual([]);

    for (const url of [`gm-content-practitioners?$search=${encodeURIComponent(city)}`, withQ("gm-content-practitioners", { fullText: city })]) {
      const res = await rest(own.server, url);
      expect(res.status, url).toBe(200);
      expect(res.json.items.map((i: { id: string }) => i.id), url).toContain(visible.id);
    }
  });

  it("the Squidex API has no booker fields in the appointment schema or content", async () => {
    const token = await squidexToken(own.server);
    const auth = { authorization: `Bearer ${token}` };
    const schema = (await (await fetch(`${own.server.url}${SQUIDEX}/apps/${APP}/schemas/gm-appointments`, { headers: auth })).json()) as {
      fields: Array<{ name: string }>;
    };
    const names = schema.fields.map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(["practitioner", "start", "durationMinutes", "booked"]));
    expect(names.filter((n) => n.startsWith("booker"))).toEqual([]);

    const res = await fetch(`${own.server.url}${SQUIDEX}/content/${APP}/gm-appointments?$top=200`, { headers: auth });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items: Array<{ id: string; data: Record<string, { iv?: unknown }> }> };
    const booked = body.items.filter((i) => i.data.booked?.iv === true);
    expect(booked.length).toBeGreaterThan(0);
    const leaking = body.items.flatMap((i) => Object.keys(i.data).filter((k) => k.startsWith("booker")).map((k) => `${i.id}.${k}`));
    expect(leaking).toEqual([]);
  });

  it("keeps the booking details in a separate bookings table, one row per booked appointment", () => {
    const table = own.db.prepare("select name from sqlite_master where type = 'table' and name = 'bookings'").get();
    expect(table, "a bookings table in praxisnetz.sqlite").toBeDefined();
    const columns = (own.db.prepare("pragma table_info(bookings)").all() as Array<{ name: string }>).map((c) => c.name);
    expect(columns).toEqual(expect.arrayContaining(["appointment_id", "name", "email", "phone", "note"]));

    const booked = readContents(own.db, "gm-appointments")
      .filter((r) => r.data.booked?.iv === true)
      .map((r) => r.id)
      .sort();
    expect(booked.length).toBeGreaterThan(0);
    const rows = own.db.prepare("select appointment_id, name, email, phone, note from bookings").all() as Array<{
      appointment_id: string;
      name: string;
      email: string;
      phone: string;
      note: string | null;
    }>;
    expect(rows.map((r) => r.appointment_id).sort()).toEqual(booked);
    for (const r of rows) {
      expect(r.name).toMatch(/\S/);
      expect(r.email).toMatch(/^[^@\s]+@[^@\s]+$/);
      expect(typeof r.phone).toBe("string");
      expect(r.note === null || typeof r.note === "string").toBe(true);
    }
    expect(rows.some((r) => r.note?.includes("Rollstuhl"))).toBe(true);
  });
});

// ---- 2. malformed consent cookie ----------------------------------------------------------------------

describe("a malformed consent cookie", () => {
  const own = ownServer();

  const BAD_VALUES = ["%E0%A4%A", "%", "%ZZ", "%C3%28", "%FF%FE", "necessary%"];

  it("is treated as no consent: pages 200 with the banner undecided, /healthz and /api/rest below 500", async () => {
    const wrong: string[] = [];
    for (const value of BAD_VALUES) {
      for (const cookie of [`pn_consent=${value}`, `a=1; pn_consent=${value}; b=2`]) {
        const headers = { cookie };
        for (const page of ["/", "/en", "/practitioners"]) {
          // Twice: the first render and the page cache.
          for (let n = 0; n < 2; n++) {
            const res = await fetch(`${own.server.url}${page}`, { headers });
            const html = await res.text();
            if (res.status !== 200) wrong.push(`${cookie} GET ${page} → ${res.status}`);
            else if (!bannerClasses(html).includes("block") || bannerClasses(html).includes("hidden")) wrong.push(`${cookie} GET ${page}: banner not undecided`);
          }
        }
        const health = await fetch(`${own.server.url}/healthz`, { headers });
        if (health.status !== 200) wrong.push(`${cookie} GET /healthz → ${health.status}`);
        const api = await rest(own.server, "core-pages?$top=1", {}, headers);
        if (api.status >= 500) wrong.push(`${cookie} POST /api/rest → ${api.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("a valid cookie hides the banner (control)", async () => {
    const res = await fetch(`${own.server.url}/`, { headers: { cookie: "pn_consent=necessary" } });
    expect(res.status).toBe(200);
    expect(bannerClasses(await res.text())).toContain("hidden");
    const none = await fetch(`${own.server.url}/`);
    expect(bannerClasses(await none.text())).toContain("block");
  });
});

// ---- 3. open redirect through /api/consent ---------------------------------------------------------------

describe("POST /api/consent redirects only within this site", () => {
  const own = ownServer();

  const form = (redirectTo: string, extra: Record<string, string> = {}) => new URLSearchParams({ intent: "necessary", redirectTo, ...extra });

  it("never sends the visitor to another origin (303 to a same-origin path)", async () => {
    const values = ["/\\evil.example", "/\t/evil.example", "/%09/evil.example", "//evil.example", "https://evil.example/", "/\\/evil.example", " /x", "javascript:alert(1)", "/\t\\evil.example", "\\\\evil.example"];
    const bodies: Array<[string, string]> = values.map((v) => [JSON.stringify(v), form(v).toString()]);
    // Hand-written bodies: %09 decodes to a tab; a literal tab in the body stays one.
    bodies.push(["raw /%09/evil.example", "intent=necessary&redirectTo=/%09/evil.example"]);
    bodies.push(["raw literal tab", "intent=necessary&redirectTo=/\t/evil.example"]);
    bodies.push(["raw %2F%5Cevil.example", "intent=necessary&redirectTo=%2F%5Cevil.example"]);
    const wrong: string[] = [];
    for (const [label, body] of bodies) {
      const res = await postConsent(own.server, body);
      const problem = res.status === 303 ? unsafeLocation(own.server, res.location) : `status ${res.status}`;
      if (problem) wrong.push(`${label}: ${problem}`);
    }
    expect(wrong).toEqual([]);
  });

  it("falls back to the language home for what is not a path", async () => {
    expect((await postConsent(own.server, form("https://evil.example/"))).location).toBe("/");
    expect((await postConsent(own.server, form("javascript:alert(1)"))).location).toBe("/");
    expect((await postConsent(own.server, form("https://evil.example/", { language: "en" }))).location).toBe("/en");
    expect((await postConsent(own.server, form("javascript:alert(1)", { language: "en" }))).location).toBe("/en");
  });

  it("keeps a normal path and query, percent-encodes a non-Latin-1 path", async () => {
    const normal = await postConsent(own.server, form("/ueber-uns?x=1"));
    expect(normal.status).toBe(303);
    expect(normal.location).toBe("/ueber-uns?x=1");
    const umlaut = await postConsent(own.server, form("/über"));
    expect(umlaut.status).toBe(303);
    expect(umlaut.location).toBe("/%C3%BCber");
  });
});

// ---- 4. consent CSRF and foreign origins on mutations ----------------------------------------------------

describe("mutations refuse other origins", () => {
  const own = ownServer();

  const body = "intent=all&redirectTo=%2F";

  it("POST /api/consent from another origin → 403 without a cookie", async () => {
    const cases: Array<[string, Parameters<typeof postConsent>[2]]> = [
      ["Origin: http://evil.example", { origin: "http://evil.example" }],
      ["Sec-Fetch-Site: cross-site", { origin: null, headers: { "sec-fetch-site": "cross-site" } }],
      ["Origin: null", { origin: "null" }],
    ];
    for (const [label, opts] of cases) {
      const res = await postConsent(own.server, body, opts);
      expect(res.status, label).toBe(403);
      expect(res.setCookie, label).toEqual([]);
    }
  });

  it("POST /api/consent from this site's own origin → 303 with the cookie (control)", async () => {
    const res = await postConsent(own.server, body, { headers: { "sec-fetch-site": "same-origin" } });
    expect(res.status).toBe(303);
    expect(res.setCookie.join("\n")).toMatch(/^pn_consent=/);
  });

  it("POST /api/rest and POST /manage/flushcache from another origin → 403", async () => {
    const api = await rest(own.server, "core-pages", {}, { origin: "http://evil.example" });
    expect(api.status).toBe(403);
    const flush = await fetch(`${own.server.url}/manage/flushcache`, {
      method: "POST",
      headers: { origin: "http://evil.example", "content-type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(flush.status).toBe(403);
    // The same request from this site still works.
    expect((await rest(own.server, "core-pages", {}, { origin: own.server.url })).status).toBe(200);
  });
});

// ---- 5. bad input answers 4xx, never 5xx ---------------------------------------------------------------

describe("bad input gets a 4xx, never a 5xx", () => {
  const own = ownServer();

  const expect4xxJson = (res: { status: number; json: unknown; text: string }, label: string) => {
    expect(res.status, `${label}: ${res.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
    expect(res.status, `${label}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
  };

  it("40 000 ids → 400", async () => {
    const ids = Array.from({ length: 40_000 }, (_, i) => `id-${i}`).join(",");
    const res = await rest(own.server, `core-pages?ids=${ids}`);
    expect(res.status, res.text.slice(0, 200)).toBe(400);
    expect(res.json).toMatchObject({ statusCode: 400, message: expect.any(String) });
  });

  it("a $filter nested 5 000 parentheses deep → 4xx", async () => {
    const res = await rest(own.server, withFilter("core-pages", `${"(".repeat(5000)}id eq 'x'${")".repeat(5000)}`));
    expect4xxJson(res, "parentheses");
    expect(res.json).toMatchObject({ message: expect.any(String) });
  });

  it("a $filter with 100 000 `not` → 4xx", async () => {
    const res = await rest(own.server, withFilter("core-pages", `${"not ".repeat(100_000)}id eq 'x'`));
    expect4xxJson(res, "not × 100000");
    expect(res.json).toMatchObject({ message: expect.any(String) });
  });

  it("a JSON q filter nested 20 000 levels deep → 400, and the own.server stays healthy", async () => {
    const q = `{"filter":${'{"not":'.repeat(20_000)}{"path":"id","op":"eq","value":"x"}${"}".repeat(20_000)}}`;
    const res = await rest(own.server, `core-pages?q=${encodeURIComponent(q)}`);
    expect(res.status, res.text.slice(0, 200)).toBe(400);
    expect(res.json).toMatchObject({ statusCode: 400, message: expect.any(String) });
    expect((await fetch(`${own.server.url}/healthz`)).status).toBe(200);
  });

  it("undecodable Squidex paths → 4xx", async () => {
    const token = await squidexToken(own.server);
    for (const [p, headers] of [
      ["/api/squidex/%E0%A4%A", {}],
      ["/api/squidex/api/assets/praxisnetz/%E0", {}],
      ["/api/squidex/api/content/praxisnetz/%E0%A4%A", { authorization: `Bearer ${token}` }],
    ] as const) {
      const res = await rawRequest(own.server.url, "GET", p, headers);
      expect(res.status, `${p}: ${res.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${p}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
    }
  });

  it("undecodable Basic credentials at the token endpoint → 400 or 401", async () => {
    for (const credentials of ["praxisnetz:default:%E0%A4%A", "%E0%A4%A:x", "praxisnetz:default:%", "%:%"]) {
      const res = await fetch(`${own.server.url}/api/squidex/identity-server/connect/token`, {
        method: "POST",
        headers: { authorization: `Basic ${Buffer.from(credentials).toString("base64")}` },
        body: new URLSearchParams({ grant_type: "client_credentials" }),
      });
      expect([400, 401], `${credentials} → ${res.status}`).toContain(res.status);
    }
  });

  it("POST /api/consent with a wrong content type → 415, PUT → 405", async () => {
    const json = await postConsent(own.server, JSON.stringify({ intent: "necessary" }), { contentType: "application/json" });
    expect(json.status).toBe(415);
    const text = await postConsent(own.server, "intent=necessary", { contentType: "text/plain" });
    expect(text.status).toBe(415);
    const none = await rawRequest(own.server.url, "POST", "/api/consent", { origin: own.server.url, "content-length": 16 }, Buffer.from("intent=necessary"));
    expect([400, 415], `no content type → ${none.status}`).toContain(none.status);
    const put = await postConsent(own.server, "intent=necessary", { method: "PUT" });
    expect(put.status).toBe(405);
  });

  it("a redirectTo with CR/LF, NUL or CJK → 303 with a safe Location", async () => {
    const wrong: string[] = [];
    for (const redirectTo of ["/a\r\nSet-Cookie: evil=1", "/\r\n/evil.example", "/\n/evil.example", "/a\u0000b", "/\u0000/evil.example", "/\u4e2d", "/\u4e2d/\u6587?q=\u4e2d"]) {
      const res = await postConsent(own.server, new URLSearchParams({ intent: "necessary", redirectTo }));
      const problem =
        res.status !== 303 ? `status ${res.status}` : res.setCookie.join("\n").includes("evil") ? "injected a cookie" : unsafeLocation(own.server, res.location);
      if (problem) wrong.push(`${JSON.stringify(redirectTo)}: ${problem}`);
    }
    expect(wrong).toEqual([]);
  });

  it("a 30 MB form → 413", async () => {
    const body = Buffer.from(`intent=necessary&redirectTo=%2F&pad=${"x".repeat(30 * 1024 * 1024)}`);
    const res = await rawRequest(
      own.server.url,
      "POST",
      "/api/consent",
      { origin: own.server.url, "content-type": "application/x-www-form-urlencoded", "content-length": body.length },
      body,
    );
    expect(res.status).toBe(413);
    expect((await fetch(`${own.server.url}/healthz`)).status).toBe(200);
  });

  it("icon names from Object.prototype → 404", async () => {
    for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"]) {
      const res = await fetch(`${own.server.url}/api/icons/${name}`);
      expect(res.status, name).toBe(404);
    }
  });
});

// ---- 6. asset ids cannot leave DATA_DIR/assets ----------------------------------------------------------

describe("asset ids", () => {
  let server: RunningServer;
  let parent: string;
  let dataDir: string;
  beforeAll(async () => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-assets-"));
    dataDir = path.join(parent, "data");
    server = await startServer({ dataDir });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const DATA_ENTRY = /^(praxisnetz\.sqlite(-wal|-shm|-journal)?|squidex-client\.json|assets)$/;

  it("refuses ids that are not plain names (400) and writes nothing outside DATA_DIR/assets", async () => {
    const token = await squidexToken(server);
    const assetsBefore = fs.readdirSync(path.join(dataDir, "assets")).sort();
    const statuses: string[] = [];
    for (const id of ["..", ".", ".hidden", "a%2Fb", "..%2F..", "...", "a%5Cb"]) {
      const res = await fetch(`${server.url}${SQUIDEX}/apps/${APP}/assets?id=${id}`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: pngForm() });
      const text = await res.text();
      if (res.status !== 400) statuses.push(`id=${id} → ${res.status} ${text.slice(0, 120)}`);
    }
    expect(statuses).toEqual([]);
    expect(fs.readdirSync(parent)).toEqual(["data"]);
    expect(fs.readdirSync(dataDir).filter((e) => !DATA_ENTRY.test(e))).toEqual([]);
    expect(fs.readdirSync(path.join(dataDir, "assets")).sort()).toEqual(assetsBefore);
  });

  it("a plain id still uploads (201) and deletes (204), leaving the data dir intact", async () => {
    const token = await squidexToken(server);
    const up = await fetch(`${server.url}${SQUIDEX}/apps/${APP}/assets?id=logo-2`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: pngForm("logo.png") });
    expect(up.status).toBe(201);
    expect(await up.json()).toMatchObject({ id: "logo-2", mimeType: "image/png" });
    expect((await fetch(`${server.url}/api/assets/logo-2/logo.png`)).status).toBe(200);
    const del = await fetch(`${server.url}${SQUIDEX}/apps/${APP}/assets/logo-2`, { method: "DELETE", headers: { authorization: `Bearer ${token}` } });
    expect(del.status).toBe(204);
    expect((await fetch(`${server.url}/api/assets/logo-2/logo.png`)).status).toBe(404);
    const entries = fs.readdirSync(dataDir);
    expect(entries).toEqual(expect.arrayContaining(["praxisnetz.sqlite", "squidex-client.json", "assets"]));
    expect(fs.readdirSync(path.join(dataDir, "assets"))).toContain("asset-hero");
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});

// ---- 7. token revocation and expiry ----------------------------------------------------------------------

describe("Squidex tokens", () => {
  let server: RunningServer | undefined;
  let dataDir: string;
  let oldToken: string;
  beforeAll(async () => {
    dataDir = tempDataDir();
    server = await startServer({ dataDir });
    oldToken = await squidexToken(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const schemas = (s: RunningServer, token: string) =>
    fetch(`${s.url}${SQUIDEX}/apps/${APP}/schemas`, { headers: { authorization: `Bearer ${token}` } }).then(async (r) => (await r.arrayBuffer(), r.status));

  it("a token without exp, signed with the real key, is refused", async () => {
    const db = openDb(dataDir);
    const row = db.prepare("select value from app_settings where key = 'squidex-signing-key'").get() as { value: string } | undefined;
    db.close();
    expect(row).toBeDefined();
    const key = Buffer.from(row!.value, "base64");
    // The issued token's own claims and header, signed again with the stored key: with exp it works…
    const { exp, ...claims } = decodeJwt(oldToken);
    expect(exp).toBeTypeOf("number");
    const header = decodeProtectedHeader(oldToken) as { alg: string; typ?: string };
    const resigned = await new SignJWT({ ...claims, exp }).setProtectedHeader({ ...header, alg: "HS256" }).sign(key);
    expect(await schemas(server!, resigned), "the same claims re-signed with the stored key (control)").toBe(200);
    // …without exp it must not.
    const forever = await new SignJWT({ ...claims, sub: "praxisnetz:default" }).setProtectedHeader({ ...header, alg: "HS256" }).sign(key);
    expect(decodeJwt(forever).exp).toBeUndefined();
    expect(await schemas(server!, forever)).toBe(401);
  });

  it("a new SQUIDEX_CLIENT_SECRET revokes tokens issued with the old one", async () => {
    expect(await schemas(server!, oldToken)).toBe(200);
    const oldSecret = (JSON.parse(fs.readFileSync(path.join(dataDir, "squidex-client.json"), "utf8")) as { clientSecret: string }).clientSecret;
    await server!.stop();
    const newSecret = `rotated-${randomBytes(18).toString("base64url")}`;
    expect(newSecret.length).toBeGreaterThanOrEqual(24);
    server = await startServer({ dataDir, env: { SQUIDEX_CLIENT_SECRET: newSecret } });

    expect(await schemas(server, oldToken)).toBe(401);

    const issue = (secret: string) =>
      fetch(`${server!.url}/api/squidex/identity-server/connect/token`, {
        method: "POST",
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: "praxisnetz:default", client_secret: secret, scope: "squidex-api" }),
      });
    expect((await issue(oldSecret)).status).toBe(401);
    const fresh = await issue(newSecret);
    expect(fresh.status).toBe(200);
    const { access_token } = (await fresh.json()) as { access_token: string };
    expect(await schemas(server, access_token)).toBe(200);
  });
});

// ---- 8. file modes and transport headers -----------------------------------------------------------------

describe("data dir modes and transport headers", () => {
  let server: RunningServer;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-modes-")), "data");
    expect(fs.existsSync(dataDir)).toBe(false);
    server = await startServer({ dataDir });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const mode = (p: string) => (fs.statSync(p).mode & 0o777).toString(8);

  it("creates DATA_DIR 0700 and the database 0600", () => {
    expect(mode(dataDir)).toBe("700");
    const db = path.join(dataDir, "praxisnetz.sqlite");
    expect(mode(db)).toBe("600");
    for (const extra of ["-wal", "-shm"]) if (fs.existsSync(db + extra)) expect(mode(db + extra), extra).toBe("600");
  });

  it("sends HSTS only over HTTPS, without includeSubDomains", async () => {
    const plain = await fetch(`${server.url}/`);
    expect(plain.headers.get("strict-transport-security")).toBeNull();
    const https = await fetch(`${server.url}/`, { headers: { "x-forwarded-proto": "https" } });
    const hsts = https.headers.get("strict-transport-security");
    expect(hsts).toMatch(/max-age=[1-9]\d*/);
    expect(hsts).not.toMatch(/includesubdomains/i);
  });

  it("denies camera, microphone, geolocation, payment and usb on every page", async () => {
    for (const page of ["/", "/en", "/practitioners", "/ueber-uns", "/no-such-page"]) {
      for (let n = 0; n < 2; n++) {
        const res = await fetch(`${server.url}${page}`);
        await res.arrayBuffer();
        const policy = (res.headers.get("permissions-policy") ?? "").split(",").map((d) => d.trim().replace(/\s+/g, ""));
        for (const feature of ["camera", "microphone", "geolocation", "payment", "usb"]) expect(policy, `${page} ${feature}`).toContain(`${feature}=()`);
      }
    }
  });

  it("marks the consent cookie Secure over HTTPS only", async () => {
    const host = new URL(server.url).host;
    const https = await postConsent(server, "intent=necessary&redirectTo=%2F", { origin: `https://${host}`, headers: { "x-forwarded-proto": "https" } });
    expect(https.status).toBe(303);
    expect(https.setCookie.join("\n")).toMatch(/^pn_consent=.*;\s*Secure(;|$)/im);
    const plain = await postConsent(server, "intent=necessary&redirectTo=%2F");
    expect(plain.status).toBe(303);
    expect(plain.setCookie.join("\n")).toMatch(/^pn_consent=/);
    expect(plain.setCookie.join("\n")).not.toMatch(/;\s*Secure/i);
  });
});

// ---- authorization matrix ----------------------------------------------------------------------------------

describe("authorization", () => {
  const own = ownServer();

  type Call = { label: string; method: string; path: string; json?: unknown; form?: () => FormData };
  const content = `${SQUIDEX}/content/${APP}`;
  const apps = `${SQUIDEX}/apps/${APP}`;
  const calls = (page: string, color: string, asset: string): Call[] => [
    { label: "content list", method: "GET", path: `${content}/core-pages` },
    { label: "content get", method: "GET", path: `${content}/core-pages/${page}` },
    { label: "content query", method: "POST", path: `${content}/core-pages/query`, json: { q: { take: 1 } } },
    { label: "content update", method: "PUT", path: `${content}/core-theme-colors/${color}`, json: { name: { iv: "Matrix 2" }, hexcode: { iv: "#112233" } } },
    { label: "content patch", method: "PATCH", path: `${content}/core-theme-colors/${color}`, json: { hexcode: { iv: "#223344" } } },
    { label: "content draft create", method: "POST", path: `${content}/core-theme-colors/${color}/draft` },
    { label: "content draft discard", method: "DELETE", path: `${content}/core-theme-colors/${color}/draft` },
    { label: "content status", method: "PUT", path: `${content}/core-theme-colors/${color}/status`, json: { status: "Draft" } },
    { label: "content upsert", method: "POST", path: `${content}/core-theme-colors/${color}`, json: { name: { iv: "Matrix 3" }, hexcode: { iv: "#334455" } } },
    { label: "content delete", method: "DELETE", path: `${content}/core-theme-colors/${color}` },
    { label: "content create", method: "POST", path: `${content}/core-theme-colors?publish=true`, json: { name: { iv: "Matrix new" }, hexcode: { iv: "#445566" } } },
    { label: "schemas", method: "GET", path: `${apps}/schemas` },
    { label: "schema", method: "GET", path: `${apps}/schemas/core-pages` },
    { label: "languages", method: "GET", path: `${apps}/languages` },
    { label: "assets list", method: "GET", path: `${apps}/assets` },
    { label: "asset get", method: "GET", path: `${apps}/assets/${asset}` },
    { label: "asset upload", method: "POST", path: `${apps}/assets?id=matrix-upload`, form: () => pngForm() },
    { label: "asset delete", method: "DELETE", path: `${apps}/assets/${asset}` },
  ];
  const send = async (call: Call, authorization?: string) => {
    const headers: Record<string, string> = {};
    if (authorization) headers.authorization = authorization;
    let body: BodyInit | undefined;
    if (call.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(call.json);
    } else if (call.form) body = call.form();
    const res = await fetch(`${own.server.url}${call.path}`, { method: call.method, headers, body, redirect: "manual" });
    await res.arrayBuffer();
    return res.status;
  };

  it("every Squidex API endpoint: 401 without a valid token, not 401 with one", async () => {
    const token = await squidexToken(own.server);
    const auth = `Bearer ${token}`;
    const created = await fetch(`${own.server.url}${content}/core-theme-colors?publish=true`, {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json" },
      body: JSON.stringify({ name: { iv: "Matrix" }, hexcode: { iv: "#001122" } }),
    });
    expect(created.status).toBe(201);
    const color = ((await created.json()) as { id: string }).id;
    const uploaded = await fetch(`${own.server.url}${apps}/assets?id=matrix-asset`, { method: "POST", headers: { authorization: auth }, body: pngForm() });
    expect(uploaded.status).toBe(201);
    const page = readContents(own.db, "core-pages").find((r) => r.status === "Published")!.id;

    const { exp: _exp, ...claims } = decodeJwt(token);
    const wrongKey = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(randomBytes(32));
    const wrong: string[] = [];
    for (const [variant, authorization] of [
      ["no Authorization", undefined],
      ["Bearer garbage", "Bearer garbage"],
      ["token signed with a wrong key", `Bearer ${wrongKey}`],
    ] as const) {
      for (const call of calls(page, color, "matrix-asset")) {
        const status = await send(call, authorization);
        if (status !== 401) wrong.push(`${variant}: ${call.label} → ${status}`);
      }
    }
    expect(wrong).toEqual([]);

    // Nothing changed: the item and the asset are as they were.
    const item = await fetch(`${own.server.url}${content}/core-theme-colors/${color}`, { headers: { authorization: auth } });
    expect(((await item.json()) as { version: number }).version).toBe(1);
    expect((await fetch(`${own.server.url}/api/assets/matrix-asset/pixel.png`)).status).toBe(200);

    const refused: string[] = [];
    for (const call of calls(page, color, "matrix-asset")) {
      const status = await send(call, auth);
      if (status === 401 || status >= 500) refused.push(`valid token: ${call.label} → ${status}`);
    }
    expect(refused).toEqual([]);
  });

  it("visitors never get drafts from the internal API, even with unpublished: true", async () => {
    const drafts = (own.db.prepare("select id, schema_name from contents where status != 'Published'").all() as Array<{ id: string; schema_name: string }>);
    expect(drafts.length).toBeGreaterThan(0);
    const collections = COLLECTIONS.filter((c) => c !== "core-backend-navigation");
    for (const collection of collections) {
      const res = await rest(own.server, collection, { unpublished: true, cache: false });
      expect(res.status, collection).toBe(200);
      for (const item of res.json.items as Array<{ id: string; status: string }>) {
        expect(item.status, `${collection} ${item.id}`).toBe("Published");
        expect(drafts.map((d) => d.id)).not.toContain(item.id);
      }
    }
    for (const draft of drafts) {
      const res = await postJson(`${own.server.url}/api/getcontentitem`, { url: draft.schema_name, id: draft.id, unpublished: true });
      expect(res.status, draft.id).toBe(404);
    }
  });

  it("core-backend-navigation is editor-only (403)", async () => {
    expect((await rest(own.server, "core-backend-navigation", { unpublished: true })).status).toBe(403);
    const nav = own.db.prepare("select id from contents where schema_name = 'core-backend-navigation' limit 1").get() as { id: string } | undefined;
    const item = await postJson(`${own.server.url}/api/getcontentitem`, { url: "core-backend-navigation", id: nav?.id ?? "x" });
    expect(item.status).toBe(403);
  });
});
