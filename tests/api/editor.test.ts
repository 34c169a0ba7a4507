import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, DEMO_ADMIN, signIn } from "../support/auth";
import { postJson, startServer, type RunningServer } from "../support/server";

/**
 * Edit mode over HTTP (issue 21): who may open it, what is cached, and the editor's writes — every
 * hostile body a 4xx with a plain message, a stale version a conflict naming who, drafts never for
 * visitors.
 */
describe("edit mode and the editor's endpoints", () => {
  let server: RunningServer;
  let admin: string;
  let editor: string;

  beforeAll(async () => {
    server = await startServer();
    admin = await signIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
    editor = await createUser(server, admin, { email: "redaktion@example.org", name: "Rita Redaktion", password: "ein-gutes-passwort" });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  const get = (path: string, cookie?: string) => fetch(`${server.url}${path}`, { redirect: "manual", headers: cookie ? { cookie } : {} });
  const save = (body: unknown, cookie: string | undefined, page = "page-about") =>
    postJson(`${server.url}/api/editor/pages/${page}`, body, { headers: { origin: server.url, ...(cookie ? { cookie } : {}) } });
  const stored = async (cookie: string) => {
    const res = await get("/ueber-uns?edit=1", cookie);
    const html = await res.text();
    const version = Number(/data-page-version="(\d+)"/.exec(html)?.[1]);
    return { res, html, version };
  };

  it("sends visitors to the sign-in page and never caches the editor's answer", async () => {
    const visitor = await get("/ueber-uns?edit=1");
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toBe("/login?redirect=%2Fueber-uns%3Fedit%3D1");
    for (let i = 0; i < 2; i++) {
      const { res, html } = await stored(editor);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      expect(res.headers.get("x-page-cache")).not.toBe("hit");
      expect(html).toContain("data-editor-root");
    }
    // The public page stays the public page, without any editor markup.
    const pub = await get("/ueber-uns");
    expect(await pub.text()).not.toContain("data-editor-root");
  });

  it("refuses hostile bodies with a 4xx and a message, and changes nothing", async () => {
    const { version } = await stored(editor);
    const cases: Array<[unknown, number]> = [
      ["{not json", 400],
      [[], 400],
      [{ intent: "save" }, 400],
      [{ intent: "save", version: -1, blocks: { de: [], en: [] } }, 400],
      [{ intent: "save", version: 1e300, blocks: { de: [], en: [] } }, 400],
      [{ intent: "save", version, blocks: { de: "x", en: [] } }, 400],
      [{ intent: "save", version, blocks: { de: [], en: [], fr: [] } }, 400],
      [{ intent: "save", version, blocks: { de: [{ schemaId: "block-nope" }], en: [] } }, 400],
      [{ intent: "save", version, blocks: { de: [{ schemaId: "block-cta", heading: 5 }], en: [] } }, 400],
      [{ intent: "dance", version }, 400],
    ];
    for (const [body, status] of cases) {
      const res = await save(body, editor);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(typeof res.json?.message).toBe("string");
      expect(res.json.message).not.toMatch(/Validation error|Unknown component|expected/);
    }
    expect((await save({ intent: "save", version, blocks: { de: [], en: [] } }, editor, "no-such-page")).status).toBe(404);
    expect((await save({ intent: "save", version, blocks: { de: [], en: [] } }, editor, "..%2Fetc")).status).toBe(404);
    expect((await stored(editor)).version).toBe(version);
  });

  it("needs a session for every editor endpoint", async () => {
    expect((await save({ intent: "save", version: 1, blocks: { de: [], en: [] } }, undefined)).status).toBe(401);
    const data = await postJson(`${server.url}/api/editor/block-data`, { language: "de", blocks: [] }, { headers: { origin: server.url } });
    expect(data.status).toBe(401);
  });

  it("saves an editor's blocks as a draft: visitors keep the published page until it is published", async () => {
    const { version } = await stored(editor);
    const blocks = { de: [{ schemaId: "block-cta", id: "cta-1", heading: "Entwurfstext", label: "Mehr", link: "/" }], en: [] };
    const res = await save({ intent: "save", version, blocks }, editor);
    expect(res.status).toBe(200);
    expect(res.json.page).toMatchObject({ status: "Published", newStatus: "Draft" });
    expect(res.json.page.lastModifiedBy).toBe("Rita Redaktion");
    expect(await (await get("/ueber-uns")).text()).not.toContain("Entwurfstext");
    expect((await stored(admin)).html).toContain("Entwurfstext");

    // A save on the version before is a conflict naming who changed the page; `force` overwrites deliberately.
    const stale = await save({ intent: "save", version, blocks: { de: [], en: [] } }, admin);
    expect(stale.status).toBe(409);
    expect(stale.json.message).toContain("Rita Redaktion");
    expect(stale.json.conflict.version).toBe(res.json.page.version);
    const forced = await save({ intent: "save", version, blocks, force: true }, admin);
    expect(forced.status).toBe(200);

    // Discard brings the published blocks back into the draft; visitors never saw anything else.
    const discarded = await save({ intent: "discard", version: forced.json.page.version }, admin);
    expect(discarded.status).toBe(200);
    expect(discarded.json.page.newStatus).toBeNull();
    expect((await stored(admin)).html).not.toContain("Entwurfstext");
  });

  it("answers the blocks' data for edit mode, refusing what is not a list of blocks", async () => {
    const ok = await postJson(`${server.url}/api/editor/block-data`, { language: "de", blocks: [{ schemaId: "block-practitioner-single", practitioner: ["prac-001"] }] }, { headers: { origin: server.url, cookie: editor } });
    expect(ok.status).toBe(200);
    expect(ok.json.practitioners.map((p: { id: string }) => p.id)).toContain("prac-001");
    // Hostile values inside well-formed blocks: a 4xx or an answer, never a 5xx.
    const hostile = [
      { schemaId: "block-practitioner-single", practitioner: ["../../etc/passwd", 5, null, "%00"] },
      { schemaId: "block-image", image: ["..%2F..", "x".repeat(5000)] },
      { schemaId: "block-practitioner-list", limit: 1e308 },
      { schemaId: "block-section", blocks: [{ schemaId: "block-section", blocks: [{ schemaId: "block-image", image: ["a"] }] }] },
      { schemaId: "__proto__" },
    ];
    for (const block of hostile) {
      const res = await postJson(`${server.url}/api/editor/block-data`, { language: "de", blocks: [block] }, { headers: { origin: server.url, cookie: editor } });
      expect(res.status, JSON.stringify(block).slice(0, 80)).toBeLessThan(500);
    }
    for (const body of [{}, { language: "fr", blocks: [] }, { language: "de", blocks: "x" }]) {
      const res = await postJson(`${server.url}/api/editor/block-data`, body, { headers: { origin: server.url, cookie: editor } });
      expect(res.status).toBe(400);
    }
  });
});
