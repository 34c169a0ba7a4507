import { sql, type RawBuilder } from "kysely";
import { readJsonColumn, type DB, type Dialect } from "./db";
import { fold, searchFold } from "./fold";
import { slugify } from "./slug";
import type { ContentData, Schema } from "./types";

/**
 * Typed side tables for the schemas a site reads at size: one row per published item, one column
 * per invariant scalar field (String, DateTime, Number, Boolean) or list of ids/tags (Tags,
 * References), a search column and, where the schema names one, a stored slug. The store writes the
 * row in the same transaction as the item, so the table always matches the published data.
 *
 * A schema gets a table when one of its fields is marked `isIndexed` (an extension of Squidex's field
 * properties); those fields also get a database index. Queries over published items of such a
 * schema read the compact row instead of parsing JSON (sql-query.ts); every column holds exactly the
 * value the JSON query would compare, so both give the same answers (the conformance suite runs on
 * an indexed copy of its fixture too).
 */
/** "date": an ISO date-time string (validated), whose order is its folded order, so no folded copy. */
export type ColumnKind = "string" | "date" | "number" | "boolean" | "list";

export interface IndexedField {
  field: string;
  kind: ColumnKind;
  /** The value column: text, number, 0/1, or the list as delimited JSON strings (see listText). */
  column: string;
  /** string: the folded text (sorting, contains…). list: the number of elements. */
  extra: string;
  /** list with at most one element: the element, so `eq` is an indexed lookup. */
  single?: string;
  indexed: boolean;
}

export interface IndexSpec {
  schema: string;
  table: string;
  fields: ReadonlyMap<string, IndexedField>;
  /** Fields whose text feeds the search table: the ones visitors can see. */
  searchFields: ReadonlySet<string>;
  /**
   * SQLite: the search text lives apart (`<table>_text`), a plain table by the side table's rowid,
   * indexed by a contentless FTS5 table with the trigram tokenizer (`ftsTable`). PostgreSQL: it is
   * the side table's `search` column, with a pg_trgm index where available: a search and its count
   * read one table (a join to a text table cost 46 ms instead of 18 for a count at 100 000).
   */
  textTable: string;
  ftsTable: string;
  /**
   * SQLite: rowids whose FTS5 entry is missing or out of date (`stale`: it may hold an old entry).
   * A write puts its rows here instead of into the FTS5 index, whose every commit writes a new
   * segment (half the cost of a create); `flushSearchIndex` brings the index up to date for many
   * rows in one transaction, soon after. Until then the search reads these rows' text directly.
   */
  pendingTable: string;
  /** The field the stored slug is made from (schema property `slugField`). */
  slugField?: string;
  /**
   * Geolocation fields (invariant): the point as Web Mercator x and y, each in [0, 1] (x from west,
   * y from north), the plane maps are drawn on, so grid cells for clustering are squares on screen.
   * Always indexed: maps read them by area.
   */
  geo: ReadonlyMap<string, GeoColumns>;
  signature: string;
}

export interface GeoColumns {
  field: string;
  x: string;
  y: string;
}

/** Web Mercator's limit: the square world map ends here. */
const MAX_LATITUDE = 85.0511287798;

/** A point's position on the unit Web Mercator square. */
export function mercator(latitude: number, longitude: number): { x: number; y: number } {
  const lat = (Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, latitude)) * Math.PI) / 180;
  const x = Math.max(0, Math.min(1, (longitude + 180) / 360));
  const y = Math.max(0, Math.min(1, (1 - Math.log(Math.tan(Math.PI / 4 + lat / 2)) / Math.PI) / 2));
  return { x, y };
}

/** The latitude and longitude of a point on the unit Web Mercator square. */
export function fromMercator(x: number, y: number): { latitude: number; longitude: number } {
  return { latitude: (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI, longitude: x * 360 - 180 };
}

/** A Geolocation value as validation keeps it: finite latitude and longitude in range, else none. */
function geoPoint(value: unknown): { x: number; y: number } | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const { latitude, longitude } = value as Record<string, unknown>;
  if (typeof latitude !== "number" || typeof longitude !== "number" || !Number.isFinite(latitude) || !Number.isFinite(longitude)) return undefined;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return undefined;
  return mercator(latitude, longitude);
}

const KIND: Partial<Record<string, ColumnKind>> = {
  String: "string",
  DateTime: "date",
  Number: "number",
  Boolean: "boolean",
  Tags: "list",
  References: "list",
};

