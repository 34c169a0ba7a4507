import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresStoreBackend, sqliteStoreBackend, type StoreBackend } from "../../../tests/support/store-backends";
import { seedDemoContent } from "../seed-demo";
import type { ContentStore } from "../store";
import { ArchiveError } from "./archive";
import { exportContent } from "./export";
import { importContent } from "./import";

/**
 * Export and import against real stores (SQLite files; PostgreSQL too with TEST_DATABASE_URL): the
 * demo content plus an edited item and an asset, exported, imported into an empty store and compared
 * table by table (side tables and asset files included), imported again, and damaged archives refused
 * with the target left as it was.
 */

const PNG_2X1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAAD0lEQVR4nGP4z8DAwPAfAAcAAf9+CLHQAAAAAElFTkSuQmCC", "base64");
const NOTES = "transfer-notes";
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-transfer-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Every table the transfer touches, side tables included, and the asset files by hash: what "unchanged" means. */
async function dump(store: ContentStore): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const norm = (rows: Array<Record<string, unknown>>) =>
    rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "object" && v !== null ? JSON.stringify(v) : typeof v === "bigint" ? Number(v) : v])));
  const tables = ["schemas", "asset_folders", "contents", "content_references", "content_schedules", "page_history", "assets", "content_indexes"] as const;
  for (const t of tables) out[t] = norm((await sql<Record<string, unknown>>`select * from ${sql.table(t)}`.execute(store.db)).rows).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  for (const { table_name } of await store.db.selectFrom("content_indexes").select("table_name").execute())
    // The search text's lines follow the order of the data's keys, which jsonb (PostgreSQL) sorts its own
    // way on a rebuild: compared as a set of lines (matching reads no order).
    out[table_name] = norm((await sql<Record<string, unknown>>`select * from ${sql.table(table_name)} order by id`.execute(store.db)).rows).map((r) =>
      typeof r.search === "string" ? { ...r, search: r.search.split("\n").sort().join("\n") } : r,
    );
  const files: Record<string, string> = {};
  const walk = (d: string) => {
    if (!fs.existsSync(d)) return;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else files[path.relative(store.assets.dir, p)] = createHash("sha256").update(fs.readFileSync(p)).digest("hex");
    }
  };
  walk(store.assets.dir);
  out.files = files;
  return out;
}

/** The archive's lines, changed by `edit`, written back as a new archive. */
function rewrite(file: string, to: string, edit: (lines: string[]) => string[]) {
  const lines = gunzipSync(fs.readFileSync(file)).toString("utf8").trimEnd().split("\n");
  fs.writeFileSync(to, gzipSync(`${edit(lines).join("\n")}\n`));
}

const backends: Array<[string, (name: string) => StoreBackend]> = [["SQLite", (name) => sqliteStoreBackend(name, 1 << 20)]];
const pgUrl = process.env.TEST_DATABASE_URL;
if (pgUrl) backends.push(["PostgreSQL", (name) => postgresStoreBackend(pgUrl, name, "transfer_", 1 << 20)]);

