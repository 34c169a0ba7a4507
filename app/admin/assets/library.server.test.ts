import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ContentChange } from "~/content/store";
import type { ContentStore } from "~/content/store";
import { sqliteStoreBackend } from "../../../tests/support/store-backends";
import { folderPath, folderTargets, listFolders, listLibrary, renameAsset } from "./library.server";
import { ROOT_FOLDER } from "./query";

/** Against a real SQLite store with real asset files: search, paging and rename as the screen uses them. */

// A real 2x1 RGB PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAAD0lEQVR4nGP4z8DAwPAfAAcAAf9+CLHQAAAAAElFTkSuQmCC", "base64");
const backend = sqliteStoreBackend("asset-library", 64 * 1024);
let store: ContentStore;

beforeAll(async () => {
  store = await backend.openStore();
  await store.migrate();
  const names = ["Praxis Foto.png", "praxis-logo.png", "Team 100%.png", "team_a.png", "Anfahrt.png"];
  for (const [i, fileName] of names.entries()) await store.assets.upload({ fileName, body: PNG, id: `asset-${i}` });
  await store.assets.upload({ fileName: "notes.txt", mimeType: "text/plain", body: Buffer.from("hello"), id: "asset-text" });
});

afterAll(async () => {
  await store.db.destroy();
  await backend.dispose();
});

const query = (q = "", page = 1, folder = ROOT_FOLDER) => ({ q, folder, page });

describe("listLibrary", () => {
  it("lists the root folder, with total and pages", async () => {
    const all = await listLibrary(store, query(), 4);
    expect(all.total).toBe(6);
    expect(all.pages).toBe(2);
    expect(all.items).toHaveLength(4);
    const second = await listLibrary(store, query("", 2), 4);
    expect(second.items).toHaveLength(2);
    expect(new Set([...all.items, ...second.items].map((a) => a.id)).size).toBe(6);
  });

  it("searches file names case-insensitively", async () => {
    const found = await listLibrary(store, query("PRAXIS"));
    expect(found.items.map((a) => a.fileName).sort()).toEqual(["Praxis Foto.png", "praxis-logo.png"]);
  });

  it("takes % and _ in the search literally", async () => {
    expect((await listLibrary(store, query("100%"))).items.map((a) => a.fileName)).toEqual(["Team 100%.png"]);
    expect((await listLibrary(store, query("m_a"))).items.map((a) => a.fileName)).toEqual(["team_a.png"]);
    expect((await listLibrary(store, query("%"))).total).toBe(1);
  });

  it("treats SQL in the search as text", async () => {
    const found = await listLibrary(store, query("' or 1=1 --"));
    expect(found.total).toBe(0);
    expect(found.items).toEqual([]);
  });

  it("shows the last page when asked past the end", async () => {
    const past = await listLibrary(store, query("", 99), 4);
    expect(past.page).toBe(2);
    expect(past.items).toHaveLength(2);
  });

  it("marks images and keeps other types apart", async () => {
    const { items } = await listLibrary(store, query("notes"));
    expect(items[0]).toMatchObject({ id: "asset-text", isImage: false, mimeType: "text/plain" });
    const image = (await listLibrary(store, query("Anfahrt"))).items[0];
    expect(image).toMatchObject({ isImage: true, pixelWidth: 2, pixelHeight: 1 });
  });

  it("filters by folder: an unknown folder is empty", async () => {
    expect((await listLibrary(store, query("", 1, "no-such-folder"))).total).toBe(0);
  });
});

describe("folders", () => {
  it("lists named folders, gives breadcrumbs and move targets labelled with their path", async () => {
    expect(await listFolders(store)).toEqual([]);
    const praxis = await store.assets.createFolder({ folderName: "Praxis", id: "lib-praxis" });
    await store.assets.createFolder({ folderName: "Team", parentId: praxis.id, id: "lib-team" });
    expect(await listFolders(store)).toEqual([{ id: "lib-praxis", folderName: "Praxis", version: 0 }]);
    expect((await listFolders(store, "lib-praxis")).map((f) => f.folderName)).toEqual(["Team"]);
    expect((await folderPath(store, "lib-team")).map((f) => f.folderName)).toEqual(["Praxis", "Team"]);
    expect(await folderTargets(store)).toEqual([
      { id: "lib-praxis", label: "Praxis" },
      { id: "lib-team", label: "Praxis / Team" },
    ]);
    await expect(listFolders(store, "no-such-folder")).rejects.toMatchObject({ statusCode: 404 });
  });

  it("lists the assets of a folder apart from the root", async () => {
    await store.assets.upload({ fileName: "im-ordner.png", body: PNG, id: "asset-in-team", parentId: "lib-team" });
    expect((await listLibrary(store, query("", 1, "lib-team"))).items.map((a) => a.id)).toEqual(["asset-in-team"]);
    expect((await listLibrary(store, query("im-ordner"))).total).toBe(0);
  });
});

describe("renameAsset", () => {
  it("renames through the store: file name and version change, slug and file stay, a change event goes out", async () => {
    const changes: ContentChange[] = [];
    const off = store.onChange((change) => changes.push(change));
    const before = (await store.assets.get("asset-4"))!;
    const renamed = await renameAsset(store, { id: "asset-4", fileName: "Wegbeschreibung.png", by: { kind: "user" as const, userId: "t", email: "editor@example.org", superuser: false }, expectedVersion: before.version });
    off();
    const after = (await store.assets.get("asset-4"))!;
    expect(after).toMatchObject({ fileName: "Wegbeschreibung.png", slug: before.slug, version: before.version + 1, lastModifiedBy: "subject:t" });
    expect(renamed.fileName).toBe("Wegbeschreibung.png");
    expect((await store.assets.read("asset-4")).body.equals(PNG)).toBe(true);
    expect(changes).toContainEqual({ kind: "asset", id: "asset-4" });
    expect((await listLibrary(store, query("wegbeschreibung"))).items.map((a) => a.id)).toEqual(["asset-4"]);
  });

  it("refuses a stale version with 412 and an unknown asset with 404", async () => {
    await expect(renameAsset(store, { id: "asset-3", fileName: "x.png", by: { kind: "user" as const, userId: "t", email: "editor@example.org", superuser: false }, expectedVersion: 7 })).rejects.toMatchObject({ statusCode: 412 });
    await expect(renameAsset(store, { id: "missing", fileName: "x.png", by: { kind: "user" as const, userId: "t", email: "editor@example.org", superuser: false } })).rejects.toMatchObject({ statusCode: 404 });
    expect((await store.assets.get("asset-3"))!.fileName).toBe("team_a.png");
  });
});
