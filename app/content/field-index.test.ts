import { sql } from "kysely";
import { postgresStoreBackend, sqliteStoreBackend, type StoreBackend } from "../../tests/support/store-backends";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isUniqueViolation } from "./db";
import { indexSpec, publicFieldNames } from "./field-index";
import { sortItems } from "./query";
import { ContentStore } from "./store";
import type { ContentItem, ContentQuery, FilterNode, SchemaInput } from "./types";

/**
 * Integration tests of the typed side tables (field-index.ts) through the real store, on SQLite (a
 * temp file, always) and PostgreSQL (its own schema, when TEST_DATABASE_URL is set). They prove that:
 * - the table `ix_<schema>` holds exactly the published items after every kind of write, and the
 *   published queries read through it (drafts, pending drafts and unpublished items stay invisible);
 * - stored slugs are unique, stable (a rebuild keeps them), reuse freed names, and a first build assigns them in id order;
 * - full-text search ignores case, accents and ae/oe/ue spellings, needs every word, gives the same
 *   answers with and without the side table, and the public search text never holds private fields;
 * - distinctValues and adjacent (wrapping around) read the side table under a `where` filter;
 * - a deep page over 2 000 indexed items has the oracle's order (sortItems) and the exact total.
 */

const MAX_BYTES = 4096;

type Backend = StoreBackend;

const sqliteBackend = (): Backend => sqliteStoreBackend("field-index", MAX_BYTES);
const postgresBackend = (databaseUrl: string): Backend => postgresStoreBackend(databaseUrl, "field-index", "t_ix_", MAX_BYTES);

const str = (name: string, extra: Record<string, unknown> = {}, field: Record<string, unknown> = {}): SchemaInput["fields"][number] => ({
  name,
  partitioning: "invariant",
  properties: { fieldType: "String", ...extra },
  ...field,
});
const tags = (name: string): SchemaInput["fields"][number] => ({ name, partitioning: "invariant", properties: { fieldType: "Tags" } });
const iv = (values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { iv: v }]));
const tableOf = (schema: string) => `ix_${schema.replace(/-/g, "_")}`;
const byId = [{ path: "id" }];
const eq = (p: string, value: unknown): FilterNode => ({ path: p, op: "eq", value });

