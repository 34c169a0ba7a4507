import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTIONS, keepsItem, SCREEN_ONLY_COLLECTIONS, SINGLETON_COLLECTIONS, SUPERUSER_COLLECTIONS, type ContentAction } from "~/content/policy";
import { createUser, DEMO_ADMIN, openStore, postForm, signIn } from "../support/auth";
import { squidexToken, startServer, type RunningServer } from "../support/server";

/**
 * The authorization matrix's third dimension (issue 20, finding 2): every write path — the admin
 * screens, the Squidex API with a session and with a client token, each bulk job type — × role
 * (none, editor, superuser, client) × the collections and actions the policy keeps from editors.
 * The cells come from the policy (ACTIONS, SUPERUSER_COLLECTIONS) and the paths from the table
 * below, which must name a path for every action, so a new action cannot go untested. Every write
 * that goes through is checked in the audit log (who, action, schema, id, version); every refused
 * one changed nothing.
 */

const APP = "praxisnetz";
const BULK_TYPES = ["Upsert", "Create", "Update", "Patch", "EnrichDefaults", "ChangeStatus", "Delete"] as const;

let server: RunningServer;
let bearer: string;
const cookies = { editor: "", superuser: "" };
type Role = "none" | "editor" | "superuser" | "client";

/** A write, by its target; `id` is a fresh item of the collection (made by the client token first). */
interface WritePath {
  name: string;
  action: ContentAction;
  surface: "squidex" | "bulk" | "screen";
  /** Whether the cell needs an existing item, and in which state. */
  needs: "none" | "published" | "draft" | "published-with-draft";
  send(role: Role, schema: string, id: string, data: Record<string, unknown>): Promise<Response>;
  /** Sends no usable input: a permitted writer gets the form's refusal (400), only the policy's 403 is the point. */
  policyOnly?: boolean;
  /** The id the write touched, when it made a new one. */
  createdId?: (res: Response, body: any, id: string) => string;
}

function auth(role: Role): Record<string, string> {
  if (role === "client") return { authorization: `Bearer ${bearer}` };
  if (role === "none") return {};
  return { cookie: cookies[role], origin: server.url };
}

