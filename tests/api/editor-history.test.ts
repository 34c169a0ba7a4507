import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ADMIN, openStore, postForm, signIn } from "../support/auth";
import { fetchJson, startServer, type RunningServer } from "../support/server";

/**
 * The page editor's version history through the real server (production build, demo content,
 * SQLite): saves and publications of the editor's save endpoint are kept, the history endpoint lists
 * them by who and when, shows one with its blocks and restores it as the draft; hostile or stale
 * requests get a 4xx with a message in the editor's language, never a 500.
 */

let server: RunningServer;
let cookie: string;
const PAGE = "page-about";
const history = (page = PAGE) => `${server.url}/api/editor/pages/${page}/history`;

type Blocks = { de: Array<Record<string, unknown>>; en: Array<Record<string, unknown>> };

async function call(method: "GET" | "POST", url: string, body?: unknown, headers: Record<string, string> = { cookie }) {
  return fetchJson(url, {
    method,
    headers: { ...headers, origin: server.url, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
}

/** The page's stored draft, as the store has it (read beside the running server). */
function stored(id = PAGE): { version: number; blocks: Blocks } {
  const db = openStore(server.dataDir);
  try {
    const row = db.prepare("select version, data from contents where id = ?").get(id) as { version: number; data: string };
    return { version: row.version, blocks: JSON.parse(row.data).blocks };
  } finally {
    db.close();
  }
}

const save = (version: number, blocks: Blocks) => call("POST", `${server.url}/api/editor/pages/${PAGE}`, { intent: "save", version, blocks });

beforeAll(async () => {
  server = await startServer();
  cookie = await signIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

describe("the page editor's version history", () => {
  it("answers 401 without a session, to reads and restores alike", async () => {
    expect((await call("GET", history(), undefined, {})).status).toBe(401);
    expect((await call("GET", `${history()}?entry=1`, undefined, {})).status).toBe(401);
    expect((await call("POST", history(), { intent: "restore", entry: 1, version: 1 }, {})).status).toBe(401);
  });

  // Shared by the tests below, in order: the ids of the entries the saves made.
  const ids: { draft?: number; published?: number; second?: number } = {};
  let original: Blocks;

  it("keeps the editor's saves as one rolling draft and a publication as an entry of its own, listed by name", async () => {
    expect((await call("GET", history())).json).toEqual({ ok: true, items: [], next: null });
    const start = stored();
    original = start.blocks;
    const changed = structuredClone(original);
    changed.de[0] = { ...changed.de[0]!, heading: "Erste Fassung" };
    const first = await save(start.version, changed);
    expect(first.status, first.text).toBe(200);
    // Autosave a moment later: the same draft entry, moved on to the newer version.
    changed.de[0] = { ...changed.de[0]!, heading: "Zweite Fassung" };
    const second = await save(first.json.page.version, changed);
    expect(second.status, second.text).toBe(200);
    let list = await call("GET", history());
    expect(list.status).toBe(200);
    expect(list.headers.get("cache-control")).toContain("no-store");
    expect(list.json.items).toHaveLength(1);
    expect(list.json.items[0]).toMatchObject({ version: second.json.page.version, kind: "draft", by: "Demo-Admin" });
    expect(Date.parse(list.json.items[0].at)).toBeGreaterThan(Date.now() - 60_000);
    ids.draft = list.json.items[0].id;

    const published = await call("POST", `${server.url}/api/editor/pages/${PAGE}`, { intent: "publish", version: second.json.page.version });
    expect(published.status, published.text).toBe(200);
    // A save after the publication starts a new draft entry.
    changed.de[0] = { ...changed.de[0]!, heading: "Nach der Veröffentlichung" };
    const third = await save(published.json.page.version, changed);
    expect(third.status, third.text).toBe(200);
    list = await call("GET", history());
    expect(list.json.items.map((i: { kind: string; version: number }) => [i.kind, i.version])).toEqual([
      ["draft", third.json.page.version],
      ["published", published.json.page.version],
      ["draft", second.json.page.version],
    ]);
    // Nobody is shown by an internal id; every entry has only what the list promises.
    for (const item of list.json.items) expect(Object.keys(item).sort()).toEqual(["at", "by", "id", "kind", "version"]);
    ids.published = list.json.items[1].id;
    ids.second = list.json.items[0].id;
  });

  it("shows one entry with its blocks", async () => {
    const entry = await call("GET", `${history()}?entry=${ids.published}`);
    expect(entry.status, entry.text).toBe(200);
    expect(entry.json).toMatchObject({ ok: true, id: ids.published, kind: "published", by: "Demo-Admin", title: { de: expect.any(String), en: expect.any(String) } });
    expect(entry.json.blocks.de[0].heading).toBe("Zweite Fassung");
    expect(entry.json.blocks.en).toEqual(original.en);
  });

  it("restores an entry as the page's draft, keeps a restored entry and answers like the save endpoint", async () => {
    const before = stored();
    const restored = await call("POST", history(), { intent: "restore", entry: ids.published, version: before.version });
    expect(restored.status, restored.text).toBe(200);
    expect(restored.json).toMatchObject({ ok: true, message: expect.any(String), page: { id: PAGE, status: "Published", newStatus: "Draft", lastModifiedBy: "Demo-Admin" } });
    expect(restored.json.page.version).toBeGreaterThan(before.version);
    expect(restored.json.blocks.de[0].heading).toBe("Zweite Fassung");
    const after = stored();
    expect(after.version).toBe(restored.json.page.version);
    expect(after.blocks.de[0]!.heading).toBe("Zweite Fassung");
    const list = await call("GET", history());
    expect(list.json.items[0]).toMatchObject({ kind: "restored", version: after.version, by: "Demo-Admin" });
    // The audit log names what happened.
    const db = openStore(server.dataDir);
    try {
      expect(db.prepare("select count(*) as n from audit_log where action = 'restore-page-version' and item_id = ?").get(PAGE)).toEqual({ n: 1 });
    } finally {
      db.close();
    }
  });

  it("refuses a restore at a stale version with 409 and plain words, and changes nothing", async () => {
    const before = stored();
    const stale = await call("POST", history(), { intent: "restore", entry: ids.draft, version: before.version - 1 });
    expect(stale.status).toBe(409);
    expect(stale.json.message).toContain("Demo-Admin");
    expect(stale.json.message).not.toMatch(/\b\d{3}\b|subject:|page-/);
    expect(stale.json.conflict).toMatchObject({ version: before.version, lastModifiedBy: "Demo-Admin" });
    expect(stored()).toEqual(before);
  });

  it("answers 404 for another page's entry, read or restored", async () => {
    const other = "page-imprint";
    const read = await call("GET", `${history(other)}?entry=${ids.published}`);
    expect(read.status).toBe(404);
    expect(read.json.message).toEqual(expect.any(String));
    const restore = await call("POST", history(other), { intent: "restore", entry: ids.published, version: stored(other).version });
    expect(restore.status).toBe(404);
    expect(stored(other).blocks).not.toEqual(stored().blocks);
  });

  it("answers hostile requests with a 4xx and a message, never a 5xx", async () => {
    const reads = [
      `${history()}?entry=abc`,
      `${history()}?entry=-1`,
      `${history()}?entry=1.5`,
      `${history()}?entry=99999999999999999999999`,
      `${history()}?entry=2147483648`,
      `${history()}?entry=0`,
      `${history()}?before=1e9999`,
      `${history()}?before=-5`,
      `${history()}?before=${"9".repeat(400)}`,
      `${history()}?before=999999999999`,
      `${history("no-such-page")}`,
      `${history("..%2F..%2Fetc")}?entry=1`,
    ];
    for (const url of reads) {
      const res = await call("GET", url);
      expect(res.status, url).toBeGreaterThanOrEqual(400);
      expect(res.status, url).toBeLessThan(500);
      expect(res.json?.message, url).toEqual(expect.any(String));
    }
    // A `before` past every id the table holds is just the first page.
    const far = await call("GET", `${history()}?before=2147483647`);
    expect(far.status).toBe(200);
    expect(far.json.items[0].kind).toBe("restored");
    const version = stored().version;
    const bodies: unknown[] = [
      "not json",
      "[]",
      { intent: "delete", entry: ids.draft, version },
      { intent: "restore", entry: "1", version },
      { intent: "restore", entry: ids.draft, version: "7" },
      { intent: "restore", entry: -3, version },
      { intent: "restore", entry: 2 ** 53, version },
      { intent: "restore", entry: 2 ** 31, version },
      { intent: "restore", entry: ids.draft },
      { intent: "restore", entry: ids.draft, version, padding: "x".repeat(10_000) },
    ];
    for (const body of bodies) {
      const res = await call("POST", history(), body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBeLessThan(500);
      expect(res.json?.message).toEqual(expect.any(String));
    }
    expect(stored().version).toBe(version);
  });

  it("pages older entries with `before`", async () => {
    const all = (await call("GET", history())).json;
    expect(all.next).toBeNull();
    const older = await call("GET", `${history()}?before=${all.items[1].id}`);
    expect(older.json.items.map((i: { id: number }) => i.id)).toEqual(all.items.slice(2).map((i: { id: number }) => i.id));
  });

  it("speaks the editor's language", async () => {
    const german = await call("POST", history(), { intent: "restore", entry: ids.draft, version: 0 });
    expect(german.json.message).toMatch(/inzwischen geändert/);
    const changed = await postForm(server, "/manage/account", { intent: "language", language: "en" }, cookie);
    expect(changed.status).toBeLessThan(400);
    const english = await call("POST", history(), { intent: "restore", entry: ids.draft, version: 0 });
    expect(english.status).toBe(409);
    expect(english.json.message).toMatch(/has changed the page in the meantime/);
    const missing = await call("GET", `${history()}?entry=2147483647`);
    expect(missing.json.message).toBe("This version no longer exists.");
  });

  it("kept every version without an error on the server's side", () => {
    // A failure to record is logged and swallowed (the save stands): it must not have happened here.
    expect(server.output()).not.toContain("recording a page version failed");
    expect(server.output()).not.toContain("editor history");
    expect(server.output()).not.toMatch(/"level":50/);
  });
});