/** Fields a visitor may see (and so search): neither hidden nor tagged "private". */
export function publicFieldNames(schema: Schema): string[] {
  return schema.fields.filter((f) => !f.isHidden && !f.properties.tags?.includes("private")).map((f) => f.name);
}

const specs = new WeakMap<Schema, IndexSpec | null>();

/** The side table of a schema, or undefined when none of its fields is marked `isIndexed`. */
export function indexSpec(schema: Schema): IndexSpec | undefined {
  const known = specs.get(schema);
  if (known !== undefined) return known ?? undefined;
  let spec: IndexSpec | null = null;
  if (schema.type !== "Component" && schema.fields.some((f) => f.properties.isIndexed)) {
    const fields = new Map<string, IndexedField>();
    for (const f of schema.fields) {
      const kind = f.partitioning === "invariant" ? KIND[f.properties.fieldType] : undefined;
      if (!kind) continue;
      const column = `f${f.fieldId}`;
      fields.set(f.name, {
        field: f.name,
        kind,
        column,
        extra: `${column}_x`,
        ...(kind === "list" && f.properties.maxItems === 1 ? { single: `${column}_1` } : {}),
        indexed: !!f.properties.isIndexed,
      });
    }
    const geo = new Map<string, GeoColumns>();
    for (const f of schema.fields)
      if (f.partitioning === "invariant" && f.properties.fieldType === "Geolocation") geo.set(f.name, { field: f.name, x: `g${f.fieldId}_x`, y: `g${f.fieldId}_y` });
    const slugField = typeof schema.properties.slugField === "string" && fields.get(schema.properties.slugField)?.kind === "string" ? schema.properties.slugField : undefined;
    const searchFields = new Set(publicFieldNames(schema));
    const shape = { fields: [...fields.values()], geo: [...geo.values()], search: [...searchFields], slugField, v: 8 };
    const table = `ix_${schema.name.replace(/-/g, "_")}`;
    spec = { schema: schema.name, table, textTable: `${table}_text`, ftsTable: `${table}_fts`, pendingTable: `${table}_pending`, fields, searchFields, ...(slugField ? { slugField } : {}), geo, signature: JSON.stringify(shape) };
  }
  specs.set(schema, spec);
  return spec ?? undefined;
}

// ---- row values -------------------------------------------------------------------------------------

const SEP = "\u0001";
/**
 * A list as text: every element JSON-encoded and followed by U+0001, after a leading U+0001. JSON
 * escapes U+0001 inside strings, so `SEP + JSON(x) + SEP` occurs in the text exactly when x is an element.
 */
export function listText(list: readonly unknown[]): string {
  return SEP + list.map((e) => JSON.stringify(e) + SEP).join("");
}
/** The elements of a list text again. */
export function parseListText(text: string): unknown[] {
  return text.split(SEP).filter(Boolean).map((e) => JSON.parse(e) as unknown);
}
export function listNeedle(value: string): string {
  return SEP + JSON.stringify(value) + SEP;
}

/** Every string under a value (object values, array elements), in document order. */
function strings(value: unknown, out: string[]) {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value !== null && typeof value === "object") for (const v of Object.values(value)) strings(v, out);
}

/** The search column: the searchable text folded for search, one line per string. */
export function searchText(spec: IndexSpec, data: ContentData): string {
  const out: string[] = [];
  for (const [name, partitions] of Object.entries(data)) if (spec.searchFields.has(name)) strings(partitions, out);
  return out.map(searchFold).join("\n");
}

function columnValues(spec: IndexSpec, data: ContentData): Record<string, string | number | null> {
  const row: Record<string, string | number | null> = {};
  for (const f of spec.fields.values()) {
    const v = (data[f.field] as Record<string, unknown> | undefined)?.iv;
    if (f.kind === "string") {
      const s = typeof v === "string" ? v : null;
      row[f.column] = s;
      row[f.extra] = s === null ? null : fold(s);
    } else if (f.kind === "date") row[f.column] = typeof v === "string" ? v : null;
    else if (f.kind === "number") row[f.column] = typeof v === "number" ? v : null;
    else if (f.kind === "boolean") row[f.column] = v === true ? 1 : v === false ? 0 : null;
    else {
      const list = Array.isArray(v) ? v : null;
      row[f.column] = list ? listText(list) : null;
      row[f.extra] = list ? list.length : null;
      if (f.single) row[f.single] = list && typeof list[0] === "string" ? list[0] : null;
    }
  }
  for (const g of spec.geo.values()) {
    const point = geoPoint((data[g.field] as Record<string, unknown> | undefined)?.iv);
    row[g.x] = point ? point.x : null;
    row[g.y] = point ? point.y : null;
  }
  return row;
}

