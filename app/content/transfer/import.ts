import { randomUUID } from "node:crypto";
import fsp from "node:fs/promises";
import path from "node:path";
import { sql } from "kysely";
import type { Database } from "../db";
import { requireValidId } from "../ids";
import type { ContentStore } from "../store";
import { ArchiveError, emptyCounts, readArchive, type ArchiveRecord, type Counts, type RecordKind } from "./archive";

type Of<K extends ArchiveRecord["type"]> = Extract<ArchiveRecord, { type: K }>;
type Collected = { [K in ArchiveRecord["type"]]: Array<Of<K>> };

/** Bound values per statement stay well under SQLite's 32 766 (and PostgreSQL's 65 535). */
const CHUNK = 500;

/**
 * Reads the archive `file` into the store: every record is checked before anything is written (an
 * ArchiveError names the first fault); then all rows go in ONE transaction, so a fault or a killed
 * process leaves the store as it was. Records replace what the store has under the same id (an item
 * with its versions, schedule and slug); everything else in the store stays. Running it twice
 * changes nothing the second time. Asset files are written beside their place first and moved in
 * only after the commit.
 */
export async function importContent(
  store: ContentStore,
  file: string,
  opts: { onTotals?: (totals: Counts) => void; onRecord?: (kind: RecordKind) => void } = {},
): Promise<Counts> {
  const got: Collected = { schema: [], folder: [], item: [], pageVersion: [], schedule: [], asset: [] };
  const files: Array<{ tmp: string; target: string }> = [];
  try {
    const ids = new Map<RecordKind, Set<string>>();
    for await (const record of readArchive(file)) {
      if (record.type === "header") {
        opts.onTotals?.(record.counts);
        continue;
      }
      checkUnique(record, ids);
      if (record.type === "asset") {
        // The bytes go to a private file beside the asset's place now: only the metadata stays in memory.
        const target = store.assets.filePath({ id: record.row.id, fileVersion: record.row.file_version });
        await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
        const tmp = `${target}.${randomUUID()}.tmp`;
        files.push({ tmp, target });
        await fsp.writeFile(tmp, Buffer.from(record.bytes, "base64"), { mode: 0o600 });
        got.asset.push({ ...record, bytes: "" });
      } else (got[record.type] as ArchiveRecord[]).push(record);
    }
    await store.transaction(async (tx) => {
      await checkReferences(tx, got);
      await writeRows(tx, got, opts.onRecord ?? (() => {}));
    });
  } catch (error) {
    await Promise.all(files.map((f) => fsp.rm(f.tmp, { force: true })));
    throw error;
  }
  // Committed: the files move in. Variants made from an earlier file of the same name go (they are made again).
  for (const { tmp, target } of files) {
    const dir = path.dirname(target);
    for (const name of await fsp.readdir(dir)) if (name.startsWith(`${path.basename(target)}-w`)) await fsp.rm(path.join(dir, name), { force: true });
    await fsp.rename(tmp, target);
  }
  await store.flushSearch();
  store.applyRemoteChange({ kind: "schema", id: "*" });
  const counts = emptyCounts();
  for (const kind of Object.keys(counts) as RecordKind[]) counts[kind] = got[kind].length;
  return counts;
}

function keyOf(record: ArchiveRecord): string {
  switch (record.type) {
    case "pageVersion":
      return String(record.row.id);
    case "schedule":
      return record.row.content_id;
    default:
      return record.row.id;
  }
}

/** Ids must be valid and appear once per kind; schema names once too. */
function checkUnique(record: ArchiveRecord, seen: Map<RecordKind, Set<string>>) {
  const key = record.type === "schema" ? record.row.name : keyOf(record);
  let set = seen.get(record.type);
  if (!set) seen.set(record.type, (set = new Set()));
  if (set.has(key)) throw new ArchiveError(`The archive holds the ${record.type} ${JSON.stringify(key)} twice.`);
  set.add(key);
  if (record.type === "item" || record.type === "asset" || record.type === "folder") {
    try {
      requireValidId(record.row.id, `${record.type} id`);
    } catch {
      throw new ArchiveError(`The ${record.type} id ${JSON.stringify(record.row.id).slice(0, 80)} is not a valid id.`);
    }
  }
  if (record.type === "schema") {
    try {
      JSON.parse(record.row.definition);
    } catch {
      throw new ArchiveError(`The definition of schema ${JSON.stringify(record.row.name)} is not JSON.`);
    }
  }
}

