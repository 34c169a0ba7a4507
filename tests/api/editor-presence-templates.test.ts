import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ADMIN, invite, openStore, postForm, setPasswordWithToken, signIn } from "../support/auth";
import { fetchJson, startServer, type RunningServer } from "../support/server";

/**
 * The page editor's presence and templates endpoints over real HTTP against the production build:
 * two editors and the demo superuser, signed in through the real flows. Every refusal is a 4xx with
 * a message in the asker's language; hostile input never gets a 5xx.
 */

let server: RunningServer;
/** Session cookies: Maria (German), John (English), the demo superuser (German). */
const cookie = { maria: "", john: "", admin: "" };
let pageId: string;
let otherPageId: string;
/** An item that is no page (a practitioner): its id is valid, but there is no such page. */
let notAPageId: string;

async function editor(email: string, name: string, password: string, language: "de" | "en"): Promise<string> {
  const token = await invite(server, cookie.admin, { email, name });
  const set = await setPasswordWithToken(server, token, password);
  expect(set.status, await set.text()).toBe(200);
  const session = await signIn(server, email, password);
  const res = await postForm(server, "/manage/account", { intent: "language", language }, session);
  await res.arrayBuffer();
  expect(res.status).toBeLessThan(400);
  return session;
}

interface Sent {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

/** A same-origin request as the editor's browser sends it; `body` a value (sent as JSON) or raw text. */
async function send(path: string, opts: { method?: string; cookie?: string; body?: unknown; raw?: string; type?: string; headers?: Record<string, string> } = {}): Promise<Sent> {
  const headers: Record<string, string> = { origin: server.url, accept: "application/json", ...(opts.cookie ? { cookie: opts.cookie } : {}), ...opts.headers };
  const hasBody = opts.body !== undefined || opts.raw !== undefined;
  if (hasBody) headers["content-type"] = opts.type ?? "application/json";
  const { json, ...res } = await fetchJson(`${server.url}${path}`, { method: opts.method ?? "POST", headers, body: opts.raw ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined) });
  return { ...res, body: json as unknown };
}

const presence = (id: string) => `/api/editor/pages/${id}/presence`;

beforeAll(async () => {
  server = await startServer();
  cookie.admin = await signIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
  cookie.maria = await editor("maria@example.org", "Maria Muster", "maria-password-123", "de");
  cookie.john = await editor("john@example.org", "John Example", "john-password-123", "en");
  const db = openStore(server.dataDir);
  try {
    const pages = db.prepare("select id from contents where schema_name = 'core-pages' order by id limit 2").all() as { id: string }[];
    expect(pages.length).toBe(2);
    [pageId, otherPageId] = [pages[0]!.id, pages[1]!.id];
    notAPageId = (db.prepare("select id from contents where schema_name = 'gm-content-practitioners' limit 1").get() as { id: string }).id;
  } finally {
    db.close();
  }
}, 120_000);

afterAll(() => server?.stop());