// ---- tables ---------------------------------------------------------------------------------------------

const q = (name: string) => sql.id(name);

type SqlKind = "text" | "number" | "integer";

/** The value columns of a side table: name, kind, and whether text gets the sorting collation. */
function valueColumns(spec: IndexSpec): Array<[string, SqlKind, boolean]> {
  const cols: Array<[string, SqlKind, boolean]> = [];
  for (const f of spec.fields.values()) {
    if (f.kind === "string") cols.push([f.column, "text", true], [f.extra, "text", true]);
    else if (f.kind === "date") cols.push([f.column, "text", true]);
    else if (f.kind === "number") cols.push([f.column, "number", true]);
    else if (f.kind === "boolean") cols.push([f.column, "integer", true]);
    else {
      cols.push([f.column, "text", false], [f.extra, "integer", true]);
      if (f.single) cols.push([f.single, "text", false]);
    }
  }
  for (const g of spec.geo.values()) cols.push([g.x, "number", true], [g.y, "number", true]);
  return cols;
}

function columnType(dialect: Dialect, kind: SqlKind): RawBuilder<unknown> {
  if (kind === "text") return dialect === "postgres" ? sql`text collate "C"` : sql`text`;
  if (kind === "number") return dialect === "postgres" ? sql`double precision` : sql`real`;
  return sql`integer`;
}

async function createTable(db: DB, dialect: Dialect, spec: IndexSpec) {
  // Ids keep the database's default collation, as contents.id: joins on them can use either index.
  const cols: RawBuilder<unknown>[] = [sql`id text primary key`];
  if (spec.slugField) cols.push(sql`slug ${columnType(dialect, "text")} not null`);
  // List texts keep the default collation (they are searched, never sorted).
  for (const [name, type, collated] of valueColumns(spec)) cols.push(sql`${q(name)} ${collated ? columnType(dialect, type) : sql.raw(type)}`);
  if (dialect === "postgres") cols.push(sql`search text not null`);
  await sql`create table ${q(spec.table)} (${sql.join(cols)})`.execute(db);
  if (dialect === "sqlite") {
    await sql`create table ${q(spec.textTable)} (search text not null)`.execute(db);
    await sql`create virtual table ${q(spec.ftsTable)} using fts5(search, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1')`.execute(db);
    await sql`create table ${q(spec.pendingTable)} (r integer primary key, stale integer not null)`.execute(db);
  }
}

/** The database indexes of a side table, made after it is filled (faster than maintaining them while filling). */
async function createIndexes(db: DB, dialect: Dialect, spec: IndexSpec, trigrams: string | false) {
  if (dialect === "postgres" && trigrams) await createTrigramIndex(db, spec, trigrams);
  const nullsFirst = dialect === "postgres" ? sql` nulls first` : sql``;
  // Orders end with the id by code point (sql-query.ts orderBy): so do the indexes.
  const id = dialect === "postgres" ? sql`id collate "C"` : sql`id`;
  if (spec.slugField) await sql`create unique index ${q(`${spec.table}_slug`)} on ${q(spec.table)} (slug)`.execute(db);
  for (const f of spec.fields.values()) {
    if (!f.indexed) continue;
    const name = q(`${spec.table}_${f.column}`);
    // Strings sort by their folded text, then the text, then the id: the index yields that order.
    if (f.kind === "string") await sql`create index ${name} on ${q(spec.table)} (${q(f.extra)}${nullsFirst}, ${q(f.column)}, ${id})`.execute(db);
    else if (f.kind === "list") {
      if (f.single) await sql`create index ${name} on ${q(spec.table)} (${q(f.single)})`.execute(db);
    } else await sql`create index ${name} on ${q(spec.table)} (${q(f.column)}${nullsFirst}, ${id})`.execute(db);
  }
  // Maps ask for an area: a range of y (a band of latitudes), then x within it, from the index alone.
  for (const g of spec.geo.values()) await sql`create index ${q(`${spec.table}_${g.y}`)} on ${q(spec.table)} (${q(g.y)}, ${q(g.x)})`.execute(db);
}

