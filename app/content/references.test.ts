import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CompiledQuery, sql, type KyselyPlugin, type RootOperationNode } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresStoreBackend, type StoreBackend } from "../../tests/support/store-backends";
import { AssetStore } from "./assets";
import { migrate, openDatabase, type DB } from "./db";
import { ContentStore } from "./store";
import type { SchemaInput } from "./types";

/**
 * The reference rows behind Squidex's …/{id}/references and …/{id}/referencing (content_references,
 * migration 0013): written by every write path (create, createMany, update, patch, status, draft,
 * delete, schema changes), filled by the migration for stores made before it, and read through the
 * target index at 100 000 items. Real SQLite files; PostgreSQL too when TEST_DATABASE_URL is set.
 */

const PEOPLE = "ref-people";
const POSTS = "ref-posts";
const schemas: SchemaInput[] = [
  { name: PEOPLE, fields: [{ name: "name", partitioning: "invariant", properties: { fieldType: "String", isRequired: true } }] },
  { name: "ref-card", type: "Component", fields: [{ name: "person", partitioning: "invariant", properties: { fieldType: "References", schemaIds: [PEOPLE] } }] },
  {
    name: POSTS,
    fields: [
      { name: "title", partitioning: "invariant", properties: { fieldType: "String" } },
      { name: "author", partitioning: "invariant", properties: { fieldType: "References", schemaIds: [PEOPLE] } },
      { name: "credits", partitioning: "invariant", properties: { fieldType: "Array" }, nested: [{ name: "who", properties: { fieldType: "References" } }] },
      { name: "cards", partitioning: "language", properties: { fieldType: "Components", schemaIds: ["ref-card"] } },
    ],
  },
];

const person = (name: string) => ({ name: { iv: name } });
const post = (title: string, refs: { author?: string[]; credits?: string[]; card?: string } = {}) => ({
  title: { iv: title },
  ...(refs.author ? { author: { iv: refs.author } } : {}),
  ...(refs.credits ? { credits: { iv: refs.credits.map((who) => ({ who: [who] })) } } : {}),
  ...(refs.card ? { cards: { de: [{ schemaId: "ref-card", person: [refs.card] }] } } : {}),
});

/** Every statement the store sends, compiled (to read their plans). */
class Statements implements KyselyPlugin {
  nodes: RootOperationNode[] = [];
  transformQuery(args: { node: RootOperationNode }) {
    this.nodes.push(args.node);
    return args.node;
  }
  async transformResult(args: { result: any }) {
    return args.result;
  }
}

interface Opened {
  store: ContentStore;
  db: DB;
  statements: Statements;
}

type Open = () => Promise<Opened>;

