import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { postgresStoreBackend, sqliteStoreBackend, type StoreBackend } from "../../tests/support/store-backends";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ContentError } from "./errors";
import { flattenItem } from "./flatten";
import { ContentStore, type ContentChange } from "./store";
import type { ContentItem, SchemaInput } from "./types";

/**
 * Integration tests of the embedded content store against a real database: always SQLite (a temp
 * file), and PostgreSQL when TEST_DATABASE_URL is set (each run in its own schema, dropped afterwards).
 * The suites define their own schemas and never rely on demo content.
 */

// A real 2x1 RGB PNG (72 bytes).
const PNG_2X1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAAD0lEQVR4nGP4z8DAwPAfAAcAAf9+CLHQAAAAAElFTkSuQmCC",
  "base64",
);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="3"><rect width="4" height="3"/></svg>');
const SVG_WITH_PROLOG = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="4" height="3"><rect width="4" height="3"/></svg>',
);
// Deterministic "random" bytes that match no file signature.
const JUNK = Buffer.from(Array.from({ length: 64 }, (_, i) => (i * 37 + 11) & 255));
const MAX_BYTES = 4096;
const SYSTEM_ACTOR = "client:praxisnetz:default";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const BLOCK_SCHEMA: SchemaInput = {
  name: "test-block",
  type: "Component",
  fields: [{ name: "heading", partitioning: "invariant", properties: { fieldType: "String", isRequired: true } }],
};

const articleFields: SchemaInput["fields"] = [
  { name: "title", partitioning: "language", properties: { fieldType: "String", isRequired: true, minLength: 3, maxLength: 50 } },
  { name: "views", partitioning: "invariant", properties: { fieldType: "Number", minValue: 0 } },
  { name: "tags", partitioning: "invariant", properties: { fieldType: "Tags" } },
  { name: "published", partitioning: "invariant", properties: { fieldType: "Boolean" } },
  { name: "location", partitioning: "invariant", properties: { fieldType: "Geolocation" } },
  { name: "blocks", partitioning: "language", properties: { fieldType: "Components", schemaIds: ["test-block"] } },
];
const ARTICLES = "test-articles";
const QUERY_ITEMS = "test-query-items";

/** One storage location; `openStore` connects a new ContentStore to it (as after a restart). */
type Backend = StoreBackend;

async function expectContentError(promise: Promise<unknown>, statusCode: number): Promise<ContentError> {
  let caught: unknown;
  try {
    await promise;
  } catch (e) {
    caught = e;
  }
  expect(caught, `expected a ContentError ${statusCode}`).toBeInstanceOf(ContentError);
  expect((caught as ContentError).statusCode, (caught as Error).message).toBe(statusCode);
  return caught as ContentError;
}

const sqliteBackend = (): Backend => sqliteStoreBackend("store-test", MAX_BYTES);
const postgresBackend = (databaseUrl: string): Backend => postgresStoreBackend(databaseUrl, "store-test", "t_", MAX_BYTES);

