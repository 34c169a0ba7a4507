import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { postgresStoreBackend, sqliteStoreBackend, type StoreBackend } from "../../tests/support/store-backends";
import { checkFileName, checkFolderName, MAX_FOLDER_DEPTH, parentIdOf, ROOT_FOLDER } from "./assets";
import type { ContentChange, ContentStore } from "./store";

/**
 * The AssetStore's folders, rename and move against a real SQLite file (and real asset files):
 * versions, optimistic concurrency, the change events other nodes hear of, and hostile input.
 */

// A real 2x1 RGB PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAAD0lEQVR4nGP4z8DAwPAfAAcAAf9+CLHQAAAAAElFTkSuQmCC", "base64");
/** The same suite on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set (its own schema, dropped after). */
function assetSuite(label: string, makeBackend: (() => StoreBackend) | undefined) {
describe.skipIf(!makeBackend)(label, () => {
let backend: StoreBackend;
let store: ContentStore;
let changes: ContentChange[] = [];

beforeAll(async () => {
  backend = makeBackend!();
  store = await backend.openStore();
  await store.migrate();
  store.onChange((change) => changes.push(change));
});
beforeEach(() => {
  changes = [];
});
afterAll(async () => {
  await store?.db.destroy();
  await backend?.dispose();
});

describe.skipIf(label !== "sqlite")("migration 0007_asset_folders", () => {
  it("makes the folder table and the index the library pages assets of a folder by", async () => {
    const indexes = await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name in ('assets', 'asset_folders')`.execute(store.db);
    expect(indexes.rows.map((r) => r.name)).toEqual(expect.arrayContaining(["assets_parent_last_modified", "asset_folders_parent_name"]));
    const plan = await sql<{ detail: string }>`explain query plan select id from assets where parent_id = ${"x"} order by last_modified desc limit 24`.execute(store.db);
    expect(plan.rows.map((r) => r.detail).join(" ")).toContain("assets_parent_last_modified");
  });
});

describe("asset folders", () => {
  it("creates, lists by parent, and walks the path (breadcrumbs)", async () => {
    const top = await store.assets.createFolder({ folderName: "  Praxis  ", id: "f-top", actor: "subject:u1" });
    expect(top).toMatchObject({ id: "f-top", parentId: ROOT_FOLDER, folderName: "Praxis", version: 0, createdBy: "subject:u1", lastModifiedBy: "subject:u1" });
    expect(changes).toEqual([{ kind: "asset-folder", id: "f-top" }]);
    const child = await store.assets.createFolder({ folderName: "Team", parentId: "f-top", id: "f-child" });
    await store.assets.createFolder({ folderName: "Anfahrt", parentId: "f-top", id: "f-child-2" });
    // "" and the empty GUID both name the root.
    expect((await store.assets.listFolders("")).items.map((f) => f.id)).toContain("f-top");
    expect((await store.assets.listFolders("f-top")).items.map((f) => f.folderName)).toEqual(["Anfahrt", "Team"]);
    expect((await store.assets.folderPath(child.id)).map((f) => f.folderName)).toEqual(["Praxis", "Team"]);
    expect(await store.assets.folderPath(ROOT_FOLDER)).toEqual([]);
    await expect(store.assets.folderPath("no-such-folder")).rejects.toMatchObject({ statusCode: 404 });
    await expect(store.assets.listFolders("no-such-folder")).rejects.toMatchObject({ statusCode: 404 });
  });

  it("refuses unknown parents, taken ids, bad ids and bad names with 4xx and a message", async () => {
    await expect(store.assets.createFolder({ folderName: "X", parentId: "no-such-folder" })).rejects.toMatchObject({ statusCode: 400, message: expect.stringContaining("does not exist") });
    await expect(store.assets.createFolder({ folderName: "X", id: "f-top" })).rejects.toMatchObject({ statusCode: 409 });
    await expect(store.assets.createFolder({ folderName: "X", parentId: "../etc" })).rejects.toMatchObject({ statusCode: 400 });
    await expect(store.assets.createFolder({ folderName: "X", id: ROOT_FOLDER })).rejects.toMatchObject({ statusCode: 400 });
    for (const folderName of ["", "   ", "a/b", "a\\b", "a\u0000b", "line\nbreak", "..", "x".repeat(101), 42, null]) {
      await expect(store.assets.createFolder({ folderName })).rejects.toMatchObject({ statusCode: 400, message: expect.any(String) });
    }
    expect(checkFolderName("<img src=x onerror=alert(1)>")).toBe("<img src=x onerror=alert(1)>");
    expect(() => parentIdOf("a b")).toThrow(/not a valid folder id/);
    expect(changes).toEqual([]);
  });

  it("renames with a version bump, its own change event, and optimistic concurrency (412)", async () => {
    const before = (await store.assets.getFolder("f-child"))!;
    const renamed = await store.assets.renameFolder("f-child", "Team 2025", { expectedVersion: before.version, actor: "subject:u2" });
    expect(renamed).toMatchObject({ folderName: "Team 2025", version: before.version + 1, lastModifiedBy: "subject:u2", created: before.created });
    expect(changes).toEqual([{ kind: "asset-folder", id: "f-child" }]);
    await expect(store.assets.renameFolder("f-child", "Alt", { expectedVersion: before.version })).rejects.toMatchObject({ statusCode: 412, errorCode: "OBJECT_VERSION_CONFLICT" });
    await expect(store.assets.renameFolder("f-child", "a/b")).rejects.toMatchObject({ statusCode: 400 });
    await expect(store.assets.renameFolder("nope", "X")).rejects.toMatchObject({ statusCode: 404 });
    expect((await store.assets.getFolder("f-child"))!.folderName).toBe("Team 2025");
  });

  it("moves folders, but never into themselves or their subfolders (no cycles)", async () => {
    await store.assets.createFolder({ folderName: "Tief", parentId: "f-child", id: "f-grandchild" });
    await expect(store.assets.moveFolder("f-top", "f-top")).rejects.toMatchObject({ statusCode: 400, message: expect.stringContaining("itself") });
    await expect(store.assets.moveFolder("f-top", "f-grandchild")).rejects.toMatchObject({ statusCode: 400, message: expect.stringContaining("subfolders") });
    await expect(store.assets.moveFolder("f-top", "no-such-folder")).rejects.toMatchObject({ statusCode: 400 });
    const moved = await store.assets.moveFolder("f-grandchild", ROOT_FOLDER);
    expect(moved).toMatchObject({ parentId: ROOT_FOLDER, version: 1 });
    expect((await store.assets.folderPath("f-grandchild")).map((f) => f.id)).toEqual(["f-grandchild"]);
    await store.assets.moveFolder("f-grandchild", "f-child");
    expect((await store.assets.folderPath("f-grandchild")).map((f) => f.id)).toEqual(["f-top", "f-child", "f-grandchild"]);
  });

  it("bounds how deep folders nest", async () => {
    let parent = ROOT_FOLDER;
    for (let depth = 1; depth <= MAX_FOLDER_DEPTH; depth++) parent = (await store.assets.createFolder({ folderName: `L${depth}`, parentId: parent, id: `deep-${depth}` })).id;
    expect(await store.assets.folderPath(parent)).toHaveLength(MAX_FOLDER_DEPTH);
    await expect(store.assets.createFolder({ folderName: "zu tief", parentId: parent })).rejects.toMatchObject({ statusCode: 400, message: expect.stringContaining("deep") });
    // Moving a two-level subtree under depth 19 would make it 21 deep.
    await expect(store.assets.moveFolder("f-child", `deep-${MAX_FOLDER_DEPTH - 1}`)).rejects.toMatchObject({ statusCode: 400 });
  });

  it("deletes a folder only when it is empty (409 with a message otherwise)", async () => {
    await store.assets.upload({ fileName: "drin.png", body: PNG, id: "asset-in-folder", parentId: "f-child-2" });
    await expect(store.assets.deleteFolder("f-child-2")).rejects.toMatchObject({ statusCode: 409, message: expect.stringContaining("not empty") });
    await expect(store.assets.deleteFolder("f-top")).rejects.toMatchObject({ statusCode: 409 });
    changes = [];
    await store.assets.delete("asset-in-folder");
    await store.assets.deleteFolder("f-child-2");
    expect(changes).toEqual([
      { kind: "asset", id: "asset-in-folder" },
      { kind: "asset-folder", id: "f-child-2" },
    ]);
    expect(await store.assets.getFolder("f-child-2")).toBeUndefined();
    await expect(store.assets.deleteFolder("f-child-2")).rejects.toMatchObject({ statusCode: 404 });
    await expect(store.assets.deleteFolder("../x")).rejects.toMatchObject({ statusCode: 400 });
  });
});

describe("assets in folders", () => {
  it("uploads into a folder, and refuses an unknown or malformed folder before storing anything", async () => {
    const asset = await store.assets.upload({ fileName: "team.png", body: PNG, parentId: "f-child" });
    expect(asset.parentId).toBe("f-child");
    expect((await store.assets.get(asset.id))!.parentId).toBe("f-child");
    expect((await store.assets.list({ parentId: "f-child" })).items.map((a) => a.id)).toEqual([asset.id]);
    const total = (await store.assets.list()).total;
    await expect(store.assets.upload({ fileName: "x.png", body: PNG, parentId: "no-such-folder" })).rejects.toMatchObject({ statusCode: 400, message: expect.stringContaining("does not exist") });
    await expect(store.assets.upload({ fileName: "x.png", body: PNG, parentId: "../../etc" })).rejects.toMatchObject({ statusCode: 400 });
    expect((await store.assets.list()).total).toBe(total);
    // The root, spelled either way.
    expect((await store.assets.upload({ fileName: "root.png", body: PNG, parentId: "" })).parentId).toBe(ROOT_FOLDER);
  });

  it("moves an asset between folders with a version bump and a change event", async () => {
    const asset = await store.assets.upload({ fileName: "wander.png", body: PNG, id: "asset-wander" });
    changes = [];
    const moved = await store.assets.move("asset-wander", "f-top", { expectedVersion: 0, actor: "subject:u3" });
    expect(moved).toMatchObject({ parentId: "f-top", version: 1, lastModifiedBy: "subject:u3", fileName: asset.fileName });
    expect(changes).toEqual([{ kind: "asset", id: "asset-wander" }]);
    await expect(store.assets.move("asset-wander", "no-such-folder")).rejects.toMatchObject({ statusCode: 400 });
    await expect(store.assets.move("asset-wander", ROOT_FOLDER, { expectedVersion: 0 })).rejects.toMatchObject({ statusCode: 412 });
    await expect(store.assets.move("no-such-asset", ROOT_FOLDER)).rejects.toMatchObject({ statusCode: 404 });
    expect((await store.assets.get("asset-wander"))!.parentId).toBe("f-top");
  });
});

describe("the mirror's writes (a remote Squidex's assets, decision 0037)", () => {
  const row = (over: Partial<Parameters<ContentStore["assets"]["writeMirrored"]>[0][number]["row"]> = {}) => ({
    id: "mirrored-1", file_name: "plan.txt", slug: "plan.txt", mime_type: "text/plain", file_size: 4, file_hash: "h0", file_version: 0, type: "Unknown",
    pixel_width: null, pixel_height: null, tags: "[]", parent_id: ROOT_FOLDER, version: 3, created: "2026-01-01T00:00:00Z", created_by: "client:squidex",
    last_modified: "2026-01-02T00:00:00Z", last_modified_by: "client:squidex", metadata: "{}", is_protected: 0, ...over,
  });

  it("keeps Squidex's row and file as they are, replaces a file version by the next, and removes what Squidex no longer has", async () => {
    await store.assets.writeMirrored([{ row: row(), body: Buffer.from("eins") }]);
    expect(changes).toEqual([{ kind: "asset", id: "mirrored-1" }]);
    expect(await store.assets.get("mirrored-1")).toMatchObject({ fileName: "plan.txt", version: 3, fileVersion: 0, createdBy: "client:squidex" });
    expect((await store.assets.read("mirrored-1")).body.toString()).toBe("eins");
    expect((await store.assets.mirroredVersions()).get("mirrored-1")).toEqual({ version: 3, fileVersion: 0 });

    // Metadata only: the file stays.
    await store.assets.writeMirrored([{ row: row({ version: 4, file_name: "plan-neu.txt" }) }]);
    expect((await store.assets.read("mirrored-1")).body.toString()).toBe("eins");

    // A new file version: the new file in its own place, the old one (and nothing else) gone.
    await store.assets.writeMirrored([{ row: row({ version: 5, file_version: 1, file_size: 4 }), body: Buffer.from("zwei") }]);
    expect((await store.assets.read("mirrored-1")).body.toString()).toBe("zwei");
    expect(store.assets.hasFile({ id: "mirrored-1", fileVersion: 0 })).toBe(false);
    expect(fs.readdirSync(path.join(store.assets.dir, "mirrored-1"))).toEqual(["1"]);

    await store.assets.removeMirrored(["mirrored-1"]);
    expect(await store.assets.get("mirrored-1")).toBeUndefined();
    expect(fs.existsSync(path.join(store.assets.dir, "mirrored-1"))).toBe(false);
  });

  it("a row that cannot be written leaves no file behind", async () => {
    await expect(store.assets.writeMirrored([{ row: row({ id: "mirrored-2", file_name: null as unknown as string }), body: Buffer.from("x") }])).rejects.toThrow();
    expect(await store.assets.get("mirrored-2")).toBeUndefined();
    expect(store.assets.hasFile({ id: "mirrored-2", fileVersion: 0 })).toBe(false);
  });

  it("keeps and removes folders as Squidex has them", async () => {
    const folder = { id: "mirrored-folder", parent_id: ROOT_FOLDER, folder_name: "Von Squidex", version: 2, created: "t", created_by: "client:squidex", last_modified: "t", last_modified_by: "client:squidex" };
    await store.assets.writeMirroredFolders([folder]);
    await store.assets.writeMirroredFolders([{ ...folder, folder_name: "Umbenannt", version: 3 }]);
    expect(await store.assets.getFolder("mirrored-folder")).toMatchObject({ folderName: "Umbenannt", version: 3 });
    expect((await store.assets.mirroredFolderVersions()).get("mirrored-folder")).toBe(3);
    await store.assets.removeMirroredFolders(["mirrored-folder"]);
    expect(await store.assets.getFolder("mirrored-folder")).toBeUndefined();
    expect(changes.filter((c) => c.kind === "asset-folder")).toHaveLength(3);
  });
});

describe("AssetStore.rename", () => {
  it("changes the file name with a version bump, keeps slug and file, and fires its own change event", async () => {
    const asset = await store.assets.upload({ fileName: "Praxis Foto.png", body: PNG, id: "asset-rename" });
    changes = [];
    const renamed = await store.assets.rename("asset-rename", "  Empfang.png ", { expectedVersion: 0, actor: "subject:u4" });
    expect(renamed).toMatchObject({ fileName: "Empfang.png", slug: asset.slug, version: 1, lastModifiedBy: "subject:u4", createdBy: asset.createdBy, fileVersion: 0 });
    expect(renamed.lastModified >= asset.lastModified).toBe(true);
    expect(await store.assets.get("asset-rename")).toEqual(renamed);
    expect((await store.assets.read("asset-rename")).body.equals(PNG)).toBe(true);
    // Local, not remote: the change feed passes it on to the other nodes.
    expect(changes).toEqual([{ kind: "asset", id: "asset-rename" }]);
  });

  it("refuses a stale expected version (412) and leaves the row as it was", async () => {
    await expect(store.assets.rename("asset-rename", "Alt.png", { expectedVersion: 0 })).rejects.toMatchObject({ statusCode: 412, errorCode: "OBJECT_VERSION_CONFLICT" });
    expect((await store.assets.get("asset-rename"))!).toMatchObject({ fileName: "Empfang.png", version: 1 });
  });

  it("lets exactly one of two renames expecting the same version win", async () => {
    const results = await Promise.allSettled([
      store.assets.rename("asset-rename", "Eins.png", { expectedVersion: 1 }),
      store.assets.rename("asset-rename", "Zwei.png", { expectedVersion: 1 }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason.statusCode)).toEqual([412]);
    expect((await store.assets.get("asset-rename"))!.version).toBe(2);
  });

  it("refuses empty, too long, path-like and control-character names, and unknown ids", async () => {
    for (const name of ["", "  ", "a/b.png", "a\\b.png", "a\u0007.png", "..", "x".repeat(201)]) {
      await expect(store.assets.rename("asset-rename", name)).rejects.toMatchObject({ statusCode: 400 });
    }
    await expect(store.assets.rename("no-such-asset", "x.png")).rejects.toMatchObject({ statusCode: 404 });
    await expect(store.assets.rename("../x", "x.png")).rejects.toMatchObject({ statusCode: 400 });
    expect(checkFileName("<img src=x>.png")).toBe("<img src=x>.png");
  });

  it("holds uploads to the same file name rule: dot names, paths and control characters are a 400 naming it, nothing stored", async () => {
    const before = (await store.assets.list()).total;
    for (const name of ["..", ".", "...", "../../etc/passwd", "a/b.png", "C:\\fakepath\\b.png", "a\u0000b.png", "a\r\nb.png", "", "x".repeat(201)]) {
      const refused = store.assets.upload({ fileName: name, body: PNG });
      await expect(refused, JSON.stringify(name)).rejects.toMatchObject({ statusCode: 400 });
      if (name.length > 1 && name.length < 200 && name.trim()) await expect(refused).rejects.toThrow(/may not contain slashes or control characters, nor be "\." or "\.\."/);
    }
    expect((await store.assets.list()).total).toBe(before);
    // A name the rule allows whose URL segment would be only dots gets one a URL keeps.
    const odd = await store.assets.upload({ fileName: "..?", body: PNG });
    expect(odd).toMatchObject({ fileName: "..?", slug: "file" });
  });
});

describe("annotations, new files and upserts (Squidex's PUT assets/{id}, PUT …/content, POST assets/{id})", () => {
  const PNG_4x3 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAEklEQVR4nGP4z8DAwMDAwMDAAAAO/wH/QfNQZgAAAABJRU5ErkJggg==", "base64");

  it("migration 0017 gives every asset empty metadata, unprotected, and an index by slug", async () => {
    const asset = await store.assets.upload({ fileName: "Alt Bestand.png", body: PNG, id: "annot-1" });
    expect(asset).toMatchObject({ metadata: {}, isProtected: false, slug: "alt-bestand.png" });
    if (label === "sqlite") {
      const plan = await sql<{ detail: string }>`explain query plan select id from assets where slug = ${"x"} order by created, id limit 1`.execute(store.db);
      expect(plan.rows.map((r) => r.detail).join(" ")).toContain("assets_slug");
    }
  });

  it("annotates slug, metadata and protection in one change, finds the asset by its slug, and keeps the pixel sizes the file's", async () => {
    changes = [];
    const annotated = await store.assets.annotate(
      "annot-1",
      { slug: "praxis-logo.png", metadata: { description: "Logo", year: 2026, public: true, pixelWidth: 999 }, isProtected: true, tags: ["logo"] },
      { expectedVersion: 0, actor: "subject:u5" },
    );
    expect(annotated).toMatchObject({ slug: "praxis-logo.png", metadata: { description: "Logo", year: 2026, public: true }, isProtected: true, tags: ["logo"], version: 1, pixelWidth: 2, lastModifiedBy: "subject:u5" });
    expect(annotated.metadata).not.toHaveProperty("pixelWidth");
    expect(changes).toEqual([{ kind: "asset", id: "annot-1" }]);
    expect((await store.assets.getByIdOrSlug("praxis-logo.png"))?.id).toBe("annot-1");
    expect((await store.assets.getByIdOrSlug("annot-1"))?.slug).toBe("praxis-logo.png");
    expect(await store.assets.getByIdOrSlug("no-such-slug")).toBeUndefined();
    // Left out: stays. Metadata replaces what was there; null changes nothing.
    const again = await store.assets.annotate("annot-1", { metadata: { description: "Neu" }, slug: null, isProtected: false });
    expect(again).toMatchObject({ slug: "praxis-logo.png", metadata: { description: "Neu" }, isProtected: false, tags: ["logo"], version: 2 });
    expect((await store.assets.list({ publicOnly: true, ids: ["annot-1"] })).total).toBe(1);
    await store.assets.annotate("annot-1", { isProtected: true });
    expect((await store.assets.list({ publicOnly: true, ids: ["annot-1"] })).total).toBe(0);
    // The same slug again is no conflict with itself.
    expect((await store.assets.annotate("annot-1", { slug: "praxis-logo.png" })).slug).toBe("praxis-logo.png");
  });

  it("refuses a slug that is no slug, or another asset's slug or id, and metadata that is not flat or too large (400, nothing written)", async () => {
    await store.assets.upload({ fileName: "zwei.png", body: PNG, id: "annot-2" });
    for (const slug of ["Gross.png", "mit leerzeichen", "a/b", "-vorne", "hinten-", ".", "..", "", "ä.png", "x".repeat(201), 42]) {
      await expect(store.assets.annotate("annot-2", { slug }), JSON.stringify(slug)).rejects.toMatchObject({ statusCode: 400, message: expect.stringMatching(/slug/) });
    }
    await expect(store.assets.annotate("annot-2", { slug: "Gross Foto.png" })).rejects.toThrow(/e\.g\. "gross-foto\.png"/);
    await expect(store.assets.annotate("annot-2", { slug: "praxis-logo.png" })).rejects.toMatchObject({ statusCode: 400, message: expect.stringContaining("taken") });
    await expect(store.assets.annotate("annot-2", { slug: "annot-1" })).rejects.toMatchObject({ statusCode: 400, message: expect.stringContaining("taken") });
    const bad: unknown[] = [[1], "text", { nested: { a: 1 } }, { list: [1] }, { nothing: null }, { inf: Infinity }, { "": 1 }, { long: "x".repeat(1001) }, Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]))];
    for (const metadata of bad) await expect(store.assets.annotate("annot-2", { metadata }), JSON.stringify(metadata)).rejects.toMatchObject({ statusCode: 400 });
    const big = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, "x".repeat(500)]));
    await expect(store.assets.annotate("annot-2", { metadata: big })).rejects.toMatchObject({ statusCode: 400, message: expect.stringContaining("at most 4096") });
    await expect(store.assets.annotate("annot-2", { isProtected: "yes" })).rejects.toMatchObject({ statusCode: 400 });
    await expect(store.assets.annotate("no-such-asset", { slug: "frei" })).rejects.toMatchObject({ statusCode: 404 });
    expect(await store.assets.get("annot-2")).toMatchObject({ version: 0, slug: "zwei.png", metadata: {} });
    // "__proto__" is a key like any other, never the object's prototype.
    const odd = await store.assets.annotate("annot-2", { metadata: JSON.parse('{"__proto__": "x", "a": 1}') });
    expect(Object.getPrototypeOf(odd.metadata)).toBe(Object.prototype);
    expect(Object.keys(odd.metadata).sort()).toEqual(["__proto__", "a"]);
  });

  it("replaces the file: same id, slug, tags and metadata; the new file's name, type, size and pixel sizes; both versions up; old file and variants gone", async () => {
    const asset = await store.assets.upload({ fileName: "bild.png", body: PNG, id: "annot-3", tags: ["praxis"] });
    await store.assets.annotate("annot-3", { metadata: { description: "Foto" } });
    const dir = path.join(store.assets.dir, "annot-3");
    fs.writeFileSync(path.join(dir, "0-w320"), "variant");
    fs.writeFileSync(path.join(dir, "0-r-abc"), "variant");
    changes = [];
    const replaced = await store.assets.replaceContent("annot-3", { fileName: "bild-neu.png", mimeType: "image/png", body: PNG_4x3, expectedVersion: 1, actor: "subject:u6" });
    expect(replaced).toMatchObject({
      id: "annot-3", slug: asset.slug, tags: ["praxis"], metadata: { description: "Foto" }, fileName: "bild-neu.png", mimeType: "image/png",
      fileSize: PNG_4x3.length, pixelWidth: 4, pixelHeight: 3, fileVersion: 1, version: 2, lastModifiedBy: "subject:u6", created: asset.created,
    });
    expect(replaced.fileHash).not.toBe(asset.fileHash);
    expect(changes).toEqual([{ kind: "asset", id: "annot-3" }]);
    expect((await store.assets.read("annot-3")).body.equals(PNG_4x3)).toBe(true);
    expect(fs.readdirSync(dir)).toEqual(["1"]);
    // A text file for an image: type and pixel sizes follow the file.
    const text = await store.assets.replaceContent("annot-3", { fileName: "notiz.txt", mimeType: "text/plain", body: Buffer.from("Hallo") });
    expect(text).toMatchObject({ mimeType: "text/plain", type: "Unknown", fileVersion: 2, version: 3 });
    expect(text.pixelWidth).toBeUndefined();
  });

  it("refuses a new file with a stale version (412), for an unknown asset (404), empty, too large or contradicting its type, and keeps the old one", async () => {
    await expect(store.assets.replaceContent("annot-3", { fileName: "x.png", body: PNG, expectedVersion: 0 })).rejects.toMatchObject({ statusCode: 412 });
    await expect(store.assets.replaceContent("no-such-asset", { fileName: "x.png", body: PNG })).rejects.toMatchObject({ statusCode: 404 });
    await expect(store.assets.replaceContent("annot-3", { fileName: "x.png", body: Buffer.alloc(0) })).rejects.toMatchObject({ statusCode: 400 });
    await expect(store.assets.replaceContent("annot-3", { fileName: "x.png", body: Buffer.alloc(64 * 1024 + 1, 1) })).rejects.toMatchObject({ statusCode: 413 });
    await expect(store.assets.replaceContent("annot-3", { fileName: "x.png", mimeType: "image/jpeg", body: PNG })).rejects.toMatchObject({ statusCode: 400 });
    await expect(store.assets.replaceContent("annot-3", { fileName: "../x.png", body: PNG })).rejects.toMatchObject({ statusCode: 400 });
    expect(await store.assets.get("annot-3")).toMatchObject({ version: 3, fileVersion: 2 });
    expect((await store.assets.read("annot-3")).body.toString()).toBe("Hallo");
    expect(fs.readdirSync(path.join(store.assets.dir, "annot-3"))).toEqual(["2"]);
  });

  it("lets exactly one of two new files for the same version win, and keeps the winner's file", async () => {
    const results = await Promise.allSettled([
      store.assets.replaceContent("annot-3", { fileName: "a.txt", mimeType: "text/plain", body: Buffer.from("A"), expectedVersion: 3 }),
      store.assets.replaceContent("annot-3", { fileName: "b.txt", mimeType: "text/plain", body: Buffer.from("B"), expectedVersion: 3 }),
    ]);
    const won = results.find((r) => r.status === "fulfilled") as PromiseFulfilledResult<{ fileName: string }>;
    expect(results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason.statusCode)).toEqual([412]);
    expect((await store.assets.read("annot-3")).body.toString()).toBe(won.value.fileName === "a.txt" ? "A" : "B");
  });

  it("upserts: a new asset under the id (into parentId), then a new file for it (moved when parentId is given)", async () => {
    await store.assets.createFolder({ folderName: "Upserts", id: "f-upsert" });
    const made = await store.assets.upsert("annot-4", { fileName: "neu.png", body: PNG, parentId: "f-upsert" });
    expect(made.created).toBe(true);
    expect(made.asset).toMatchObject({ id: "annot-4", parentId: "f-upsert", version: 0, fileVersion: 0 });
    const again = await store.assets.upsert("annot-4", { fileName: "neu2.png", body: PNG_4x3 });
    expect(again.created).toBe(false);
    expect(again.asset).toMatchObject({ id: "annot-4", parentId: "f-upsert", fileName: "neu2.png", version: 1, fileVersion: 1 });
    const moved = await store.assets.upsert("annot-4", { fileName: "neu3.png", body: PNG, parentId: "" });
    expect(moved.asset).toMatchObject({ parentId: ROOT_FOLDER, version: 2, fileVersion: 2 });
    await expect(store.assets.upsert("annot-5", { fileName: "x.png", body: PNG, parentId: "no-such-folder" })).rejects.toMatchObject({ statusCode: 400 });
    await expect(store.assets.upsert("annot-5", { fileName: "x.png", body: PNG, expectedVersion: 3 })).rejects.toMatchObject({ statusCode: 412 });
    await expect(store.assets.upsert("../x", { fileName: "x.png", body: PNG })).rejects.toMatchObject({ statusCode: 400 });
    expect(await store.assets.get("annot-5")).toBeUndefined();
  });

  it("deletes only the expected version when one is given (412 otherwise)", async () => {
    await expect(store.assets.delete("annot-4", { expectedVersion: 0 })).rejects.toMatchObject({ statusCode: 412 });
    expect(await store.assets.get("annot-4")).toBeDefined();
    await store.assets.delete("annot-4", { expectedVersion: 2 });
    expect(await store.assets.get("annot-4")).toBeUndefined();
    await expect(store.assets.delete("annot-4", { expectedVersion: 2 })).rejects.toMatchObject({ statusCode: 404 });
  });
});
});
}

assetSuite("sqlite", () => sqliteStoreBackend("asset-folders", 64 * 1024));
const databaseUrl = process.env.TEST_DATABASE_URL;
assetSuite(
  databaseUrl ? "postgres" : "postgres (set TEST_DATABASE_URL to run)",
  databaseUrl ? () => postgresStoreBackend(databaseUrl, "asset-folders", "af_", 64 * 1024) : undefined,
);