/** Items name schemas, schedules items, pages' versions pages: each in the archive or in the store already. */
async function checkReferences(tx: ContentStore, got: Collected) {
  const schemas = new Set(got.schema.map((r) => r.row.name));
  for (const r of await tx.db.selectFrom("schemas").select("name").execute()) schemas.add(r.name);
  for (const { row } of got.item) if (!schemas.has(row.schema_name)) throw new ArchiveError(`Item ${JSON.stringify(row.id)} belongs to schema ${JSON.stringify(row.schema_name)}, which neither the archive nor the store has.`);
  const items = new Set(got.item.map((r) => r.row.id));
  const missing = async (ids: string[]) => {
    const unknown = ids.filter((id) => !items.has(id));
    for (let i = 0; i < unknown.length; i += CHUNK) {
      const chunk = unknown.slice(i, i + CHUNK);
      const found = new Set((await tx.db.selectFrom("contents").select("id").where("id", "in", chunk).execute()).map((r) => r.id));
      const gone = chunk.find((id) => !found.has(id));
      if (gone) return gone;
    }
    return undefined;
  };
  const noItem = (await missing([...new Set(got.schedule.map((r) => r.row.content_id))])) ?? (await missing([...new Set(got.pageVersion.map((r) => r.row.page_id))]));
  if (noItem) throw new ArchiveError(`The archive has a schedule or page version for item ${JSON.stringify(noItem)}, which neither the archive nor the store has.`);
}

async function writeRows(tx: ContentStore, got: Collected, tick: (kind: RecordKind) => void) {
  const db = tx.db;
  const chunks = <T>(list: readonly T[]) => Array.from({ length: Math.ceil(list.length / CHUNK) }, (_, i) => list.slice(i * CHUNK, (i + 1) * CHUNK));

  for (const { row } of got.schema) {
    // By name: the items name their schema; by id: the Squidex API finds schemas by it too.
    await db.deleteFrom("schemas").where((eb) => eb.or([eb("name", "=", row.name), eb("id", "=", row.id)])).execute();
    await db.insertInto("schemas").values(row).execute();
    tick("schema");
  }

  for (const part of chunks(got.folder)) await db.deleteFrom("asset_folders").where("id", "in", part.map((r) => r.row.id)).execute();
  for (const { row } of got.folder) {
    await db.insertInto("asset_folders").values(row).execute();
    tick("folder");
  }

  const itemIds = got.item.map((r) => r.row.id);
  for (const part of chunks(itemIds)) {
    await db.deleteFrom("contents").where("id", "in", part).execute();
    await db.deleteFrom("content_references").where("source_id", "in", part).execute();
    await db.deleteFrom("content_schedules").where("content_id", "in", part).execute();
    await db.deleteFrom("page_history").where("page_id", "in", part).execute();
  }
  for (const part of chunks(got.item)) {
    const rows: Array<Database["contents"]> = part.map(({ row }) => ({ ...row, data: JSON.stringify(row.data), published_data: row.published_data === null ? null : JSON.stringify(row.published_data) }));
    await db.insertInto("contents").values(rows).execute();
    for (const _ of part) tick("item");
  }

  // A version's number is kept where the store has it free (it is the entry's address in the editor).
  for (const part of chunks(got.pageVersion)) {
    const taken = new Set((await db.selectFrom("page_history").select("id").where("id", "in", part.map((r) => r.row.id)).execute()).map((r) => Number(r.id)));
    for (const { row } of part) {
      const values = { ...row, blocks: JSON.stringify(row.blocks), title: JSON.stringify(row.title) };
      if (taken.has(row.id)) {
        const { id: _id, ...rest } = values;
        await db.insertInto("page_history").values(rest).execute();
      } else await db.insertInto("page_history").values(values).execute();
      tick("pageVersion");
    }
  }
  // Ids written by hand leave PostgreSQL's counter behind: it continues after the largest.
  if (tx.dialect === "postgres" && got.pageVersion.length)
    await sql`select setval(pg_get_serial_sequence('page_history', 'id'), greatest((select max(id) from page_history), 1))`.execute(db);

  for (const { row } of got.schedule) {
    await db
      .insertInto("content_schedules")
      .values({ ...row, next_attempt_at: row.due_time, claimed_by: null, claimed_at: null, attempts: 0, last_error: null })
      .execute();
    tick("schedule");
  }

  for (const part of chunks(got.asset)) await db.deleteFrom("assets").where("id", "in", part.map((r) => r.row.id)).execute();
  for (const part of chunks(got.asset)) {
    await db.insertInto("assets").values(part.map((r) => r.row)).execute();
    for (const _ of part) tick("asset");
  }

  const slugs = new Map<string, Map<string, string>>();
  for (const { row, slug } of got.item) {
    if (slug === undefined) continue;
    let map = slugs.get(row.schema_name);
    if (!map) slugs.set(row.schema_name, (map = new Map()));
    map.set(row.id, slug);
  }
  const touched = new Set([...got.schema.map((r) => r.row.name), ...got.item.map((r) => r.row.schema_name)]);
  await tx.rebuildDerived([...touched], slugs);
}