function sqliteOpen(): { open: Open; dispose: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-references-"));
  return {
    async open() {
      const { db, dialect } = await openDatabase({ sqlitePath: path.join(dir, "content.sqlite") });
      const statements = new Statements();
      return { store: new ContentStore(db.withPlugin(statements), dialect, new AssetStore(path.join(dir, "assets"), 4096)), db, statements };
    },
    dispose: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

function pgOpen(backend: StoreBackend): Open {
  return async () => {
    const store = await backend.openStore();
    return { store, db: store.db, statements: new Statements() };
  };
}

const ids = (r: { items: Array<{ id: string }> }) => r.items.map((i) => i.id);

function suite(name: string, open: () => Open) {
  describe(`content references (${name})`, () => {
    let o: Opened;
    beforeAll(async () => {
      o = await open()();
      await o.store.migrate();
      for (const s of schemas) await o.store.upsertSchema(s);
      for (const p of ["p1", "p2", "p3", "p4"]) await o.store.create(PEOPLE, person(p), { id: p, publish: true });
    });
    afterAll(async () => {
      await o?.store.close();
    });

    it("finds what an item references in fields, array entries and components, and who references it, drafts apart from live data", async () => {
      const { store } = o;
      await store.create(POSTS, post("A", { author: ["p1"], credits: ["p2"], card: "p3" }), { id: "a" });
      // A draft references, but not for visitors.
      expect((await store.related("references", "a", {})).items).toEqual([]);
      expect(ids(await store.related("references", "a", { unpublished: true })).sort()).toEqual(["p1", "p2", "p3"]);
      expect(ids(await store.related("referencing", "p3", { unpublished: true }))).toEqual(["a"]);
      expect(ids(await store.related("referencing", "p3", {}))).toEqual([]);
      await store.changeStatus(POSTS, "a", "Published");
      expect(ids(await store.related("referencing", "p3", {}))).toEqual(["a"]);
      // A new draft moves the current references; the live ones stay until it is published.
      await store.createDraft(POSTS, "a");
      await store.update(POSTS, "a", post("A2", { author: ["p4"] }));
      expect(ids(await store.related("references", "a", { unpublished: true }))).toEqual(["p4"]);
      expect(ids(await store.related("references", "a", {})).sort()).toEqual(["p1", "p2", "p3"]);
      expect(ids(await store.related("referencing", "p4", {}))).toEqual([]);
      await store.changeStatus(POSTS, "a", "Published");
      expect(ids(await store.related("references", "a", {}))).toEqual(["p4"]);
      expect(ids(await store.related("referencing", "p1", {}))).toEqual([]);
      // A patch, then a referenced item that is not published: only with unpublished.
      await store.patch(POSTS, "a", { credits: { iv: [{ who: ["p2"] }] } });
      expect(ids(await store.related("references", "a", {})).sort()).toEqual(["p2", "p4"]);
      // A write that leaves the references as they were keeps their rows.
      await store.patch(POSTS, "a", { title: { iv: "A3" } });
      expect(ids(await store.related("references", "a", {})).sort()).toEqual(["p2", "p4"]);
      expect(ids(await store.related("referencing", "p4", {}))).toEqual(["a"]);
      await store.changeStatus(PEOPLE, "p2", "Draft");
      expect(ids(await store.related("references", "a", {}))).toEqual(["p4"]);
      expect(ids(await store.related("references", "a", { unpublished: true })).sort()).toEqual(["p2", "p4"]);
      await store.changeStatus(PEOPLE, "p2", "Published");
      // Unpublishing takes the live references away; deleting all of them.
      await store.changeStatus(POSTS, "a", "Draft");
      expect(ids(await store.related("referencing", "p4", {}))).toEqual([]);
      expect(ids(await store.related("referencing", "p4", { unpublished: true }))).toEqual(["a"]);
      await store.delete(POSTS, "a");
      expect(ids(await store.related("referencing", "p4", { unpublished: true }))).toEqual([]);
    });

    it("keeps the rows of batch creates and transactions, pages newest change first with exact totals", async () => {
      const { store } = o;
      await store.createMany(POSTS, Array.from({ length: 30 }, (_, i) => ({ id: `m${String(i).padStart(2, "0")}`, data: post(`M${i}`, { author: ["p1"] }), publish: true })));
      await store.transaction(async (tx) => {
        await tx.create(POSTS, post("T", { credits: ["p1"] }), { id: "t1", publish: true });
      });
      const first = await store.related("referencing", "p1", { take: 10 });
      expect(first.total).toBe(31);
      expect(first.items[0]!.id).toBe("t1");
      const all = [...ids(first), ...ids(await store.related("referencing", "p1", { take: 10, skip: 10 })), ...ids(await store.related("referencing", "p1", { take: 20, skip: 20 }))];
      expect(new Set(all).size).toBe(31);
      expect((await store.related("referencing", "p1", { take: 10, noTotal: true })).total).toBe(-1);
      // A failed transaction leaves no rows behind.
      await expect(
        store.transaction(async (tx) => {
          await tx.create(POSTS, post("X", { author: ["p3"] }), { id: "x1", publish: true });
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
      expect((await store.related("referencing", "p3", { unpublished: true })).total).toBe(0);
    });

    it("rewrites the rows when a schema's fields change", async () => {
      const { store } = o;
      await store.upsertSchema({ name: "ref-notes", fields: [{ name: "about", partitioning: "invariant", properties: { fieldType: "Tags" } }] });
      await store.create("ref-notes", { about: { iv: ["p2"] } }, { id: "n1", publish: true });
      expect(ids(await store.related("referencing", "p2", {}))).not.toContain("n1");
      await store.upsertSchema({ name: "ref-notes", fields: [{ name: "about", partitioning: "invariant", properties: { fieldType: "References" } }] });
      expect(ids(await store.related("referencing", "p2", {}))).toContain("n1");
    });
  });
}

const sqlite = sqliteOpen();
afterAll(() => sqlite.dispose());
suite("SQLite", () => sqlite.open);

const pgUrl = process.env.TEST_DATABASE_URL;
if (pgUrl) {
  const backend = postgresStoreBackend(pgUrl, "references", "refs_", 4096);
  afterAll(() => backend.dispose());
  suite("PostgreSQL", () => pgOpen(backend));
}

describe("content references at size (SQLite)", () => {
  const files = sqliteOpen();
  let o: Opened;
  beforeAll(async () => {
    o = await files.open();
    await o.store.migrate();
    for (const s of schemas) await o.store.upsertSchema(s);
    for (const p of ["p1", "p2", "p3"]) await o.store.create(PEOPLE, person(p), { id: p, publish: true });
  }, 120_000);
  afterAll(async () => {
    await o?.store.close();
    files.dispose();
  });

  it("fills the rows of items stored before the migration", async () => {
    const { store, db } = o;
    await store.create(POSTS, post("Old", { author: ["p2"], card: "p3" }), { id: "old", publish: true });
    // As a store made before 0013: no table, the migration not applied.
    await sql`drop table content_references`.execute(db);
    // Later migrations go too (the migrator runs them in order): their tables are dropped with them.
    for (const table of ["analytics_salts", "analytics_visitors", "analytics_seen", "analytics_daily", "analytics_breakdown", "analytics_props", "analytics_revenue", "content_schedules", "consent_records"]) await sql`drop table ${sql.table(table)}`.execute(db);
    // 0017 added columns and an index to assets.
    await sql`drop index assets_slug`.execute(db);
    for (const column of ["metadata", "is_protected"]) await sql`alter table assets drop column ${sql.id(column)}`.execute(db);
    await sql`delete from kysely_migration where name >= '0013_content_references'`.execute(db);
    expect(await migrate(db)).toEqual(["0013_content_references", "0014_analytics", "0015_schedules", "0016_consent_records", "0017_asset_annotations"]);
    expect(ids(await store.related("references", "old", {})).sort()).toEqual(["p2", "p3"]);
    expect(ids(await store.related("referencing", "p3", {}))).toEqual(["old"]);
  });

  it("answers who references an item among 100 000 through the target index, not by reading the documents", async () => {
    const { store, db, statements } = o;
    const N = 100_000;
    for (let start = 0; start < N; start += 5000) {
      await store.createMany(
        POSTS,
        Array.from({ length: 5000 }, (_, k) => {
          const i = start + k;
          // p1 is referenced by every 1 000th post, p2 by all others.
          return { id: `s${i}`, data: post(`S${i}`, { author: [i % 1000 === 0 ? "p1" : "p2"] }), publish: true };
        }),
      );
    }
    statements.nodes = [];
    const page = await store.related("referencing", "p1", { take: 20 });
    expect(page.total).toBe(100);
    expect(page.items).toHaveLength(20);
    expect(page.items.every((i) => (i.data.author!.iv as string[])[0] === "p1")).toBe(true);
    const executor = db.getExecutor();
    const plans: string[] = [];
    for (const node of statements.nodes) {
      const compiled = executor.compileQuery(node, { queryId: "plan" } as never);
      if (!compiled.sql.includes("content_references")) continue;
      const plan = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]));
      plans.push(plan.rows.map((r) => r.detail).join(" | "));
    }
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) {
      // The target's rows through the index, then each item by its id: contents is never walked.
      expect(plan).toMatch(/SEARCH r USING COVERING INDEX content_references_target \(target_id=\? AND live=\?\)/);
      expect(plan).toMatch(/SEARCH c USING INDEX sqlite_autoindex_contents_1 \(id=\?\)/);
      expect(plan).not.toMatch(/SCAN (c|contents)\b|contents_schema/);
    }
  }, 300_000);
});