describe.each(backends)("content transfer on %s", (_label, make) => {
  const made: StoreBackend[] = [];
  const open: ContentStore[] = [];
  async function freshStore(name: string) {
    const backend = make(name);
    made.push(backend);
    const store = await backend.openStore();
    open.push(store);
    await store.migrate();
    return store;
  }
  let source: ContentStore;
  let archive: string;

  beforeAll(async () => {
    source = await freshStore("source");
    await seedDemoContent(source);
    // Our own schema: indexed (a side table), with slugs, localised text; two items share a name (slug -2).
    await source.upsertSchema({
      name: "transfer-notes",
      properties: { slugField: "title" },
      fields: [
        { name: "title", partitioning: "invariant", properties: { fieldType: "String", isRequired: true, isIndexed: true } },
        { name: "body", partitioning: "language", properties: { fieldType: "String" } },
      ],
    });
    const first = await source.create(NOTES, { title: { iv: "Same name" }, body: { de: "eins", en: "one" } }, { publish: true });
    await source.create(NOTES, { title: { iv: "Same name" }, body: { de: "zwei" } }, { publish: true });
    await source.createDraft(NOTES, first.id);
    await source.patch(NOTES, first.id, { body: { de: "eins, geändert", en: "one, changed" } });
    await source.create(NOTES, { title: { iv: "Only a draft" } });
    const dot = await source.assets.upload({ fileName: "dot.png", body: PNG_2X1 });
    // Annotations (migration 0017) travel with the asset.
    await source.assets.annotate(dot.id, { slug: "punkt.png", metadata: { description: "Punkt" }, isProtected: true });
    archive = path.join(dir, `${_label}-a.ndjson.gz`);
    await exportContent(source, archive);
  });
  afterAll(async () => {
    for (const s of open) await s.close();
    for (const b of made) await b.dispose();
  });

  it("imports into an empty store what the source holds, and a second import changes nothing", async () => {
    const target = await freshStore("target");
    const counts = await importContent(target, archive);
    expect(counts.item).toBeGreaterThan(5);
    expect(counts.asset).toBeGreaterThan(0);
    const before = await dump(source);
    expect(await dump(target)).toEqual(before);
    await importContent(target, archive);
    expect(await dump(target)).toEqual(before);
    // What readers get through the store: the pending draft and the live data, slugs as they were.
    const live = await target.query(NOTES, {}, {});
    const all = await target.query(NOTES, {}, { unpublished: true });
    expect(all.items.length).toBe(3);
    expect(live.items.map((i) => i.slug).sort()).toEqual(["same-name", "same-name-2"]);
    const changed = all.items.find((i) => i.newStatus !== undefined)!;
    expect(changed.data.body).toEqual({ de: "eins, geändert", en: "one, changed" });
    expect((await target.get(NOTES, changed.id))?.data.body).toEqual({ de: "eins", en: "one" });
  });

  it("refuses a cut-off archive, a broken record and a failure while writing, leaving the store as it was", async () => {
    const target = await freshStore("damaged");
    await importContent(target, archive);
    await target.create(NOTES, { title: { iv: "Only in the target" } }, { publish: true });
    const before = await dump(target);

    const cut = path.join(dir, `${_label}-cut.gz`);
    const bytes = fs.readFileSync(archive);
    fs.writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await expect(importContent(target, cut)).rejects.toThrow(ArchiveError);
    await expect(importContent(target, cut)).rejects.toThrow(/cut off/);
    expect(await dump(target)).toEqual(before);

    const bad = path.join(dir, `${_label}-bad.gz`);
    rewrite(archive, bad, (lines) => {
      const i = lines.findIndex((l, n) => n > 20 && l.startsWith('{"type":"item"'));
      const record = JSON.parse(lines[i]!);
      delete record.row.status;
      lines[i] = JSON.stringify(record);
      return lines;
    });
    await expect(importContent(target, bad)).rejects.toThrow(/field "status" is missing/);
    expect(await dump(target)).toEqual(before);

    // Every line well-formed, but a schema the store cannot read: found after all rows are written.
    const late = path.join(dir, `${_label}-late.gz`);
    rewrite(archive, late, (lines) => {
      const i = lines.findIndex((l) => l.startsWith('{"type":"schema"'));
      const record = JSON.parse(lines[i]!);
      record.row.definition = "{}";
      lines[i] = JSON.stringify(record);
      return lines;
    });
    await expect(importContent(target, late)).rejects.toThrow();
    expect(await dump(target)).toEqual(before);

    const junk = path.join(dir, `${_label}-junk.gz`);
    fs.writeFileSync(junk, "not an archive");
    await expect(importContent(target, junk)).rejects.toThrow(/not a gzip/);
    rewrite(archive, junk, (lines) => [JSON.stringify({ ...JSON.parse(lines[0]!), version: 99 }), ...lines.slice(1)]);
    await expect(importContent(target, junk)).rejects.toThrow(/format version 99/);
    expect(await dump(target)).toEqual(before);
  });
});