function storeSuite(name: string, open: (() => Backend) | undefined) {
  (open ? describe : describe.skip)(name, () => {
    let backend: Backend;
    let store: ContentStore;

    beforeAll(async () => {
      backend = open!();
      store = await backend.openStore();
      expect(await store.migrate()).toEqual(["0001_content_model", "0002_bookings_beside_slots", "0003_jsonb_documents", "0004_content_indexes", "0005_visitor_flows", "0006_users_audit", "0007_asset_folders", "0008_ended_sessions", "0009_published_stamp", "0010_page_history", "0011_editor_presence", "0012_audit_filters", "0013_content_references", "0014_analytics", "0015_schedules", "0016_consent_records", "0017_asset_annotations"]);
      await store.upsertSchema(BLOCK_SCHEMA);
      await store.upsertSchema({ name: ARTICLES, fields: articleFields });
      await store.upsertSchema({ name: QUERY_ITEMS, fields: articleFields });
    });

    afterAll(async () => {
      await store?.close();
      await backend?.dispose();
    });

    const article = (title: string, extra: Record<string, unknown> = {}) => ({ title: { de: title }, ...extra });
    const getDraft = (id: string) => store.get(ARTICLES, id, { unpublished: true });
    const getLive = (id: string) => store.get(ARTICLES, id);

    describe("schemas", () => {
      it("stores the schemas with numbered fields and versions", async () => {
        const s = await store.getSchema(ARTICLES);
        expect(s).toMatchObject({ name: ARTICLES, type: "Default", isPublished: true, version: 0 });
        expect(s!.fields.map((f) => [f.fieldId, f.name, f.partitioning])).toEqual([
          [1, "title", "language"],
          [2, "views", "invariant"],
          [3, "tags", "invariant"],
          [4, "published", "invariant"],
          [5, "location", "invariant"],
          [6, "blocks", "language"],
        ]);
        expect(await store.getSchema(s!.id)).toEqual(s);
        expect((await store.getSchema("test-block"))?.type).toBe("Component");
        expect((await store.listSchemas()).map((x) => x.name)).toEqual(expect.arrayContaining(["test-block", ARTICLES, QUERY_ITEMS]));
      });

      it("rejects invalid schema definitions with a 400 listing each problem", async () => {
        const err = await expectContentError(
          store.upsertSchema({
            name: "Bad Name",
            fields: [
              { name: "a b", partitioning: "invariant", properties: { fieldType: "String" } },
              { name: "x", partitioning: "global" as never, properties: { fieldType: "String" } },
              { name: "x", partitioning: "invariant", properties: {} as never },
            ],
          }),
          400,
        );
        expect(err.details).toEqual([
          'name: "Bad Name" is not a valid schema name.',
          'fields[1].name: "a b" is not a valid field name.',
          "fields[2].partitioning: Must be invariant or language.",
          'fields[3].name: Duplicate field "x".',
          "fields[3].properties.fieldType: Field is required.",
        ]);
        expect(await store.getSchema("Bad Name")).toBeUndefined();
      });

      it("updates a schema, bumps its version and keeps field ids", async () => {
        const s0 = await store.upsertSchema({
          name: "test-evolving",
          fields: [
            { name: "a", partitioning: "invariant", properties: { fieldType: "String" } },
            { name: "b", partitioning: "invariant", properties: { fieldType: "Number" } },
          ],
        });
        const s1 = await store.upsertSchema(
          {
            name: "test-evolving",
            fields: [
              { name: "b", partitioning: "invariant", properties: { fieldType: "Number" } },
              { name: "a", partitioning: "invariant", properties: { fieldType: "String", isRequired: true } },
            ],
          },
          { expectedVersion: s0.version },
        );
        expect(s1.id).toBe(s0.id);
        expect(s1.version).toBe(s0.version + 1);
        expect(s1.fields.map((f) => [f.name, f.fieldId])).toEqual([
          ["b", 2],
          ["a", 1],
        ]);
        await expectContentError(store.upsertSchema({ name: "test-evolving", fields: [] }, { expectedVersion: s0.version }), 412);
        expect((await store.getSchema("test-evolving"))?.version).toBe(s1.version);
      });

      it("gives new fields ids that no existing field has", async () => {
        const s0 = await store.upsertSchema({
          name: "test-field-ids",
          fields: [
            { name: "a", partitioning: "invariant", properties: { fieldType: "String" } },
            { name: "b", partitioning: "invariant", properties: { fieldType: "String" } },
          ],
        });
        expect(s0.fields.map((f) => f.fieldId)).toEqual([1, 2]);
        const s1 = await store.upsertSchema({
          name: "test-field-ids",
          fields: [
            { name: "c", partitioning: "invariant", properties: { fieldType: "String" } },
            { name: "a", partitioning: "invariant", properties: { fieldType: "String" } },
            { name: "b", partitioning: "invariant", properties: { fieldType: "String" } },
          ],
        });
        const idsByName = Object.fromEntries(s1.fields.map((f) => [f.name, f.fieldId]));
        expect(idsByName).toEqual({ a: 1, b: 2, c: 3 });
      });

      it("checks the fields of an Array's entries and keeps their ids by name", async () => {
        const entry = (name: string, fieldId?: number) => ({ name, ...(fieldId ? { fieldId } : {}), properties: { fieldType: "String" as const } });
        const err = await expectContentError(
          store.upsertSchema({
            name: "test-nested-bad",
            fields: [
              { name: "list", partitioning: "invariant", properties: { fieldType: "Array" }, nested: [entry("a b", 1), entry("x", 2), entry("x", 3), { name: "y", fieldId: 4, properties: {} as never }] },
              { name: "text", partitioning: "invariant", properties: { fieldType: "String" }, nested: [entry("z", 1)] },
            ],
          }),
          400,
        );
        expect(err.details).toEqual([
          'fields[1].nested[1].name: "a b" is not a valid field name.',
          'fields[1].nested[3].name: Duplicate field "x".',
          "fields[1].nested[4].properties.fieldType: Field is required.",
          "fields[2].nested: Only Array fields have nested fields.",
        ]);
        const s0 = await store.upsertSchema({ name: "test-nested", fields: [{ name: "list", partitioning: "invariant", properties: { fieldType: "Array" }, nested: [entry("a", 1), entry("b", 2)] }] });
        const s1 = await store.upsertSchema({
          name: "test-nested",
          fields: [{ name: "list", partitioning: "invariant", properties: { fieldType: "Array" }, nested: [entry("b"), entry("c"), entry("a")] }],
        });
        expect(s0.fields[0]!.nested!.map((n) => [n.name, n.fieldId])).toEqual([["a", 1], ["b", 2]]);
        expect(s1.fields[0]!.nested!.map((n) => [n.name, n.fieldId])).toEqual([["b", 2], ["c", 3], ["a", 1]]);
      });

      it("refuses data nested deeper than request bodies may be (400), so one item cannot break its collection's searches", async () => {
        await store.upsertSchema({ name: "test-deep", fields: [{ name: "j", partitioning: "invariant", properties: { fieldType: "Json" } }, { name: "t", partitioning: "invariant", properties: { fieldType: "String" } }] });
        const nest = (levels: number) => {
          let v: unknown = "x";
          for (let i = 0; i < levels; i++) v = [v];
          return v;
        };
        const err = await expectContentError(store.create("test-deep", { j: { iv: nest(3000) }, t: { iv: "tief" } }, { publish: true }), 400);
        expect(err.details).toEqual(["Data must not nest deeper than 64 levels."]);
        await store.create("test-deep", { j: { iv: nest(40) }, t: { iv: "flach" } }, { publish: true });
        for (const unpublished of [false, true]) {
          expect((await store.query("test-deep", { fullText: "flach" }, { unpublished })).total).toBe(1);
          expect((await store.query("test-deep", { filter: { path: "data.t.iv", op: "eq", value: "tief" } }, { unpublished })).total).toBe(0);
        }
      });

      it("hides unpublished and component schemas from content reads", async () => {
        await store.upsertSchema({
          name: "test-hidden",
          isPublished: false,
          fields: [{ name: "a", partitioning: "invariant", properties: { fieldType: "String" } }],
        });
        await expectContentError(store.query("test-hidden"), 404);
        expect(await store.query("test-hidden", {}, { unpublished: true })).toEqual({ total: 0, items: [] });
        await expectContentError(store.query("test-block", {}, { unpublished: true }), 404);
        await expectContentError(store.create("test-block", { heading: { iv: "x" } }), 404);
        await expectContentError(store.query("no-such-schema", {}, { unpublished: true }), 404);
      });
    });

    describe("CRUD", () => {
      it("creates a draft by default with a generated id, version 0 and the default actor", async () => {
        const data = { title: { de: "Hallo Welt" }, views: { iv: 3 }, tags: { iv: ["a"] } };
        const created = await store.create(ARTICLES, data);
        expect(created.id).toMatch(UUID);
        expect(created).toMatchObject({
          schemaName: ARTICLES,
          schemaId: (await store.getSchema(ARTICLES))!.id,
          status: "Draft",
          version: 0,
          data,
          createdBy: SYSTEM_ACTOR,
          lastModifiedBy: SYSTEM_ACTOR,
        });
        expect(created.newStatus).toBeUndefined();
        expect(Date.parse(created.created)).not.toBeNaN();
        expect(created.lastModified).toBe(created.created);
        expect(await getDraft(created.id)).toEqual(created);
      });

      it("creates a published item with publish: true, a custom id and an actor", async () => {
        const created = await store.create(ARTICLES, article("Veröffentlicht"), {
          publish: true,
          id: "crud-custom-1",
          actor: "subject:editor@example.org",
        });
        expect(created).toMatchObject({ id: "crud-custom-1", status: "Published", version: 1, createdBy: "subject:editor@example.org" });
        const live = await getLive("crud-custom-1");
        expect(live?.data).toEqual(article("Veröffentlicht"));
        expect(live?.status).toBe("Published");
      });

      it("refuses a duplicate custom id with 409 and keeps the original", async () => {
        await store.create(ARTICLES, article("Original"), { id: "crud-dup" });
        const before = await store.countContents();
        const err = await expectContentError(store.create(ARTICLES, article("Kopie"), { id: "crud-dup" }), 409);
        expect(err.errorCode).toBe("OBJECT_CONFLICT");
        // Ids are unique across schemas, too.
        await expectContentError(store.create(QUERY_ITEMS, article("Kopie"), { id: "crud-dup" }), 409);
        expect((await getDraft("crud-dup"))?.data).toEqual(article("Original"));
        expect(await store.countContents()).toBe(before);
      });

      it("refuses malformed custom ids with 400", async () => {
        await expectContentError(store.create(ARTICLES, article("Hallo"), { id: "a b" }), 400);
        await expectContentError(store.create(ARTICLES, article("Hallo"), { id: "../x" }), 400);
        await expectContentError(store.create(ARTICLES, article("Hallo"), { id: "" }), 400);
      });

      it("gets undefined for unknown ids and ids of another schema", async () => {
        const a = await store.create(ARTICLES, article("Anderswo"), { publish: true });
        expect(await store.get(ARTICLES, "does-not-exist", { unpublished: true })).toBeUndefined();
        expect(await store.get(QUERY_ITEMS, a.id, { unpublished: true })).toBeUndefined();
      });

      it("update replaces the whole data and bumps the version", async () => {
        const a = await store.create(ARTICLES, article("Erste", { views: { iv: 1 }, tags: { iv: ["x"] } }));
        const updated = await store.update(ARTICLES, a.id, article("Zweite", { views: { iv: 2 } }), { actor: "subject:u2" });
        expect(updated.version).toBe(1);
        expect(updated.data).toEqual(article("Zweite", { views: { iv: 2 } }));
        expect(updated.lastModifiedBy).toBe("subject:u2");
        expect(updated.createdBy).toBe(SYSTEM_ACTOR);
        expect(updated.created).toBe(a.created);
        expect(await getDraft(a.id)).toEqual(updated);
      });

      it("patch merges per field, and null removes a field", async () => {
        const a = await store.create(ARTICLES, article("Patchbar", { views: { iv: 1 }, tags: { iv: ["x"] } }));
        const p = await store.patch(ARTICLES, a.id, { views: { iv: 5 }, published: { iv: true } });
        expect(p.version).toBe(1);
        expect(p.data).toEqual(article("Patchbar", { views: { iv: 5 }, tags: { iv: ["x"] }, published: { iv: true } }));
        const p2 = await store.patch(ARTICLES, a.id, { tags: null });
        expect(p2.data).toEqual(article("Patchbar", { views: { iv: 5 }, published: { iv: true } }));
        expect(p2.version).toBe(2);
      });

      it("update/patch/status/delete of an unknown id give 404", async () => {
        await expectContentError(store.update(ARTICLES, "nope", article("Hallo")), 404);
        await expectContentError(store.patch(ARTICLES, "nope", { views: { iv: 1 } }), 404);
        await expectContentError(store.changeStatus(ARTICLES, "nope", "Published"), 404);
        await expectContentError(store.delete(ARTICLES, "nope"), 404);
        await expectContentError(store.update("no-such-schema", "nope", article("Hallo")), 404);
      });

      it("deletes an item", async () => {
        const a = await store.create(ARTICLES, article("Weg damit"), { publish: true });
        const before = await store.countContents();
        await expectContentError(store.delete(ARTICLES, a.id, { expectedVersion: 0 }), 412);
        expect(await getLive(a.id)).toBeDefined();
        await store.delete(ARTICLES, a.id, { expectedVersion: 1 });
        expect(await getDraft(a.id)).toBeUndefined();
        expect(await getLive(a.id)).toBeUndefined();
        expect(await store.countContents()).toBe(before - 1);
        await expectContentError(store.delete(ARTICLES, a.id), 404);
        // The id is free again.
        expect((await store.create(ARTICLES, article("Neu"), { id: a.id })).version).toBe(0);
      });
    });

    describe("languages", () => {
      it("stores localised data per language and patch keeps the other languages", async () => {
        const a = await store.create(ARTICLES, { title: { de: "Hallo", en: "Hello" }, views: { iv: 1 } }, { publish: true });
        expect((await getLive(a.id))?.data.title).toEqual({ de: "Hallo", en: "Hello" });
        const p = await store.patch(ARTICLES, a.id, { title: { en: "Hi there" } });
        expect(p.data).toEqual({ title: { de: "Hallo", en: "Hi there" }, views: { iv: 1 } });
        expect((await getLive(a.id))?.data.title).toEqual({ de: "Hallo", en: "Hi there" });
      });

      it("flattenItem reads one language and falls back to de", async () => {
        const both = await store.create(ARTICLES, { title: { de: "Hallo", en: "Hello" }, views: { iv: 7 } });
        const deOnly = await store.create(ARTICLES, { title: { de: "Nur Deutsch" }, tags: { iv: ["t"] } });
        const emptyEn = await store.create(ARTICLES, { title: { de: "Leer", en: "" } });
        expect(flattenItem(both, "en").data).toEqual({ title: "Hello", views: 7 });
        expect(flattenItem(both, "de").data).toEqual({ title: "Hallo", views: 7 });
        expect(flattenItem(deOnly, "en").data).toEqual({ title: "Nur Deutsch", tags: ["t"] });
        expect(flattenItem(emptyEn, "en").data).toEqual({ title: "Leer" });
        expect(flattenItem(both, "en")).toMatchObject({ id: both.id, schemaName: ARTICLES, status: "Draft", version: 0 });
      });
    });

    describe("drafts and publishing", () => {
      it("a draft is invisible without unpublished", async () => {
        const a = await store.create(ARTICLES, article("Geheim", { tags: { iv: ["draft-visibility"] } }));
        const tagFilter = { filter: { path: "data.tags.iv", op: "eq" as const, value: "draft-visibility" } };
        expect(await getLive(a.id)).toBeUndefined();
        expect((await store.query(ARTICLES, tagFilter)).total).toBe(0);
        expect((await store.query(ARTICLES, { ids: [a.id] })).items).toEqual([]);
        expect((await store.query(ARTICLES, tagFilter, { unpublished: true })).items.map((i) => i.id)).toEqual([a.id]);

        const published = await store.changeStatus(ARTICLES, a.id, "Published");
        expect(published).toMatchObject({ status: "Published", version: 1 });
        expect((await getLive(a.id))?.data).toEqual(article("Geheim", { tags: { iv: ["draft-visibility"] } }));
        expect((await store.query(ARTICLES, tagFilter)).items.map((i) => i.id)).toEqual([a.id]);
      });

      it("updating a published item without a draft changes it live", async () => {
        const a = await store.create(ARTICLES, article("Live eins"), { publish: true });
        await store.update(ARTICLES, a.id, article("Live zwei"));
        expect((await getLive(a.id))?.data).toEqual(article("Live zwei"));
      });

      it("createDraft + update changes only the draft until it is published", async () => {
        const a = await store.create(ARTICLES, article("Alt", { views: { iv: 1 } }), { publish: true });
        const d = await store.createDraft(ARTICLES, a.id);
        expect(d).toMatchObject({ status: "Published", newStatus: "Draft", version: 2 });
        await expectContentError(store.createDraft(ARTICLES, a.id), 400);

        await store.update(ARTICLES, a.id, article("Neu", { views: { iv: 2 } }));
        await store.patch(ARTICLES, a.id, { title: { en: "New" } });
        const live = await getLive(a.id);
        expect(live?.data).toEqual(article("Alt", { views: { iv: 1 } }));
        expect(live?.status).toBe("Published");
        expect(live?.newStatus).toBeUndefined();
        const draft = await getDraft(a.id);
        expect(draft?.data).toEqual({ title: { de: "Neu", en: "New" }, views: { iv: 2 } });
        expect(draft).toMatchObject({ status: "Published", newStatus: "Draft", version: 4 });
        const [liveInQuery] = (await store.query(ARTICLES, { ids: [a.id] })).items;
        expect(liveInQuery?.data).toEqual(article("Alt", { views: { iv: 1 } }));
        // Filters run on the live data for visitors and on the draft for editors.
        const byTitle = (t: string, unpublished: boolean) =>
          store.query(ARTICLES, { ids: [a.id], filter: { path: "data.title.de", op: "eq", value: t } }, { unpublished });
        expect((await byTitle("Neu", false)).total).toBe(0);
        expect((await byTitle("Alt", false)).total).toBe(1);
        expect((await byTitle("Neu", true)).total).toBe(1);

        const p = await store.changeStatus(ARTICLES, a.id, "Published");
        expect(p.newStatus).toBeUndefined();
        expect(p.version).toBe(5);
        expect((await getLive(a.id))?.data).toEqual({ title: { de: "Neu", en: "New" }, views: { iv: 2 } });
        expect((await getDraft(a.id))?.newStatus).toBeUndefined();
      });

      it("discardDraft restores the published data", async () => {
        const a = await store.create(ARTICLES, article("Stabil"), { publish: true });
        await expectContentError(store.discardDraft(ARTICLES, a.id), 400);
        await store.createDraft(ARTICLES, a.id);
        await store.update(ARTICLES, a.id, article("Verworfen"));
        expect((await getDraft(a.id))?.data).toEqual(article("Verworfen"));
        const restored = await store.discardDraft(ARTICLES, a.id);
        expect(restored.data).toEqual(article("Stabil"));
        expect(restored.newStatus).toBeUndefined();
        expect(restored.status).toBe("Published");
        expect((await getDraft(a.id))?.data).toEqual(article("Stabil"));
        expect((await getLive(a.id))?.data).toEqual(article("Stabil"));
        // Without a draft, an update goes live again.
        await store.update(ARTICLES, a.id, article("Wieder live"));
        expect((await getLive(a.id))?.data).toEqual(article("Wieder live"));
      });

      it('changeStatus "Draft" unpublishes', async () => {
        const a = await store.create(ARTICLES, article("Bald weg"), { publish: true });
        const d = await store.changeStatus(ARTICLES, a.id, "Draft");
        expect(d).toMatchObject({ status: "Draft", version: 2 });
        expect(await getLive(a.id)).toBeUndefined();
        expect((await store.query(ARTICLES, { ids: [a.id] })).total).toBe(0);
        expect((await getDraft(a.id))?.data).toEqual(article("Bald weg"));
        await expectContentError(store.createDraft(ARTICLES, a.id), 400);
      });

      it("unpublishing an item with a pending draft keeps the draft data", async () => {
        const a = await store.create(ARTICLES, article("Live"), { publish: true });
        await store.createDraft(ARTICLES, a.id);
        await store.update(ARTICLES, a.id, article("Entwurf"));
        await store.changeStatus(ARTICLES, a.id, "Draft");
        expect(await getLive(a.id)).toBeUndefined();
        const d = await getDraft(a.id);
        expect(d).toMatchObject({ status: "Draft", data: article("Entwurf") });
        expect(d?.newStatus).toBeUndefined();
      });

      it("archived items cannot be changed until moved back to Draft", async () => {
        const a = await store.create(ARTICLES, article("Archiv"), { publish: true });
        const archived = await store.changeStatus(ARTICLES, a.id, "Archived");
        expect(archived.status).toBe("Archived");
        expect(await getLive(a.id)).toBeUndefined();
        const e1 = await expectContentError(store.update(ARTICLES, a.id, article("Geändert")), 400);
        expect(e1.message).toMatch(/Archived/);
        await expectContentError(store.patch(ARTICLES, a.id, { views: { iv: 1 } }), 400);
        const after = await getDraft(a.id);
        expect(after).toMatchObject({ version: archived.version, data: article("Archiv"), status: "Archived" });

        await store.changeStatus(ARTICLES, a.id, "Draft");
        expect((await store.update(ARTICLES, a.id, article("Wieder da"))).data).toEqual(article("Wieder da"));
      });

      it("refuses unknown statuses", async () => {
        const a = await store.create(ARTICLES, article("Status"));
        const err = await expectContentError(store.changeStatus(ARTICLES, a.id, "Deleted"), 400);
        expect(err.message).toContain("Deleted");
        expect((await getDraft(a.id))?.version).toBe(0);
      });

      it("publishing validates the data against the current schema", async () => {
        const fields = [{ name: "a", partitioning: "invariant" as const, properties: { fieldType: "String" as const } }];
        await store.upsertSchema({ name: "test-strict", fields });
        const a = await store.create("test-strict", {});
        await store.upsertSchema({
          name: "test-strict",
          fields: [{ ...fields[0]!, properties: { fieldType: "String", isRequired: true } }],
        });
        const err = await expectContentError(store.changeStatus("test-strict", a.id, "Published"), 400);
        expect(err.details).toEqual(["a.iv: Field is required."]);
        expect(await store.get("test-strict", a.id)).toBeUndefined();
        expect((await store.get("test-strict", a.id, { unpublished: true }))?.status).toBe("Draft");
      });
    });

    describe("filter, sort and paging", () => {
      let ids: Record<string, string>;
      const q = (query: Parameters<ContentStore["query"]>[1], opts: Parameters<ContentStore["query"]>[2] = {}) =>
        store.query(QUERY_ITEMS, query, opts);
      const names = (res: { items: ContentItem[] }) => res.items.map((i) => i.data.title?.de);

      beforeAll(async () => {
        const seed: Array<[string, Record<string, unknown>, boolean]> = [
          ["Apfel", { title: { de: "Apfel", en: "Apple" }, views: { iv: 10 }, tags: { iv: ["fruit", "red"] }, published: { iv: true } }, true],
          ["Birne", { title: { de: "Birne", en: "Pear" }, views: { iv: 5 }, tags: { iv: ["fruit"] }, published: { iv: false } }, true],
          ["Brokkoli", { title: { de: "Brokkoli" }, views: { iv: 20 }, tags: { iv: [] }, location: { iv: { latitude: 48.1, longitude: 11.5 } } }, true],
          ["Dattel", { title: { de: "Dattel", en: "Date" }, views: { iv: 10 }, tags: { iv: ["fruit", "sweet"] } }, true],
          ["Entwurf", { title: { de: "Entwurf" }, views: { iv: 99 }, tags: { iv: ["fruit"] } }, false],
        ];
        ids = {};
        // Explicit ids whose order differs from the titles', to see the id tie-breaker at work.
        const customIds = ["q-d", "q-c", "q-b", "q-a", "q-e"];
        for (const [i, [name, data, publish]] of seed.entries()) {
          ids[name] = (await store.create(QUERY_ITEMS, data, { publish, id: customIds[i] })).id;
        }
      });

      it("returns only published items by default, newest first", async () => {
        const res = await q({});
        expect(res.total).toBe(4);
        expect(names(res)).toEqual(["Dattel", "Brokkoli", "Birne", "Apfel"]);
        expect((await q({}, { unpublished: true })).total).toBe(5);
      });

      it("filters with eq/ne/lt/gt/contains/startsWith/in/empty/exists", async () => {
        const by = async (path: string, op: string, value?: unknown) =>
          names(await q({ filter: { path, op: op as never, value }, sort: [{ path: "data.title.de" }] }));
        expect(await by("data.views.iv", "eq", 10)).toEqual(["Apfel", "Dattel"]);
        expect(await by("data.views.iv", "ne", 10)).toEqual(["Birne", "Brokkoli"]);
        expect(await by("data.views.iv", "lt", 10)).toEqual(["Birne"]);
        expect(await by("data.views.iv", "gt", 10)).toEqual(["Brokkoli"]);
        expect(await by("data.views.iv", "ge", 10)).toEqual(["Apfel", "Brokkoli", "Dattel"]);
        expect(await by("data.title.de", "contains", "RN")).toEqual(["Birne"]);
        expect(await by("data.title.de", "startsWith", "b")).toEqual(["Birne", "Brokkoli"]);
        expect(await by("data.title.de", "endsWith", "el")).toEqual(["Apfel", "Dattel"]);
        expect(await by("data.views.iv", "in", [5, 20, 99])).toEqual(["Birne", "Brokkoli"]);
        expect(await by("data.title.en", "empty")).toEqual(["Brokkoli"]);
        expect(await by("data.tags.iv", "empty")).toEqual(["Brokkoli"]);
        expect(await by("data.location.iv", "exists")).toEqual(["Brokkoli"]);
        expect(await by("data.published.iv", "eq", false)).toEqual(["Birne"]);
        expect(await by("data.location.iv.latitude", "gt", 48)).toEqual(["Brokkoli"]);
        expect(await by("id", "eq", "q-a")).toEqual(["Dattel"]);
        expect(await by("status", "eq", "Published")).toEqual(["Apfel", "Birne", "Brokkoli", "Dattel"]);
      });

      it("eq on an array field means 'contains'", async () => {
        const sort = [{ path: "id" }];
        expect(names(await q({ filter: { path: "data.tags.iv", op: "eq", value: "fruit" }, sort }))).toEqual(["Dattel", "Birne", "Apfel"]);
        expect(names(await q({ filter: { path: "data.tags.iv", op: "eq", value: "sweet" }, sort }))).toEqual(["Dattel"]);
        expect(names(await q({ filter: { path: "data.tags.iv", op: "eq", value: "fruit" }, sort }, { unpublished: true }))).toEqual([
          "Dattel",
          "Birne",
          "Apfel",
          "Entwurf",
        ]);
      });

      it("combines filters with and/or/not", async () => {
        const sort = [{ path: "data.title.de" }];
        expect(
          names(
            await q({
              filter: { and: [{ path: "data.tags.iv", op: "eq", value: "fruit" }, { path: "data.views.iv", op: "ge", value: 10 }] },
              sort,
            }),
          ),
        ).toEqual(["Apfel", "Dattel"]);
        expect(
          names(
            await q({
              filter: { or: [{ path: "data.views.iv", op: "lt", value: 6 }, { path: "data.title.de", op: "eq", value: "Dattel" }] },
              sort,
            }),
          ),
        ).toEqual(["Birne", "Dattel"]);
        expect(names(await q({ filter: { not: { path: "data.tags.iv", op: "eq", value: "fruit" } }, sort }))).toEqual(["Brokkoli"]);
      });

      it("uses the query language with fallback to de for unpartitioned paths", async () => {
        const f = { filter: { path: "data.title", op: "eq" as const, value: "Pear" } };
        expect(names(await q(f, { language: "en" }))).toEqual(["Birne"]);
        expect((await q(f)).total).toBe(0);
        expect(names(await q({ filter: { path: "data.title", op: "eq", value: "Brokkoli" } }, { language: "en" }))).toEqual(["Brokkoli"]);
        expect(names(await q({ sort: [{ path: "data.title" }] }, { language: "en" }))).toEqual(["Apfel", "Brokkoli", "Dattel", "Birne"]);
      });

      it("sorts ascending and descending with id as tie-breaker", async () => {
        // Apfel (q-d) and Dattel (q-a) both have 10 views: id ascending decides, in both directions.
        expect(names(await q({ sort: [{ path: "data.views.iv", order: "ascending" }] }))).toEqual(["Birne", "Dattel", "Apfel", "Brokkoli"]);
        expect(names(await q({ sort: [{ path: "data.views.iv", order: "descending" }] }))).toEqual(["Brokkoli", "Dattel", "Apfel", "Birne"]);
        expect(names(await q({ sort: [{ path: "data.title.de", order: "descending" }] }))).toEqual(["Dattel", "Brokkoli", "Birne", "Apfel"]);
        expect(
          names(await q({ sort: [{ path: "data.published.iv", order: "descending" }, { path: "data.title.de", order: "ascending" }] })),
        ).toEqual(["Apfel", "Birne", "Brokkoli", "Dattel"]);
      });

      it("pages with skip/take and reports the total", async () => {
        const sort = [{ path: "data.title.de" }];
        const page1 = await q({ sort, take: 2 });
        const page2 = await q({ sort, skip: 2, take: 2 });
        const page3 = await q({ sort, skip: 4, take: 2 });
        expect([page1.total, page2.total, page3.total]).toEqual([4, 4, 4]);
        expect(names(page1)).toEqual(["Apfel", "Birne"]);
        expect(names(page2)).toEqual(["Brokkoli", "Dattel"]);
        expect(page3.items).toEqual([]);
        const filtered = await q({ filter: { path: "data.tags.iv", op: "eq", value: "fruit" }, sort, skip: 1, take: 1 });
        expect(filtered.total).toBe(3);
        expect(names(filtered)).toEqual(["Birne"]);
      });

      it("keeps the order of ids and skips unknown or invisible ids", async () => {
        const order = [ids.Dattel!, ids.Apfel!, "unknown", ids.Entwurf!, ids.Birne!];
        const res = await q({ ids: order });
        expect(names(res)).toEqual(["Dattel", "Apfel", "Birne"]);
        expect(res.total).toBe(3);
        expect(names(await q({ ids: order }, { unpublished: true }))).toEqual(["Dattel", "Apfel", "Entwurf", "Birne"]);
        expect(names(await q({ ids: order, take: 2 }))).toEqual(["Dattel", "Apfel"]);
      });

      it("searches full text across all languages and fields", async () => {
        expect(names(await q({ fullText: "pear" }))).toEqual(["Birne"]);
        expect(names(await q({ fullText: "SWEET" }))).toEqual(["Dattel"]);
        expect(names(await q({ fullText: "fruit", sort: [{ path: "data.title.de" }] }))).toEqual(["Apfel", "Birne", "Dattel"]);
        expect(names(await q({ fullText: "entwurf" }))).toEqual([]);
        expect(names(await q({ fullText: "entwurf" }, { unpublished: true }))).toEqual(["Entwurf"]);
      });
    });

    describe("version conflicts", () => {
      it("a stale expectedVersion gives 412 and changes nothing", async () => {
        const a = await store.create(ARTICLES, article("Version"));
        const v1 = await store.update(ARTICLES, a.id, article("Version 1"), { expectedVersion: 0 });
        expect(v1.version).toBe(1);
        const err = await expectContentError(store.update(ARTICLES, a.id, article("Veraltet"), { expectedVersion: 0 }), 412);
        expect(err.errorCode).toBe("OBJECT_VERSION_CONFLICT");
        expect(err.message).toContain("expected version 0");
        await expectContentError(store.patch(ARTICLES, a.id, { views: { iv: 9 } }, { expectedVersion: 0 }), 412);
        await expectContentError(store.changeStatus(ARTICLES, a.id, "Published", { expectedVersion: 5 }), 412);
        const now = await getDraft(a.id);
        expect(now).toMatchObject({ version: 1, status: "Draft", data: article("Version 1") });
        expect(now?.lastModified).toBe(v1.lastModified);
      });

      it("of two concurrent writers with the same expectedVersion exactly one wins", async () => {
        const a = await store.create(ARTICLES, article("Wettlauf"), { publish: true });
        const results = await Promise.allSettled([
          store.update(ARTICLES, a.id, article("Schreiber A"), { expectedVersion: 1 }),
          store.update(ARTICLES, a.id, article("Schreiber B"), { expectedVersion: 1 }),
        ]);
        const fulfilled = results.filter((r): r is PromiseFulfilledResult<ContentItem> => r.status === "fulfilled");
        const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
        expect(fulfilled).toHaveLength(1);
        expect(rejected).toHaveLength(1);
        expect(rejected[0]!.reason).toBeInstanceOf(ContentError);
        expect((rejected[0]!.reason as ContentError).statusCode).toBe(412);
        const winner = fulfilled[0]!.value;
        expect(winner.version).toBe(2);
        const final = await getDraft(a.id);
        expect(final?.version).toBe(2);
        expect(final?.data).toEqual(winner.data);
        expect((await getLive(a.id))?.data).toEqual(winner.data);
      });

      it("concurrent patches without expectedVersion are retried and none is lost", async () => {
        const a = await store.create(ARTICLES, { title: { de: "Viele" } });
        const results = await Promise.allSettled([
          store.patch(ARTICLES, a.id, { views: { iv: 1 } }),
          store.patch(ARTICLES, a.id, { tags: { iv: ["x"] } }),
          store.patch(ARTICLES, a.id, { published: { iv: true } }),
          store.patch(ARTICLES, a.id, { title: { en: "Many" } }),
        ]);
        expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "fulfilled", "fulfilled"]);
        const final = await getDraft(a.id);
        expect(final?.version).toBe(4);
        expect(final?.data).toEqual({ title: { de: "Viele", en: "Many" }, views: { iv: 1 }, tags: { iv: ["x"] }, published: { iv: true } });
      });

      it("two concurrent creates with the same custom id: one wins, one gets 409", async () => {
        const results = await Promise.allSettled([
          store.create(ARTICLES, article("Erster"), { id: "race-create" }),
          store.create(ARTICLES, article("Zweiter"), { id: "race-create" }),
        ]);
        const fulfilled = results.filter((r): r is PromiseFulfilledResult<ContentItem> => r.status === "fulfilled");
        const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
        expect(fulfilled).toHaveLength(1);
        expect((rejected[0]?.reason as ContentError).statusCode).toBe(409);
        expect((await getDraft("race-create"))?.data).toEqual(fulfilled[0]!.value.data);
      });
    });

    describe("validation", () => {
      it("create with bad data gives 400 listing each bad field and stores nothing", async () => {
        const before = await store.countContents();
        const err = await expectContentError(
          store.create(ARTICLES, {
            title: { de: "ab", fr: "Bonjour" },
            views: { iv: "viele", de: 3 },
            tags: { iv: "a,b" },
            published: { iv: "ja" },
            location: { iv: { latitude: 100, longitude: 0 } },
            blocks: { de: [{ schemaId: "test-block" }, { schemaId: "nope", heading: "x" }, { heading: "no schema" }] },
            unknownField: { iv: 1 },
          }),
          400,
        );
        expect(err.message).toBe("Validation error");
        expect(err.details).toEqual(
          expect.arrayContaining([
            "unknownField: Not a known field.",
            "title.fr: Not a known language.",
            "title.de: Must have between 3 and 50 character(s).",
            "views.de: Not a known invariant value.",
            "views.iv: Invalid json type, expected number.",
            "tags.iv: Invalid json type, expected array of strings.",
            "published.iv: Invalid json type, expected boolean.",
            "location.iv: Latitude must be between -90 and 90.",
            "blocks.de[1].heading: Field is required.",
            'blocks.de[2]: Unknown component schema "nope".',
            "blocks.de[3]: Component must name its schema (schemaId).",
          ]),
        );
        expect(err.details).toHaveLength(11);
        expect(err.toJSON()).toMatchObject({ message: "Validation error", statusCode: 400, details: err.details });
        expect(await store.countContents()).toBe(before);
      });

      it("reports a missing required field and a negative number", async () => {
        const before = await store.countContents();
        const err = await expectContentError(store.create(ARTICLES, { views: { iv: -1 } }), 400);
        expect(err.details).toEqual(["title.de: Field is required.", "views.iv: Must be greater or equal to 0."]);
        const err2 = await expectContentError(store.create(ARTICLES, { title: { en: "English only" } }), 400);
        expect(err2.details).toEqual(["title.de: Field is required."]);
        await expectContentError(store.create(ARTICLES, "not an object"), 400);
        await expectContentError(store.create(ARTICLES, [article("Array")]), 400);
        expect(await store.countContents()).toBe(before);
      });

      it("accepts valid components", async () => {
        const a = await store.create(ARTICLES, article("Mit Blöcken", { blocks: { de: [{ schemaId: "test-block", heading: "H1" }] } }));
        expect(a.data.blocks).toEqual({ de: [{ schemaId: "test-block", heading: "H1" }] });
      });

      it("update and patch with bad data give 400 and leave the item unchanged", async () => {
        const a = await store.create(ARTICLES, article("Unverändert", { views: { iv: 1 } }), { publish: true });
        const e1 = await expectContentError(store.update(ARTICLES, a.id, { title: { de: "x" }, bogus: { iv: 1 } }), 400);
        expect(e1.details).toEqual(["bogus: Not a known field.", "title.de: Must have between 3 and 50 character(s)."]);
        const e2 = await expectContentError(store.patch(ARTICLES, a.id, { title: { ru: "Привет" } }), 400);
        expect(e2.details).toEqual(["title.ru: Not a known language."]);
        const e3 = await expectContentError(store.patch(ARTICLES, a.id, { views: { en: 2 } }), 400);
        expect(e3.details).toEqual(["views.en: Not a known invariant value."]);
        const e4 = await expectContentError(store.patch(ARTICLES, a.id, { blocks: { de: [{ schemaId: "test-block", heading: 5 }] } }), 400);
        expect(e4.details).toEqual(["blocks.de[1].heading: Invalid json type, expected string."]);
        const e5 = await expectContentError(store.patch(ARTICLES, a.id, { title: null }), 400);
        expect(e5.details).toEqual(["title.de: Field is required."]);
        await expectContentError(store.patch(ARTICLES, a.id, ["x"]), 400);
        const now = await getDraft(a.id);
        expect(now).toMatchObject({ version: a.version, data: article("Unverändert", { views: { iv: 1 } }) });
        expect((await getLive(a.id))?.data).toEqual(article("Unverändert", { views: { iv: 1 } }));
      });

      it("holds every writer of pages to the page slug rule: a slug that is no address is a 400 naming it", async () => {
        await store.upsertSchema({ name: "component-seo", type: "Component", fields: [{ name: "slug", partitioning: "invariant", properties: { fieldType: "String", isRequired: true } }] });
        await store.upsertSchema({ name: "core-pages", fields: [{ name: "seo", partitioning: "language", properties: { fieldType: "Component", schemaIds: ["component-seo"] } }] });
        const page = (de: string, en = "about-us") => ({ seo: { de: { schemaId: "component-seo", slug: de }, en: { schemaId: "component-seo", slug: en } } });
        const before = await store.countContents();
        const bad: Array<[string, RegExp]> = [
          ["../../etc", /^seo\.de\.slug: "\.\.\/\.\.\/etc" is not a page address: only lower-case letters, digits and hyphens/],
          ["api/rest", /^seo\.de\.slug: "api\/rest" is not a page address: a fixed route of the site owns this path \(.*\bapi\b/],
          ["manage", /fixed route/],
          ["newsletter/anna", /fixed route/],
          ["ueber-uns/", /only lower-case letters/],
          ["Ueber-Uns", /only lower-case letters/],
          ["a/./b", /only lower-case letters/],
          ["x".repeat(121), /at most 120 characters/],
        ];
        for (const [slug, message] of bad) {
          const err = await expectContentError(store.create("core-pages", page(slug)), 400);
          expect(err.details, slug).toHaveLength(1);
          expect(err.details![0], slug).toMatch(message);
        }
        // Bulk creates, updates, patches and publishing a stored draft meet the same rule.
        const many = await expectContentError(store.createMany("core-pages", [{ data: page("fine") }, { data: page("../x") }]).catch((e: { error?: unknown }) => Promise.reject(e.error)), 400);
        expect(many.details).toEqual([expect.stringMatching(/^seo\.de\.slug: "\.\.\/x" is not a page address/)]);
        const ok = await store.create("core-pages", page("newsletter", "guide/back-pain"));
        expect((await expectContentError(store.update("core-pages", ok.id, page("newsletter", "login")), 400)).details).toEqual([expect.stringMatching(/^seo\.en\.slug: "login" is not a page address: a fixed route/)]);
        await expectContentError(store.patch("core-pages", ok.id, { seo: { en: { schemaId: "component-seo", slug: "../../etc" } } }), 400);
        expect(await store.countContents()).toBe(before + 1);
        expect((await store.get("core-pages", ok.id, { unpublished: true }))?.data).toEqual(page("newsletter", "guide/back-pain"));
        expect((await store.changeStatus("core-pages", ok.id, "Published")).status).toBe("Published");
      });
    });

    describe("assets", () => {
      it("uploads a PNG with metadata and reads back the same bytes", async () => {
        const asset = await store.assets.upload({ fileName: "Ärzte Logo.png", mimeType: "image/png", body: PNG_2X1 });
        expect(asset).toMatchObject({
          fileName: "Ärzte Logo.png",
          slug: "aerzte-logo.png",
          mimeType: "image/png",
          fileSize: PNG_2X1.length,
          fileHash: createHash("sha256").update(PNG_2X1).digest("base64"),
          fileVersion: 0,
          version: 0,
          type: "Image",
          pixelWidth: 2,
          pixelHeight: 1,
          tags: ["image"],
          parentId: "00000000-0000-0000-0000-000000000000",
        });
        expect(asset.id).toMatch(UUID);
        expect(await store.assets.get(asset.id)).toEqual(asset);
        const { asset: meta, body } = await store.assets.read(asset.id);
        expect(meta).toEqual(asset);
        expect(Buffer.compare(body, PNG_2X1)).toBe(0);
        expect(fs.readFileSync(store.assets.filePath(asset)).equals(PNG_2X1)).toBe(true);
        const listed = await store.assets.list({ ids: [asset.id] });
        expect(listed).toEqual({ total: 1, items: [asset] });
      });

      it("detects the type from the bytes when none or a generic one is declared", async () => {
        const a = await store.assets.upload({ fileName: "x.bin", body: PNG_2X1 });
        expect(a.mimeType).toBe("image/png");
        const b = await store.assets.upload({ fileName: "y.bin", mimeType: "application/octet-stream", body: PNG_2X1 });
        expect(b.mimeType).toBe("image/png");
        const c = await store.assets.upload({ fileName: "z.png", mimeType: "image/x-png", body: PNG_2X1, tags: ["logo"] });
        expect(c).toMatchObject({ mimeType: "image/png", tags: ["logo"] });
      });

      it("refuses mismatching, unrecognised, empty and oversized files", async () => {
        const before = (await store.assets.list()).total;
        const e1 = await expectContentError(store.assets.upload({ fileName: "a.jpg", mimeType: "image/jpeg", body: PNG_2X1 }), 400);
        expect(e1.message).toContain("image/png");
        const junk = store.assets.upload({ fileName: "b.png", mimeType: "image/png", body: JUNK });
        await expect(junk).rejects.toBeInstanceOf(ContentError);
        expect([400, 415]).toContain(((await junk.catch((e: unknown) => e)) as ContentError).statusCode);
        await expectContentError(store.assets.upload({ fileName: "c.exe", body: JUNK }), 415);
        await expectContentError(store.assets.upload({ fileName: "d.png", mimeType: "image/png", body: Buffer.alloc(0) }), 400);
        const big = Buffer.concat([PNG_2X1, Buffer.alloc(MAX_BYTES)]);
        await expectContentError(store.assets.upload({ fileName: "e.png", mimeType: "image/png", body: big }), 413);
        await expectContentError(store.assets.upload({ fileName: "", mimeType: "image/png", body: PNG_2X1 }), 400);
        expect((await store.assets.list()).total).toBe(before);
      });

      it("accepts SVG text as image/svg+xml", async () => {
        const a = await store.assets.upload({ fileName: "icon.svg", mimeType: "image/svg+xml", body: SVG });
        expect(a).toMatchObject({ mimeType: "image/svg+xml", type: "Image", fileSize: SVG.length });
        expect((await store.assets.read(a.id)).body.equals(SVG)).toBe(true);
        const b = await store.assets.upload({ fileName: "icon2.svg", body: SVG });
        expect(b.mimeType).toBe("image/svg+xml");
        await expectContentError(store.assets.upload({ fileName: "icon.png", mimeType: "image/png", body: SVG }), 400);
      });

      // file-type reports "<?xml ..." as application/xml; an SVG with a prolog is what most editors export.
      it("accepts an SVG that starts with an XML prolog", async () => {
        const a = await store.assets.upload({ fileName: "prolog.svg", mimeType: "image/svg+xml", body: SVG_WITH_PROLOG });
        expect(a.mimeType).toBe("image/svg+xml");
      });

      it("accepts declared UTF-8 text types", async () => {
        const body = Buffer.from("name;ort\nMüller;München\n");
        const a = await store.assets.upload({ fileName: "liste.csv", mimeType: "text/csv; charset=utf-8", body });
        expect(a).toMatchObject({ mimeType: "text/csv", type: "Unknown", tags: [] });
        expect(a.pixelWidth).toBeUndefined();
      });

      it("uses a custom id and refuses a duplicate with 409", async () => {
        const a = await store.assets.upload({ id: "asset-custom", fileName: "a.png", body: PNG_2X1 });
        expect(a.id).toBe("asset-custom");
        await expectContentError(store.assets.upload({ id: "asset-custom", fileName: "b.svg", body: SVG }), 409);
        expect((await store.assets.read("asset-custom")).body.equals(PNG_2X1)).toBe(true);
        await expectContentError(store.assets.upload({ id: "../evil", fileName: "c.png", body: PNG_2X1 }), 400);
      });

      // The id check and the file write race: the row must decide, and the loser must not touch the winner's file.
      it("concurrent uploads with the same custom id keep the winner's file intact", async () => {
        const results = await Promise.allSettled([
          store.assets.upload({ id: "asset-race", fileName: "a.png", body: PNG_2X1 }),
          store.assets.upload({ id: "asset-race", fileName: "b.svg", body: SVG }),
        ]);
        const winners = results.filter((r) => r.status === "fulfilled");
        const losers = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
        expect(winners).toHaveLength(1);
        expect((losers[0]?.reason as ContentError).statusCode).toBe(409);
        const { asset, body } = await store.assets.read("asset-race");
        expect(body.equals(asset.mimeType === "image/png" ? PNG_2X1 : SVG)).toBe(true);
      });

      it("delete removes the row and the file", async () => {
        const a = await store.assets.upload({ fileName: "weg.png", mimeType: "image/png", body: PNG_2X1 });
        const file = store.assets.filePath(a);
        expect(fs.existsSync(file)).toBe(true);
        await store.assets.delete(a.id);
        expect(await store.assets.get(a.id)).toBeUndefined();
        expect(fs.existsSync(file)).toBe(false);
        expect(fs.existsSync(path.dirname(file))).toBe(false);
        await expectContentError(store.assets.read(a.id), 404);
        await expectContentError(store.assets.delete(a.id), 404);
      });
    });

    describe("settings", () => {
      it("ensureSetting stores the first value and keeps it", async () => {
        expect(await store.getSetting("test-key")).toBeUndefined();
        expect(await store.ensureSetting("test-key", "first")).toBe("first");
        expect(await store.ensureSetting("test-key", "second")).toBe("first");
        expect(await store.getSetting("test-key")).toBe("first");
      });

      it("concurrent ensureSetting calls agree on one value", async () => {
        const values = await Promise.all(["a", "b", "c"].map((v) => store.ensureSetting("test-race-key", v)));
        expect(new Set(values).size).toBe(1);
        expect(await store.getSetting("test-race-key")).toBe(values[0]);
      });
    });

    describe("change events", () => {
      let events: ContentChange[];
      let unsubscribe: () => void;
      beforeEach(() => {
        events = [];
        unsubscribe?.();
        unsubscribe = store.onChange((c) => events.push(c));
      });
      afterAll(() => unsubscribe?.());

      it("reports every content write", async () => {
        const a = await store.create(ARTICLES, article("Ereignis"));
        await store.update(ARTICLES, a.id, article("Ereignis 2"));
        await store.patch(ARTICLES, a.id, { views: { iv: 1 } });
        await store.changeStatus(ARTICLES, a.id, "Published");
        await store.createDraft(ARTICLES, a.id);
        await store.discardDraft(ARTICLES, a.id);
        await store.delete(ARTICLES, a.id);
        const expected: ContentChange = { kind: "content", schemaName: ARTICLES, id: a.id };
        expect(events).toEqual(Array.from({ length: 7 }, () => expected));
      });

      it("reports schema and asset writes", async () => {
        await store.upsertSchema({ name: "test-events", fields: [] });
        const asset = await store.assets.upload({ fileName: "e.png", body: PNG_2X1 });
        await store.assets.delete(asset.id);
        expect(events).toEqual([
          { kind: "schema", id: "test-events" },
          { kind: "asset", id: asset.id },
          { kind: "asset", id: asset.id },
        ]);
      });

      it("reports nothing for failed writes, and nothing after unsubscribing", async () => {
        const a = await store.create(ARTICLES, article("Still"));
        events.length = 0;
        await expectContentError(store.update(ARTICLES, a.id, { bogus: { iv: 1 } }), 400);
        await expectContentError(store.update(ARTICLES, a.id, article("Alt"), { expectedVersion: 7 }), 412);
        await expectContentError(store.create(ARTICLES, article("Doppelt"), { id: a.id }), 409);
        await expectContentError(store.assets.upload({ fileName: "x.jpg", mimeType: "image/jpeg", body: PNG_2X1 }), 400);
        expect(events).toEqual([]);
        unsubscribe();
        await store.update(ARTICLES, a.id, article("Leise"));
        expect(events).toEqual([]);
      });
    });

    // Last on purpose: it replaces `store` with a new connection to the same storage.
    describe("restart", () => {
      it("keeps schemas, contents, versions, drafts and assets", async () => {
        const pub = await store.create(ARTICLES, { title: { de: "Dauerhaft", en: "Lasting" }, views: { iv: 3 } }, { publish: true, id: "restart-pub" });
        await store.createDraft(ARTICLES, pub.id);
        await store.update(ARTICLES, pub.id, { title: { de: "Dauerhaft (Entwurf)" }, views: { iv: 4 } });
        const draft = await store.create(ARTICLES, article("Nur Entwurf"), { id: "restart-draft" });
        const asset = await store.assets.upload({ id: "restart-asset", fileName: "bleibt.png", body: PNG_2X1 });
        await store.ensureSetting("restart-key", "kept");
        const schema = await store.getSchema(ARTICLES);
        const count = await store.countContents();
        const beforePub = await getDraft(pub.id);
        const beforeLive = await getLive(pub.id);

        await store.close();
        store = await backend.openStore();
        expect(await store.migrate()).toEqual([]);
        await store.ping();

        expect(await store.getSchema(ARTICLES)).toEqual(schema);
        expect(await store.countContents()).toBe(count);
        expect(await getDraft(pub.id)).toEqual(beforePub);
        expect(beforePub).toMatchObject({ version: 3, newStatus: "Draft", data: { title: { de: "Dauerhaft (Entwurf)" }, views: { iv: 4 } } });
        expect(await getLive(pub.id)).toEqual(beforeLive);
        expect(beforeLive?.data).toEqual({ title: { de: "Dauerhaft", en: "Lasting" }, views: { iv: 3 } });
        expect(await getDraft(draft.id)).toEqual(draft);
        expect(await getLive(draft.id)).toBeUndefined();
        expect(await store.assets.get(asset.id)).toEqual(asset);
        expect((await store.assets.read(asset.id)).body.equals(PNG_2X1)).toBe(true);
        expect(await store.getSetting("restart-key")).toBe("kept");

        // Still writable, with versions continuing where they were.
        await expectContentError(store.update(ARTICLES, pub.id, article("Veraltet"), { expectedVersion: 2 }), 412);
        const next = await store.changeStatus(ARTICLES, pub.id, "Published", { expectedVersion: 3 });
        expect(next.version).toBe(4);
        expect((await getLive(pub.id))?.data).toEqual({ title: { de: "Dauerhaft (Entwurf)" }, views: { iv: 4 } });
      });
    });
  });
}

storeSuite("sqlite", () => sqliteBackend());

const databaseUrl = process.env.TEST_DATABASE_URL;
storeSuite(
  databaseUrl ? "postgres" : "postgres (set TEST_DATABASE_URL to run)",
  databaseUrl ? () => postgresBackend(databaseUrl) : undefined,
);