function indexSuite(name: string, open: (() => Backend) | undefined) {
  (open ? describe : describe.skip)(name, () => {
    let backend: Backend;
    let store: ContentStore;

    beforeAll(async () => {
      backend = open!();
      store = await backend.openStore();
      await store.migrate();
    });

    afterAll(async () => {
      await store?.close();
      await backend?.dispose();
    });

    /** Ids of the published items a visitor's query finds (or, with `unpublished`, an editor's). */
    const ids = async (schema: string, query: ContentQuery, opts: Parameters<ContentStore["query"]>[2] = {}) =>
      (await store.query(schema, { sort: byId, ...query }, { all: true, ...opts })).items.map((i) => i.id);
    const rowIds = async (schema: string) =>
      (await sql<{ id: string }>`select id from ${sql.table(tableOf(schema))} order by id`.execute(store.db)).rows.map((r) => r.id);
    const rowCount = async (schema: string) =>
      Number((await sql<{ n: number | string }>`select count(*) as n from ${sql.table(tableOf(schema))}`.execute(store.db)).rows[0]!.n);
    const publishedIds = async (schema: string) =>
      (
        await store.db
          .selectFrom("contents")
          .select("id")
          .where("schema_name", "=", schema)
          .where("status", "=", "Published")
          .orderBy("id")
          .execute()
      ).map((r) => r.id);
    // The search text: on SQLite a plain table sharing the side table's rowid (with a contentless FTS5
    // index beside it), on PostgreSQL the side table's `search` column. Only these helpers know that layout.
    const textTable = async (schema: string) => indexSpec((await store.getSchema(schema))!)!.textTable;
    const textIds = async (schema: string) => {
      const text = sql.table(await textTable(schema));
      const x = sql.table(tableOf(schema));
      const q =
        store.dialect === "postgres"
          ? sql<{ id: string }>`select id from ${x} where search is not null order by id`
          : sql<{ id: string }>`select x.id from ${text} as t join ${x} as x on x.rowid = t.rowid order by x.id`;
      return (await q.execute(store.db)).rows.map((r) => r.id);
    };
    const textCount = async (schema: string) =>
      store.dialect === "postgres"
        ? (await textIds(schema)).length
        : Number((await sql<{ n: number | string }>`select count(*) as n from ${sql.table(await textTable(schema))}`.execute(store.db)).rows[0]!.n);
    const storedSearch = async (schema: string, id: string) => {
      const x = sql.table(tableOf(schema));
      const q =
        store.dialect === "postgres"
          ? sql<{ search: string }>`select search from ${x} where id = ${id}`
          : sql<{ search: string }>`select t.search from ${sql.table(await textTable(schema))} as t join ${x} as x on x.rowid = t.rowid where x.id = ${id}`;
      return (await q.execute(store.db)).rows.map((r) => r.search);
    };
    const overwriteSearch = async (schema: string, id: string, value: string) => {
      if (store.dialect === "postgres") await sql`update ${sql.table(tableOf(schema))} set search = ${value} where id = ${id}`.execute(store.db);
      else {
        // The plain text and its contentless FTS5 index both change (spec.ftsTable).
        const text = sql.table(await textTable(schema));
        const rowid = (await sql<{ r: number }>`select rowid as r from ${sql.table(tableOf(schema))} where id = ${id}`.execute(store.db)).rows[0]!.r;
        const fts = sql.table(indexSpec((await store.getSchema(schema))!)!.ftsTable);
        await sql`update ${text} set search = ${value} where rowid = ${rowid}`.execute(store.db);
        await sql`delete from ${fts} where rowid = ${rowid}`.execute(store.db);
        await sql`insert into ${fts} (rowid, search) values (${rowid}, ${value})`.execute(store.db);
      }
    };
    /** The side table (and its search text) holds one row per published item of the schema, and nothing else. */
    const expectInSync = async (schema: string) => {
      const published = await publishedIds(schema);
      expect(await rowCount(schema)).toBe(published.length);
      expect(await rowIds(schema)).toEqual(published);
      expect(await textCount(schema)).toBe(published.length);
      expect(await textIds(schema)).toEqual(published);
    };

    // ---- 1 ------------------------------------------------------------------------------------------

    describe("the side table follows every write", () => {
      const S = "fi-places";
      const city = (c: string) => ids(S, { filter: eq("data.city.iv", c) });

      beforeAll(async () => {
        await store.upsertSchema({ name: S, fields: [str("name", { isIndexed: true }), str("city", { isIndexed: true }), tags("tags")] });
      });

      it("publishing creates the row; a draft gets none and stays invisible to visitors", async () => {
        await store.create(S, iv({ name: "Praxis Nord", city: "Berlin" }), { id: "pl-1", publish: true });
        expect(await rowIds(S)).toEqual(["pl-1"]);
        expect(await city("Berlin")).toEqual(["pl-1"]);

        await store.create(S, iv({ name: "Praxis Süd", city: "Berlin" }), { id: "pl-2" });
        expect(await rowIds(S)).toEqual(["pl-1"]);
        expect(await city("Berlin")).toEqual(["pl-1"]);
        expect(await ids(S, { filter: eq("data.city.iv", "Berlin") }, { unpublished: true })).toEqual(["pl-1", "pl-2"]);
        await expectInSync(S);
      });

      it("update and patch of a published item change what the filter finds", async () => {
        await store.update(S, "pl-1", iv({ name: "Praxis Nord", city: "Hamburg" }));
        expect(await city("Berlin")).toEqual([]);
        expect(await city("Hamburg")).toEqual(["pl-1"]);

        await store.patch(S, "pl-1", { city: { iv: "Köln" } });
        expect(await city("Hamburg")).toEqual([]);
        expect(await city("Köln")).toEqual(["pl-1"]);
        expect(await ids(S, { filter: eq("data.name.iv", "Praxis Nord") })).toEqual(["pl-1"]);
        await expectInSync(S);
      });

      it("Draft and Archived remove the row, publishing again brings it back", async () => {
        await store.changeStatus(S, "pl-1", "Draft");
        expect(await city("Köln")).toEqual([]);
        expect(await rowIds(S)).toEqual([]);
        await expectInSync(S);

        await store.changeStatus(S, "pl-1", "Published");
        expect(await city("Köln")).toEqual(["pl-1"]);
        await expectInSync(S);

        await store.changeStatus(S, "pl-1", "Archived");
        expect(await city("Köln")).toEqual([]);
        expect(await rowIds(S)).toEqual([]);

        await store.changeStatus(S, "pl-1", "Published");
        await store.changeStatus(S, "pl-2", "Published");
        expect(await city("Köln")).toEqual(["pl-1"]);
        expect(await city("Berlin")).toEqual(["pl-2"]);
        expect(await rowIds(S)).toEqual(["pl-1", "pl-2"]);
        await expectInSync(S);
      });

      it("a pending draft changes nothing visitors see until it is published", async () => {
        await store.createDraft(S, "pl-1");
        await store.update(S, "pl-1", iv({ name: "Praxis Nord", city: "Bremen" }));
        expect(await city("Bremen")).toEqual([]);
        expect(await city("Köln")).toEqual(["pl-1"]);
        expect(await ids(S, { filter: eq("data.city.iv", "Bremen") }, { unpublished: true })).toEqual(["pl-1"]);

        await store.discardDraft(S, "pl-1");
        expect(await city("Köln")).toEqual(["pl-1"]);
        expect(await ids(S, { filter: eq("data.city.iv", "Bremen") }, { unpublished: true })).toEqual([]);

        await store.createDraft(S, "pl-1");
        await store.patch(S, "pl-1", { city: { iv: "Bremen" } });
        expect(await city("Bremen")).toEqual([]);
        await store.changeStatus(S, "pl-1", "Published");
        expect(await city("Bremen")).toEqual(["pl-1"]);
        expect(await city("Köln")).toEqual([]);
        await expectInSync(S);
      });

      it("delete removes the row", async () => {
        await store.create(S, iv({ name: "Praxis West", city: "Bremen" }), { id: "pl-3", publish: true });
        expect(await city("Bremen")).toEqual(["pl-1", "pl-3"]);
        await store.delete(S, "pl-1");
        expect(await city("Bremen")).toEqual(["pl-3"]);
        expect(await rowIds(S)).toEqual(["pl-2", "pl-3"]);
        expect(await rowCount(S)).toBe(2);
        await expectInSync(S);
      });
    });

    // ---- 2 ------------------------------------------------------------------------------------------

    describe("stored slugs", () => {
      const S = "fi-people";
      const R = "fi-rebuild";
      const JW = "Jürgen Weiß";
      const person = (name: string) => iv({ name, city: "Berlin" });
      /** id → slug of every published item. */
      const slugs = async (schema = S) =>
        Object.fromEntries((await store.query(schema, { sort: byId }, { all: true })).items.map((i) => [i.id, i.slug]));
      const bySlug = async (slug: string) => (await store.query(S, { filter: eq("slug", slug) }, { all: true })).items.map((i) => [i.id, i.slug]);

      beforeAll(async () => {
        const fields = [str("name", { isIndexed: true }), str("city")];
        await store.upsertSchema({ name: S, properties: { slugField: "name" }, fields });
        await store.upsertSchema({ name: R, properties: { slugField: "name" }, fields });
      });

      it("same names get -2, -3 in creation order; a later item never moves an earlier one", async () => {
        await store.create(S, person(JW), { id: "pe-1", publish: true });
        await store.create(S, person(JW), { id: "pe-2", publish: true });
        expect(await slugs()).toEqual({ "pe-1": "juergen-weiss", "pe-2": "juergen-weiss-2" });
        await store.create(S, person(JW), { id: "pe-3", publish: true });
        expect(await slugs()).toEqual({ "pe-1": "juergen-weiss", "pe-2": "juergen-weiss-2", "pe-3": "juergen-weiss-3" });
      });

      it("a rename gives a new slug and moves nothing else; a name with the same base keeps its slug", async () => {
        await store.update(S, "pe-1", person("Anna Berg"));
        expect(await slugs()).toEqual({ "pe-1": "anna-berg", "pe-2": "juergen-weiss-2", "pe-3": "juergen-weiss-3" });
        // "Juergen Weiss" slugifies to the same base: -2 stays although the base is free now.
        await store.update(S, "pe-2", person("Juergen Weiss"));
        await store.patch(S, "pe-3", { city: { iv: "Hamburg" } });
        expect(await slugs()).toEqual({ "pe-1": "anna-berg", "pe-2": "juergen-weiss-2", "pe-3": "juergen-weiss-3" });
        // The freed base goes to the next item that asks for it.
        await store.create(S, person(JW), { id: "pe-4", publish: true });
        expect((await slugs())["pe-4"]).toBe("juergen-weiss");
      });

      it("unpublishing and deleting free a slug; a filter on `slug` finds exactly its item", async () => {
        await store.changeStatus(S, "pe-3", "Draft");
        expect(await bySlug("juergen-weiss-3")).toEqual([]);
        await store.create(S, person(JW), { id: "pe-5", publish: true });
        expect(await bySlug("juergen-weiss-3")).toEqual([["pe-5", "juergen-weiss-3"]]);
        await store.changeStatus(S, "pe-3", "Published");
        expect((await slugs())["pe-3"]).toBe("juergen-weiss-4");

        await store.delete(S, "pe-5");
        expect(await bySlug("juergen-weiss-3")).toEqual([]);
        expect(await slugs()).toEqual({ "pe-1": "anna-berg", "pe-2": "juergen-weiss-2", "pe-3": "juergen-weiss-4", "pe-4": "juergen-weiss" });
        expect(await bySlug("juergen-weiss-4")).toEqual([["pe-3", "juergen-weiss-4"]]);
        expect(await bySlug("juergen-weiss")).toEqual([["pe-4", "juergen-weiss"]]);
        expect(await bySlug("anna-berg")).toEqual([["pe-1", "anna-berg"]]);
        await expectInSync(S);
      });

      it("a rebuild keeps every address; only a first build (no table yet) assigns in id order", async () => {
        // Created out of id order: live, the first created gets the base.
        for (const id of ["rb-c", "rb-a", "rb-b"]) await store.create(R, person(JW), { id, publish: true });
        const live = { "rb-a": "juergen-weiss-2", "rb-b": "juergen-weiss-3", "rb-c": "juergen-weiss" };
        expect(await slugs(R)).toEqual(live);
        const people = await slugs();

        // A rebuild (a new shape, or the record lost) keeps the slugs the items have.
        await sql`delete from content_indexes`.execute(store.db);
        expect(await store.migrate()).toEqual([]);
        expect(await slugs(R)).toEqual(live);
        expect(await slugs()).toEqual(people);
        const records = await store.db.selectFrom("content_indexes").select(["schema_name", "table_name"]).where("schema_name", "in", [S, R]).orderBy("schema_name").execute();
        expect(records).toEqual([
          { schema_name: S, table_name: tableOf(S) },
          { schema_name: R, table_name: tableOf(R) },
        ]);

        // With the table gone, there are no addresses to keep: id order decides.
        const spec = indexSpec((await store.getSchema(R))!)!;
        for (const table of [spec.ftsTable, spec.textTable, spec.table]) await sql`drop table if exists ${sql.table(table)}`.execute(store.db);
        await sql`delete from content_indexes`.execute(store.db);
        expect(await store.migrate()).toEqual([]);
        expect(await slugs(R)).toEqual({ "rb-a": "juergen-weiss", "rb-b": "juergen-weiss-2", "rb-c": "juergen-weiss-3" });
        await expectInSync(S);
        await expectInSync(R);
        await expectInSync("fi-places");
      });

      it("createMany gives the slugs one create at a time would, keeps the side table in sync, and writes nothing when one item fails", async () => {
        const B = "fi-batch";
        await store.upsertSchema({ name: B, properties: { slugField: "name" }, fields: [str("name", { isIndexed: true }), str("city")] });
        await store.create(B, person(JW), { id: "bt-0", publish: true });
        const made = await store.createMany(B, [
          { id: "bt-1", data: person(JW), publish: true },
          { id: "bt-2", data: person("Anna Berg"), publish: true },
          { id: "bt-3", data: person("Juergen Weiss"), publish: true },
          { id: "bt-4", data: person(JW) },
        ]);
        expect(made.map((i) => [i.id, i.status])).toEqual([["bt-1", "Published"], ["bt-2", "Published"], ["bt-3", "Published"], ["bt-4", "Draft"]]);
        expect(await slugs(B)).toEqual({ "bt-0": "juergen-weiss", "bt-1": "juergen-weiss-2", "bt-2": "anna-berg", "bt-3": "juergen-weiss-3" });
        await expectInSync(B);

        // A bad item in the middle (invalid data, a taken id, an id twice): its index, nothing written.
        const bad: Array<[number, { id?: string; data: unknown; publish?: boolean }]> = [
          [1, { data: { name: { iv: 42 } }, publish: true }],
          [1, { id: "bt-2", data: person("Again"), publish: true }],
          [2, { id: "bt-9", data: person("Twice"), publish: true }],
        ];
        for (const [index, item] of bad) {
          const attempt = store.createMany(B, [{ id: "bt-9", data: person(JW), publish: true }, index === 2 ? { data: person("Ok"), publish: true } : item, item]);
          await expect(attempt).rejects.toMatchObject({ index });
          expect((await slugs(B))["bt-9"]).toBeUndefined();
          expect(await store.get(B, "bt-9", { unpublished: true })).toBeUndefined();
        }
        expect(Object.keys(await slugs(B))).toHaveLength(4);
        await expectInSync(B);
      });

      it("createMany without slugs (on PostgreSQL one statement, or a transaction past its parameter limit): rows, search text, all or nothing", async () => {
        const N = "fi-batch-plain";
        await store.upsertSchema({ name: N, fields: [str("name", { isIndexed: true }), str("city")] });
        const made = await store.createMany(N, [
          { id: "bp-1", data: iv({ name: "Özlem Kaya", city: "Köln" }), publish: true },
          { id: "bp-2", data: iv({ name: "Draft Only", city: "Bonn" }) },
          { id: "bp-3", data: iv({ name: "Jens Mueller", city: "Bonn" }), publish: true },
        ]);
        expect(made.map((i) => [i.id, i.status])).toEqual([["bp-1", "Published"], ["bp-2", "Draft"], ["bp-3", "Published"]]);
        await expectInSync(N);
        const fields = new Set(["name", "city"]);
        expect(await ids(N, { fullText: "ozlem koln" }, { searchFields: fields })).toEqual(["bp-1"]);
        expect(await ids(N, { fullText: "Müller" }, { searchFields: fields })).toEqual(["bp-3"]);
        // A taken id or bad data: nothing of the batch is written.
        for (const item of [{ id: "bp-3", data: iv({ name: "Again" }) }, { data: { name: { iv: 42 } } }]) {
          await expect(store.createMany(N, [{ id: "bp-4", data: iv({ name: "Ok" }), publish: true }, item])).rejects.toMatchObject({ index: 1 });
          expect(await store.get(N, "bp-4", { unpublished: true })).toBeUndefined();
        }
        await expectInSync(N);
        // Two batches with the same new ids at once: one is written, the other is refused as a conflict
        // (whether it saw the ids taken or lost the race at the insert), never a raw database error.
        const twins = () => store.createMany(N, [{ id: "bt-race-1", data: iv({ name: "Race" }), publish: true }, { id: "bt-race-2", data: iv({ name: "Race" }), publish: true }]);
        const outcomes = await Promise.allSettled([twins(), twins(), twins()]);
        expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
        for (const o of outcomes) {
          if (o.status === "rejected") expect((o.reason as { error?: unknown }).error ?? o.reason).toMatchObject({ statusCode: 409 });
        }
        await expectInSync(N);
        // Losing that race at the insert (two app nodes) is this database error, which createMany answers with 409.
        const duplicate = await sql`insert into contents (id, schema_name, status, version, data, created, created_by, last_modified, last_modified_by) values ('bt-race-1', ${N}, 'Draft', 1, '{}', '', '', '', '')`
          .execute(store.db)
          .then(() => undefined, (error: unknown) => error);
        expect(isUniqueViolation(duplicate)).toBe(true);
        expect(isUniqueViolation(new Error("something else"))).toBe(false);
        // More values than one PostgreSQL statement may bind: written all the same.
        const many = Array.from({ length: 5000 }, (_, i) => ({ id: `bm-${String(i).padStart(4, "0")}`, data: iv({ name: `Name ${i}`, city: "Ulm" }), publish: i % 3 !== 0 }));
        expect((await store.createMany(N, many)).length).toBe(5000);
        await expectInSync(N);
        expect((await store.query(N, { fullText: "ulm", take: 1 }, { searchFields: fields })).total).toBe(3333);
      });
    });

    // ---- 3 ------------------------------------------------------------------------------------------

    describe("full-text search", () => {
      const S = "fi-search";
      const P = "fi-search-plain";
      const FIELDS = (indexed: boolean) => [str("name", indexed ? { isIndexed: true } : {}), str("city"), str("speciality")];
      const ITEMS: Array<[string, Record<string, string>, boolean]> = [
        ["1", { name: "Müller", city: "Köln", speciality: "Physiotherapie" }, true],
        ["2", { name: "Anna Berg", city: "Berlin", speciality: "Osteopathie" }, true],
        ["3", { name: "Moller", city: "Bonn", speciality: "Physik" }, true],
        ["4", { name: "Kurt Schmidt", city: "Köln", speciality: "Ergotherapie" }, true],
        ["5", { name: "Müllers Hof", city: "Bonn", speciality: "Massage" }, true],
        ["6", { name: "Müller", city: "Köln", speciality: "Physiotherapie" }, false],
        ["7", { name: "Jens Mueller", city: "Koeln", speciality: "Ergotherapie" }, true],
      ];
      const CASES: Array<[string, string[]]> = [
        ["Mueller", ["1", "5", "7"]],
        ["Muller", ["1", "5", "7"]],
        ["MÜLLER", ["1", "5", "7"]],
        ["koeln", ["1", "4", "7"]],
        ["Koln", ["1", "4", "7"]],
        ["phys", ["1", "3"]],
        ["ko", ["1", "4", "7"]],
        ["Ko PHYS", ["1"]],
        ["Muller koln", ["1", "7"]],
        ["  köln   PHYSIO ", ["1"]],
        ["xyz", []],
        ["Muller xyz", []],
      ];
      let indexedPublic: Set<string>;
      let plainPublic: Set<string>;
      const search = async (schema: string, text: string, searchFields?: Set<string>) => {
        const r = await store.query(schema, { fullText: text, sort: byId }, searchFields ? { searchFields } : {});
        return { total: r.total, ids: r.items.map((i) => i.id.slice(3)) };
      };

      beforeAll(async () => {
        await store.upsertSchema({ name: S, fields: FIELDS(true) });
        await store.upsertSchema({ name: P, fields: FIELDS(false) });
        for (const [n, data, publish] of ITEMS) {
          await store.create(S, iv(data), { id: `se-${n}`, publish });
          await store.create(P, iv(data), { id: `sp-${n}`, publish });
        }
        indexedPublic = new Set(publicFieldNames((await store.getSchema(S))!));
        plainPublic = new Set(publicFieldNames((await store.getSchema(P))!));
        expect([...indexedPublic]).toEqual(["name", "city", "speciality"]);
        expect(await rowIds(S)).toEqual(["se-1", "se-2", "se-3", "se-4", "se-5", "se-7"]);
        expect(await rowIds(P).catch(() => "no table")).toBe("no table");
      });

      it.each(CASES)("%j finds %j, with and without the side table", async (text, expected) => {
        const want = { total: expected.length, ids: expected };
        expect(await search(S, text, indexedPublic)).toEqual(want);
        expect(await search(S, text)).toEqual(want);
        expect(await search(P, text, plainPublic)).toEqual(want);
        expect(await search(P, text)).toEqual(want);
      });

      it("editors' search (drafts too) reads the search text for live items and JSON for the rest, with the answers of a plain scan", async () => {
        const D = "fi-draft-search";
        const DP = "fi-draft-search-plain";
        await store.upsertSchema({ name: D, fields: FIELDS(true) });
        await store.upsertSchema({ name: DP, fields: FIELDS(false) });
        for (const [schema, prefix] of [[D, "ds"], [DP, "dp"]] as const) {
          for (const [n, data, publish] of ITEMS) await store.create(schema, iv(data), { id: `${prefix}-${n}`, publish });
          // A published item with a pending draft: editors search the draft, visitors the live data.
          await store.create(schema, iv({ name: "Alt Name", city: "Ulm", speciality: "Logopädie" }), { id: `${prefix}-8`, publish: true });
          await store.createDraft(schema, `${prefix}-8`);
          await store.update(schema, `${prefix}-8`, iv({ name: "Neue Praxis", city: "Ulm", speciality: "Logopädie" }));
          // Unpublished after publishing: no side row, read as JSON.
          await store.create(schema, iv({ name: "Zurückgezogen", city: "Köln", speciality: "Physio" }), { id: `${prefix}-9`, publish: true });
          await store.changeStatus(schema, `${prefix}-9`, "Draft");
        }
        const fields = new Set(publicFieldNames((await store.getSchema(D))!));
        expect(await store.indexedSearchFields(D)).toEqual(fields);
        expect(await store.indexedSearchFields(DP)).toBeUndefined();
        const editors = async (schema: string, text: string, searchFields?: Set<string>) => {
          const r = await store.query(schema, { fullText: text, sort: byId }, { unpublished: true, ...(searchFields ? { searchFields } : {}) });
          return { total: r.total, ids: r.items.map((i) => i.id.slice(3)) };
        };
        const texts = [...CASES.map(([text]) => text), "neue", "alt name", "ulm", "zuruckgezogen koln", "logopadie", "physio"];
        for (const text of texts) {
          const plain = await editors(DP, text, fields);
          expect(await editors(D, text, fields), text).toEqual(plain);
          expect(await editors(D, text), text).toEqual(plain);
        }
        expect((await editors(D, "neue", fields)).ids).toEqual(["8"]);
        expect((await editors(D, "alt name", fields)).ids).toEqual([]);
        expect((await editors(D, "Muller koln", fields)).ids).toEqual(["1", "6", "7"]);
        expect((await editors(D, "zuruckgezogen", fields)).ids).toEqual(["9"]);
        // The live items' answers come from the search text: emptied behind the store's back, the
        // editors' search no longer finds ds-1 there (the scan of every field still does).
        await overwriteSearch(D, "ds-1", "");
        expect((await editors(D, "Muller koln", fields)).ids).toEqual(["6", "7"]);
        expect((await editors(D, "Muller koln")).ids).toEqual(["1", "6", "7"]);
        await store.patch(D, "ds-1", {});
        expect((await editors(D, "Muller koln", fields)).ids).toEqual(["1", "6", "7"]);
        // Visitors still find the live data only.
        expect(await ids(D, { fullText: "alt name" }, { searchFields: fields })).toEqual(["ds-8"]);
        expect(await ids(D, { fullText: "zuruckgezogen" }, { searchFields: fields })).toEqual([]);
      });

      it("the public search reads the side table's search text, and every write rewrites it", async () => {
        await expectInSync(S);
        // One searchFold-ed line per string (in key order, which PostgreSQL's jsonb does not keep).
        const lines = async () => (await storedSearch(S, "se-1")).flatMap((t) => t.split("\n")).sort();
        expect(await lines()).toEqual(["koln", "muller", "physiotherapie"]);
        expect(await storedSearch(S, "se-7")).toHaveLength(1);
        expect((await storedSearch(S, "se-7"))[0]!.split("\n").sort()).toEqual(["ergotherapie", "jens muller", "koln"]);
        // Emptied behind the store's back, the public search no longer sees se-1; the JSON search does.
        await overwriteSearch(S, "se-1", "");
        expect((await search(S, "Muller", indexedPublic)).ids).toEqual(["5", "7"]);
        expect((await search(S, "Muller")).ids).toEqual(["1", "5", "7"]);
        await store.patch(S, "se-1", {});
        expect(await lines()).toEqual(["koln", "muller", "physiotherapie"]);
        await expectInSync(S);
        expect((await search(S, "Muller", indexedPublic)).ids).toEqual(["1", "5", "7"]);
      });

      it("PostgreSQL: a side table without its trigram index (pg_trgm installed later) gets it at the next start", async () => {
        if (store.dialect !== "postgres") return;
        const table = tableOf(S);
        const trigram = async () =>
          (await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema() and tablename = ${table} and indexdef like '%gin_trgm_ops%'`.execute(store.db)).rows.map((r) => r.name);
        expect(await trigram()).toEqual([`${table}_trgm`]);
        await sql`drop index ${sql.id(`${table}_trgm`)}`.execute(store.db);
        expect(await trigram()).toEqual([]);
        expect(await store.migrate()).toEqual([]);
        expect(await trigram()).toEqual([`${table}_trgm`]);
        expect((await search(S, "Muller koln", indexedPublic)).ids).toEqual(["1", "7"]);
      });

      it("finds what was just written before the SQLite FTS5 index has it, and the same after the flush", async () => {
        const W = "fi-pending";
        await store.upsertSchema({ name: W, fields: [str("name", { isIndexed: true })] });
        const fields = new Set(["name"]);
        const find = (word: string) => ids(W, { fullText: word }, { searchFields: fields });
        const pendingRows = async () =>
          store.dialect === "sqlite"
            ? Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(indexSpec((await store.getSchema(W))!)!.pendingTable)}`.execute(store.db)).rows[0]!.n)
            : 0;
        /** The answers right after the writes (rows pending), then after the flush: the same. */
        const expectFound = async (expected: Record<string, string[]>) => {
          for (const round of ["pending", "flushed"]) {
            for (const [word, found] of Object.entries(expected)) expect(await find(word), `${round}: ${word}`).toEqual(found);
            await store.flushSearch();
            expect(await pendingRows()).toBe(0);
          }
        };
        await store.create(W, iv({ name: "Pendelbach" }), { id: "pd-1", publish: true });
        await store.create(W, iv({ name: "Ostrowski" }), { id: "pd-2", publish: true });
        if (store.dialect === "sqlite") expect(await pendingRows()).toBe(2);
        await expectFound({ pendel: ["pd-1"], ostrowski: ["pd-2"], bach: ["pd-1"], xyz: [] });
        // A word removed by an update: its old index entry must not find the item.
        await store.update(W, "pd-1", iv({ name: "Querbeet" }));
        await expectFound({ pendel: [], querbeet: ["pd-1"] });
        // Deleted, then a new item (SQLite may give it the freed rowid), then unpublished.
        await store.delete(W, "pd-2");
        await expectFound({ ostrowski: [] });
        await store.create(W, iv({ name: "Ostrowski" }), { id: "pd-3", publish: true });
        await expectFound({ ostrowski: ["pd-3"], querbeet: ["pd-1"] });
        await store.changeStatus(W, "pd-3", "Draft");
        await expectFound({ ostrowski: [] });
        await store.createMany(W, [{ id: "pd-4", data: iv({ name: "Pendelbach" }), publish: true }, { id: "pd-5", data: iv({ name: "Ostwind" }), publish: true }]);
        await expectFound({ pendel: ["pd-4"], ost: ["pd-5"], wind: ["pd-5"] });
        await expectInSync(W);
      });

      it("leaves the SQLite FTS5 index alone when an update keeps the search text (only a number, flag or private field changed)", async () => {
        const W = "fi-same-text";
        await store.upsertSchema({ name: W, fields: [str("name", { isIndexed: true }), { name: "visits", partitioning: "invariant", properties: { fieldType: "Number", isIndexed: true } }, str("note", { tags: ["private"] })] });
        const spec = indexSpec((await store.getSchema(W))!)!;
        const pendingRows = async () => (store.dialect === "sqlite" ? Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(spec.pendingTable)}`.execute(store.db)).rows[0]!.n) : 0);
        const find = (word: string) => ids(W, { fullText: word }, { searchFields: new Set(["name", "visits"]) });
        await store.create(W, iv({ name: "Gleichtext", visits: 1, note: "a" }), { id: "st-1", publish: true });
        await store.flushSearch();
        await store.update(W, "st-1", iv({ name: "Gleichtext", visits: 2, note: "b" }));
        await store.patch(W, "st-1", { visits: { iv: 3 } });
        expect(await pendingRows()).toBe(0);
        expect(await find("gleichtext")).toEqual(["st-1"]);
        expect((await store.query(W, { filter: { path: "data.visits.iv", op: "eq", value: 3 } })).items.map((i) => i.id)).toEqual(["st-1"]);
        // A changed word still goes through the flush, and the old word no longer finds the item.
        await store.patch(W, "st-1", { name: { iv: "Andertext" } });
        if (store.dialect === "sqlite") expect(await pendingRows()).toBe(1);
        for (const round of ["pending", "flushed"]) {
          expect(await find("gleichtext"), round).toEqual([]);
          expect(await find("andertext"), round).toEqual(["st-1"]);
          await store.flushSearch();
        }
        await expectInSync(W);
      });
    });

    // ---- 4 ------------------------------------------------------------------------------------------

    describe("private fields", () => {
      const S = "fi-private";
      let publicFields: Set<string>;

      beforeAll(async () => {
        await store.upsertSchema({
          name: S,
          fields: [str("name", { isIndexed: true }), str("notes", { tags: ["private"] }), str("internal", {}, { isHidden: true })],
        });
        await store.create(S, iv({ name: "Anna Berg", notes: "Geheimwort", internal: "Schattenwort" }), { id: "pv-1", publish: true });
        publicFields = new Set(publicFieldNames((await store.getSchema(S))!));
      });

      it("are not in the search text, so the public search cannot find their words", async () => {
        expect([...publicFields]).toEqual(["name"]);
        expect(await storedSearch(S, "pv-1")).toEqual(["anna berg"]);

        expect(await ids(S, { fullText: "anna" }, { searchFields: publicFields })).toEqual(["pv-1"]);
        expect(await ids(S, { fullText: "geheimwort" }, { searchFields: publicFields })).toEqual([]);
        expect(await ids(S, { fullText: "schattenwort" }, { searchFields: publicFields })).toEqual([]);
        expect(await ids(S, { fullText: "anna geheimwort" }, { searchFields: publicFields })).toEqual([]);
        // The words are there: a search over every field (not the public ones) finds them.
        expect(await ids(S, { fullText: "geheimwort" })).toEqual(["pv-1"]);
        expect(await ids(S, { fullText: "schattenwort" }, { searchFields: new Set(["name", "internal"]) })).toEqual(["pv-1"]);
      });
    });

    // ---- 5 ------------------------------------------------------------------------------------------

    describe("distinctValues and adjacent", () => {
      const S = "fi-facets";
      const sorted = (values: unknown[]) => [...values].map(String).sort();
      const around = async (id: string, where?: FilterNode) => {
        const r = await store.adjacent(S, id, { field: "name", ...(where ? { where } : {}) });
        return r && [r.previous.id, r.next.id];
      };
      const berlin = eq("data.city.iv", "Berlin");

      beforeAll(async () => {
        await store.upsertSchema({ name: S, fields: [str("name", { isIndexed: true }), str("city", { isIndexed: true }), tags("tags")] });
        // Ids out of name order; by folded name: anna (fa-2), Bernd (fa-4), Clara (fa-3), Dora (fa-1).
        await store.create(S, iv({ name: "Dora", city: "Berlin", tags: ["yoga", "pilates"] }), { id: "fa-1", publish: true });
        await store.create(S, iv({ name: "anna", city: "Berlin", tags: ["yoga"] }), { id: "fa-2", publish: true });
        await store.create(S, iv({ name: "Clara", city: "Hamburg", tags: ["massage"] }), { id: "fa-3", publish: true });
        await store.create(S, iv({ name: "Bernd", city: "Berlin", tags: [] }), { id: "fa-4", publish: true });
        await store.create(S, iv({ name: "Emil", city: "Berlin", tags: ["reiki"] }), { id: "fa-5" });
      });

      it("distinctValues of a Tags and a String field, with and without `where`", async () => {
        expect(sorted(await store.distinctValues(S, "tags"))).toEqual(["massage", "pilates", "yoga"]);
        expect(sorted(await store.distinctValues(S, "tags", { where: berlin }))).toEqual(["pilates", "yoga"]);
        expect(sorted(await store.distinctValues(S, "tags", { where: eq("data.city.iv", "Hamburg") }))).toEqual(["massage"]);
        expect(sorted(await store.distinctValues(S, "city"))).toEqual(["Berlin", "Hamburg"]);
        expect(sorted(await store.distinctValues(S, "city", { where: eq("data.tags.iv", "yoga") }))).toEqual(["Berlin"]);
        expect(sorted(await store.distinctValues(S, "name", { where: berlin }))).toEqual(["Bernd", "Dora", "anna"]);
        expect(await store.distinctValues(S, "city", { where: eq("data.tags.iv", "reiki") })).toEqual([]);
      });

      it("adjacent walks the folded name order and wraps around at both ends", async () => {
        expect(await around("fa-4")).toEqual(["fa-2", "fa-3"]);
        expect(await around("fa-1")).toEqual(["fa-3", "fa-2"]); // last: next is the first
        expect(await around("fa-2")).toEqual(["fa-1", "fa-4"]); // first: previous is the last
        expect(await around("fa-1", berlin)).toEqual(["fa-4", "fa-2"]);
        expect(await around("fa-2", berlin)).toEqual(["fa-1", "fa-4"]);
        expect(await around("fa-3", eq("data.city.iv", "Hamburg"))).toEqual(["fa-3", "fa-3"]);
      });

      it("adjacent is undefined for an item outside `where` or unpublished", async () => {
        expect(await around("fa-3", berlin)).toBeUndefined();
        expect(await around("fa-5")).toBeUndefined();
        expect(await around("no-such-id")).toBeUndefined();
      });

      it("both follow publishing", async () => {
        await store.changeStatus(S, "fa-5", "Published");
        expect(sorted(await store.distinctValues(S, "tags", { where: berlin }))).toEqual(["pilates", "reiki", "yoga"]);
        expect(await around("fa-5")).toEqual(["fa-1", "fa-2"]); // Emil is last now
        expect(await around("fa-1")).toEqual(["fa-3", "fa-5"]);
        await store.changeStatus(S, "fa-5", "Archived");
        expect(sorted(await store.distinctValues(S, "tags", { where: berlin }))).toEqual(["pilates", "yoga"]);
        expect(await around("fa-1")).toEqual(["fa-3", "fa-2"]);
      });

      it("firstPer gives the first match of each value in the query's order, as the full list would", async () => {
        const first = async (query: ContentQuery, where?: FilterNode) => {
          const r = await store.query(S, query, { firstPer: "city", ...(where ? { where } : {}) });
          expect(r.total).toBe(r.items.length);
          return Object.fromEntries(r.items.map((i) => [(i.data.city as { iv: string }).iv, i.id]));
        };
        /** The oracle: the whole ordered list, first id of each city kept. */
        const oracle = async (query: ContentQuery, where?: FilterNode) => {
          const out: Record<string, string> = {};
          for (const i of (await store.query(S, query, { all: true, ...(where ? { where } : {}) })).items) out[(i.data.city as { iv: string }).iv] ??= i.id;
          return out;
        };
        const byName = [{ path: "data.name.iv" }];
        const cases: Array<[ContentQuery, FilterNode?]> = [
          [{ sort: byName }],
          [{ sort: [{ path: "data.name.iv", order: "descending" }] }],
          [{ sort: byName, filter: { path: "data.tags.iv", op: "eq", value: "yoga" } }],
          [{ sort: byName }, berlin],
          [{ sort: byName, ids: ["fa-1", "fa-3"] }],
          [{ sort: byName, fullText: "dora" }],
          [{ sort: byName, filter: eq("data.city.iv", "Nowhere") }],
        ];
        for (const [query, where] of cases) expect(await first(query, where), JSON.stringify(query)).toEqual(await oracle(query, where));
        expect(await first({ sort: byName })).toEqual({ Berlin: "fa-2", Hamburg: "fa-3" });
        // Drafts never count.
        expect(await first({ sort: [{ path: "data.name.iv", order: "descending" }] })).toEqual({ Berlin: "fa-1", Hamburg: "fa-3" });
        // Only a single-valued side-table field groups; a draft reader has no side table.
        await expect(store.query(S, {}, { firstPer: "tags" })).rejects.toMatchObject({ statusCode: 400 });
        await expect(store.query(S, {}, { firstPer: "nothing" })).rejects.toMatchObject({ statusCode: 400 });
        await expect(store.query(S, {}, { firstPer: "city", unpublished: true })).rejects.toMatchObject({ statusCode: 400 });
      });
    });

    // ---- 6 ------------------------------------------------------------------------------------------

    describe("an indexed query at size", () => {
      const S = "fi-many";
      const P = "fi-many-plain";
      const N = 2000;
      // Three spellings fold alike ("zoe"), so the deep page ends inside a tie decided by text, then id.
      const PREFIXES = ["Zoë", "Zoe", "zoe", "Müller", "Mueller", "Äpfel", "apfel", "Berg"];
      const CITIES = ["Berlin", "Hamburg", "Köln"];
      const suffix = (i: number) => String((i * 7919) % N).padStart(4, "0"); // ids not in creation order
      const dataOf = (i: number) => iv({ name: `${PREFIXES[i % 8]} ${String((i * 37) % 125).padStart(3, "0")}`, city: CITIES[i % 3] });
      const byName = [{ path: "data.name.iv" }];
      let created: ContentItem[] = [];

      beforeAll(async () => {
        const fields = (indexed: boolean) => [str("name", indexed ? { isIndexed: true } : {}), str("city", indexed ? { isIndexed: true } : {})];
        await store.upsertSchema({ name: S, fields: fields(true) });
        await store.upsertSchema({ name: P, fields: fields(false) });
        created = await store.transaction(async (tx) => {
          const out: ContentItem[] = [];
          for (let i = 0; i < N; i++) out.push(await tx.create(S, dataOf(i), { id: `mi-${suffix(i)}`, publish: true }));
          return out;
        });
        await store.transaction(async (tx) => {
          for (let i = 0; i < N; i++) await tx.create(P, dataOf(i), { id: `mp-${suffix(i)}`, publish: true });
        });
      }, 240_000);

      const page = async (schema: string, query: ContentQuery) => {
        const r = await store.query(schema, query);
        return { total: r.total, ids: r.items.map((i) => i.id.slice(3)) };
      };

      it("has one row per item", async () => {
        expect(await rowCount(S)).toBe(N);
        await expectInSync(S);
      });

      it("take 20, skip 1980 sorted by name: the oracle's 20, as the unindexed copy, exact total", async () => {
        const query = { sort: byName, skip: N - 20, take: 20 };
        const expected = sortItems(created, byName, "de").slice(N - 20).map((i) => i.id.slice(3));
        expect(expected).toHaveLength(20);
        const indexed = await page(S, query);
        expect(indexed).toEqual({ total: N, ids: expected });
        expect(await page(P, query)).toEqual(indexed);
        const names = (await store.query(S, query)).items.map((i) => i.data.name!.iv as string);
        expect(new Set(names.map((n) => n.slice(0, 3)))).toEqual(new Set(["Zoe", "Zoë", "zoe"]));
        // Descending, the first page is those 20 again (equal names still tie-break by ascending id).
        const descending = [{ path: "data.name.iv", order: "descending" as const }];
        const desc = await page(S, { sort: descending, take: 20 });
        expect(desc).toEqual({ total: N, ids: sortItems(created, descending, "de").slice(0, 20).map((i) => i.id.slice(3)) });
        expect(new Set(desc.ids)).toEqual(new Set(expected));
        expect(await page(P, { sort: descending, take: 20 })).toEqual(desc);
      });

      it("filtered deep pages and a partial last page keep exact totals", async () => {
        const inKoeln = created.filter((i) => i.data.city!.iv === "Köln");
        const filter = eq("data.city.iv", "Köln");
        const query = { filter, sort: byName, skip: inKoeln.length - 25, take: 20 };
        const expected = sortItems(inKoeln, byName, "de").slice(inKoeln.length - 25, inKoeln.length - 5).map((i) => i.id.slice(3));
        const indexed = await page(S, query);
        expect(indexed).toEqual({ total: inKoeln.length, ids: expected });
        expect(await page(P, query)).toEqual(indexed);

        const last = await page(S, { sort: byName, skip: N - 7, take: 20 });
        expect(last).toEqual({ total: N, ids: sortItems(created, byName, "de").slice(N - 7).map((i) => i.id.slice(3)) });
        expect(await page(P, { sort: byName, skip: N - 7, take: 20 })).toEqual(last);
      });
    });

    // ---- 7 ------------------------------------------------------------------------------------------

    describe("geoCells: map points counted per grid cell in the database", () => {
      const S = "fi-geo";
      const geo = (name: string): SchemaInput["fields"][number] => ({ name, partitioning: "invariant", properties: { fieldType: "Geolocation" } });
      /** The oracle's Web Mercator, written out here apart from field-index.ts. */
      const unit = (lat: number, lng: number) => ({ x: (lng + 180) / 360, y: 0.5 - Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / (2 * Math.PI) });
      type P = { id: string; city: string; at: [number, number]; second?: [number, number]; published: boolean };
      const points: P[] = [];
      for (let i = 0; i < 300; i++)
        points.push({
          id: `geo-${String(i).padStart(3, "0")}`,
          city: i % 3 === 0 ? "Köln" : "Bonn",
          at: [47 + (i % 20) * 0.3, 6 + Math.floor(i / 20) * 0.5],
          ...(i % 7 === 0 ? { second: [53.55, 10.0] as [number, number] } : {}),
          published: i % 11 !== 0,
        });
      /** Counts per cell key "cx:cy", from the published points matching `keep`, inside `cells`. */
      const oracle = (level: number, cells: { x0: number; y0: number; x1: number; y1: number }, keep: (p: P) => boolean = () => true) => {
        const n = 2 ** level;
        const out = new Map<string, number>();
        for (const p of points.filter((p) => p.published && keep(p)))
          for (const at of [p.at, p.second]) {
            if (!at) continue;
            const { x, y } = unit(at[0], at[1]);
            const [cx, cy] = [Math.floor(x * n), Math.floor(y * n)];
            if (cx < cells.x0 || cx >= cells.x1 || cy < cells.y0 || cy >= cells.y1) continue;
            out.set(`${cx}:${cy}`, (out.get(`${cx}:${cy}`) ?? 0) + 1);
          }
        return out;
      };
      const asked = async (level: number, cells: { x0: number; y0: number; x1: number; y1: number }, where?: FilterNode, query?: ContentQuery) =>
        new Map((await store.geoCells(S, { fields: ["at", "second"], level, cells, ...(where ? { where } : {}), ...(query ? { query } : {}) })).map((c) => [`${c.cx}:${c.cy}`, c.count]));

      beforeAll(async () => {
        await store.upsertSchema({ name: S, fields: [str("city", { isIndexed: true }), geo("at"), geo("second")] });
        for (const p of points)
          await store.create(S, iv({ city: p.city, at: { latitude: p.at[0], longitude: p.at[1] }, ...(p.second ? { second: { latitude: p.second[0], longitude: p.second[1] } } : {}) }), {
            id: p.id,
            publish: p.published,
          });
      });

      it("counts every published point of both fields once, per cell, at every level", async () => {
        for (const level of [0, 3, 8, 12]) {
          const n = 2 ** level;
          const all = level <= 8 ? { x0: 0, y0: 0, x1: n, y1: n } : (() => {
            const a = unit(52, 5), b = unit(46, 17);
            return { x0: Math.floor(a.x * n), y0: Math.floor(a.y * n), x1: Math.floor(b.x * n) + 1, y1: Math.floor(b.y * n) + 1 };
          })();
          const got = await asked(level, all);
          expect(got, `level ${level}`).toEqual(oracle(level, all));
          const total = [...got.values()].reduce((a, b) => a + b, 0);
          if (level <= 8) expect(total).toBe(points.filter((p) => p.published).reduce((n, p) => n + (p.second ? 2 : 1), 0));
        }
      });

      it("keeps to the cells asked for, and names the item of a cell with one point", async () => {
        const level = 9;
        const n = 2 ** level;
        const a = unit(49.5, 7.2), b = unit(48.1, 8.6);
        const cells = { x0: Math.floor(a.x * n), y0: Math.floor(a.y * n), x1: Math.floor(b.x * n) + 1, y1: Math.floor(b.y * n) + 1 };
        const got = await asked(level, cells);
        expect(got.size).toBeGreaterThan(0);
        expect(got).toEqual(oracle(level, cells));
        const rows = await store.geoCells(S, { fields: ["at"], level: 14, cells: { x0: 0, y0: 0, x1: 2 ** 14, y1: 2 ** 14 } });
        const single = rows.find((r) => r.count === 1)!;
        expect(single.id).toMatch(/^geo-/);
        const p = points.find((q) => q.id === single.id)!;
        const u = unit(p.at[0], p.at[1]);
        expect(single.x).toBeCloseTo(u.x, 12);
        expect(single.y).toBeCloseTo(u.y, 12);
        expect(rows.filter((r) => r.count > 1).every((r) => r.id === undefined)).toBe(true);
        // An empty area: nothing.
        expect(await asked(10, { x0: 0, y0: 0, x1: 10, y1: 10 })).toEqual(new Map());
      });

      it("applies `where` and the query's filter and words before counting", async () => {
        const all = { x0: 0, y0: 0, x1: 16, y1: 16 };
        expect(await asked(4, all, eq("data.city.iv", "Köln"))).toEqual(oracle(4, all, (p) => p.city === "Köln"));
        expect(await asked(4, all, undefined, { fullText: "bonn" })).toEqual(oracle(4, all, (p) => p.city === "Bonn"));
        expect(await asked(4, all, eq("data.city.iv", "Köln"), { fullText: "bonn" })).toEqual(new Map());
      });

      it("follows publishing, and refuses what is no map field or no grid", async () => {
        const all = { x0: 0, y0: 0, x1: 1, y1: 1 };
        const before = (await asked(0, all)).get("0:0")!;
        await store.changeStatus(S, "geo-000", "Published");
        expect((await asked(0, all)).get("0:0")).toBe(before + 2); // geo-000 has a second place
        await store.changeStatus(S, "geo-000", "Draft");
        expect((await asked(0, all)).get("0:0")).toBe(before);
        await expect(store.geoCells(S, { fields: ["city"], level: 2, cells: all })).rejects.toMatchObject({ statusCode: 400 });
        await expect(store.geoCells(S, { fields: ["at"], level: 2.5, cells: all })).rejects.toMatchObject({ statusCode: 400 });
        await expect(store.geoCells(S, { fields: ["at"], level: 31, cells: all })).rejects.toMatchObject({ statusCode: 400 });
      });
    });
  });
}

indexSuite("sqlite", () => sqliteBackend());

const databaseUrl = process.env.TEST_DATABASE_URL;
indexSuite(databaseUrl ? "postgres" : "postgres (set TEST_DATABASE_URL to run)", databaseUrl ? () => postgresBackend(databaseUrl) : undefined);
