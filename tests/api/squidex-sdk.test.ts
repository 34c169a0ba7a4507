import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { SquidexBadRequestError, SquidexClient, SquidexError, type FieldPropertiesDto } from "@squidex/squidex";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../support/server";
import { authedApi, sdkClient } from "../support/squidex-sdk";

/**
 * Issue 23, the gaps in our Squidex API, closed with the official SDK (`@squidex/squidex`) as a real
 * client over HTTP against the production build: ping, info and the app (what the SDK's own test
 * setup calls first), `_links` wherever the SDK's parsers require them, `oData` queries, `X-NoTotal`
 * as Squidex counts it, and content versions. Plain fetch checks the answers the SDK hides.
 */
let server: RunningServer;
let client: SquidexClient;
const api = (p: string) => `${server.url}/api/squidex/api${p}`;

beforeAll(async () => {
  server = await startServer({ env: { ASSET_URL_ALLOW_HOSTS: "127.0.0.1" } });
  client = sdkClient(server);
});
afterAll(async () => {
  await server?.stop();
});

const authed = (p: string, init: RequestInit = {}) => authedApi(server, p, init);

/** What an SDK call threw, for assertions on its status and body. */
async function failure(call: Promise<unknown>): Promise<SquidexError<{ message: string; details?: string[]; statusCode: number }>> {
  try {
    await call;
  } catch (e) {
    if (e instanceof SquidexError) return e as SquidexError<{ message: string; details?: string[]; statusCode: number }>;
    throw e;
  }
  throw new Error("The call succeeded; a failure was expected.");
}

describe("ping, info and the app", () => {
  it("answers the SDK's ping, app ping and info; ping and info need no token, the app ping does", async () => {
    await expect(client.ping.getPing()).resolves.toBeUndefined();
    await expect(client.ping.getAppPing()).resolves.toBeUndefined();
    const info = (await client.ping.getInfo()) as Record<string, unknown>;
    expect(Object.values(info).every((v) => typeof v === "string")).toBe(true);

    expect((await fetch(api("/ping"))).status).toBe(204);
    const anonInfo = await fetch(api("/info"));
    expect(anonInfo.status).toBe(200);
    expect(anonInfo.headers.get("content-type")).toMatch(/^application\/json/);
    const anonAppPing = await fetch(api("/ping/praxisnetz"));
    expect(anonAppPing.status).toBe(401);
    expect((await authed("/ping/other-app")).status).toBe(404);
  });

  it("describes the app, and answers the SDK test suite's app creation with 400 already exists", async () => {
    const app = await client.apps.getApp();
    expect(app).toMatchObject({ name: "praxisnetz", canAccessApi: true, canAccessContent: true });
    expect(app.id).toBeTruthy();
    expect(app.links).toBeDefined();
    // The SDK suite's global setup: create the app, tolerate a 400.
    const taken = await failure(client.apps.postApp({ name: "praxisnetz" }));
    expect(taken).toBeInstanceOf(SquidexBadRequestError);
    expect(taken.statusCode).toBe(400);
    expect(taken.body).toMatchObject({ statusCode: 400, message: "Validation error", details: ["An app with the same name already exists."] });
    // The id stays the same from call to call.
    expect((await client.apps.getApp()).id).toBe(app.id);
  });

  it("answers app management it does not offer with 501 and a message, not 404; without a token with 401", async () => {
    for (const [method, p, body] of [
      ["POST", "/apps", { name: "another-app" }],
      ["GET", "/apps/praxisnetz/clients"],
      ["POST", "/apps/praxisnetz/clients", { id: "x" }],
      ["GET", "/apps/praxisnetz/rules"],
      ["GET", "/apps/praxisnetz/contributors"],
      ["GET", "/apps/praxisnetz/roles"],
      ["PUT", "/apps/praxisnetz", { label: "x" }],
      ["DELETE", "/apps/praxisnetz"],
      ["POST", "/apps/praxisnetz/languages", { language: "fr" }],
      ["PUT", "/apps/praxisnetz/schemas/core-pages/scripts", { create: "" }],
      ["POST", "/user-management", { email: "x@example.org" }],
      ["GET", "/teams"],
      ["GET", "/rules/actions"],
    ] as const) {
      const res = await authed(p, { method, ...(body ? { body: JSON.stringify(body) } : {}) });
      expect(res.status, `${method} ${p}`).toBe(501);
      expect(res.json, `${method} ${p}`).toMatchObject({ statusCode: 501, message: expect.stringMatching(/not supported/) });
    }
    expect((await fetch(api("/apps/praxisnetz/clients"))).status).toBe(401);
    expect((await fetch(api("/apps"), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "praxisnetz" }) })).status).toBe(401);
    // What Squidex does not have either is a plain 404.
    const nowhere = await authed("/no-such-area/x");
    expect(nowhere.status).toBe(404);
    expect(nowhere.json.message).toMatch(/No Squidex endpoint/);
    // Other apps stay hidden, as in Squidex.
    expect((await authed("/apps/other-app")).status).toBe(404);
    expect((await authed("/apps/other-app/clients")).status).toBe(404);
    // Bad input is a 4xx with a message.
    const bad = await authed("/apps", { method: "POST", body: "[1,2" });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBeTruthy();
    expect((await authed("/apps", { method: "POST", body: JSON.stringify({ label: "no name" }) })).status).toBe(400);
  });
});

describe("_links the SDK's parsers need", () => {
  it("lets the SDK read languages, every schema, and a schema with an Array field", async () => {
    expect(await client.languages.getLanguages()).toEqual([
      { iso2Code: "de", englishName: "German", nativeName: "Deutsch" },
      { iso2Code: "en", englishName: "English", nativeName: "English" },
    ]);
    const languages = await client.apps.getLanguages();
    expect(languages.items.map((l) => l.iso2Code)).toEqual(["de", "en"]);
    for (const l of languages.items) expect(l.links).toBeDefined();

    const all = await client.schemas.getSchemas();
    expect(all.items.length).toBeGreaterThan(10);
    const withArrays = all.items.filter((s) => s.fields.some((f) => f.properties.fieldType === "Array"));
    expect(withArrays.length).toBeGreaterThan(0);
    for (const s of withArrays) for (const f of s.fields) for (const n of f.nested ?? []) expect(n.links, `${s.name}.${f.name}.${n.name}`).toBeDefined();

    const accordion = await client.schemas.getSchema("block-accordion");
    const array = accordion.fields.find((f) => f.properties.fieldType === "Array");
    expect(array?.nested?.length).toBeGreaterThan(0);
    expect(array!.nested![0]!.properties.fieldType).toBeTruthy();
    expect(accordion.links.self?.href).toBe("/api/apps/praxisnetz/schemas/block-accordion");
  });
});

describe("queries", () => {
  it("reads the SDK's oData on POST .../query, and still takes odata", async () => {
    const page = await client.contents.getContentsPost("gm-content-practitioners", { oData: "$top=3&$orderby=data/name/iv asc" }, {});
    expect(page.items).toHaveLength(3);
    const names = page.items.map((i) => String((i.data.name as { iv: string }).iv));
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    const total = (await client.contents.getContents("gm-content-practitioners", {})).total;
    expect(page.total).toBe(total);

    const plain = await authed("/content/praxisnetz/gm-content-practitioners/query", { method: "POST", body: JSON.stringify({ odata: "$top=2" }) });
    expect(plain.status).toBe(200);
    expect(plain.json.items).toHaveLength(2);
    const wrong = await authed("/content/praxisnetz/gm-content-practitioners/query", { method: "POST", body: JSON.stringify({ oData: 5 }) });
    expect(wrong.status).toBe(400);
  });

  it("answers X-NoTotal with -1 only for a full page or after a skip, as Squidex", async () => {
    const schema = "gm-content-practitioners";
    const { total } = await client.contents.getContents(schema, {});
    expect(total).toBeGreaterThan(3);
    expect(total).toBeLessThan(200);
    // A full page: the total is unknown.
    expect((await client.contents.getContents(schema, { $top: 3, noTotal: true })).total).toBe(-1);
    // The whole result on one page: its length is the total.
    const whole = await client.contents.getContents(schema, { $top: 200, noTotal: true });
    expect(whole.total).toBe(total);
    expect(whole.items).toHaveLength(total);
    // After a skip: unknown again, even on a short page.
    const tail = await client.contents.getContents(schema, { $skip: total - 1, noTotal: true });
    expect(tail.items).toHaveLength(1);
    expect(tail.total).toBe(-1);
    // X-NoSlowTotal skips counting only when there is a filter.
    expect((await client.contents.getContents(schema, { $top: 3, noSlowTotal: true })).total).toBe(total);
    expect((await client.contents.getContents(schema, { $top: 1, $filter: "data/name/iv ne 'x'", noSlowTotal: true })).total).toBe(-1);
    // The same through POST .../query.
    expect((await client.contents.getContentsPost(schema, { oData: "$top=3" }, { noTotal: true })).total).toBe(-1);
    expect((await client.contents.getContentsPost(schema, { oData: "$top=200" }, { noTotal: true })).total).toBe(total);
  });
});