function api(role: Role, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}/api/squidex/api/content/${APP}/${path}`, {
    method,
    headers: { ...auth(role), ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

async function bulk(role: Role, schema: string, job: Record<string, unknown>): Promise<Response> {
  const res = await api(role, "POST", `${schema}/bulk`, { jobs: [job] });
  if (res.status !== 200) return res;
  // A refused job is a 200 with the job's error: answered as that status here, as its cell expects.
  const results = (await res.json()) as Array<{ error?: { statusCode: number } }>;
  return new Response(JSON.stringify(results), { status: results[0]?.error?.statusCode ?? 200 });
}

/** The import (a Create job per data): answered as its one job's status, with that job's result as the body. */
async function imported(role: Role, schema: string, data: Record<string, unknown>): Promise<Response> {
  const res = await api(role, "POST", `${schema}/import`, { datas: [data] });
  if (res.status !== 200) return res;
  const [result] = (await res.json()) as Array<{ contentId?: string; error?: { statusCode: number } }>;
  return new Response(JSON.stringify(result), { status: result?.error?.statusCode ?? 200 });
}

/** App-wide bulk jobs (`api/content/{app}/bulk`): the job names its schema. */
async function appBulk(role: Role, job: Record<string, unknown>): Promise<Response> {
  const res = await api(role, "POST", "bulk", { jobs: [job] });
  if (res.status !== 200) return res;
  const results = (await res.json()) as Array<{ error?: { statusCode: number } }>;
  return new Response(JSON.stringify(results), { status: results[0]?.error?.statusCode ?? 200 });
}

/** A job selecting the item by a query instead of its id. */
const byId = (id: string) => ({ filter: { path: "id", op: "eq", value: id } });

async function screen(role: Role, schema: string, id: string, fields: Record<string, string>): Promise<Response> {
  if (role === "client") throw new Error("no screen for client tokens");
  const version = String((await read(schema, id))?.version ?? "");
  return postForm(server, `/manage/content/${schema}/${id}`, { version, ...fields }, role === "none" ? undefined : cookies[role]);
}

const PATHS: WritePath[] = [
  { name: "POST {schema}", action: "create", surface: "squidex", needs: "none", send: (r, s, _id, d) => api(r, "POST", s, d), createdId: (_res, body) => body.id },
  { name: "POST {schema}/{new id} (upsert)", action: "create", surface: "squidex", needs: "none", send: (r, s, id, d) => api(r, "POST", `${s}/${id}-new`, d), createdId: (_res, _b, id) => `${id}-new` },
  { name: "PUT {schema}/{id}", action: "update", surface: "squidex", needs: "published", send: (r, s, id, d) => api(r, "PUT", `${s}/${id}`, d) },
  { name: "PATCH {schema}/{id}", action: "update", surface: "squidex", needs: "published", send: (r, s, id, d) => api(r, "PATCH", `${s}/${id}`, d) },
  { name: "POST {schema}/{id} (upsert)", action: "update", surface: "squidex", needs: "published", send: (r, s, id, d) => api(r, "POST", `${s}/${id}`, d) },
  { name: "POST {schema}/{id}/draft", action: "update", surface: "squidex", needs: "published", send: (r, s, id) => api(r, "POST", `${s}/${id}/draft`) },
  { name: "DELETE {schema}/{id}/draft", action: "update", surface: "squidex", needs: "published-with-draft", send: (r, s, id) => api(r, "DELETE", `${s}/${id}/draft`) },
  { name: "PUT {schema}/{id}/status Published", action: "publish", surface: "squidex", needs: "draft", send: (r, s, id) => api(r, "PUT", `${s}/${id}/status`, { status: "Published" }) },
  { name: "PUT {schema}/{id}/status Draft", action: "unpublish", surface: "squidex", needs: "published", send: (r, s, id) => api(r, "PUT", `${s}/${id}/status`, { status: "Draft" }) },
  { name: "DELETE {schema}/{id}", action: "delete", surface: "squidex", needs: "published", send: (r, s, id) => api(r, "DELETE", `${s}/${id}`) },
  { name: "PUT {schema}/{id}/defaults", action: "update", surface: "squidex", needs: "published", send: (r, s, id) => api(r, "PUT", `${s}/${id}/defaults`) },
  { name: "POST {schema}/import", action: "create", surface: "squidex", needs: "none", send: (r, s, _id, d) => imported(r, s, d), createdId: (_res, body) => body.contentId },
  { name: "bulk Create", action: "create", surface: "bulk", needs: "none", send: (r, s, id, d) => bulk(r, s, { type: "Create", id: `${id}-bulk`, data: d }), createdId: (_res, _b, id) => `${id}-bulk` },
  { name: "bulk Upsert (new)", action: "create", surface: "bulk", needs: "none", send: (r, s, id, d) => bulk(r, s, { type: "Upsert", id: `${id}-ups`, data: d }), createdId: (_res, _b, id) => `${id}-ups` },
  { name: "bulk Upsert (existing)", action: "update", surface: "bulk", needs: "published", send: (r, s, id, d) => bulk(r, s, { type: "Upsert", id, data: d }) },
  { name: "bulk Update", action: "update", surface: "bulk", needs: "published", send: (r, s, id, d) => bulk(r, s, { type: "Update", id, data: d }) },
  { name: "bulk Patch", action: "update", surface: "bulk", needs: "published", send: (r, s, id, d) => bulk(r, s, { type: "Patch", id, data: d }) },
  { name: "bulk ChangeStatus Published", action: "publish", surface: "bulk", needs: "draft", send: (r, s, id) => bulk(r, s, { type: "ChangeStatus", id, status: "Published" }) },
  { name: "bulk ChangeStatus Draft", action: "unpublish", surface: "bulk", needs: "published", send: (r, s, id) => bulk(r, s, { type: "ChangeStatus", id, status: "Draft" }) },
  { name: "bulk Delete", action: "delete", surface: "bulk", needs: "published", send: (r, s, id) => bulk(r, s, { type: "Delete", id }) },
  { name: "bulk EnrichDefaults", action: "update", surface: "bulk", needs: "published", send: (r, s, id) => bulk(r, s, { type: "EnrichDefaults", id }) },
  { name: "bulk Update by query", action: "update", surface: "bulk", needs: "published", send: (r, s, id, d) => bulk(r, s, { type: "Update", query: byId(id), data: d }) },
  { name: "bulk ChangeStatus Draft by query", action: "unpublish", surface: "bulk", needs: "published", send: (r, s, id) => bulk(r, s, { type: "ChangeStatus", query: byId(id), status: "Draft" }) },
  { name: "bulk Delete by query", action: "delete", surface: "bulk", needs: "published", send: (r, s, id) => bulk(r, s, { type: "Delete", query: byId(id) }) },
  { name: "app-wide bulk Patch", action: "update", surface: "bulk", needs: "published", send: (r, s, id, d) => appBulk(r, { type: "Patch", schema: s, id, data: d }) },
  { name: "app-wide bulk Delete", action: "delete", surface: "bulk", needs: "published", send: (r, s, id) => appBulk(r, { type: "Delete", schema: s, id }) },
  { name: "screen: item publish", action: "publish", surface: "screen", needs: "draft", send: (r, s, id) => screen(r, s, id, { intent: "publish" }) },
  { name: "screen: item unpublish", action: "unpublish", surface: "screen", needs: "published", send: (r, s, id) => screen(r, s, id, { intent: "unpublish" }) },
  { name: "screen: item delete", action: "delete", surface: "screen", needs: "published", send: (r, s, id) => screen(r, s, id, { intent: "delete", confirmed: "yes" }) },
  { name: "screen: item save", action: "update", surface: "screen", needs: "published", send: (r, s, id) => screen(r, s, id, { intent: "save" }), policyOnly: true },
];

/** The item as stored (drafts too), straight from the database: what a refused write must leave alone. */
function read(schema: string, id: string): { version: number; status: string; data: string } | undefined {
  const db = openStore(server.dataDir);
  try {
    return db.prepare("select version, status, data from contents where schema_name = ? and id = ?").get(schema, id) as never;
  } finally {
    db.close();
  }
}

function pendingDraft(schema: string, id: string): boolean {
  const db = openStore(server.dataDir);
  try {
    return (db.prepare("select new_status from contents where schema_name = ? and id = ?").get(schema, id) as { new_status: string | null } | undefined)?.new_status != null;
  } finally {
    db.close();
  }
}

function auditOf(id: string): Array<{ user_email: string; action: string; schema_name: string; version: number | null }> {
  const db = openStore(server.dataDir);
  try {
    // Writes of one millisecond share `at`: then by version, a delete after the write of its version.
    return db
      .prepare("select user_email, action, schema_name, version from audit_log where item_id = ? order by at, coalesce(version, 1000000000), action like 'delete%'")
      .all(id) as never;
  } finally {
    db.close();
  }
}

/** Sample data of a collection: its first item's, read with the client token. */
const samples = new Map<string, Record<string, unknown>>();
let counter = 0;

/** The collection's sample data; a page gets slugs of its own (they are unique). */
function dataFor(schema: string, id: string): Record<string, unknown> {
  const data = structuredClone(samples.get(schema)!);
  if (schema === "core-pages") {
    const seo = data.seo as Record<string, Record<string, unknown>>;
    data.seo = { de: { ...seo.de, slug: `${id}-seite` }, en: { ...seo.en, slug: `${id}-page` } };
  }
  return data;
}

/** A fresh item of the collection in the state the path needs (made with the client token). */
async function target(schema: string, needs: WritePath["needs"]): Promise<string> {
  // The global settings hold one item, and a second cannot be made: their writes go to the seeded one.
  if (SINGLETON_COLLECTIONS.has(schema) && needs !== "none") {
    const id = "global-settings";
    if (pendingDraft(schema, id)) expect((await api("client", "DELETE", `${schema}/${id}/draft`)).status).toBe(200);
    if (needs === "draft" || needs === "published-with-draft") expect((await api("client", "POST", `${schema}/${id}/draft`)).status).toBe(200);
    return id;
  }
  const id = `wp-${schema}-${++counter}`;
  if (needs === "none") return id;
  const made = await api("client", "POST", `${schema}/${id}?publish=${needs !== "draft"}`, dataFor(schema, id));
  expect(made.status, `made ${id}: ${await made.clone().text()}`).toBe(201);
  if (needs === "published-with-draft") expect((await api("client", "POST", `${schema}/${id}/draft`)).status).toBe(200);
  return id;
}

beforeAll(async () => {
  server = await startServer();
  bearer = await squidexToken(server);
  cookies.superuser = await signIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
  cookies.editor = await createUser(server, cookies.superuser, { email: "paths-editor@example.com", password: "editor-password-123" });
  for (const schema of [...SUPERUSER_COLLECTIONS, ...SCREEN_ONLY_COLLECTIONS, "core-pages"]) {
    const res = await fetch(`${server.url}/api/squidex/api/content/${APP}/${schema}?$top=1`, { headers: { ...auth("client"), "X-Unpublished": "1" } });
    const body = (await res.json()) as { items: Array<{ data: Record<string, unknown> }> };
    expect(body.items.length, `${schema} has an item to copy`).toBeGreaterThan(0);
    samples.set(schema, body.items[0]!.data);
  }
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

describe("the write paths cover the policy", () => {
  it("name a path on every surface for every action the policy knows (but reading drafts and changing schemas, tested apart)", () => {
    for (const action of ACTIONS.filter((a) => a !== "readDraft" && a !== "changeSchema"))
      for (const surface of ["squidex", "bulk", "screen"] as const) {
        if (surface === "screen" && action === "create") continue; // the screen's create is a save without an id: covered by the store policy test
        expect(PATHS.some((p) => p.action === action && p.surface === surface), `${surface} ${action}`).toBe(true);
      }
    for (const type of BULK_TYPES) expect(PATHS.some((p) => p.name.startsWith(`bulk ${type}`)), `bulk ${type}`).toBe(true);
  });
});

// The themes: editors change them on the colours screen only (tests/e2e/admin-design.spec.ts), as plain items never.
for (const schema of [...SUPERUSER_COLLECTIONS, ...SCREEN_ONLY_COLLECTIONS]) {
  describe(`${schema}: only superusers and client tokens write it, on every path`, () => {
    for (const path of PATHS.filter((p) => !keepsItem(p.action, schema))) {
      it(path.name, async () => {
        const roles: Role[] = path.surface === "screen" ? ["none", "editor", "superuser"] : ["none", "editor", "superuser", "client"];
        for (const role of roles) {
          const id = await target(schema, path.needs);
          const before = path.needs === "none" ? undefined : read(schema, id);
          const audited = auditOf(id).length;
          const res = await path.send(role, schema, id, dataFor(schema, `${id}-${role}`));
          const body = await res.text();
          if (role === "none" || role === "editor") {
            const expected = role === "none" ? (path.surface === "screen" ? [302, 303, 401] : [401]) : [403];
            expect(expected, `${role} ${path.name}: ${res.status} ${body.slice(0, 200)}`).toContain(res.status);
            if (role === "editor" && path.surface === "screen") expect(body).toContain("Administrationsrechte");
            expect(read(schema, id), `${role} ${path.name} changed nothing`).toEqual(before);
            expect(auditOf(id).length, "nothing audited").toBe(audited);
            continue;
          }
          if (path.surface === "screen") expect(body).not.toContain("Administrationsrechte");
          if (SINGLETON_COLLECTIONS.has(schema) && path.action === "create") {
            // Allowed to write it, but there is one settings item and it exists: nobody creates a second.
            expect(res.status, `${role} ${path.name}: ${body.slice(0, 300)}`).toBe(400);
            expect(body).toContain("SINGLETON_KEPT");
            if (path.createdId && path.name !== "POST {schema}" && path.name !== "POST {schema}/import") expect(read(schema, path.createdId(res, {}, id))).toBeUndefined();
            continue;
          }
          if (path.policyOnly) {
            expect(res.status, `${role} ${path.name}`).not.toBe(403);
            continue;
          }
          expect([200, 201, 204], `${role} ${path.name}: ${res.status} ${body.slice(0, 300)}`).toContain(res.status);
          const touched = path.createdId ? path.createdId(res, body.startsWith("{") ? JSON.parse(body) : {}, id) : id;
          const last = auditOf(touched).at(-1);
          const who = role === "client" ? "client:praxisnetz:default" : DEMO_ADMIN.email;
          expect(last, `${role} ${path.name} is audited`).toMatchObject({ user_email: who, schema_name: schema });
          const now = read(schema, touched);
          if (now) expect(last!.version).toBe(now.version);
        }
      });
    }
  });
}

describe("the global settings' one item: nobody deletes or unpublishes it, on any path (issue 22)", () => {
  for (const path of PATHS.filter((p) => keepsItem(p.action, "core-global-settings"))) {
    it(path.name, async () => {
      const schema = "core-global-settings";
      const roles: Role[] = path.surface === "screen" ? ["none", "editor", "superuser"] : ["none", "editor", "superuser", "client"];
      for (const role of roles) {
        const id = await target(schema, path.needs);
        const before = read(schema, id);
        const audited = auditOf(id).length;
        const res = await path.send(role, schema, id, {});
        const body = await res.text();
        if (role === "none") expect(path.surface === "screen" ? [302, 303, 401] : [401]).toContain(res.status);
        // An editor may be told about rights first (the screen) or about the item (the API): a 4xx either way.
        else if (role === "editor") expect([400, 403], `${role} ${path.name}: ${res.status} ${body.slice(0, 200)}`).toContain(res.status);
        else {
          expect(res.status, `${role} ${path.name}: ${body.slice(0, 300)}`).toBe(400);
          if (path.surface === "screen") expect(body).toContain("weder löschen noch zurückziehen");
          else if (path.surface === "squidex") expect(JSON.parse(body)).toMatchObject({ statusCode: 400, errorCode: "SINGLETON_KEPT", message: expect.stringMatching(/one settings item/) });
          else expect(JSON.parse(body)[0].error).toMatchObject({ statusCode: 400, errorCode: "SINGLETON_KEPT", message: expect.stringMatching(/one settings item/) });
        }
        expect(read(schema, id), `${role} ${path.name} changed nothing`).toEqual(before);
        expect(auditOf(id).length, "nothing audited").toBe(audited);
      }
    });
  }
  it("a superuser still changes the global settings through the API", async () => {
    const id = await target("core-global-settings", "published");
    const res = await api("superuser", "PATCH", `core-global-settings/${id}`, { siteName: { iv: "Neuer Name" } });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(read("core-global-settings", id)!.status).toBe("Published");
  });
});

describe("a delete on a screen asks first: without confirmed=yes nothing changes (issue 22)", () => {
  it("the item screen and the page list answer with the question naming what goes", async () => {
    for (const send of [
      (id: string) => screen("superuser", "core-pages", id, { intent: "delete" }),
      (id: string) => postForm(server, "/manage/pages", { intent: "delete", id, version: String(read("core-pages", id)!.version) }, cookies.superuser),
      // The page's own screen, where its delete button now is (issue 22, point 4).
      (id: string) => postForm(server, `/manage/pages/${id}`, { intent: "delete", version: String(read("core-pages", id)!.version) }, cookies.superuser),
    ]) {
      const id = await target("core-pages", "published");
      const before = read("core-pages", id);
      const res = await send(id);
      const body = await res.text();
      expect(res.status, body.slice(0, 200)).toBe(200);
      expect(body).toMatch(/wirklich löschen\?/);
      expect(body).toContain("data-confirm-step");
      expect(read("core-pages", id)).toEqual(before);
      expect(auditOf(id).length).toBe(1);
    }
  });
});

describe("discarding a draft on the item screen asks first (issue 22, point 4)", () => {
  it("answers with the question and keeps the draft; the confirmed post discards it", async () => {
    const id = await target("core-pages", "published-with-draft");
    const before = read("core-pages", id);
    const asked = await screen("superuser", "core-pages", id, { intent: "discard" });
    const body = await asked.text();
    expect(asked.status, body.slice(0, 200)).toBe(200);
    expect(body).toMatch(/wirklich verwerfen\?/);
    expect(body).toContain("data-confirm-step");
    expect(read("core-pages", id)).toEqual(before);
    const confirmed = await screen("superuser", "core-pages", id, { intent: "discard", confirmed: "yes" });
    expect(confirmed.status).toBe(200);
    expect(read("core-pages", id)!.version).toBeGreaterThan(before!.version);
  });
});

describe("core-pages: editors change pages but do not delete them (the home page too)", () => {
  for (const path of PATHS.filter((p) => p.action === "delete")) {
    it(path.name, async () => {
      const home = "page-home";
      const id = read("core-pages", home) ? home : await target("core-pages", "published");
      const before = read("core-pages", id);
      const res = await path.send("editor", "core-pages", id, {});
      expect(res.status, await res.text()).toBe(403);
      expect(read("core-pages", id)).toEqual(before);
    });
  }
  it("an editor's page change through the API is audited under the editor's name", async () => {
    const id = await target("core-pages", "published");
    const res = await api("editor", "PATCH", `core-pages/${id}`, { title: { de: "Geändert" } });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(auditOf(id).at(-1)).toMatchObject({ user_email: "paths-editor@example.com", action: "patch-content", schema_name: "core-pages", version: read("core-pages", id)!.version });
  });
});