/** A deleted schema's side tables (and its record of them), if it had any. */
export async function dropIndexTables(db: DB, schemaName: string): Promise<void> {
  const current = await db.selectFrom("content_indexes").selectAll().where("schema_name", "=", schemaName).executeTakeFirst();
  if (!current) return;
  for (const suffix of ["_fts", "_text", "_pending", ""]) await sql`drop table if exists ${q(`${current.table_name}${suffix}`)}`.execute(db);
  await db.deleteFrom("content_indexes").where("schema_name", "=", schemaName).execute();
}

/**
 * Makes the side tables match the schemas: a table whose shape changed (or that is missing) is made
 * anew and filled from the published items, in id order (so slug collisions resolve in id order).
 */
export async function ensureIndexes(
  db: DB,
  dialect: Dialect,
  schemas: readonly Schema[],
  /**
   * `force`: rebuild even when the shape is unchanged (rows were written straight into contents: an
   * import). `slugs`: by schema name, slugs items must keep (an archive's); they win over stored ones.
   */
  opts: { force?: boolean; slugs?: ReadonlyMap<string, ReadonlyMap<string, string>> } = {},
): Promise<string[]> {
  const rebuilt: string[] = [];
  const known = new Map((await db.selectFrom("content_indexes").selectAll().execute()).map((r) => [r.schema_name, r]));
  let trigrams: string | false | undefined;
  for (const schema of schemas) {
    const spec = indexSpec(schema);
    const current = known.get(schema.name);
    if (!opts.force && spec && current?.signature === spec.signature) continue;
    if (!spec && !current) continue;
    if (dialect === "postgres" && spec) trigrams ??= await pgTrigrams(db);
    // Slugs are addresses: a rebuild keeps the ones items already have (see fillRows).
    // (Inside a transaction only a table on record is read: on PostgreSQL a missing one would abort it.)
    const stored = spec?.slugField && (current || !db.isTransaction) ? await storedSlugs(db, [current?.table_name, spec.table]) : new Map<string, string>();
    const kept = spec?.slugField ? keepSlugs(stored, opts.slugs?.get(schema.name)) : stored;
    const run = <T,>(fn: (trx: DB) => Promise<T>) => (db.isTransaction ? fn(db) : db.transaction().execute(fn));
    await run(async (trx) => {
      if (dialect === "postgres") {
        // Nodes starting together: one rebuilds, the others wait and then find it done.
        await sql`select pg_advisory_xact_lock(hashtext(${`praxisnetz:content_indexes:${schema.name}`}))`.execute(trx);
        const now = await trx.selectFrom("content_indexes").select("signature").where("schema_name", "=", schema.name).executeTakeFirst();
        if (!opts.force && spec && now?.signature === spec.signature) return;
      }
      // A table left without its record (or by another shape) is made anew.
      for (const table of new Set([current?.table_name, spec?.table])) {
        if (!table) continue;
        await sql`drop table if exists ${q(`${table}_fts`)}`.execute(trx);
        await sql`drop table if exists ${q(`${table}_text`)}`.execute(trx);
        await sql`drop table if exists ${q(`${table}_pending`)}`.execute(trx);
        await sql`drop table if exists ${q(table)}`.execute(trx);
      }
      await trx.deleteFrom("content_indexes").where("schema_name", "=", schema.name).execute();
      if (!spec) return;
      await createTable(trx, dialect, spec);
      const taken = new Set<string>(kept.values());
      let after = "";
      for (;;) {
        const rows = await trx
          .selectFrom("contents")
          .select(["id", "published_data"])
          .where("schema_name", "=", schema.name)
          .where("status", "=", "Published")
          .where("id", ">", after)
          .orderBy("id")
          .limit(1000)
          .execute();
        await fillRows(trx, dialect, spec, rows.map((r) => ({ id: r.id, data: readData(r.published_data) })), taken, kept);
        if (rows.length < 1000) break;
        after = rows[rows.length - 1]!.id;
      }
      await createIndexes(trx, dialect, spec, trigrams ?? false);
      await trx.insertInto("content_indexes").values({ schema_name: schema.name, table_name: spec.table, signature: spec.signature }).execute();
      // Statistics for the planner, which otherwise knows nothing of a table just filled.
      await sql`analyze ${q(spec.table)}`.execute(trx);
      if (dialect === "sqlite") await sql`analyze ${q(spec.textTable)}`.execute(trx);
    });
    rebuilt.push(schema.name);
  }
  if (dialect === "postgres") await addMissingTrigramIndexes(db, schemas, trigrams);
  return rebuilt;
}