describe("versions", () => {
  it("answers the versions the store keeps and a clear 404 for the others, never another version", async () => {
    const schema = "core-theme-colors";
    const created = await client.contents.postContent(schema, { name: { iv: "Versionen" }, hexcode: { iv: "#112233" } }, { publish: true });
    expect(created.version).toBe(1);
    const updated = await client.contents.putContent(schema, created.id, { name: { iv: "Versionen 2" }, hexcode: { iv: "#223344" } }, {});
    expect(updated.version).toBe(2);
    const draft = await client.contents.createDraft(schema, created.id, {});
    expect(draft.version).toBe(3);
    await client.contents.putContent(schema, created.id, { name: { iv: "Versionen 3" }, hexcode: { iv: "#334455" } }, { unpublished: true });

    const current = await client.contents.getContent(schema, created.id, { unpublished: true });
    expect(current.version).toBe(4);
    // The published version, by query and by path.
    const published = await client.contents.getContent(schema, created.id, { version: 2 });
    expect(published.version).toBe(2);
    expect(published.data.hexcode).toEqual({ iv: "#223344" });
    const byPath = JSON.parse(await (await client.contents.getContentVersion(schema, created.id, 2, {})).text());
    expect(byPath).toEqual({ name: { iv: "Versionen 2" }, hexcode: { iv: "#223344" } });
    // The current draft version, only with X-Unpublished.
    const drafted = await client.contents.getContent(schema, created.id, { version: 4, unpublished: true });
    expect(drafted.data.hexcode).toEqual({ iv: "#334455" });
    const hidden = await failure(client.contents.getContent(schema, created.id, { version: 4 }));
    expect(hidden.statusCode).toBe(404);
    // Versions the store does not keep: 404 with the reason, not the newest.
    for (const version of [1, 3, 99]) {
      const res = await authed(`/content/praxisnetz/${schema}/${created.id}?version=${version}`, { headers: { "X-Unpublished": "1" } });
      expect(res.status, `version ${version}`).toBe(404);
      expect(res.json.message).toMatch(new RegExp(`Version ${version} .* not kept`));
      expect((await authed(`/content/praxisnetz/${schema}/${created.id}/${version}`, { headers: { "X-Unpublished": "1" } })).status).toBe(404);
    }
    expect((await authed(`/content/praxisnetz/${schema}/${created.id}?version=abc`)).status).toBe(400);
    await client.contents.deleteContent(schema, created.id, {});
  });

  it("searches, filters, sorts and pages assets as Squidex does (GET and POST assets/query)", async () => {
    const all = (await client.assets.getAssets({ $top: 200 })).items;
    expect(all.length).toBeGreaterThan(3);
    const byName = [...all].map((a) => a.fileName).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const sorted = await client.assets.getAssets({ $orderby: "fileName asc", $top: 200 });
    expect(sorted.items.map((a) => a.fileName)).toEqual(byName);
    const bySizeDesc = await client.assets.getAssets({ $orderby: "fileSize desc", $top: 2 });
    expect(bySizeDesc.items[0]!.fileSize).toBe(Math.max(...all.map((a) => a.fileSize)));
    expect(bySizeDesc.total).toBe(all.length);
    // Full text: the file name contains the text, in any case.
    const name = all[0]!.fileName;
    const part = name.slice(0, Math.min(5, name.length)).toUpperCase();
    const found = await client.assets.getAssets({ q: JSON.stringify({ fullText: part, sort: [{ path: "fileName", order: "ascending" }] }) });
    expect(found.items.length).toBeGreaterThan(0);
    expect(found.items.every((a) => a.fileName.toLowerCase().includes(part.toLowerCase()))).toBe(true);
    expect(found.items.map((a) => a.fileName)).toEqual(byName.filter((n) => n.toLowerCase().includes(part.toLowerCase())));
    const posted = await client.assets.getAssetsPost({ oData: "$orderby=fileName desc&$top=2" });
    expect(posted.items.map((a) => a.fileName)).toEqual([...byName].reverse().slice(0, 2));
    expect((await client.assets.getAssetsPost({ q: { fullText: "%" } })).items).toEqual([]);
    // Filters on the asset's fields, by OData or in q, each answering what the whole list says.
    const median = [...all].map((a) => a.fileSize).sort((a, b) => a - b)[Math.floor(all.length / 2)]!;
    const big = await client.assets.getAssets({ $filter: `fileSize ge ${median}`, $top: 200 });
    expect(big.items.map((a) => a.id).sort()).toEqual(all.filter((a) => a.fileSize >= median).map((a) => a.id).sort());
    expect(big.total).toBe(big.items.length);
    const type = all[0]!.mimeType;
    const sameType = await client.assets.getAssetsPost({ oData: `$filter=mimeType eq '${type}' and not(fileSize lt 0)&$top=200` });
    expect(sameType.items.map((a) => a.id).sort()).toEqual(all.filter((a) => a.mimeType === type).map((a) => a.id).sort());
    const images = await client.assets.getAssets({ q: JSON.stringify({ filter: { path: "isImage", op: "eq", value: true }, take: 200 }) });
    expect(images.items.map((a) => a.id).sort()).toEqual(all.filter((a) => a.isImage).map((a) => a.id).sort());
    const named = await client.assets.getAssets({ $filter: `contains(fileName,'${part.toLowerCase()}')`, $top: 200 });
    expect(named.items.map((a) => a.fileName).sort()).toEqual(byName.filter((n) => n.toLowerCase().includes(part.toLowerCase())));
    // Nonsense is a 400 with words.
    for (const bad of [
      "/apps/praxisnetz/assets?$orderby=secret",
      "/apps/praxisnetz/assets?q=%7Bnot-json",
      "/apps/praxisnetz/assets?$orderby=fileName,fileSize,created,version",
      "/apps/praxisnetz/assets?$filter=secret eq 1",
      "/apps/praxisnetz/assets?$filter=fileSize eq 'big'",
      "/apps/praxisnetz/assets?$filter=contains(fileSize,'1')",
      "/apps/praxisnetz/assets?$filter=fileName eq",
    ])
      expect((await authed(bad)).status, bad).toBe(400);
  });

  it("answers items of several schemas by their ids, in the order asked, drafts only with X-Unpublished", async () => {
    const page = (await client.contents.getContents("core-pages", { $top: 1 })).items[0]!;
    const practitioner = (await client.contents.getContents("gm-content-practitioners", { $top: 1 })).items[0]!;
    const draft = await client.contents.postContent("core-theme-colors", { name: { iv: "Nur Entwurf" }, hexcode: { iv: "#445566" } }, { publish: false });
    const ids = [practitioner.id, "no-such-item", page.id, draft.id];
    const got = await client.contents.getAllContents({ ids: ids.join(",") });
    expect(got.items.map((i) => [i.id, i.schemaName])).toEqual([
      [practitioner.id, "gm-content-practitioners"],
      [page.id, "core-pages"],
    ]);
    expect(got.total).toBe(2);
    const withDrafts = await client.contents.getAllContentsPost({ ids }, { unpublished: true });
    expect(withDrafts.items.map((i) => i.id)).toEqual([practitioner.id, page.id, draft.id]);
    expect(withDrafts.items[2]!.data).toMatchObject({ name: { iv: "Nur Entwurf" } });
    // Bad input is a 400 with a message, too many ids too.
    expect((await authed("/content/praxisnetz")).status).toBe(400);
    const many = await authed(`/content/praxisnetz?ids=${Array.from({ length: 1001 }, (_, i) => `x${i}`).join(",")}`);
    expect(many.status).toBe(400);
    expect(many.json.message).toMatch(/at most/);
    expect((await authed("/content/praxisnetz", { method: "POST", body: JSON.stringify({ ids: [1, 2] }) })).status).toBe(400);
    expect((await fetch(api("/content/praxisnetz?ids=a"))).status).toBe(401);
    await client.contents.deleteContent("core-theme-colors", draft.id, {});
  });
});

