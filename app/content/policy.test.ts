import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresStoreBackend, sqliteStoreBackend, type StoreBackend } from "../../tests/support/store-backends";
import { ACTIONS, ASSET_ACTIONS, authorize, can, EDITOR_DELETABLE, SCREEN_ONLY_COLLECTIONS, SINGLETON_COLLECTIONS, SUPERUSER_COLLECTIONS, type Action, type Principal } from "./policy";
import type { ContentStore } from "./store";

/**
 * The one authorization policy (role × collection × action), and the store asking it for every
 * write that names its writer, with the audit line in the same transaction.
 */

const editor: Principal = { kind: "user", userId: "u-editor", email: "editor@example.org", superuser: false };
const superuser: Principal = { kind: "user", userId: "u-super", email: "boss@example.org", superuser: true };
const client: Principal = { kind: "client", clientId: "praxisnetz:default" };
const visitor: Principal = { kind: "visitor" };

describe("the policy table", () => {
  const collections = ["core-pages", "gm-content-practitioners", "gm-appointments", "block-hero", ...SUPERUSER_COLLECTIONS];
  const actions: Action[] = [...ACTIONS, ...ASSET_ACTIONS];

  it("lets superusers and client tokens do everything (but remove the singleton's item), visitors nothing", () => {
    for (const c of collections)
      for (const a of actions) {
        if (SINGLETON_COLLECTIONS.has(c) && (a === "delete" || a === "unpublish")) continue;
        expect(can(superuser, a, c), `superuser ${a} ${c}`).toBe(true);
        expect(can(client, a, c), `client ${a} ${c}`).toBe(true);
        expect(can(visitor, a, c), `visitor ${a} ${c}`).toBe(false);
      }
  });

  it("keeps the superuser collections, deleting and the app's schemas from editors", () => {
    for (const c of SUPERUSER_COLLECTIONS)
      for (const a of ["create", "update", "publish", "unpublish", "delete", "changeSchema"] as const) expect(can(editor, a, c), `${a} ${c}`).toBe(false);
    expect(can(editor, "readDraft", "core-global-settings")).toBe(true);
    for (const c of ["core-pages", "gm-content-practitioners"]) {
      for (const a of ["create", "update", "publish", "unpublish", "readDraft"] as const) expect(can(editor, a, c), `${a} ${c}`).toBe(true);
      expect(can(editor, "delete", c)).toBe(false);
      expect(can(editor, "changeSchema", c)).toBe(false);
    }
    for (const c of EDITOR_DELETABLE) expect(can(editor, "delete", c)).toBe(true);
    expect(can(editor, "changeSchema", "block-hero")).toBe(true);
    expect(can(editor, "deleteAsset")).toBe(false);
    for (const a of ["uploadAsset", "changeAsset", "changeFolder", "deleteFolder"] as const) expect(can(editor, a)).toBe(true);
  });
});

describe("the singleton and the system collections (issue 22)", () => {
  it("lets nobody delete or unpublish the singleton's item, with a 400 that says why (not a question of rights)", () => {
    for (const c of SINGLETON_COLLECTIONS)
      for (const p of [editor, superuser, client]) {
        for (const a of ["delete", "unpublish"] as const) {
          expect(can(p, a, c), `${p.kind} ${a} ${c}`).toBe(false);
          expect(() => authorize(p, a, c)).toThrow(expect.objectContaining({ statusCode: 400, errorCode: "SINGLETON_KEPT", message: expect.stringMatching(/one settings item/) }));
        }
        // Changing it stays possible (for those who may), and publishing its draft.
        expect(can(p, "update", c)).toBe(p !== editor);
        expect(can(p, "publish", c)).toBe(p !== editor);
      }
    expect(() => authorize(visitor, "delete", "core-global-settings")).toThrow(expect.objectContaining({ statusCode: 401 }));
  });

  it("keeps the admin menu, block palette, languages and global settings from editors", () => {
    for (const c of ["core-global-settings", "core-backend-navigation", "core-settings-blocks", "core-theme-languages"]) {
      expect(SUPERUSER_COLLECTIONS.has(c), c).toBe(true);
      for (const a of ["create", "update", "publish", "unpublish", "delete"] as const) expect(can(editor, a, c, "design-screen"), `${a} ${c}`).toBe(false);
    }
  });

  it("lets editors change themes on the design screen only, never as plain items", () => {
    for (const c of SCREEN_ONLY_COLLECTIONS) {
      for (const a of ["create", "update", "publish", "unpublish"] as const) {
        expect(can(editor, a, c), `plain ${a} ${c}`).toBe(false);
        expect(can(editor, a, c, "design-screen"), `screen ${a} ${c}`).toBe(true);
        expect(can(superuser, a, c), `superuser ${a} ${c}`).toBe(true);
      }
      expect(() => authorize(editor, "update", c)).toThrow(expect.objectContaining({ statusCode: 403 }));
    }
  });
});

