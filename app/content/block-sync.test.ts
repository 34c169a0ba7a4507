import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteStoreBackend } from "../../tests/support/store-backends";
import { demoSchemas } from "./seed/schemas";
import { syncBlockSchemas } from "./block-sync";
import type { ContentStore } from "./store";
import type { SchemaInput } from "./types";

/**
 * A store made by an older version (no section block, the appointments block without its
 * practitioner, pages that do not admit sections, no palette entry) is brought up to the code's
 * block kinds at start — additions only: what editors changed stays.
 */
describe("block schemas at start", () => {
  const backend = sqliteStoreBackend("block-sync", 1024 * 1024);
  let store: ContentStore;

  beforeAll(async () => {
    store = await backend.openStore();
    await store.migrate();
    const old = (s: SchemaInput): SchemaInput | null => {
      if (s.name === "block-section") return null;
      if (s.name === "block-book-appointment") return { ...s, fields: s.fields.filter((f) => f.name !== "practitioner") };
      if (s.name === "block-hero") return { ...s, fields: s.fields.map((f) => (f.name === "heading" ? { ...f, properties: { ...f.properties, label: "Große Überschrift" } } : f)) };
      if (s.name === "core-pages")
        return { ...s, fields: s.fields.map((f) => (f.name === "blocks" ? { ...f, properties: { ...f.properties, schemaIds: f.properties.schemaIds!.filter((n) => n !== "block-section") } } : f)) };
      return s;
    };
    const schemas = demoSchemas.map(old).filter((s): s is SchemaInput => s !== null);
    for (const s of [...schemas.filter((s) => s.type === "Component"), ...schemas.filter((s) => s.type !== "Component")]) await store.upsertSchema(s);
  });
  afterAll(async () => {
    await store.close();
    await backend.dispose();
  });

  it("adds the missing kind, field, admission and palette entry, and keeps what editors changed", async () => {
    const done = await syncBlockSchemas(store);
    expect(done).toEqual(expect.arrayContaining(["created block-section", "block-book-appointment: added practitioner", "core-pages blocks: admits block-section", "palette: block-section"]));
    expect(await store.getSchema("block-section")).toBeDefined();
    expect((await store.getSchema("block-book-appointment"))!.fields.map((f) => f.name)).toContain("practitioner");
    expect((await store.getSchema("core-pages"))!.fields.find((f) => f.name === "blocks")!.properties.schemaIds).toContain("block-section");
    expect((await store.getSchema("block-hero"))!.fields.find((f) => f.name === "heading")!.properties.label).toBe("Große Überschrift");
    const palette = await store.query("core-settings-blocks", {}, { unpublished: true, all: true, noTotal: true });
    expect(palette.items.map((i) => i.data.name?.iv)).toContain("block-section");
    // A page with a section in it is accepted now.
    await store.create("core-pages", {
      title: { de: "Neu", en: "New" },
      seo: { de: { schemaId: "component-seo", slug: "neu", seotitle: "Neu" }, en: { schemaId: "component-seo", slug: "neu", seotitle: "New" } },
      blocks: { de: [{ schemaId: "block-section", id: "s1", heading: "", layout: "stack", background: "", blocks: [] }], en: [] },
    });
  });

  it("does nothing the second time", async () => {
    expect(await syncBlockSchemas(store)).toEqual([]);
  });
});