describe("references and referencing", () => {
  const slot = (practitioner: string, start: string) => ({ practitioner: { iv: [practitioner] }, start: { iv: start } });

  it("lists what an item references and who references it in Squidex's list shape, drafts only with X-Unpublished", async () => {
    const [p1, p2] = ids(await client.contents.getContents("gm-content-practitioners", { $top: 2, $orderby: "id asc" }));
    const live = await client.contents.postContent("gm-appointments", slot(p1!, "2031-01-06T09:00:00Z"), { publish: true });
    const draft = await client.contents.postContent("gm-appointments", slot(p1!, "2031-01-06T10:00:00Z"), {});

    const refs = await client.contents.getReferences("gm-appointments", live.id, {});
    expect(refs.total).toBe(1);
    expect(ids(refs)).toEqual([p1]);
    expect(refs.items[0]).toMatchObject({ schemaName: "gm-content-practitioners", status: "Published" });
    expect(refs.links).toBeDefined();
    // The draft itself is read as GET …/{id} reads it: only with X-Unpublished.
    expect((await failure(client.contents.getReferences("gm-appointments", draft.id, {}))).statusCode).toBe(404);
    expect(ids(await client.contents.getReferences("gm-appointments", draft.id, { unpublished: true }))).toEqual([p1]);

    const published = await client.contents.getReferencing("gm-content-practitioners", p1!, {});
    expect(ids(published)).toContain(live.id);
    expect(ids(published)).not.toContain(draft.id);
    const withDrafts = await client.contents.getReferencing("gm-content-practitioners", p1!, { unpublished: true });
    expect(ids(withDrafts)).toContain(draft.id);
    expect(withDrafts.total).toBe(published.total + 1);
    // Newest change first, as lists are by default.
    expect(ids(withDrafts)[0]).toBe(draft.id);

    // X-Flatten and X-Languages shape the items as in any list.
    const flat = await client.contents.getReferences("gm-appointments", live.id, { flatten: true, languages: "en" });
    expect(typeof flat.items[0]!.data.name).toBe("string");

    // An update moves the references; a delete takes them away.
    await client.contents.putContent("gm-appointments", live.id, slot(p2!, "2031-01-06T09:00:00Z"), {});
    expect(ids(await client.contents.getReferences("gm-appointments", live.id, {}))).toEqual([p2]);
    expect(ids(await client.contents.getReferencing("gm-content-practitioners", p1!, {}))).not.toContain(live.id);
    expect(ids(await client.contents.getReferencing("gm-content-practitioners", p2!, {}))).toContain(live.id);
    await client.contents.deleteContent("gm-appointments", draft.id, {});
    expect(ids(await client.contents.getReferencing("gm-content-practitioners", p1!, { unpublished: true }))).not.toContain(draft.id);
    await client.contents.deleteContent("gm-appointments", live.id, {});
  });

  it("pages with $top and $skip (and q's take and skip), filters, sorts and takes ids; a search is a 501, an unknown item a 404", async () => {
    const [p] = ids(await client.contents.getContents("gm-content-practitioners", { $top: 1, $orderby: "id desc" }));
    const made = [];
    for (let i = 0; i < 5; i++) made.push((await client.contents.postContent("gm-appointments", slot(p!, `2031-03-0${i + 1}T09:00:00Z`), { publish: true })).id);
    const all = await client.contents.getReferencing("gm-content-practitioners", p!, {});
    expect(all.total).toBeGreaterThanOrEqual(5);
    expect(all.total).toBeLessThan(200);
    const paged: string[] = [];
    for (let skip = 0; skip < all.total; skip += 2) {
      const page = await authed(`/content/praxisnetz/gm-content-practitioners/${p}/referencing?$top=2&$skip=${skip}`);
      expect(page.status).toBe(200);
      expect(page.json.total).toBe(all.total);
      paged.push(...page.json.items.map((i: { id: string }) => i.id));
    }
    expect(paged).toEqual(ids(all));
    const byQ = await client.contents.getReferencing("gm-content-practitioners", p!, { q: JSON.stringify({ take: 2, skip: 1 }) });
    expect(ids(byQ)).toEqual(ids(all).slice(1, 3));
    expect((await client.contents.getReferencing("gm-content-practitioners", p!, { q: JSON.stringify({ take: 2 }), noTotal: true })).total).toBe(-1);

    // Filter and sort by the items' data, as in any list; ids pick among them.
    const odata = new URLSearchParams({ $filter: "data/start/iv ge 2031-03-02T00:00:00Z and data/start/iv lt 2031-03-05T00:00:00Z", $orderby: "data/start/iv desc" });
    const march = await authed(`/content/praxisnetz/gm-content-practitioners/${p}/referencing?${odata}`);
    expect(march.json.items.map((i: { id: string }) => i.id)).toEqual([made[3], made[2], made[1]]);
    expect(march.json.total).toBe(3);
    const asc = await client.contents.getReferencing("gm-content-practitioners", p!, { q: JSON.stringify({ filter: { path: "data.start.iv", op: "startsWith", value: "2031-03-0" }, sort: [{ path: "data.start.iv", order: "ascending" }] }) });
    expect(ids(asc)).toEqual(made);
    const picked = await authed(`/content/praxisnetz/gm-content-practitioners/${p}/referencing?ids=${made[4]},${made[0]}&$orderby=${encodeURIComponent("data/start/iv asc")}`);
    expect(picked.json.items.map((i: { id: string }) => i.id)).toEqual([made[0], made[4]]);
    const searched = await authed(`/content/praxisnetz/gm-content-practitioners/${p}/referencing?$search=Praxis`);
    expect(searched.status).toBe(501);
    expect(searched.json).toMatchObject({ errorCode: "NOT_IMPLEMENTED" });
    expect((await authed(`/content/praxisnetz/gm-content-practitioners/${p}/referencing?$filter=${encodeURIComponent("data/start/iv eq")}`)).status).toBe(400);
    expect((await authed(`/content/praxisnetz/gm-content-practitioners/${p}/referencing?$top=201`)).status).toBe(400);
    expect((await failure(client.contents.getReferencing("gm-content-practitioners", "no-such-item", {}))).statusCode).toBe(404);
    expect((await authed(`/content/praxisnetz/gm-content-practitioners/${p}/referencing`, { method: "POST", body: "{}" })).status).toBe(405);
    expect((await fetch(api(`/content/praxisnetz/gm-content-practitioners/${p}/referencing`))).status).toBe(401);
    for (const id of made) await client.contents.deleteContent("gm-appointments", id, {});
  });

  it("walks references across schemas as Squidex's api/content/{app}: ?referencing=X lists what X references, ?references=X who references X", async () => {
    const [p] = ids(await client.contents.getContents("gm-content-practitioners", { $top: 1 }));
    const live = await client.contents.postContent("gm-appointments", slot(p!, "2031-06-01T09:00:00Z"), { publish: true });
    const draft = await client.contents.postContent("gm-appointments", slot(p!, "2031-06-01T10:00:00Z"), {});
    expect(ids(await client.contents.getAllContents({ referencing: live.id }))).toEqual([p]);
    const referrers = await client.contents.getAllContents({ references: p! });
    expect(ids(referrers)).toEqual(ids(await client.contents.getReferencing("gm-content-practitioners", p!, {})));
    expect(ids(referrers)).not.toContain(draft.id);
    expect(ids(await client.contents.getAllContents({ references: p!, unpublished: true }))).toContain(draft.id);
    expect((await failure(client.contents.getAllContents({ referencing: draft.id }))).statusCode).toBe(404);
    expect(ids(await client.contents.getAllContents({ referencing: draft.id, unpublished: true }))).toEqual([p]);
    const posted = await client.contents.getAllContentsPost({ references: p!, oData: "$top=1&$skip=1" }, {});
    expect(ids(posted)).toEqual(ids(referrers).slice(1, 2));
    expect(posted.total).toBe(referrers.total);
    expect((await failure(client.contents.getAllContents({ references: "no-such-item" }))).statusCode).toBe(404);
    // Filtered as any list: by id here, which no referrer has.
    const none = await authed(`/content/praxisnetz?references=${p}&q=${encodeURIComponent(JSON.stringify({ filter: { path: "id", op: "eq", value: "x" } }))}`);
    expect(none.status).toBe(200);
    expect(none.json.items).toEqual([]);
    for (const id of [live.id, draft.id]) await client.contents.deleteContent("gm-appointments", id, {});
  });
});

describe("validity and defaults", () => {
  it("answers 204 for an item whose data passes, 400 with Squidex's details when its stored data no longer does", async () => {
    const color = await client.contents.postContent("core-theme-colors", { name: { iv: "Gültig" }, hexcode: { iv: "#123456" } }, {});
    await expect(client.contents.getContentValidity("core-theme-colors", color.id)).resolves.toBeUndefined();
    // Data written past the store, as a schema change leaves old items behind.
    const db = new Database(path.join(server.dataDir, "praxisnetz.sqlite"));
    try {
      db.prepare("update contents set data = ? where id = ?").run(JSON.stringify({ name: { iv: "Ungültig" }, hexcode: { iv: "blau" } }), color.id);
    } finally {
      db.close();
    }
    const invalid = await failure(client.contents.getContentValidity("core-theme-colors", color.id));
    expect(invalid.statusCode).toBe(400);
    expect(invalid.body).toMatchObject({ message: "Validation error", statusCode: 400, details: [expect.stringMatching(/^hexcode\.iv: /)] });
    expect((await failure(client.contents.getContentValidity("core-theme-colors", "no-such-item"))).statusCode).toBe(404);
    await client.contents.deleteContent("core-theme-colors", color.id, {});
  });

  it("fills default values into empty fields as a new version, keeps set values, and takes If-Match as PUT does", async () => {
    const [p] = ids(await client.contents.getContents("gm-content-practitioners", { $top: 1 }));
    const item = await client.contents.postContent("gm-appointments", { practitioner: { iv: [p!] }, start: { iv: "2031-04-01T09:00:00Z" } }, {});
    expect(item.data.durationMinutes).toBeUndefined();
    const filled = await client.contents.putContentDefaults("gm-appointments", item.id, { unpublished: true });
    expect(filled.version).toBe(item.version + 1);
    expect(filled.data).toMatchObject({ durationMinutes: { iv: 30 }, booked: { iv: false }, start: { iv: "2031-04-01T09:00:00Z" } });
    await client.contents.patchContent("gm-appointments", item.id, { durationMinutes: { iv: 45 } }, {});
    const kept = await client.contents.putContentDefaults("gm-appointments", item.id, {});
    expect(kept.data.durationMinutes).toEqual({ iv: 45 });

    const stale = await authed(`/content/praxisnetz/gm-appointments/${item.id}/defaults`, { method: "PUT", headers: { "if-match": `"${item.version}"` } });
    expect(stale.status).toBe(412);
    const fresh = await authed(`/content/praxisnetz/gm-appointments/${item.id}/defaults`, { method: "PUT", headers: { "if-match": `"${kept.version}"` } });
    expect(fresh.status).toBe(200);
    expect(fresh.json.version).toBe(kept.version + 1);
    expect((await authed(`/content/praxisnetz/gm-appointments/${item.id}/defaults`)).status).toBe(405);
    expect((await failure(client.contents.putContentDefaults("gm-appointments", "no-such-item", {}))).statusCode).toBe(404);
    await client.contents.deleteContent("gm-appointments", item.id, {});
  });
});

