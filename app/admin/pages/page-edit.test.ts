import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteStoreBackend } from "../../../tests/support/store-backends";
import type { ContentStore } from "~/content/store";
import { schema, field } from "~/content/schema-builder";
import { keepsDrafts, updateAsDraft } from "./page-edit";

/** One model for what editors change: on pages (and collections tagged "drafts") a save is a draft until published. */
describe("updateAsDraft", () => {
  const backend = sqliteStoreBackend("page-edit", 1024 * 1024);
  let store: ContentStore;
  beforeAll(async () => {
    store = await backend.openStore();
    await store.migrate();
    await store.upsertSchema(schema("notes", "Default", "Notizen", "", [field("text", "String", "Text")], { tags: ["drafts"] }));
    await store.upsertSchema(schema("plain", "Default", "Schlicht", "", [field("text", "String", "Text")]));
  });
  afterAll(async () => {
    await store.close();
    await backend.dispose();
  });

  it("knows which collections keep drafts", async () => {
    expect(keepsDrafts({ name: "core-pages" })).toBe(true);
    expect(keepsDrafts((await store.getSchema("notes"))!)).toBe(true);
    expect(keepsDrafts((await store.getSchema("plain"))!)).toBe(false);
  });

  it("keeps the live item as it is and makes the change a draft (state Changed)", async () => {
    const item = await store.create("notes", { text: { iv: "live" } }, { publish: true });
    const changed = await updateAsDraft(store, "notes", item.id, { text: { iv: "draft" } }, { expectedVersion: item.version });
    expect(changed.status).toBe("Published");
    expect(changed.newStatus).toBe("Draft");
    expect((await store.get("notes", item.id))!.data.text).toEqual({ iv: "live" });
    expect((await store.get("notes", item.id, { unpublished: true }))!.data.text).toEqual({ iv: "draft" });
    // A second save changes the draft only.
    const again = await updateAsDraft(store, "notes", item.id, { text: { iv: "draft 2" } }, { expectedVersion: changed.version });
    expect((await store.get("notes", item.id))!.data.text).toEqual({ iv: "live" });
    expect(again.data.text).toEqual({ iv: "draft 2" });
  });

  it("refuses a stale version and changes nothing", async () => {
    const item = await store.create("notes", { text: { iv: "live" } }, { publish: true });
    await expect(updateAsDraft(store, "notes", item.id, { text: { iv: "x" } }, { expectedVersion: item.version - 1 })).rejects.toMatchObject({ statusCode: 412 });
    const now = (await store.get("notes", item.id, { unpublished: true }))!;
    expect(now.newStatus ?? null).toBeNull();
    expect(now.version).toBe(item.version);
  });
});