function policySuite(label: string, makeBackend: (() => StoreBackend) | undefined) {
  describe.skipIf(!makeBackend)(`the store asks the policy (${label})`, () => {
    let backend: StoreBackend;
    let store: ContentStore;

    // In write order: writes of one millisecond share `at`, so then by version, a delete after the write of its version.
    const auditRows = async (itemId: string) =>
      (await store.db.selectFrom("audit_log").selectAll().where("item_id", "=", itemId).execute()).sort(
        (a, b) => a.at.localeCompare(b.at) || (a.version === null ? 1e9 : Number(a.version)) - (b.version === null ? 1e9 : Number(b.version)) || Number(a.action.startsWith("delete")) - Number(b.action.startsWith("delete")),
      );

    beforeAll(async () => {
      backend = makeBackend!();
      store = await backend.openStore();
      await store.migrate();
      await store.upsertSchema({ name: "core-global-settings", fields: [{ name: "footer", partitioning: "language", properties: { fieldType: "String" } }] });
      await store.upsertSchema({ name: "core-pages", fields: [{ name: "title", partitioning: "language", properties: { fieldType: "String" } }] });
      await store.create("core-global-settings", { footer: { de: "Fuß" } }, { id: "global-settings", publish: true });
      await store.create("core-pages", { title: { de: "Start" } }, { id: "home", publish: true });
    });
    afterAll(async () => {
      await store?.db.destroy();
      await backend?.dispose();
    });

    it("refuses an editor every write to the global settings with 403 and changes nothing", async () => {
      const before = await store.get("core-global-settings", "global-settings", { unpublished: true });
      const attempts = [
        () => store.create("core-global-settings", { footer: { de: "x" } }, { by: editor }),
        () => store.createMany("core-global-settings", [{ data: { footer: { de: "x" } } }], { by: editor }),
        () => store.update("core-global-settings", "global-settings", { footer: { de: "gehackt" } }, { by: editor }),
        () => store.patch("core-global-settings", "global-settings", { footer: { de: "gehackt" } }, { by: editor }),
        () => store.createDraft("core-global-settings", "global-settings", { by: editor }),
        () => store.upsertSchema({ name: "core-global-settings", fields: [] }, { by: editor }),
      ];
      for (const attempt of attempts) await expect(attempt()).rejects.toMatchObject({ statusCode: 403 });
      // Unpublishing and deleting its one item are refused to everyone: 400 (the test below).
      for (const attempt of [() => store.changeStatus("core-global-settings", "global-settings", "Draft", { by: editor }), () => store.delete("core-global-settings", "global-settings", { by: editor })])
        await expect(attempt()).rejects.toMatchObject({ statusCode: 400 });
      expect(await store.get("core-global-settings", "global-settings", { unpublished: true })).toEqual(before);
      expect(await auditRows("global-settings")).toEqual([]);
    });

    it("refuses everyone deleting or unpublishing the global settings with 400, changing nothing; a superuser still changes them", async () => {
      const before = await store.get("core-global-settings", "global-settings", { unpublished: true });
      for (const by of [editor, superuser, client]) {
        const attempts = [
          () => store.delete("core-global-settings", "global-settings", { by }),
          () => store.changeStatus("core-global-settings", "global-settings", "Draft", { by }),
          () => store.changeStatus("core-global-settings", "global-settings", "Archived", { by }),
        ];
        for (const attempt of attempts) await expect(attempt()).rejects.toMatchObject({ statusCode: 400, errorCode: "SINGLETON_KEPT" });
      }
      expect(await store.get("core-global-settings", "global-settings", { unpublished: true })).toEqual(before);
      expect(await auditRows("global-settings")).toEqual([]);
      const changed = await store.patch("core-global-settings", "global-settings", { footer: { de: "Neu" } }, { by: superuser });
      expect(changed.status).toBe("Published");
      expect(changed.data.footer).toEqual({ de: "Neu" });
    });

    it("refuses everyone a second global settings item, on one create and in a bulk, creating nothing", async () => {
      const count = async () => (await store.query("core-global-settings", { take: 0 }, { unpublished: true })).total;
      expect(await count()).toBe(1);
      for (const by of [superuser, client]) {
        const attempts = [
          () => store.create("core-global-settings", { siteName: { iv: "Zweite" } }, { by }),
          () => store.create("core-global-settings", { siteName: { iv: "Zweite" } }, { by, publish: true }),
          () => store.createMany("core-global-settings", [{ data: { siteName: { iv: "Zweite" } } }], { by }),
        ];
        for (const attempt of attempts) await expect(attempt()).rejects.toMatchObject({ statusCode: 400, errorCode: "SINGLETON_KEPT", message: expect.stringMatching(/second one cannot be created/) });
      }
      // The app's own writes too (no writer named): the rule is the store's, not a screen's.
      await expect(store.create("core-global-settings", { siteName: { iv: "Zweite" } })).rejects.toMatchObject({ statusCode: 400 });
      expect(await count()).toBe(1);
    });

    it("lets an editor write a theme through the design screen only; as a plain item it is refused and nothing written", async () => {
      await store.upsertSchema({ name: "core-theme-settings", fields: [{ name: "name", partitioning: "invariant", properties: { fieldType: "String" } }] });
      await expect(store.create("core-theme-settings", { name: { iv: "Plain" } }, { id: "theme-plain", by: editor })).rejects.toMatchObject({ statusCode: 403 });
      expect(await store.get("core-theme-settings", "theme-plain", { unpublished: true })).toBeUndefined();
      const made = await store.create("core-theme-settings", { name: { iv: "Screen" } }, { id: "theme-screen", by: editor, via: "design-screen", publish: true });
      await expect(store.update("core-theme-settings", made.id, { name: { iv: "Plain change" } }, { by: editor })).rejects.toMatchObject({ statusCode: 403 });
      const changed = await store.update("core-theme-settings", made.id, { name: { iv: "Screen change" } }, { by: editor, via: "design-screen" });
      expect(changed.data.name).toEqual({ iv: "Screen change" });
    });

    it("refuses an editor deleting a page but lets a superuser, each write audited with who, what, schema, id and version", async () => {
      await expect(store.delete("core-pages", "home", { by: editor })).rejects.toMatchObject({ statusCode: 403 });
      const page = await store.create("core-pages", { title: { de: "Weg" } }, { id: "gone", by: editor });
      const patched = await store.patch("core-pages", "gone", { title: { de: "Weg damit" } }, { by: editor, note: { action: "rename-page", detail: "de: Weg damit" } });
      const published = await store.changeStatus("core-pages", "gone", "Published", { by: editor });
      await store.delete("core-pages", "gone", { by: superuser, expectedVersion: published.version });
      const rows = await auditRows("gone");
      expect(rows.map((r) => [r.action, r.user_id, r.user_email, r.schema_name, Number(r.version), r.detail])).toEqual([
        ["create-content", "u-editor", "editor@example.org", "core-pages", page.version, null],
        ["rename-page", "u-editor", "editor@example.org", "core-pages", patched.version, "de: Weg damit"],
        ["publish-content", "u-editor", "editor@example.org", "core-pages", published.version, null],
        ["delete-content", "u-super", "boss@example.org", "core-pages", published.version, null],
      ]);
      expect(published.lastModifiedBy).toBe("subject:u-editor");
    });

    it("audits a client token's writes, and a write and its audit line stand or fall together", async () => {
      const items = await store.createMany("core-pages", [{ data: { title: { de: "A" } }, id: "bulk-a" }, { data: { title: { de: "B" } }, id: "bulk-b", publish: true }], { by: client });
      expect(items[0]!.createdBy).toBe("client:praxisnetz:default");
      expect((await auditRows("bulk-b")).map((r) => [r.action, r.user_id, r.user_email])).toEqual([["create-content", null, "client:praxisnetz:default"]]);
      // A transaction that fails after a write keeps neither the write nor its audit line.
      await expect(
        store.transaction(async (tx) => {
          await tx.update("core-pages", "bulk-a", { title: { de: "A2" } }, { by: client });
          throw new Error("later step failed");
        }),
      ).rejects.toThrow("later step failed");
      expect((await store.get("core-pages", "bulk-a", { unpublished: true }))!.data.title).toEqual({ de: "A" });
      expect((await auditRows("bulk-a")).map((r) => r.action)).toEqual(["create-content"]);
    });

    it("writes no audit line for the app's own writes (no writer named)", async () => {
      await store.create("core-pages", { title: { de: "System" } }, { id: "system-page" });
      expect(await auditRows("system-page")).toEqual([]);
    });

    it("asks the policy for asset writes: editors upload and keep folders, only superusers delete files", async () => {
      const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAAD0lEQVR4nGP4z8DAwPAfAAcAAf9+CLHQAAAAAElFTkSuQmCC", "base64");
      await expect(store.assets.upload({ fileName: "a.png", body: png, by: visitor })).rejects.toMatchObject({ statusCode: 401 });
      const asset = await store.assets.upload({ fileName: "a.png", body: png, id: "policy-asset", by: editor });
      await store.assets.rename(asset.id, "b.png", { by: editor });
      await expect(store.assets.delete(asset.id, { by: editor })).rejects.toMatchObject({ statusCode: 403 });
      expect(await store.assets.get(asset.id)).toBeDefined();
      const folder = await store.assets.createFolder({ folderName: "Team", id: "policy-folder", by: editor });
      await store.assets.deleteFolder(folder.id, { by: editor });
      await store.assets.delete(asset.id, { by: superuser });
      expect((await auditRows("policy-asset")).map((r) => [r.action, r.user_id, r.detail])).toEqual([
        ["upload-asset", "u-editor", "a.png"],
        ["rename-asset", "u-editor", null],
        ["delete-asset", "u-super", null],
      ]);
      expect((await auditRows("policy-folder")).map((r) => r.action)).toEqual(["create-asset-folder", "delete-asset-folder"]);
    });
  });
}

policySuite("sqlite", () => sqliteStoreBackend("policy", 64 * 1024));
const databaseUrl = process.env.TEST_DATABASE_URL;
policySuite(databaseUrl ? "postgres" : "postgres (set TEST_DATABASE_URL to run)", databaseUrl ? () => postgresStoreBackend(databaseUrl, "policy", "pol_", 64 * 1024) : undefined);