describe("import and bulk jobs", () => {
  const color = (name: string, hexcode = "#102030") => ({ name: { iv: name }, hexcode: { iv: hexcode } });
  const outcome = (results: Array<{ jobIndex: number; error?: { statusCode: number } }>) => results.map((r) => [r.jobIndex, r.error?.statusCode ?? 200]);

  it("imports a list of datas as Create jobs, each validated on its own, published on request", async () => {
    const results = await client.contents.postContents("core-theme-colors", { datas: [color("Import 1"), color("Import 2", "blau"), color("Import 3")], publish: true });
    expect(outcome(results)).toEqual([[0, 200], [1, 400], [2, 200]]);
    expect(results[1]!.error).toMatchObject({ message: "Validation error", details: [expect.stringMatching(/^hexcode\.iv: /)] });
    for (const r of [results[0]!, results[2]!]) {
      const item = await client.contents.getContent("core-theme-colors", r.contentId!, {});
      expect(item.status).toBe("Published");
      await client.contents.deleteContent("core-theme-colors", item.id, {});
    }
    const wrong = await authed("/content/praxisnetz/core-theme-colors/import", { method: "POST", body: JSON.stringify(color("Not wrapped")) });
    expect(wrong.status).toBe(400);
    expect(wrong.json.message).toMatch(/datas/);
  });

  it("runs each job on its own by default (the SDK sends no continueOnError), all or nothing only with continueOnError false", async () => {
    const results = await client.contents.bulkUpdateContents("core-theme-colors", {
      jobs: [
        { type: "Create", id: "sdk-bulk-1", data: color("SDK Bulk 1") },
        { type: "Create", id: "sdk-bulk-1", data: color("SDK Bulk 1 again") },
        { type: "Update", id: "sdk-bulk-missing", data: color("Nobody") },
        { type: "Create", id: "sdk-bulk-2", data: color("SDK Bulk 2") },
      ],
    });
    expect(outcome(results)).toEqual([[0, 200], [1, 409], [2, 404], [3, 200]]);
    for (const id of ["sdk-bulk-1", "sdk-bulk-2"]) expect((await client.contents.getContent("core-theme-colors", id, { unpublished: true })).id).toBe(id);

    const together = await authed("/content/praxisnetz/core-theme-colors/bulk", {
      method: "POST",
      body: JSON.stringify({ continueOnError: false, jobs: [{ type: "Create", id: "sdk-bulk-3", data: color("SDK Bulk 3") }, { type: "Create", id: "sdk-bulk-1", data: color("Taken") }] }),
    });
    expect(together.json.map((r: { error?: { statusCode: number } }) => r.error?.statusCode)).toEqual([409, 409]);
    expect((await failure(client.contents.getContent("core-theme-colors", "sdk-bulk-3", { unpublished: true }))).statusCode).toBe(404);
    expect((await authed("/content/praxisnetz/core-theme-colors/bulk", { method: "POST", body: JSON.stringify({ continueOnError: "no", jobs: [] }) })).status).toBe(400);
    for (const id of ["sdk-bulk-1", "sdk-bulk-2"]) await client.contents.deleteContent("core-theme-colors", id, {});
  });

  it("validates without writing, and applies a job to the items its query selects, up to expectedCount", async () => {
    const made = await client.contents.bulkUpdateContents("core-theme-colors", { jobs: [1, 2, 3].map((i) => ({ type: "Create", data: color(`SDK Query ${i}`) })) });
    const madeIds = made.map((r) => r.contentId!);
    const byName = { filter: { path: "data.name.iv", op: "startsWith", value: "SDK Query " }, skip: 0, take: 0, top: 0, random: 0 };

    const validate = await client.contents.bulkUpdateContents("core-theme-colors", { jobs: [{ type: "Validate", id: madeIds[0] }, { type: "Validate", id: "no-such-item" }] });
    expect(outcome(validate)).toEqual([[0, 200], [1, 404]]);
    expect((await client.contents.getContent("core-theme-colors", madeIds[0]!, { unpublished: true })).version).toBe(0);

    // Three match, one expected: that job fails, nothing changes.
    const tooMany = await client.contents.bulkUpdateContents("core-theme-colors", { jobs: [{ type: "ChangeStatus", status: "Published", query: byName }] });
    expect(outcome(tooMany)).toEqual([[0, 400]]);
    expect(tooMany[0]!.error!.message).toMatch(/matches 3 items, more than the job's expectedCount \(1\)/);
    const published = await client.contents.bulkUpdateContents("core-theme-colors", { jobs: [{ type: "ChangeStatus", status: "Published", query: byName, expectedCount: 3 }] });
    expect(outcome(published)).toEqual([[0, 200], [0, 200], [0, 200]]);
    expect(published.map((r) => r.contentId).sort()).toEqual([...madeIds].sort());
    for (const id of madeIds) expect((await client.contents.getContent("core-theme-colors", id, {})).status).toBe("Published");

    // An Upsert whose query finds nothing creates; other jobs have nothing to work on.
    const none = { ...byName, filter: { path: "data.name.iv", op: "eq", value: "SDK Query none" } };
    const upserted = await client.contents.bulkUpdateContents("core-theme-colors", { jobs: [{ type: "Upsert", query: none, data: color("SDK Query 4") }, { type: "Delete", query: none }] });
    expect(outcome(upserted)).toEqual([[0, 200], [1, 404]]);
    madeIds.push(upserted[0]!.contentId!);

    // No silent caps: past the cap the request is refused before anything is written.
    const capped = await failure(client.contents.bulkUpdateContents("core-theme-colors", { jobs: [{ type: "Delete", query: byName, expectedCount: 201 }] }));
    expect(capped.statusCode).toBe(400);
    expect(capped.body?.message).toMatch(/at most 200/);
    const bad = await authed("/content/praxisnetz/core-theme-colors/bulk", { method: "POST", body: JSON.stringify({ jobs: [{ type: "Delete", query: { filter: { path: "data.name.iv", op: "nope", value: 1 } } }] }) });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/^jobs\[0\]\.query: /);

    // The singleton stays, whatever selects it.
    const singleton = await client.contents.bulkUpdateContents("core-global-settings", { jobs: [{ type: "Delete", query: { skip: 0, take: 0, top: 0, random: 0 } }] });
    expect(singleton[0]!.error).toMatchObject({ statusCode: 400, errorCode: "SINGLETON_KEPT" });

    const removed = await client.contents.bulkUpdateContents("core-theme-colors", { jobs: [{ type: "Delete", query: byName, expectedCount: 10 }] });
    expect(removed).toHaveLength(4);
    expect(removed.every((r) => !r.error)).toBe(true);
  });

  it("runs app-wide jobs in the schema each job names", async () => {
    const [p] = ids(await client.contents.getContents("gm-content-practitioners", { $top: 1 }));
    const results = await client.contents.bulkUpdateAllContents(
      {
        jobs: [
          { type: "Create", schema: "core-theme-colors", id: "sdk-all-1", data: color("SDK All") },
          { type: "Create", schema: "gm-appointments", id: "sdk-all-2", data: { practitioner: { iv: [p!] }, start: { iv: "2031-05-01T09:00:00Z" } } },
          { type: "EnrichDefaults", schema: "gm-appointments", id: "sdk-all-2" },
          { type: "Create", id: "sdk-all-3", data: color("No schema") },
        ],
      },
      {},
    );
    expect(outcome(results)).toEqual([[0, 200], [1, 200], [2, 200], [3, 404]]);
    expect((await client.contents.getContent("gm-appointments", "sdk-all-2", { unpublished: true })).data.durationMinutes).toEqual({ iv: 30 });
    // ?schema= names it for jobs that do not.
    const fallback = await client.contents.bulkUpdateAllContents({ jobs: [{ type: "Delete", id: "sdk-all-1" }] }, { schema: "core-theme-colors" });
    expect(outcome(fallback)).toEqual([[0, 200]]);
    await client.contents.deleteContent("gm-appointments", "sdk-all-2", {});
    expect((await authed("/content/praxisnetz/bulk")).status).toBe(405);
  });
});

function ids(list: { items: Array<{ id: string }> }) {
  return list.items.map((i) => i.id);
}