/** PostgreSQL: the trigram index of a side table's search column. */
export const trigramIndexName = (spec: IndexSpec) => `${spec.table}_trgm`;

function createTrigramIndex(db: DB, spec: IndexSpec, trigrams: string) {
  return sql`create index if not exists ${q(trigramIndexName(spec))} on ${q(spec.table)} using gin (search ${sql.id(trigrams, "gin_trgm_ops")})`.execute(db);
}

/**
 * A side table made while pg_trgm was missing (a hosted database, or the extension installed later by
 * its administrator) gets its trigram index once the extension is there, without a rebuild.
 */
async function addMissingTrigramIndexes(db: DB, schemas: readonly Schema[], known: string | false | undefined) {
  const specs = schemas.flatMap((schema) => indexSpec(schema) ?? []);
  if (!specs.length) return;
  const present = await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema() and indexname = any(${specs.map(trigramIndexName)})`.execute(db);
  const missing = specs.filter((spec) => !present.rows.some((r) => r.name === trigramIndexName(spec)));
  if (!missing.length) return;
  const trigrams = known ?? (await pgTrigrams(db));
  if (!trigrams) return;
  for (const spec of missing) {
    // Another node starting at the same moment may make it first: then this one's attempt fails, harmlessly.
    await createTrigramIndex(db, spec, trigrams).catch(() => {});
    await sql`analyze ${q(spec.table)}`.execute(db);
  }
}

function readData(value: unknown): ContentData {
  return (readJsonColumn(value) ?? {}) as ContentData;
}

/** Brings the item's row up to date: written from its published data, or removed when it has none. */
export async function syncIndexRow(db: DB, dialect: Dialect, spec: IndexSpec, id: string, published: unknown, fresh = false) {
  if (published === null || published === undefined) {
    await deleteText(db, dialect, spec, id);
    await sql`delete from ${q(spec.table)} where id = ${id}`.execute(db);
    return;
  }
  await writeRow(db, dialect, spec, id, readData(published), fresh);
}

async function deleteText(db: DB, dialect: Dialect, spec: IndexSpec, id: string) {
  // PostgreSQL: the text is a column of the row.
  if (dialect === "sqlite") {
    const row = (await sql<{ r: number }>`select rowid as r from ${q(spec.table)} where id = ${id}`.execute(db)).rows[0];
    if (!row) return;
    await sql`delete from ${q(spec.textTable)} where rowid = ${row.r}`.execute(db);
    // Its FTS5 entry goes at the next flush.
    await sql`insert into ${q(spec.pendingTable)} (r, stale) values (${row.r}, 1) on conflict (r) do update set stale = 1`.execute(db);
  }
}

/**
 * Fills a new, empty side table with many rows at once (a rebuild). An item keeps the slug it had
 * (`kept`, all of them reserved in `taken` beforehand) while its name still gives that base; the
 * others get the first free of base, base-2… in the order of `rows` (id order), across calls.
 */
async function fillRows(
  db: DB,
  dialect: Dialect,
  spec: IndexSpec,
  rows: ReadonlyArray<{ id: string; data: ContentData }>,
  taken: Set<string>,
  kept: ReadonlyMap<string, string>,
) {
  await insertRows(
    db,
    dialect,
    spec,
    "index",
    rows.map(({ id, data }) => {
      const row: Record<string, string | number | null> = { id, ...columnValues(spec, data) };
      if (spec.slugField) {
        const base = slugBase(spec, data);
        const had = kept.get(id);
        row.slug = had && belongsTo(had, base) ? had : nextFree(base, taken);
        taken.add(row.slug);
      }
      return { row, text: searchText(spec, data) };
    }),
  );
}

/** Stored slugs overlaid with `wanted` ones; a stored slug another item now wants is given up (made anew). */
function keepSlugs(stored: ReadonlyMap<string, string>, wanted: ReadonlyMap<string, string> | undefined): Map<string, string> {
  if (!wanted?.size) return new Map(stored);
  const claimed = new Set(wanted.values());
  const kept = new Map<string, string>();
  for (const [id, slug] of stored) if (!wanted.has(id) && !claimed.has(slug)) kept.set(id, slug);
  for (const [id, slug] of wanted) kept.set(id, slug);
  return kept;
}

/** The first of base, base-2, base-3… not in `taken`. */
function nextFree(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}

/**
 * Side-table rows for many new items (a bulk create): one multi-row insert per table. Slugs as for
 * one item at a time: the first free suffix, in the order of `rows`.
 */
export async function insertFreshRows(db: DB, dialect: Dialect, spec: IndexSpec, rows: ReadonlyArray<{ id: string; data: ContentData }>) {
  const takenByBase = new Map<string, Set<string>>();
  const values = [];
  for (const { id, data } of rows) {
    const row: Record<string, string | number | null> = { id, ...columnValues(spec, data) };
    if (spec.slugField) {
      const base = slugBase(spec, data);
      let taken = takenByBase.get(base);
      if (!taken) {
        taken = new Set((await takenSlugs(db, dialect, spec, base)).map((r) => r.slug));
        takenByBase.set(base, taken);
      }
      row.slug = nextFree(base, taken);
      taken.add(row.slug);
    }
    values.push({ row, text: searchText(spec, data) });
  }
  await insertRows(db, dialect, spec, "pending", values);
}

/**
 * Inserts new side-table rows and their search text, as few statements as SQLite's limits allow. On
 * SQLite the FTS5 index gets them at once (`index`: a rebuild, in one transaction anyway) or at the
 * next flush (`pending`: a write while the site serves).
 */
async function insertRows(
  db: DB,
  dialect: Dialect,
  spec: IndexSpec,
  search: "index" | "pending",
  values: ReadonlyArray<{ row: Record<string, string | number | null>; text: string }>,
) {
  if (!values.length) return;
  const names = Object.keys(values[0]!.row);
  // Stay under SQLite's limit of bound values per statement.
  const perStatement = Math.max(1, Math.floor(30000 / (names.length + 2)));
  for (let i = 0; i < values.length; i += perStatement) {
    const chunk = values.slice(i, i + perStatement);
    if (dialect === "postgres") {
      await sql`insert into ${q(spec.table)} (${sql.join([...names, "search"].map(q))}) values ${sql.join(chunk.map((v) => sql`(${sql.join([...names.map((n) => v.row[n]), v.text])})`))}`.execute(db);
      continue;
    }
    await sql`insert into ${q(spec.table)} (${sql.join(names.map(q))}) values ${sql.join(chunk.map((v) => sql`(${sql.join(names.map((n) => v.row[n]))})`))}`.execute(db);
    const texts = sql.join(chunk.map((v) => sql`(${v.row.id}, ${v.text})`));
    for (const target of search === "index" ? [spec.textTable, spec.ftsTable] : [spec.textTable])
      await sql`with v(id, search) as (values ${texts}) insert into ${q(target)} (rowid, search) select x.rowid, v.search from v join ${q(spec.table)} as x on x.id = v.id`.execute(db);
    if (search === "pending")
      await sql`insert or ignore into ${q(spec.pendingTable)} (r, stale) select rowid, 0 from ${q(spec.table)} where id in (${sql.join(chunk.map((v) => v.row.id))})`.execute(db);
  }
}

/** `fresh`: the item is new, so it has no row yet (nor search text to replace). */
async function writeRow(db: DB, dialect: Dialect, spec: IndexSpec, id: string, data: ContentData, fresh = false) {
  const row: Record<string, string | number | null> = { id, ...columnValues(spec, data) };
  if (spec.slugField) row.slug = await slugFor(db, dialect, spec, id, data);
  const text = searchText(spec, data);
  if (dialect === "postgres") row.search = text;
  const names = Object.keys(row);
  const updates = names.filter((n) => n !== "id").map((n) => sql`${q(n)} = excluded.${q(n)}`);
  await sql`insert into ${q(spec.table)} (${sql.join(names.map(q))}) values (${sql.join(names.map((n) => row[n]))})
    on conflict (id) do update set ${sql.join(updates)}`.execute(db);
  if (dialect === "sqlite") {
    if (!fresh) {
      // The same search text as stored (a booking, a flag, a private field changed): its FTS5 entry
      // stays right, and the flush, whose segment merges grow with the index, has nothing to do.
      const stored = (await sql<{ search: string }>`select t.search from ${q(spec.table)} as x join ${q(spec.textTable)} as t on t.rowid = x.rowid where x.id = ${id}`.execute(db)).rows[0];
      if (stored?.search === text) return;
      await deleteText(db, dialect, spec, id);
    }
    await sql`insert into ${q(spec.textTable)} (rowid, search) select rowid, ${text} from ${q(spec.table)} where id = ${id}`.execute(db);
    await sql`insert or ignore into ${q(spec.pendingTable)} (r, stale) select rowid, 0 from ${q(spec.table)} where id = ${id}`.execute(db);
  }
}

/**
 * SQLite: brings the FTS5 index up to date for the pending rows, in one transaction (the caller's),
 * and empties the pending table. Returns how many rows it handled.
 */
export async function flushSearchIndex(db: DB, spec: IndexSpec): Promise<number> {
  const pending = (await sql<{ r: number; stale: number }>`select r, stale from ${q(spec.pendingTable)}`.execute(db)).rows;
  if (!pending.length) return 0;
  for (const { r, stale } of pending) if (stale) await sql`delete from ${q(spec.ftsTable)} where rowid = ${r}`.execute(db);
  // CROSS JOIN: SQLite keeps this order (pending rows outside). With statistics on the text table its
  // planner otherwise scanned all of it and probed the pending table: 130 000 rows each flush.
  await sql`insert into ${q(spec.ftsTable)} (rowid, search) select t.rowid, t.search from ${q(spec.pendingTable)} as p cross join ${q(spec.textTable)} as t on t.rowid = p.r`.execute(db);
  await sql`delete from ${q(spec.pendingTable)}`.execute(db);
  return pending.length;
}

/**
 * PostgreSQL, a schema without slugs: a new item's contents row, side-table row and search text in
 * one statement (data-modifying CTEs), atomic without a transaction: one round trip instead of five
 * (BEGIN, three inserts, COMMIT). Returns how many contents rows it inserted: 0 when the id is taken,
 * and then nothing else was written either.
 */
export async function insertFreshItemPostgres(db: DB, spec: IndexSpec | undefined, contents: Record<string, string | number | null>, published: ContentData | undefined): Promise<number> {
  const names = Object.keys(contents);
  const insertContents = sql`insert into contents (${sql.join(names.map(q))}) values (${sql.join(names.map((n) => contents[n]))}) on conflict (id) do nothing returning id`;
  if (!spec || !published || spec.slugField) return (await sql<{ id: string }>`${insertContents}`.execute(db)).rows.length;
  return withSideRow(db, spec, insertContents, published);
}

/**
 * PostgreSQL, a schema without slugs: many new items' contents rows and the side-table rows (with
 * search text) of the published ones in one statement, atomic without a transaction. A taken id fails
 * the whole statement (nothing is written). Returns false, writing nothing, when the values would pass
 * PostgreSQL's limit of bound parameters (the caller then writes in a transaction).
 */
export async function insertFreshItemsPostgres(
  db: DB,
  spec: IndexSpec | undefined,
  contents: ReadonlyArray<Record<string, string | number | null>>,
  published: ReadonlyArray<{ id: string; data: ContentData }>,
): Promise<boolean> {
  if (!contents.length) return true;
  const names = Object.keys(contents[0]!);
  const side = spec ? published.map(({ id, data }) => ({ id, ...columnValues(spec, data), search: searchText(spec, data) })) : [];
  const sideNames = side.length ? Object.keys(side[0]!) : [];
  if (contents.length * names.length + side.length * sideNames.length > 60000) return false;
  const rows = (list: ReadonlyArray<Record<string, unknown>>, cols: string[]) => sql.join(list.map((r) => sql`(${sql.join(cols.map((n) => r[n]))})`));
  const insertContents = sql`insert into contents (${sql.join(names.map(q))}) values ${rows(contents, names)}`;
  if (!side.length) await insertContents.execute(db);
  // Every data-modifying part of a WITH runs, referenced or not.
  else await sql`with w as (${insertContents}) insert into ${q(spec!.table)} (${sql.join(sideNames.map(q))}) values ${rows(side, sideNames)}`.execute(db);
  return true;
}

/**
 * PostgreSQL, a schema without slugs: a compare-and-set update of an item whose live data stays
 * published, its side-table row and its search text, in one statement (no transaction needed).
 * Returns 1 when the version still matched and everything was written, else 0 and nothing was.
 */
export async function updateLiveItemPostgres(
  db: DB,
  spec: IndexSpec,
  id: string,
  version: number,
  set: Record<string, string | number | null>,
  published: ContentData,
): Promise<number> {
  const names = Object.keys(set);
  const update = sql`update contents set ${sql.join(names.map((n) => sql`${q(n)} = ${set[n]}`))} where id = ${id} and version = ${version} returning id`;
  return withSideRow(db, spec, update, published);
}

/**
 * Runs `contentsWrite` (an insert or update of contents `returning id`) and, for the row it wrote,
 * upserts the side-table row (with its search text), in one statement. Returns how many rows it wrote.
 */
async function withSideRow(db: DB, spec: IndexSpec, contentsWrite: RawBuilder<unknown>, published: ContentData): Promise<number> {
  const row: Record<string, string | number | null> = { ...columnValues(spec, published), search: searchText(spec, published) };
  const cols = Object.keys(row);
  // Parameters in a select list have no type of their own: each gets its column's.
  const types = new Map(valueColumns(spec).map(([name, type]) => [name, type === "number" ? "double precision" : type]));
  const values = cols.map((n) => sql`, cast(${row[n]} as ${sql.raw(types.get(n) ?? "text")})`);
  const updates = cols.length ? sql`do update set ${sql.join(cols.map((n) => sql`${q(n)} = excluded.${q(n)}`))}` : sql`do nothing`;
  const { rows } = await sql<{ n: number }>`with w as (${contentsWrite}),
    x as (insert into ${q(spec.table)} (id${sql.join(cols.map((n) => sql`, ${q(n)}`), sql``)}) select w.id${sql.join(values, sql``)} from w on conflict (id) ${updates})
    select count(*)::int as n from w`.execute(db);
  return rows[0]?.n ?? 0;
}

/** The slug a name gives before any suffix. */
function slugBase(spec: IndexSpec, data: ContentData): string {
  const name = (data[spec.slugField!] as Record<string, unknown> | undefined)?.iv;
  return slugify(typeof name === "string" ? name : "") || "item";
}

/** `slug` is `base` or `base-N`. */
function belongsTo(slug: string, base: string): boolean {
  return slug === base || (slug.startsWith(`${base}-`) && /^[0-9]+$/.test(slug.slice(base.length + 1)));
}

/**
 * The slugs a side table (under any of `tables`) holds now, by item id; none when there is no such
 * table (a first build). Asked outside the rebuild's transaction, where a missing table aborts nothing.
 */
async function storedSlugs(db: DB, tables: ReadonlyArray<string | undefined>): Promise<Map<string, string>> {
  for (const table of new Set(tables)) {
    if (!table) continue;
    try {
      const rows = await sql<{ id: string; slug: string }>`select id, slug from ${q(table)}`.execute(db);
      return new Map(rows.rows.map((r) => [r.id, r.slug]));
    } catch {
      if (db.isTransaction) break;
    }
  }
  return new Map();
}

/**
 * Whether pg_trgm is there, made available when the database allows it (hosted PostgreSQL may not:
 * then search scans the text table). Asked outside any transaction, where a refusal aborts nothing.
 */
async function pgTrigrams(db: DB): Promise<string | false> {
  // The schema the extension lives in: its operator class is named with it (search paths differ).
  const installed = async () => {
    const r = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
    return r.rows[0]?.schema ?? false;
  };
  const schema = await installed();
  if (schema || db.isTransaction) return schema;
  try {
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
  } catch {
    // Not allowed (hosted databases often refuse): search reads the text table without an index.
  }
  return installed();
}

/**
 * The item's slug: kept while its name gives the same base; else the base, or the first free
 * `base-2`, `base-3`… Taken slugs stay with their items, so adding an item never moves another's.
 */
async function slugFor(db: DB, dialect: Dialect, spec: IndexSpec, id: string, data: ContentData): Promise<string> {
  const base = slugBase(spec, data);
  const rows = await takenSlugs(db, dialect, spec, base);
  const mine = rows.find((r) => r.id === id)?.slug;
  if (mine && belongsTo(mine, base)) return mine;
  return nextFree(base, new Set(rows.filter((r) => r.id !== id).map((r) => r.slug)));
}

/** The slugs base, base-2… already stored, and whose they are. */
async function takenSlugs(db: DB, dialect: Dialect, spec: IndexSpec, base: string) {
  // Two writers of the same name on PostgreSQL: the second waits for the first's slug (SQLite writes one at a time).
  if (dialect === "postgres") await sql`select pg_advisory_xact_lock(hashtext(${`${spec.table}:${base}`}))`.execute(db);
  return (await sql<{ id: string; slug: string }>`select id, slug from ${q(spec.table)} where slug = ${base} or (slug > ${`${base}-`} and slug < ${`${base}.`})`.execute(db)).rows;
}

export function indexedField(spec: IndexSpec, field: string): IndexedField | undefined {
  return spec.fields.get(field) ?? spec.fields.get(field.replace(/_/g, "-"));
}
 