describe("without a session", () => {
  it("answers 401 on every editor endpoint and method", async () => {
    const cases: Array<[string, string, unknown]> = [
      ["POST", presence("x"), {}],
      ["DELETE", presence("x"), undefined],
      ["GET", "/api/editor/templates", undefined],
      ["POST", "/api/editor/templates", { name: "n", blocks: [] }],
      ["GET", "/api/editor/templates/x", undefined],
      ["DELETE", "/api/editor/templates/x", undefined],
    ];
    for (const [method, path, body] of cases) {
      const res = await send(path, { method, body });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
    // A made-up cookie is no session either.
    expect((await send(presence(pageId), { cookie: "pn_session=made.up.value.that.is.long.enough" })).status).toBe(401);
  });
});

describe("presence", () => {
  it("shows two editors on one page each other, by name, and nobody on another page", async () => {
    const first = await send(presence(pageId), { cookie: cookie.maria, body: {} });
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("private, no-store");
    expect(first.body).toEqual({ others: [] });
    const second = await send(presence(pageId), { cookie: cookie.john, body: {} });
    expect(second.body).toEqual({ others: [{ name: "Maria Muster" }] });
    const again = await send(presence(pageId), { cookie: cookie.maria });
    expect(again.body).toEqual({ others: [{ name: "John Example" }] });
    // Names only: no address, no id.
    expect(again.text).not.toContain("@");
    expect((await send(presence(otherPageId), { cookie: cookie.admin })).body).toEqual({ others: [] });
  });

  it("forgets whoever leaves at once: by DELETE, by { leaving: true }, by ?leaving=1 (sendBeacon)", async () => {
    const seenByMaria = async () => (await send(presence(pageId), { cookie: cookie.maria, body: {} })).body.others;
    const johnHere = () => send(presence(pageId), { cookie: cookie.john, body: {} });

    await johnHere();
    expect(await seenByMaria()).toEqual([{ name: "John Example" }]);
    expect((await send(presence(pageId), { method: "DELETE", cookie: cookie.john })).status).toBe(200);
    expect(await seenByMaria()).toEqual([]);

    await johnHere();
    expect((await send(presence(pageId), { cookie: cookie.john, body: { leaving: true } })).body).toEqual({ others: [] });
    expect(await seenByMaria()).toEqual([]);

    await johnHere();
    // What navigator.sendBeacon(url) sends: a POST without a body or a content type.
    const beacon = await fetch(`${server.url}${presence(pageId)}?leaving=1`, { method: "POST", headers: { cookie: cookie.john, "sec-fetch-site": "same-origin" } });
    expect(beacon.status).toBe(200);
    expect(await seenByMaria()).toEqual([]);
  });

  it("answers 404 with a message in the editor's language for pages that do not exist or ids that cannot be one", async () => {
    // ("..", resolved away by URL parsing before it is sent, reaches /api/* instead: a 404 too.)
    expect((await send(presence(".."), { cookie: cookie.maria, body: {} })).status).toBe(404);
    for (const id of [notAPageId, "no-such-page", ".hidden", "a".repeat(101), "%00", "a%2Fb", "%E2%80%AE", "%27%20or%201%3D1--"]) {
      const de = await send(presence(id), { cookie: cookie.maria, body: {} });
      expect(de.status, id).toBe(404);
      expect(de.body.message, id).toBe("Diese Seite gibt es nicht mehr.");
      const en = await send(presence(id), { method: "DELETE", cookie: cookie.john });
      expect(en.status, id).toBe(404);
      expect(en.body.message, id).toBe("This page no longer exists.");
    }
  });

  it("refuses hostile requests with a 4xx, never a 5xx", async () => {
    const cases: Array<[Parameters<typeof send>[1], number]> = [
      [{ raw: "{not json" }, 400],
      [{ raw: "[1,2,3]" }, 400],
      [{ raw: '"text"' }, 400],
      [{ raw: "null" }, 400],
      [{ raw: "[".repeat(5000) + "]".repeat(5000) }, 413],
      [{ raw: "[".repeat(500) + "]".repeat(500) }, 400],
      [{ raw: JSON.stringify({ leaving: "x".repeat(5000) }) }, 413],
      [{ raw: "leaving=1", type: "application/x-www-form-urlencoded" }, 415],
      [{ raw: "{}", type: "text/plain" }, 415],
      [{ method: "GET" }, 405],
      [{ method: "PUT", body: {} }, 405],
      [{ method: "PATCH", body: {} }, 405],
    ];
    for (const [opts, status] of cases) {
      const res = await send(presence(pageId), { cookie: cookie.maria, ...opts });
      expect(res.status, `${opts?.method ?? "POST"} ${(opts?.raw ?? "").slice(0, 40)}`).toBe(status);
      expect(typeof res.body?.message, res.text.slice(0, 200)).toBe("string");
    }
    // From another site: refused before it reaches the endpoint (CSRF).
    const cross = await send(presence(pageId), { cookie: cookie.maria, body: {}, headers: { origin: "https://evil.example" } });
    expect(cross.status).toBe(403);
  });
});

describe("templates", () => {
  const section = (children: unknown[]) => ({ schemaId: "block-section", id: "sec-1", heading: "Leistungen", layout: "two-columns", background: "", blocks: children });
  const text = (html: string, id = "t-1") => ({ schemaId: "block-richtext", id, html, markdown: "" });

  it("saves a selection, lists it newest first with its author, and gives back its blocks without ids", async () => {
    const created = await send("/api/editor/templates", { cookie: cookie.john, body: { name: "  Two columns ", blocks: [section([text("<p>One</p>", "c1"), text("<p>Two</p>", "c2")]), text("<p>After</p>")] } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.message).toBe("Template “Two columns” saved.");
    expect(created.body.template).toMatchObject({ name: "Two columns", blockCount: 2, createdBy: "John Example", canDelete: true });
    const id = created.body.template.id as string;

    const newer = await send("/api/editor/templates", { cookie: cookie.maria, body: { name: "Nur Text", blocks: [text("<p>x</p>")] } });
    expect(newer.status).toBe(201);
    expect(newer.body.message).toBe("Vorlage „Nur Text“ gespeichert.");

    const list = await send("/api/editor/templates", { method: "GET", cookie: cookie.maria });
    expect(list.status).toBe(200);
    expect(list.headers.get("cache-control")).toBe("private, no-store");
    const names = (list.body.templates as any[]).map((t) => t.name);
    expect(names.indexOf("Nur Text")).toBeLessThan(names.indexOf("Two columns"));
    expect((list.body.templates as any[]).find((t) => t.id === id)).toMatchObject({ createdBy: "John Example", blockCount: 2, canDelete: false });
    expect(list.text).not.toContain("<p>One</p>");

    const one = await send(`/api/editor/templates/${id}`, { method: "GET", cookie: cookie.maria });
    expect(one.status).toBe(200);
    expect(one.body.template.blocks).toEqual([
      { schemaId: "block-section", heading: "Leistungen", layout: "two-columns", background: "", blocks: [{ schemaId: "block-richtext", html: "<p>One</p>", markdown: "" }, { schemaId: "block-richtext", html: "<p>Two</p>", markdown: "" }] },
      { schemaId: "block-richtext", html: "<p>After</p>", markdown: "" },
    ]);

    const db = openStore(server.dataDir);
    try {
      const row = db.prepare("select user_email, detail from audit_log where action = 'create-editor-template' and item_id = ?").get(id);
      expect(row).toEqual({ user_email: "john@example.org", detail: "Two columns" });
    } finally {
      db.close();
    }
  });

  it("refuses bad names and blocks with a 400 in the editor's language, and saves nothing", async () => {
    const before = ((await send("/api/editor/templates", { method: "GET", cookie: cookie.maria })).body.templates as unknown[]).length;
    const ok = [text("<p>x</p>")];
    const cases: Array<[unknown, string, string]> = [
      [{ name: "", blocks: ok }, "Bitte geben Sie einen Namen mit 1 bis 80 Zeichen ein (ohne Zeilenumbrüche).", "Please enter a name of 1 to 80 characters (on one line)."],
      [{ name: "x".repeat(81), blocks: ok }, "Bitte geben Sie einen Namen mit 1 bis 80 Zeichen ein (ohne Zeilenumbrüche).", "Please enter a name of 1 to 80 characters (on one line)."],
      [{ name: { $ne: null }, blocks: ok }, "Bitte geben Sie einen Namen mit 1 bis 80 Zeichen ein (ohne Zeilenumbrüche).", "Please enter a name of 1 to 80 characters (on one line)."],
      [{ name: "Leer", blocks: [] }, "Die Auswahl lässt sich so nicht als Vorlage speichern.", "The selection cannot be saved as a template like this."],
      [{ name: "Kein Array", blocks: { 0: ok[0] } }, "Die Auswahl lässt sich so nicht als Vorlage speichern.", "The selection cannot be saved as a template like this."],
      [{ name: "Verschachtelt", blocks: [section([section([])])] }, "Die Auswahl lässt sich so nicht als Vorlage speichern.", "The selection cannot be saved as a template like this."],
      [{ name: "Unbekannt", blocks: [{ schemaId: "block-<script>" }] }, "Die Auswahl enthält eine Blockart, die es auf dieser Website nicht gibt.", "The selection contains a kind of block this website does not have."],
      [{ name: "Kind unbekannt", blocks: [section([{ schemaId: "constructor" }])] }, "Die Auswahl enthält eine Blockart, die es auf dieser Website nicht gibt.", "The selection contains a kind of block this website does not have."],
      [{ name: "Zu viele", blocks: Array.from({ length: 101 }, (_, i) => text(`<p>${i}</p>`, `b${i}`)) }, "Eine Vorlage kann höchstens 100 Blöcke enthalten. Bitte wählen Sie weniger aus.", "A template can hold at most 100 blocks. Please select fewer."],
      [[ok], "Die Anfrage war ungültig.", "The request was invalid."],
      ["text", "Die Anfrage war ungültig.", "The request was invalid."],
    ];
    for (const [body, de, en] of cases) {
      const asMaria = await send("/api/editor/templates", { cookie: cookie.maria, body });
      expect(asMaria.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(asMaria.body.message).toBe(de);
      const asJohn = await send("/api/editor/templates", { cookie: cookie.john, body });
      expect(asJohn.body.message).toBe(en);
    }
    expect(((await send("/api/editor/templates", { method: "GET", cookie: cookie.maria })).body.templates as unknown[]).length).toBe(before);
  });

  it("refuses what is too large (413), not JSON (400), of another type (415) or the wrong method (405), never with a 5xx", async () => {
    // Under the body limit, over 256 KB once stored: the template's own limit.
    const stored = await send("/api/editor/templates", { cookie: cookie.john, body: { name: "Big", blocks: [text("x".repeat(262_200))] } });
    expect(stored.status).toBe(413);
    expect(stored.body.message).toBe("The selection is too large for a template. Please select fewer blocks.");
    // Over the body limit: refused before it is read to the end.
    const body = await send("/api/editor/templates", { cookie: cookie.john, body: { name: "Huge", blocks: [text("x".repeat(400_000))] } });
    expect(body.status).toBe(413);
    const cases: Array<[string, Parameters<typeof send>[1], number]> = [
      ["/api/editor/templates", { raw: "{nope" }, 400],
      ["/api/editor/templates", { raw: "[".repeat(200) + "]".repeat(200) }, 400],
      ["/api/editor/templates", { raw: "name=x", type: "application/x-www-form-urlencoded" }, 415],
      ["/api/editor/templates", { method: "PUT", body: {} }, 405],
      ["/api/editor/templates", { method: "DELETE" }, 405],
      ["/api/editor/templates/anything", { method: "POST", body: {} }, 405],
      ["/api/editor/templates/anything", { method: "PATCH", body: {} }, 405],
    ];
    for (const [path, opts, status] of cases) {
      const res = await send(path, { cookie: cookie.maria, ...opts });
      expect(res.status, `${opts?.method ?? "POST"} ${path} ${(opts?.raw ?? "").slice(0, 30)}`).toBe(status);
      expect(typeof res.body?.message).toBe("string");
    }
  });

  it("answers 404 for templates that do not exist or ids that cannot be one", async () => {
    for (const id of ["no-such-template", ".x", "a".repeat(101), "%00", "a%2Fb", "%27%3B%20drop%20table%20editor_templates%3B--"]) {
      for (const method of ["GET", "DELETE"]) {
        const res = await send(`/api/editor/templates/${id}`, { method, cookie: cookie.maria });
        expect(res.status, `${method} ${id}`).toBe(404);
        expect(res.body.message).toBe("Diese Vorlage gibt es nicht mehr.");
      }
    }
  });

  it("lets an editor delete only their own templates and a superuser any; audited", async () => {
    const made = await send("/api/editor/templates", { cookie: cookie.maria, body: { name: "Marias Vorlage", blocks: [text("<p>m</p>")] } });
    const id = made.body.template.id as string;
    const byJohn = await send(`/api/editor/templates/${id}`, { method: "DELETE", cookie: cookie.john });
    expect(byJohn.status).toBe(403);
    expect(byJohn.body.message).toBe("Only whoever saved the template can delete it.");
    const byMaria = await send(`/api/editor/templates/${id}`, { method: "DELETE", cookie: cookie.maria });
    expect(byMaria.status).toBe(200);
    expect(byMaria.body.message).toBe("Vorlage „Marias Vorlage“ gelöscht.");
    expect((await send(`/api/editor/templates/${id}`, { method: "GET", cookie: cookie.maria })).status).toBe(404);

    const johns = await send("/api/editor/templates", { cookie: cookie.john, body: { name: "John's", blocks: [text("<p>j</p>")] } });
    const johnsId = johns.body.template.id as string;
    expect((await send(`/api/editor/templates/${johnsId}`, { method: "DELETE", cookie: cookie.admin })).status).toBe(200);
    expect((await send(`/api/editor/templates/${johnsId}`, { method: "DELETE", cookie: cookie.admin })).status).toBe(404);

    const db = openStore(server.dataDir);
    try {
      const rows = db.prepare("select item_id, user_email from audit_log where action = 'delete-editor-template' order by item_id").all();
      expect(rows).toEqual(
        [
          { item_id: id, user_email: "maria@example.org" },
          { item_id: johnsId, user_email: DEMO_ADMIN.email },
        ].sort((a, b) => (a.item_id < b.item_id ? -1 : 1)),
      );
    } finally {
      db.close();
    }
  });
});