describe("schemas created through the API (the SDK suite's schemas and contents tests)", () => {
  const name = () => `sdk-${Math.random().toString(16).slice(2, 10)}`;

  it("creates a published schema with the SDK, reads it by id, and takes content in it, published and as a draft; audited", async () => {
    const created = await client.schemas.postSchema({ name: name(), fields: [{ name: "field1", properties: { fieldType: "String" } }], isPublished: true });
    const schema = await client.schemas.getSchema(created.id);
    expect(schema).toMatchObject({ name: created.name, type: "Default", isPublished: true });
    expect(schema.fields.map((f) => [f.name, f.partitioning, f.properties.fieldType])).toEqual([["field1", "invariant", "String"]]);

    const published = await client.contents.postContent(created.name, { field1: { iv: "eins" } }, { publish: true });
    const readPublished = await client.contents.getContent(created.name, published.id);
    expect(readPublished).toMatchObject({ data: { field1: { iv: "eins" } }, status: "Published" });
    expect(readPublished.lastModifiedBy).toBeTruthy();
    const draft = await client.contents.postContent(created.name, { field1: { iv: "zwei" } });
    expect(await client.contents.getContent(created.name, draft.id, { unpublished: true })).toMatchObject({ data: { field1: { iv: "zwei" } }, status: "Draft" });
    // The store validates against the new fields.
    expect((await failure(client.contents.postContent(created.name, { field1: { iv: 5 } }))).statusCode).toBe(400);

    const db = new Database(path.join(server.dataDir, "praxisnetz.sqlite"), { readonly: true });
    try {
      const rows = db.prepare("select user_email from audit_log where action = 'create-schema' and schema_name = ?").all(created.name) as Array<{ user_email: string }>;
      expect(rows).toEqual([{ user_email: "client:praxisnetz:default" }]);
    } finally {
      db.close();
    }
  });

  it("keeps the field properties it knows, checked, and answers a taken name or bad fields with 400 and the details", async () => {
    const created = await client.schemas.postSchema({
      name: name(),
      type: "Default",
      properties: { label: "Mit Feldern", validateOnPublish: false },
      fields: [
        { name: "title", partitioning: "language", properties: { fieldType: "String", isRequired: true, maxLength: 20, label: "Titel" } as FieldPropertiesDto },
        { name: "count", properties: { fieldType: "Number", minValue: 0, defaultValue: 3 } as FieldPropertiesDto },
        { name: "rows", properties: { fieldType: "Array" }, nested: [{ name: "text", properties: { fieldType: "String" } }] },
      ],
    });
    expect(created.isPublished).toBe(false);
    expect(created.fields.map((f) => [f.name, f.partitioning])).toEqual([["title", "language"], ["count", "invariant"], ["rows", "invariant"]]);
    expect(created.fields[0]?.properties).toMatchObject({ fieldType: "String", isRequired: true, maxLength: 20, label: "Titel" });
    expect(created.fields[1]?.properties).toMatchObject({ fieldType: "Number", minValue: 0, defaultValue: 3 });
    expect(created.fields[2]?.nested?.map((n) => n.name)).toEqual(["text"]);

    const taken = await failure(client.schemas.postSchema({ name: created.name, fields: [] }));
    expect(taken).toBeInstanceOf(SquidexBadRequestError);
    expect(taken.body?.details?.join(" ")).toMatch(/already exists/);
    expect((await failure(client.schemas.postSchema({ name: "core-pages", fields: [] }))).statusCode).toBe(400);

    for (const body of [
      { name: "Not Valid", fields: [] },
      { name: "graphql", fields: [] },
      { name: "bulk", fields: [] },
      { fields: [] },
      { name: name(), fields: [{ name: "f", properties: { fieldType: "Nonsense" } }] },
      { name: name(), fields: [{ name: "f" }] },
      { name: name(), fields: [{ name: "f", partitioning: "everywhere", properties: { fieldType: "String" } }] },
      { name: name(), fields: [{ name: "f", properties: { fieldType: "String", maxLength: -1 } }] },
      { name: name(), fields: [{ name: "f", properties: { fieldType: "String", pattern: "(" } }] },
      // A pattern that backtracks catastrophically would stall the server on one crafted value.
      { name: name(), fields: [{ name: "f", properties: { fieldType: "String", pattern: "^(a+)+$" } }] },
      { name: name(), fields: [{ name: "f", properties: { fieldType: "String", pattern: "x".repeat(201) } }] },
      { name: name(), fields: [{ name: "f", properties: { fieldType: "Number", defaultValue: "zwei" } }] },
      { name: name(), fields: [{ name: "f", properties: { fieldType: "Json", defaultValue: { deep: true } } }] },
      { name: name(), fields: [{ name: "f", properties: { fieldType: "String" }, nested: [{ name: "n", properties: { fieldType: "String" } }] }] },
      { name: name(), fields: [{ name: "f", properties: { fieldType: "Array" }, nested: [{ name: "n", properties: { fieldType: "Array" } }] }] },
      { name: name(), fields: [{ name: "f", properties: { fieldType: "String" } }, { name: "f", properties: { fieldType: "String" } }] },
      { name: name(), type: "Other", fields: [] },
      { name: name(), fields: "f" },
      [1, 2],
    ]) {
      const res = await authed("/apps/praxisnetz/schemas", { method: "POST", body: JSON.stringify(body) });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.message).toBeTruthy();
      expect(res.json.details?.length ?? 0, JSON.stringify(body)).toBeGreaterThan(0);
    }
    expect((await authed("/apps/praxisnetz/schemas", { method: "POST", body: "{" })).status).toBe(400);

    // Two creations of one name at once: one schema, the other a 400.
    const same = JSON.stringify({ name: name(), fields: [{ name: "field1", properties: { fieldType: "String" } }] });
    const both = await Promise.all([1, 2].map(() => authed("/apps/praxisnetz/schemas", { method: "POST", body: same })));
    expect(both.map((r) => r.status).sort()).toEqual([201, 400]);
  });

  it("changes a schema's properties and fields: add, change, hide and show, delete; a field keeps its kind", async () => {
    const created = await client.schemas.postSchema({ name: name(), fields: [{ name: "title", properties: { fieldType: "String" } }], isPublished: true });
    const added = await client.schemas.postField(created.name, { name: "rank", partitioning: "invariant", properties: { fieldType: "Number", minValue: 0 } as never });
    expect(added.fields.map((f) => f.name)).toEqual(["title", "rank"]);
    expect(added.version).toBe(created.version + 1);
    const rank = added.fields.find((f) => f.name === "rank")!;
    const changed = await client.schemas.putField(created.name, rank.fieldId, { properties: { fieldType: "Number", minValue: 1, maxValue: 9 } as never });
    expect(changed.fields.find((f) => f.name === "rank")!.properties).toMatchObject({ fieldType: "Number", minValue: 1, maxValue: 9 });
    // The new rules hold for content at once.
    expect((await failure(client.contents.postContent(created.name, { title: { iv: "x" }, rank: { iv: 20 } }))).statusCode).toBe(400);
    expect((await client.contents.postContent(created.name, { title: { iv: "x" }, rank: { iv: 5 } })).data).toMatchObject({ rank: { iv: 5 } });
    expect((await client.schemas.hideField(created.name, rank.fieldId)).fields.find((f) => f.name === "rank")!.isHidden).toBe(true);
    expect((await client.schemas.showField(created.name, rank.fieldId)).fields.find((f) => f.name === "rank")!.isHidden).toBe(false);
    const labelled = await client.schemas.putSchema(created.name, { label: "Rangliste", hints: "Nur zum Testen" });
    expect(labelled.properties).toMatchObject({ label: "Rangliste", hints: "Nur zum Testen" });
    const removed = await client.schemas.deleteField(created.name, rank.fieldId);
    expect(removed.fields.map((f) => f.name)).toEqual(["title"]);

    // Refused with a message, nothing changed.
    const title = removed.fields[0]!;
    const before = (await client.schemas.getSchema(created.name)).version;
    expect((await failure(client.schemas.putField(created.name, title.fieldId, { properties: { fieldType: "Number" } }))).statusCode).toBe(400);
    expect((await failure(client.schemas.postField(created.name, { name: "title", properties: { fieldType: "String" } }))).statusCode).toBe(400);
    expect((await failure(client.schemas.postField(created.name, { name: "slow", properties: { fieldType: "String", pattern: "^(a|aa)+$" } as never }))).statusCode).toBe(400);
    expect((await failure(client.schemas.deleteField(created.name, 999))).statusCode).toBe(404);
    expect((await authed(`/apps/praxisnetz/schemas/${created.name}/fields/abc`, { method: "DELETE" })).status).toBe(404);
    expect((await authed(`/apps/praxisnetz/schemas/${created.name}`, { method: "PUT", body: "[1]" })).status).toBe(400);
    expect((await authed(`/apps/praxisnetz/schemas/${created.name}/fields`, { method: "POST", body: JSON.stringify({ name: "x" }), headers: { "If-Match": '"0"' } })).status).toBe(412);
    expect((await client.schemas.getSchema(created.name)).version).toBe(before);
    // Deleting a schema asks the version as its changes do.
    expect((await authed(`/apps/praxisnetz/schemas/${created.name}`, { method: "DELETE", headers: { "If-Match": '"0"' } })).status).toBe(412);
  });

  it("publishes and unpublishes a schema; an unpublished schema's contents are not served", async () => {
    const created = await client.schemas.postSchema({ name: name(), fields: [{ name: "field1", properties: { fieldType: "String" } }] });
    expect((await failure(client.contents.getContents(created.name))).statusCode).toBe(404);
    const published = await client.schemas.publishSchema(created.name);
    expect(published).toMatchObject({ isPublished: true, version: created.version + 1 });
    expect((await client.contents.getContents(created.name)).items).toEqual([]);
    // Publishing what is published writes nothing.
    expect((await client.schemas.publishSchema(created.name)).version).toBe(published.version);
    const stale = await authed(`/apps/praxisnetz/schemas/${created.name}/unpublish`, { method: "PUT", headers: { "If-Match": `"${created.version}"` } });
    expect(stale.status).toBe(412);
    expect((await client.schemas.unpublishSchema(created.name)).isPublished).toBe(false);
    expect((await failure(client.schemas.publishSchema("no-such-schema"))).statusCode).toBe(404);
  });

  it("asks the one policy: without a token 401, an editor may not create an app schema (403), a superuser's session may", async () => {
    const { DEMO_ADMIN, createUser, signIn } = await import("../support/auth");
    const body = () => JSON.stringify({ name: name(), fields: [{ name: "field1", properties: { fieldType: "String" } }] });
    expect((await fetch(api("/apps/praxisnetz/schemas"), { method: "POST", headers: { "content-type": "application/json" }, body: body() })).status).toBe(401);
    const origin = new URL(server.url).origin;
    const admin = await signIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
    const editor = await createUser(server, admin, { email: `schema-editor-${Date.now()}@example.org`, password: "a-long-editor-password-1" });
    const asEditor = await fetch(api("/apps/praxisnetz/schemas"), { method: "POST", headers: { cookie: editor, origin, "content-type": "application/json" }, body: body() });
    expect(asEditor.status).toBe(403);
    expect((await asEditor.json()).message).toMatch(/superuser/);
    const unpublish = await fetch(api("/apps/praxisnetz/schemas/core-pages/unpublish"), { method: "PUT", headers: { cookie: editor, origin } });
    expect(unpublish.status).toBe(403);
    const asAdmin = await fetch(api("/apps/praxisnetz/schemas"), { method: "POST", headers: { cookie: admin, origin, "content-type": "application/json" }, body: body() });
    expect(asAdmin.status).toBe(201);
    expect(((await asAdmin.json()) as { createdBy: string }).createdBy).toMatch(/^subject:/);
  });
});

describe("fields of Array fields, field order, locks and the schema's editor settings (the SDK's SchemasApi)", () => {
  const name = () => `fields-${Math.random().toString(16).slice(2, 10)}`;
  const rowsSchema = () =>
    client.schemas.postSchema({
      name: name(),
      isPublished: true,
      fields: [
        { name: "title", properties: { fieldType: "String" } },
        { name: "rows", properties: { fieldType: "Array" }, nested: [{ name: "text", properties: { fieldType: "String" } }] },
      ],
    });
  const field = (schema: { fields: Array<{ name: string; fieldId: number }> }, fieldName: string) => schema.fields.find((f) => f.name === fieldName)!;
  const auditCount = (schemaName: string) => {
    const db = new Database(path.join(server.dataDir, "praxisnetz.sqlite"), { readonly: true });
    try {
      return (db.prepare("select count(*) as n from audit_log where action = 'update-schema' and schema_name = ?").get(schemaName) as { n: number }).n;
    } finally {
      db.close();
    }
  };

  it("adds, changes, hides and shows, disables and enables, orders and deletes an Array field's entry fields; ids stay, each change a version, audited", async () => {
    const created = await rowsSchema();
    const rows = field(created, "rows") as (typeof created.fields)[number];
    const textId = rows.nested![0]!.fieldId;
    const added = await client.schemas.postNestedField(created.name, rows.fieldId, { name: "amount", properties: { fieldType: "Number", minValue: 1 } as FieldPropertiesDto });
    expect(added.version).toBe(created.version + 1);
    const addedRows = added.fields.find((f) => f.name === "rows")!;
    expect(addedRows.fieldId).toBe(rows.fieldId);
    expect(addedRows.nested!.map((n) => n.name)).toEqual(["text", "amount"]);
    expect(addedRows.nested![0]!.fieldId).toBe(textId);
    const amountId = addedRows.nested![1]!.fieldId;
    expect(amountId).not.toBe(textId);
    // Content is checked against the new entry field at once.
    expect((await failure(client.contents.postContent(created.name, { rows: { iv: [{ text: "a", amount: 0 }] } }))).statusCode).toBe(400);
    expect((await client.contents.postContent(created.name, { rows: { iv: [{ text: "a", amount: 2 }] } })).data).toMatchObject({ rows: { iv: [{ text: "a", amount: 2 }] } });

    const changed = await client.schemas.putNestedField(created.name, rows.fieldId, amountId, { properties: { fieldType: "Number", minValue: 5, label: "Menge" } as FieldPropertiesDto });
    expect(changed.fields.find((f) => f.name === "rows")!.nested![1]!.properties).toMatchObject({ fieldType: "Number", minValue: 5, label: "Menge" });
    const entry = async (call: Promise<{ fields: Array<{ name: string; nested?: Array<{ fieldId: number; isHidden: boolean; isDisabled: boolean; isLocked: boolean }> | null }> }>) =>
      (await call).fields.find((f) => f.name === "rows")!.nested!.find((n) => n.fieldId === amountId)!;
    expect((await entry(client.schemas.hideNestedField(created.name, rows.fieldId, amountId))).isHidden).toBe(true);
    expect((await entry(client.schemas.showNestedField(created.name, rows.fieldId, amountId))).isHidden).toBe(false);
    expect((await entry(client.schemas.disableNestedField(created.name, rows.fieldId, amountId))).isDisabled).toBe(true);
    expect((await entry(client.schemas.enableNestedField(created.name, rows.fieldId, amountId))).isDisabled).toBe(false);

    const ordered = await client.schemas.putNestedFieldOrdering(created.name, rows.fieldId, { fieldIds: [amountId, textId] });
    expect(ordered.fields.find((f) => f.name === "rows")!.nested!.map((n) => [n.name, n.fieldId])).toEqual([["amount", amountId], ["text", textId]]);
    const removed = await client.schemas.deleteNestedField(created.name, rows.fieldId, amountId);
    expect(removed.fields.find((f) => f.name === "rows")!.nested!.map((n) => [n.name, n.fieldId])).toEqual([["text", textId]]);
    // Kept, and read back as it was answered.
    const read = await client.schemas.getSchema(created.name);
    expect(read.version).toBe(created.version + 8);
    expect(read.fields.map((f) => [f.name, f.fieldId])).toEqual(created.fields.map((f) => [f.name, f.fieldId]));
    expect(auditCount(created.name)).toBe(8);
  });

  it("orders the fields, locks, disables and enables them; a locked field takes no change but another lock, a UI field cannot be hidden", async () => {
    const created = await client.schemas.postSchema({
      name: name(),
      isPublished: true,
      fields: [
        { name: "a", properties: { fieldType: "String" } },
        { name: "b", properties: { fieldType: "Number" } },
        { name: "line", properties: { fieldType: "UI" } },
        { name: "rows", properties: { fieldType: "Array" }, nested: [{ name: "text", properties: { fieldType: "String" } }, { name: "n", properties: { fieldType: "Number" } }] },
      ],
    });
    const [a, b, line, rows] = ["a", "b", "line", "rows"].map((n) => field(created, n).fieldId) as [number, number, number, number];
    const ordered = await client.schemas.putSchemaFieldOrdering(created.name, { fieldIds: [rows, b, a, line] });
    expect(ordered.fields.map((f) => [f.name, f.fieldId])).toEqual([["rows", rows], ["b", b], ["a", a], ["line", line]]);

    // Ordering names every field exactly once; otherwise a 400 that says what is wrong.
    for (const [fieldIds, detail] of [
      [[rows, b, a], /Missing \d+/],
      [[rows, b, a, line, 99], /No such field: 99/],
      [[rows, b, a, a, line], /Named twice/],
      [[rows, b, a, "x"], /fieldIds\[4\]/],
    ] as const) {
      const refused = await authed(`/apps/praxisnetz/schemas/${created.name}/fields/ordering`, { method: "PUT", body: JSON.stringify({ fieldIds }) });
      expect(refused.status, JSON.stringify(fieldIds)).toBe(400);
      expect(refused.json.details.join(" ")).toMatch(detail);
    }
    expect((await authed(`/apps/praxisnetz/schemas/${created.name}/fields/ordering`, { method: "PUT", body: JSON.stringify({ ids: [a] }) })).json.details.join(" ")).toMatch(/fieldIds/);

    const disabled = await client.schemas.disableField(created.name, b);
    expect(field(disabled, "b")).toMatchObject({ isDisabled: true, isLocked: false });
    // Disabled is for Squidex's editor: the API still writes the value, as in Squidex.
    expect((await client.contents.postContent(created.name, { b: { iv: 3 } })).data).toMatchObject({ b: { iv: 3 } });
    expect(field(await client.schemas.enableField(created.name, b), "b")).toMatchObject({ isDisabled: false });

    const locked = await client.schemas.lockField(created.name, a);
    expect(field(locked, "a")).toMatchObject({ isLocked: true });
    // Locking again is allowed (and another version), as in Squidex.
    const again = await client.schemas.lockField(created.name, a);
    expect(field(again, "a")).toMatchObject({ isLocked: true });
    for (const call of [
      () => client.schemas.putField(created.name, a, { properties: { fieldType: "String", maxLength: 3 } as FieldPropertiesDto }),
      () => client.schemas.deleteField(created.name, a),
      () => client.schemas.hideField(created.name, a),
      () => client.schemas.disableField(created.name, a),
    ]) {
      const refused = await failure(call());
      expect(refused.statusCode).toBe(400);
      expect(refused.body?.message).toMatch(/is locked/);
    }
    for (const call of [() => client.schemas.hideField(created.name, line), () => client.schemas.disableField(created.name, line)]) {
      const refused = await failure(call());
      expect(refused.statusCode).toBe(400);
      expect(refused.body?.message).toMatch(/UI field/);
    }
    // A locked field moves with the others.
    expect((await client.schemas.putSchemaFieldOrdering(created.name, { fieldIds: [a, b, line, rows] })).fields.map((f) => f.name)).toEqual(["a", "b", "line", "rows"]);

    // A locked entry field, and every entry of a locked Array field.
    const rowsField = field(created, "rows") as (typeof created.fields)[number];
    const [text, n] = rowsField.nested!.map((x) => x.fieldId) as [number, number];
    await client.schemas.lockNestedField(created.name, rows, text);
    expect((await failure(client.schemas.putNestedField(created.name, rows, text, { properties: { fieldType: "String", maxLength: 3 } as FieldPropertiesDto }))).body?.message).toMatch(/is locked/);
    expect((await failure(client.schemas.deleteNestedField(created.name, rows, text))).statusCode).toBe(400);
    expect((await client.schemas.hideNestedField(created.name, rows, n)).fields.find((f) => f.name === "rows")!.nested![1]!.isHidden).toBe(true);
    const lockedRows = await client.schemas.lockField(created.name, rows);
    const before = lockedRows.version;
    for (const call of [
      () => client.schemas.postNestedField(created.name, rows, { name: "more", properties: { fieldType: "String" } }),
      () => client.schemas.showNestedField(created.name, rows, n),
      () => client.schemas.putNestedFieldOrdering(created.name, rows, { fieldIds: [n, text] }),
      () => client.schemas.deleteField(created.name, rows),
    ]) {
      const refused = await failure(call());
      expect(refused.statusCode).toBe(400);
      expect(refused.body?.message).toMatch(/is locked/);
    }
    const read = await client.schemas.getSchema(created.name);
    expect(read.version).toBe(before);
    expect(field(read, "a")).toMatchObject({ isLocked: true, isHidden: false, isDisabled: false });
    expect(read.fields.find((f) => f.name === "rows")!.nested!.map((x) => [x.name, x.isLocked, x.isHidden])).toEqual([["text", true, false], ["n", false, true]]);
  });

  it("answers 404 for an unknown parent or entry field and a parent that is no Array field, 400 naming the path for a bad body, 412 for a stale If-Match; writes nothing then", async () => {
    const created = await rowsSchema();
    const rows = field(created, "rows") as (typeof created.fields)[number];
    const title = field(created, "title").fieldId;
    const text = rows.nested![0]!.fieldId;
    const add = { name: "more", properties: { fieldType: "String" } } as const;
    expect((await failure(client.schemas.postNestedField(created.name, 999, add))).statusCode).toBe(404);
    expect((await failure(client.schemas.putNestedField(created.name, rows.fieldId, 999, { properties: { fieldType: "String" } }))).statusCode).toBe(404);
    expect((await failure(client.schemas.lockNestedField(created.name, rows.fieldId, 999))).statusCode).toBe(404);
    expect((await failure(client.schemas.deleteNestedField(created.name, 999, text))).statusCode).toBe(404);
    expect((await failure(client.schemas.postNestedField(created.name, title, add))).statusCode).toBe(404);
    const notArray = await authed(`/apps/praxisnetz/schemas/${created.name}/fields/${title}/nested`, { method: "POST", body: JSON.stringify(add) });
    expect(notArray.json.message).toMatch(/String field: only Array fields have nested fields/);
    expect((await failure(client.schemas.lockField(created.name, 999))).statusCode).toBe(404);
    expect((await failure(client.schemas.postNestedField("no-such-schema", rows.fieldId, add))).statusCode).toBe(404);
    expect((await authed(`/apps/praxisnetz/schemas/${created.name}/fields/abc/nested`, { method: "POST", body: JSON.stringify(add) })).status).toBe(404);
    expect((await authed(`/apps/praxisnetz/schemas/${created.name}/fields/${rows.fieldId}/nested/${text}/explode`, { method: "PUT" })).status).toBe(404);

    const nested = `/apps/praxisnetz/schemas/${created.name}/fields/${rows.fieldId}/nested`;
    for (const [body, path] of [
      [{ name: "deep", properties: { fieldType: "Array" } }, "field.properties.fieldType"],
      [{ name: "text", properties: { fieldType: "String" } }, "field.name"],
      [{ name: "bad", properties: { fieldType: "String", maxLength: "long" } }, "field.properties.maxLength"],
      [{ name: "bad", properties: { fieldType: "String" }, isHidden: "yes" }, "field.isHidden"],
      [{ name: "bad" }, "field.properties"],
      [[1], "field"],
    ] as const) {
      const res = await authed(nested, { method: "POST", body: JSON.stringify(body) });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.details.join(" "), JSON.stringify(body)).toContain(path);
    }
    const kind = await authed(`${nested}/${text}`, { method: "PUT", body: JSON.stringify({ properties: { fieldType: "Number" } }) });
    expect(kind.status).toBe(400);
    expect(kind.json.details.join(" ")).toMatch(/keeps its kind/);
    expect((await authed(`${nested}/${text}`, { method: "PUT", body: "{" })).status).toBe(400);
    expect((await authed(`${nested}/ordering`, { method: "PUT", body: JSON.stringify({ fieldIds: [] }) })).status).toBe(400);

    const stale = { "If-Match": `"${created.version - 1}"` };
    expect((await authed(nested, { method: "POST", body: JSON.stringify(add), headers: stale })).status).toBe(412);
    expect((await authed(`${nested}/ordering`, { method: "PUT", body: JSON.stringify({ fieldIds: [text] }), headers: stale })).status).toBe(412);
    expect((await authed(`/apps/praxisnetz/schemas/${created.name}/fields/${title}/lock`, { method: "PUT", headers: stale })).status).toBe(412);
    expect((await authed(`/apps/praxisnetz/schemas/${created.name}/fields/ordering`, { method: "PUT", body: JSON.stringify({ fieldIds: [rows.fieldId, title] }), headers: stale })).status).toBe(412);
    expect((await client.schemas.getSchema(created.name)).version).toBe(created.version);
    // The version asked for is the one there: the change is made.
    const current = await authed(`${nested}/${text}/hide`, { method: "PUT", headers: { "If-Match": `"${created.version}"` } });
    expect(current.status).toBe(200);
    expect(current.json.version).toBe(created.version + 1);
  });

  it("keeps a category, preview URLs and the editor's list fields; scripts, field rules and a whole-schema sync answer 501", async () => {
    const created = await client.schemas.postSchema({
      name: name(),
      category: "Praxis",
      fieldsInLists: ["title"],
      fields: [
        { name: "title", properties: { fieldType: "String" } },
        { name: "city", properties: { fieldType: "String" } },
        { name: "owner", properties: { fieldType: "String" }, isDisabled: true, isLocked: true },
        { name: "line", properties: { fieldType: "UI" } },
      ],
    });
    expect(created).toMatchObject({ category: "Praxis", fieldsInLists: ["title"], fieldsInReferences: [], previewUrls: {} });
    // A new schema's fields come with their flags.
    expect(field(created, "owner")).toMatchObject({ isDisabled: true, isLocked: true, isHidden: false });
    expect(created.properties).not.toHaveProperty("category");
    const moved = await client.schemas.putCategory(created.name, { name: "Verzeichnis" });
    expect(moved.category).toBe("Verzeichnis");
    const previews = await client.schemas.putPreviewUrls(created.name, { web: "https://example.org/praxis/{{id}}" });
    expect(previews.previewUrls).toEqual({ web: "https://example.org/praxis/{{id}}" });
    const lists = await client.schemas.putSchemaUIFields(created.name, { fieldsInLists: ["meta.lastModified", "city", "title"], fieldsInReferences: ["title"] });
    expect(lists).toMatchObject({ fieldsInLists: ["meta.lastModified", "city", "title"], fieldsInReferences: ["title"], category: "Verzeichnis" });
    // Another change keeps them; a deleted field leaves the lists.
    await client.schemas.putSchema(created.name, { label: "Praxen" });
    const read = await client.schemas.deleteField(created.name, field(created, "city").fieldId);
    expect(read).toMatchObject({ category: "Verzeichnis", previewUrls: { web: "https://example.org/praxis/{{id}}" }, fieldsInLists: ["meta.lastModified", "title"], fieldsInReferences: ["title"] });
    expect(read.properties).toMatchObject({ label: "Praxen" });
    expect(read.properties).not.toHaveProperty("fieldsInLists");
    expect((await client.schemas.putCategory(created.name, { name: null })).category).toBeUndefined();
    expect((await client.schemas.putSchemaUIFields(created.name, {})).fieldsInLists).toEqual([]);

    const base = `/apps/praxisnetz/schemas/${created.name}`;
    for (const [p, body, detail] of [
      ["/fields/ui", { fieldsInLists: ["nope"] }, "fieldsInLists[1]"],
      ["/fields/ui", { fieldsInReferences: ["meta.id"] }, "fieldsInReferences[1]"],
      ["/fields/ui", { fieldsInLists: ["title", "title"] }, "fieldsInLists[2]"],
      ["/fields/ui", { fieldsInLists: ["line"] }, "UI field"],
      ["/fields/ui", { fieldsInLists: "title" }, "fieldsInLists"],
      ["/preview-urls", { web: 5 }, "previewUrls.web"],
      ["/preview-urls", ["https://example.org"], "previewUrls"],
      ["/category", { name: 5 }, "name"],
    ] as const) {
      const res = await authed(`${base}${p}`, { method: "PUT", body: JSON.stringify(body) });
      expect(res.status, `${p} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json.details.join(" ")).toContain(detail);
    }
    const postBad = await authed("/apps/praxisnetz/schemas", { method: "POST", body: JSON.stringify({ name: name(), fieldsInReferences: ["nope"], fields: [] }) });
    expect(postBad.status).toBe(400);

    for (const call of [
      () => client.schemas.putScripts(created.name, { create: "ctx.data" } as never),
      () => client.schemas.putRules(created.name, { fieldRules: [] }),
    ]) {
      const refused = await failure(call());
      expect(refused.statusCode).toBe(501);
      expect(refused.body?.message).toMatch(/not supported/);
    }
    // What Squidex has not is a 404 that says so.
    const nowhere = await authed(`${base}/fields/ordering`, { method: "DELETE" });
    expect(nowhere.status).toBe(404);
    expect(nowhere.json.message).toMatch(/No Squidex endpoint/);
  });

  it("asks the one policy: an editor changes the fields of block-* schemas only (403 otherwise), without a token 401", async () => {
    const { DEMO_ADMIN, createUser, signIn } = await import("../support/auth");
    const block = await client.schemas.postSchema({ name: `block-${name()}`, fields: [{ name: "items", properties: { fieldType: "Array" }, nested: [{ name: "text", properties: { fieldType: "String" } }] }] });
    const app = await rowsSchema();
    const origin = new URL(server.url).origin;
    const admin = await signIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
    const editor = await createUser(server, admin, { email: `field-editor-${Date.now()}@example.org`, password: "a-long-editor-password-1" });
    const asEditor = (p: string, method: string, body?: unknown) =>
      fetch(api(`/apps/praxisnetz/schemas/${p}`), { method, headers: { cookie: editor, origin, "content-type": "application/json" }, ...(body ? { body: JSON.stringify(body) } : {}) });
    const items = field(block, "items").fieldId;
    const added = await asEditor(`${block.name}/fields/${items}/nested`, "POST", { name: "link", properties: { fieldType: "String" } });
    expect(added.status).toBe(201);
    expect((await asEditor(`${block.name}/fields/${items}/lock`, "PUT")).status).toBe(200);

    const rows = field(app, "rows").fieldId;
    for (const [p, method, body] of [
      [`${app.name}/fields/${rows}/nested`, "POST", { name: "link", properties: { fieldType: "String" } }],
      [`${app.name}/fields/${rows}/lock`, "PUT", undefined],
      [`${app.name}/fields/ordering`, "PUT", { fieldIds: [rows, field(app, "title").fieldId] }],
      [`${app.name}/category`, "PUT", { name: "x" }],
    ] as const) {
      const refused = await asEditor(p, method, body);
      expect(refused.status, p).toBe(403);
      expect((await refused.json()).message).toMatch(/superuser/);
    }
    expect((await fetch(api(`/apps/praxisnetz/schemas/${app.name}/fields/${rows}/lock`), { method: "PUT" })).status).toBe(401);
    expect((await client.schemas.getSchema(app.name)).version).toBe(app.version);
  });
});

describe("synchronizing a schema (PUT …/sync, the Squidex CLI's schema sync)", () => {
  const name = () => `sync-${Math.random().toString(16).slice(2, 10)}`;
  const text = (n: string, extra: Record<string, unknown> = {}) => ({ name: n, properties: { fieldType: "String", ...extra } as FieldPropertiesDto });

  it("makes the schema the one described in one version: fields matched by name keep their ids, a new kind is a new field, the rest goes; audited", async () => {
    const made = await client.schemas.postSchema({ name: name(), isPublished: false, fields: [text("title"), { name: "count", properties: { fieldType: "Number" } }, text("gone"), { name: "rows", properties: { fieldType: "Array" }, nested: [text("label")] } as never] });
    const ids = Object.fromEntries(made.fields.map((f) => [f.name, f.fieldId]));
    const item = await client.contents.postContent(made.name, { title: { iv: "bleibt" }, count: { iv: 3 } });
    const synced = await client.schemas.putSchemaSync(made.name, {
      isPublished: true,
      category: "Sync",
      previewUrls: { Web: "https://example.org/{{data.title.iv}}" },
      properties: { label: "Synchronisiert", validateOnPublish: false },
      fields: [text("title", { label: "Titel", isRequired: true }), { name: "count", properties: { fieldType: "String" } as FieldPropertiesDto }, { name: "rows", properties: { fieldType: "Array" }, nested: [text("label"), text("hint")] } as never, text("fresh")],
      fieldsInLists: ["title"],
    });
    expect(synced).toMatchObject({ isPublished: true, category: "Sync", properties: { label: "Synchronisiert" }, previewUrls: { Web: "https://example.org/{{data.title.iv}}" }, fieldsInLists: ["title"] });
    expect(synced.version).toBe(made.version + 1);
    const by = Object.fromEntries(synced.fields.map((f) => [f.name, f]));
    expect(Object.keys(by)).toEqual(["title", "count", "rows", "fresh"]);
    expect(by.title!.fieldId).toBe(ids.title);
    expect(by.title!.properties).toMatchObject({ label: "Titel", isRequired: true });
    expect(by.rows!.fieldId).toBe(ids.rows);
    expect(by.rows!.nested!.map((n) => n.name)).toEqual(["label", "hint"]);
    // Another kind: a field of its own, under a new id (Squidex deletes and recreates it).
    expect(by.count!.properties.fieldType).toBe("String");
    expect(by.count!.fieldId).toBeGreaterThan(Math.max(...Object.values(ids)));
    // The schema's rules hold for writes at once: the title is required now.
    expect((await failure(client.contents.postContent(made.name, { count: { iv: "x" } }))).statusCode).toBe(400);
    expect((await client.contents.getContent(made.name, item.id, { unpublished: true })).data.title).toEqual({ iv: "bleibt" });
    const db = new Database(path.join(server.dataDir, "praxisnetz.sqlite"), { readonly: true });
    try {
      expect(db.prepare("select count(*) as n from audit_log where action = 'update-schema' and schema_name = ?").get(made.name)).toEqual({ n: 1 });
    } finally {
      db.close();
    }
  });

  it("never gives out a field id twice, not even a deleted field's", async () => {
    const made = await client.schemas.postSchema({ name: name(), isPublished: true, fields: [text("a"), text("b")] });
    const lastId = made.fields[1]!.fieldId;
    await client.schemas.deleteField(made.name, lastId);
    const added = await client.schemas.postField(made.name, text("c"));
    expect(added.fields.find((f) => f.name === "c")!.fieldId).toBe(lastId + 1);
    const synced = await client.schemas.putSchemaSync(made.name, { fields: [text("a"), text("d")] });
    expect(synced.fields.find((f) => f.name === "d")!.fieldId).toBe(lastId + 2);
  });

  it("keeps fields with noFieldDeletion, refuses recreation with noFieldRecreation, a locked field's change, scripts and field rules, a stale version: 400/412, nothing changed", async () => {
    const made = await client.schemas.postSchema({ name: name(), isPublished: true, fields: [text("a"), text("b"), { name: "n", properties: { fieldType: "Number" } }] });
    const kept = await client.schemas.putSchemaSync(made.name, { fields: [text("a")], noFieldDeletion: true });
    expect(kept.fields.map((f) => f.name)).toEqual(["a", "b", "n"]);
    const before = await client.schemas.getSchema(made.name);
    for (const [body, detail] of [
      [{ fields: [text("a"), text("b"), text("n")], noFieldRecreation: true }, "noFieldRecreation"],
      [{ fields: [text("a")], scripts: { create: "ctx.reject()" } }, "scripts"],
      [{ fields: [text("a")], fieldRules: [{ action: "Hide", field: "a", condition: "true" }] }, "fieldRules"],
      [{ fields: [{ name: "a", properties: { fieldType: "Bogus" } }] }, "fieldType"],
      [{ fields: "a" }, "fields"],
    ] as const) {
      const res = await authed(`/apps/praxisnetz/schemas/${made.name}/sync`, { method: "PUT", body: JSON.stringify(body) });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.json), JSON.stringify(body)).toContain(detail);
    }
    await client.schemas.lockField(made.name, before.fields[0]!.fieldId);
    const locked = await authed(`/apps/praxisnetz/schemas/${made.name}/sync`, { method: "PUT", body: JSON.stringify({ fields: [text("a", { label: "neu" }), text("b"), { name: "n", properties: { fieldType: "Number" } }] }) });
    expect(locked.status).toBe(400);
    expect(JSON.stringify(locked.json)).toContain("locked");
    const stale = await authed(`/apps/praxisnetz/schemas/${made.name}/sync`, { method: "PUT", body: JSON.stringify({ fields: [] }), headers: { "If-Match": '"0"' } });
    expect(stale.status).toBe(412);
    expect((await client.schemas.getSchema(made.name)).fields.map((f) => f.name)).toEqual(["a", "b", "n"]);
    expect((await failure(client.schemas.putSchemaSync("no-such-schema", { fields: [] }))).statusCode).toBe(404);
    expect((await fetch(api(`/apps/praxisnetz/schemas/${made.name}/sync`), { method: "PUT", headers: { "content-type": "application/json" }, body: "{}" })).status).toBe(401);
  });
});

describe("a field disabled through the API, on the admin's item screen", () => {
  it("is shown read-only in words (per language, yes/no as Ja/Nein), not as JSON, and kept", async () => {
    const { DEMO_ADMIN, signIn } = await import("../support/auth");
    const made = await client.schemas.postSchema({
      name: `disabled-${Math.random().toString(16).slice(2, 10)}`,
      isPublished: true,
      fields: [
        { name: "city", properties: { fieldType: "String" } },
        { name: "motto", partitioning: "language", properties: { fieldType: "String" } },
        { name: "open", properties: { fieldType: "Boolean" } },
      ],
    });
    for (const f of made.fields) await client.schemas.disableField(made.name, f.fieldId);
    const item = await client.contents.postContent(made.name, { city: { iv: "Berlin" }, motto: { de: "Gesund bleiben", en: "Stay well" }, open: { iv: true } });
    const admin = await signIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
    const html = await (await fetch(`${server.url}/manage/content/${made.name}/${item.id}`, { headers: { cookie: admin } })).text();
    const field = (n: string) => /<div[^>]*data-readonly-field="([^"]+)"[^>]*>([\s\S]*?)<\/div>/g;
    const shown = Object.fromEntries([...html.matchAll(field(""))].map((m) => [m[1], m[2]!.replace(/<[^>]+>/g, " ")]));
    expect(shown.city).toContain("Berlin");
    expect(shown.motto).toMatch(/DE: Gesund bleiben\s+EN: Stay well/);
    expect(shown.open).toContain("Ja");
    expect(Object.values(shown).join(" ")).not.toMatch(/&quot;iv&quot;|"iv"/);
  });
});

describe("deleting schemas", () => {
  const name = () => `gone-${Math.random().toString(16).slice(2, 10)}`;

  it("deletes a schema with its items, audited; its contents are then 404", async () => {
    const created = await client.schemas.postSchema({ name: name(), fields: [{ name: "title", properties: { fieldType: "String" } }], isPublished: true });
    const item = await client.contents.postContent(created.name, { title: { iv: "eins" } }, { publish: true });
    await client.contents.postContent(created.name, { title: { iv: "zwei" } });
    await client.schemas.deleteSchema(created.name);
    expect((await failure(client.schemas.getSchema(created.name))).statusCode).toBe(404);
    expect((await authed(`/content/praxisnetz/${created.name}/${item.id}`)).status).toBe(404);
    expect((await authed(`/content/praxisnetz?ids=${item.id}`)).json.items).toEqual([]);
    // The name is free again, and a new schema under it starts empty.
    const again = await client.schemas.postSchema({ name: created.name, fields: [{ name: "title", properties: { fieldType: "String" } }], isPublished: true });
    expect((await client.contents.getContents(again.name)).total).toBe(0);
    const db = new Database(path.join(server.dataDir, "praxisnetz.sqlite"), { readonly: true });
    try {
      const rows = db.prepare("select user_email, detail from audit_log where action = 'delete-schema' and schema_name = ?").all(created.name) as Array<{ user_email: string; detail: string }>;
      expect(rows).toEqual([{ user_email: "client:praxisnetz:default", detail: "2 items" }]);
    } finally {
      db.close();
    }
  });

  it("refuses, with the reason, a schema the site reads, one another schema names, a component still placed, a stale version; 404 for none", async () => {
    const siteSchema = await failure(client.schemas.deleteSchema("core-pages"));
    expect(siteSchema.statusCode).toBe(400);
    expect(siteSchema.body?.message).toMatch(/site itself reads the schema "core-pages"/);
    expect((await client.schemas.getSchema("core-pages")).name).toBe("core-pages");

    const target = await client.schemas.postSchema({ name: name(), fields: [{ name: "title", properties: { fieldType: "String" } }], isPublished: true });
    const pointing = await client.schemas.postSchema({ name: name(), fields: [{ name: "link", properties: { fieldType: "References", schemaIds: [target.id] } as FieldPropertiesDto }], isPublished: true });
    const named = await failure(client.schemas.deleteSchema(target.name));
    expect(named.statusCode).toBe(400);
    expect(named.body?.message).toContain(`${pointing.name}.link`);

    const component = await client.schemas.postSchema({ name: name(), type: "Component", fields: [{ name: "text", properties: { fieldType: "String" } }], isPublished: true });
    const host = await client.schemas.postSchema({ name: name(), fields: [{ name: "parts", properties: { fieldType: "Components" } as FieldPropertiesDto }], isPublished: true });
    const placedIn = await client.contents.postContent(host.name, { parts: { iv: [{ schemaId: component.id, text: "drin" }] } });
    const placed = await failure(client.schemas.deleteSchema(component.name));
    expect(placed.statusCode).toBe(400);
    expect(placed.body?.message).toContain(placedIn.id);

    await client.schemas.putSchema(pointing.name, { label: "ohne Verweis" });
    await client.schemas.deleteField(pointing.name, pointing.fields[0]!.fieldId);
    const stale = await authed(`/apps/praxisnetz/schemas/${target.name}`, { method: "DELETE", headers: { "If-Match": '"99"' } });
    expect(stale.status).toBe(412);
    expect((await authed(`/apps/praxisnetz/schemas/${target.name}`, { method: "DELETE" })).status).toBe(204);
    expect((await failure(client.schemas.deleteSchema("no-such-schema"))).statusCode).toBe(404);
  });

  it("asks the one policy: without a token 401, an editor 403", async () => {
    const { DEMO_ADMIN, createUser, signIn } = await import("../support/auth");
    const created = await client.schemas.postSchema({ name: name(), fields: [{ name: "title", properties: { fieldType: "String" } }], isPublished: true });
    expect((await fetch(api(`/apps/praxisnetz/schemas/${created.name}`), { method: "DELETE" })).status).toBe(401);
    const origin = new URL(server.url).origin;
    const admin = await signIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
    const editor = await createUser(server, admin, { email: `schema-deleter-${Date.now()}@example.org`, password: "a-long-editor-password-1" });
    expect((await fetch(api(`/apps/praxisnetz/schemas/${created.name}`), { method: "DELETE", headers: { cookie: editor, origin } })).status).toBe(403);
    expect((await client.schemas.getSchema(created.name)).name).toBe(created.name);
  });
});

describe("an asset uploaded from a URL (the SDK suite's test, with the file on this machine)", () => {
  const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGP8z8DwnwEIGAEAEOkC/4Ab7ZUAAAAASUVORK5CYII=", "base64");
  let files: http.Server;
  let at: string;
  beforeAll(async () => {
    // The server allows 127.0.0.1 (ASSET_URL_ALLOW_HOSTS): this file server stands in for a public one.
    files = http.createServer((req, res) => {
      if (req.url === "/media/logo-squared.png") res.writeHead(200, { "content-type": "image/png" }).end(PNG);
      else if (req.url === "/to-metadata") res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => files.listen(0, "127.0.0.1", resolve));
    at = `127.0.0.1:${(files.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => files.close(() => resolve())));

  it("downloads the file with the name given and its type and size, for an upload, an upsert and a new file", async () => {
    const created = await client.assets.postAsset({ name: "logo.png", url: `http://${at}/media/logo-squared.png` });
    expect(await client.assets.getAsset(created.id)).toMatchObject({ id: created.id, fileName: "logo.png", fileSize: PNG.length, mimeType: "image/png" });
    const upserted = await client.assets.postUpsertAsset(`from-url-${Date.now()}`, { url: `http://${at}/media/logo-squared.png`, name: "logo-2.png" });
    expect(upserted).toMatchObject({ fileName: "logo-2.png", fileSize: PNG.length });
    const replaced = await client.assets.putAssetContent(created.id, { url: `http://${at}/media/logo-squared.png`, name: "logo-3.png" });
    expect(replaced.fileVersion).toBeGreaterThan(created.fileVersion);
  });

  it("refuses a host in a private network that is not allowed, a redirect into the metadata service, a bad address and a missing file: 400 with the reason", async () => {
    for (const [url, reason] of [
      [`http://localhost:${at.split(":")[1]}/media/logo-squared.png`, /private network/],
      [`http://${at}/to-metadata`, /private network \(169\.254\.169\.254\)/],
      ["file:///etc/passwd", /http or https only/],
      [`http://${at}/nothing-here.png`, /answered 404/],
    ] as const) {
      const refused = await failure(client.assets.postAsset({ name: "x.png", url }));
      expect(refused.statusCode, url).toBe(400);
      expect(refused.body?.message, url).toMatch(reason);
    }
  });
});
