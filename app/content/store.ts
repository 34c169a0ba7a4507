import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import type { Database, DB, Dialect } from "./db";
import { createPostgresFunctions, isUniqueViolation, migrate, ping, readJsonColumn } from "./db";
import { alreadyExists, badRequest, ContentError, notFound, validationError, versionConflict } from "./errors";
import { DEFAULT_LANGUAGE, LANGUAGES } from "../i18n/languages";
import { dropIndexTables, ensureIndexes, flushSearchIndex, indexedField, indexSpec, insertFreshItemPostgres, insertFreshItemsPostgres, insertFreshRows, parseListText, syncIndexRow, updateLiveItemPostgres, type IndexSpec } from "./field-index";
import { newId, requireValidId } from "./ids";
import { checkIds, checkQueryShape, jsonNestingExceeds, pageSize } from "./query";
import { MAX_JSON_DEPTH } from "./limits";
import { PAGES_SCHEMA, pageSlugErrors } from "./slug";
import { recordRead } from "./read-tags";
import { compileWhere, SqlCompiler } from "./sql-query";
import type { AssetStore } from "./assets";
import { sql, type RawBuilder, type SqlBool } from "kysely";
import type {
  ContentChange,
  ContentData,
  FilterNode,
  ContentItem,
  NestedField,
  ContentQuery,
  CreateOptions,
  ReadOptions,
  Schema,
  SchemaField,
  SchemaInput,
  Status,
  WriteOptions,
} from "./types";
import { STATUSES } from "./types";
import { isPlainObject, validateData, type ValidationContext } from "./validate";
import { actorOf, authorize, SINGLETON_COLLECTIONS, SINGLETON_ERROR, type Action } from "./policy";
import { recordWrites } from "./audit";
import { mayReference, referencedIds, referenceSignature, type ComponentLookup } from "./references";

export type { ContentChange } from "./types";
import type { ContentUpstream, UpstreamChange } from "./remote/upstream";

/** The item at `index` of a `createMany` call failed with `error`; nothing was written. */
export class BatchItemError extends Error {
  constructor(
    readonly index: number,
    readonly error: unknown,
  ) {
    super(`Item ${index}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The content languages are the site's (one list, in i18n/languages.ts); German is the master. */
export { LANGUAGES } from "../i18n/languages";
export const MASTER_LANGUAGE = DEFAULT_LANGUAGE;
const SYSTEM_ACTOR = "client:praxisnetz:default";
/** Path segments the content API uses after a schema name: never item ids. */
const RESERVED_IDS = new Set(["bulk", "import", "query"]);
/** How long written search text waits for others before going into the FTS5 index together (SQLite). */
const SEARCH_FLUSH_MS = 100;
const SCHEMA_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const FIELD_NAME = /^[a-zA-Z0-9]+(-[a-zA-Z0-9]+)*$/;

type ContentRow = Database["contents"];

/** The highest field id each schema gave out, deleted fields' too (kept in its definition). */
const lastFieldIds = new WeakMap<Schema, number>();

/** A write's change to one row: the row it read, the columns it sets, and the new stamp. */
interface PlannedChange {
  row: ContentRow;
  set: Partial<ContentRow>;
  stamp: { version: number; last_modified: string; last_modified_by: string };
}

/**
 * The embedded content service: Squidex schemas, content items and assets in one database.
 * A published item keeps its live data (`published_data`) apart from the data an editor works on,
 * so a pending draft never reaches visitors. Every write is checked against the schema first and uses
 * the row's version as a compare-and-set, so concurrent writers cannot lose each other's changes.
 */
export class ContentStore {
  private readonly events = new EventEmitter();
  private schemaCache: Map<string, Schema> | null = null;
  /**
   * Set when the site runs on a remote Squidex (remote/upstream.ts): every item write goes there
   * first, with the version this store holds as If-Match, and is kept here (the mirror) only once
   * Squidex took it, with Squidex's version. Unset: this store is the content service.
   */
  upstream: ContentUpstream | undefined;
  /** Schemas the site itself reads (services.server.ts: the demo content model): never deleted. */
  requiredSchemas: ReadonlySet<string> = new Set();

  constructor(
    readonly db: DB,
    readonly dialect: Dialect,
    readonly assets: AssetStore,
  ) {
    this.events.setMaxListeners(100);
    assets.attach(db, (change) => this.emit(change));
  }

  async migrate(): Promise<string[]> {
    const applied = await migrate(this.db);
    if (this.dialect === "postgres") await createPostgresFunctions(this.db);
    const rebuilt = await ensureIndexes(this.db, this.dialect, await this.listSchemas());
    // A rebuild leaves its whole table in the WAL: copied into the database now, before the app
    // serves, not by the background checkpointer while it does.
    if (rebuilt.length && this.dialect === "sqlite") await sql`pragma wal_checkpoint(TRUNCATE)`.execute(this.db);
    // Search text a stopped process wrote but did not index yet.
    await this.flushSearch();
    return applied;
  }

  ping(): Promise<void> {
    return ping(this.db);
  }

  async close(): Promise<void> {
    clearTimeout(this.searchFlushTimer);
    await this.flushSearch().catch(() => {});
    await this.db.destroy();
  }

  onChange(listener: (change: ContentChange) => void): () => void {
    this.events.on("change", listener);
    return () => this.events.off("change", listener);
  }

  private emit(change: ContentChange) {
    if (change.kind === "schema") this.schemaCache = null;
    if (change.kind === "content" && change.schemaName) this.scheduleSearchFlush(change.schemaName);
    this.events.emit("change", change);
  }

  // ---- search index (SQLite) ---------------------------------------------------------------------

  private readonly searchToFlush = new Set<string>();
  private searchFlushTimer: NodeJS.Timeout | undefined;

  /** SQLite: the schema's written search text goes into its FTS5 index shortly (field-index.ts, pendingTable). */
  private scheduleSearchFlush(schemaName: string) {
    if (this.dialect !== "sqlite") return;
    this.searchToFlush.add(schemaName);
    if (this.searchFlushTimer) return;
    this.searchFlushTimer = setTimeout(() => {
      this.searchFlushTimer = undefined;
      void this.flushSearch([...this.searchToFlush]).catch(() => {});
    }, SEARCH_FLUSH_MS);
    this.searchFlushTimer.unref();
  }

  /**
   * SQLite: brings the FTS5 indexes of these schemas (all, by default) up to date with the search
   * text written since the last flush, one transaction per schema. A failed flush is tried again
   * with the next write; meanwhile searches read the pending rows' text.
   */
  async flushSearch(schemaNames?: readonly string[]): Promise<void> {
    if (this.dialect !== "sqlite") return;
    const specs = await this.indexSpecs();
    for (const name of schemaNames ?? [...specs.keys()]) {
      this.searchToFlush.delete(name);
      const spec = specs.get(name);
      if (!spec) continue;
      try {
        await this.db.transaction().execute((trx) => flushSearchIndex(trx, spec));
      } catch (error) {
        this.searchToFlush.add(name);
        throw error;
      }
    }
  }

  /** Another node changed content: forget what this node remembers and tell the local listeners. */
  applyRemoteChange(change: ContentChange) {
    // A content change leaves the schemas as they are; "*" (the feed reconnected) may hide anything.
    if (change.kind !== "content" || change.id === "*") this.schemaCache = null;
    this.events.emit("change", { ...change, remote: true });
  }

  // ---- schemas -------------------------------------------------------------------------------

  private async schemaMap(): Promise<Map<string, Schema>> {
    if (this.schemaCache) return this.schemaCache;
    const rows = await this.db.selectFrom("schemas").selectAll().orderBy("name").execute();
    const map = new Map<string, Schema>();
    for (const r of rows) {
      const def = JSON.parse(r.definition) as Pick<Schema, "properties" | "fields"> & { lastFieldId?: number };
      const schema: Schema = {
        id: r.id,
        name: r.name,
        type: r.type as Schema["type"],
        isPublished: !!r.is_published,
        properties: def.properties ?? {},
        fields: def.fields,
        version: r.version,
        created: r.created,
        createdBy: r.created_by,
        lastModified: r.last_modified,
        lastModifiedBy: r.last_modified_by,
      };
      if (typeof def.lastFieldId === "number") lastFieldIds.set(schema, def.lastFieldId);
      map.set(r.name, schema);
    }
    this.schemaCache = map;
    return map;
  }

  async listSchemas(): Promise<Schema[]> {
    return [...(await this.schemaMap()).values()];
  }

  async getSchema(nameOrId: string): Promise<Schema | undefined> {
    const map = await this.schemaMap();
    return map.get(nameOrId) ?? [...map.values()].find((s) => s.id === nameOrId);
  }

  private async requireSchema(nameOrId: string, opts: ReadOptions = {}): Promise<Schema> {
    const schema = await this.getSchema(nameOrId);
    if (!schema || schema.type === "Component" || (!schema.isPublished && !opts.unpublished))
      throw notFound(`Schema "${nameOrId}" not found.`);
    return schema;
  }

  /**
   * A write that names its writer (`by`) is asked of the policy before anything is read or written
   * (403 with the reason), and audited with the write. The app's own writes name no writer.
   */
  private authorizeWrite(opts: WriteOptions, action: Action, schemaName: string): void {
    if (opts.by) authorize(opts.by, action, schemaName, opts.via);
  }

  private actorFor(opts: WriteOptions): string {
    return opts.by ? actorOf(opts.by) : (opts.actor ?? SYSTEM_ACTOR);
  }

  private async audit(opts: WriteOptions, action: string, schemaName: string | null, items: ReadonlyArray<{ id: string; version: number | null }>): Promise<void> {
    if (opts.by) await recordWrites(this.db, opts.by, action, schemaName, items, opts.note);
  }

  /** Creates a schema, or replaces the fields of an existing one with the same name. */
  async upsertSchema(input: SchemaInput, opts: WriteOptions = {}): Promise<Schema> {
    if (this.upstream)
      throw new ContentError(400, "The site runs on a remote Squidex (SQUIDEX_URL): schemas are changed there, in Squidex itself, and reach this site with its next sync.", undefined, "SCHEMA_REMOTE");
    const errors: string[] = [];
    if (!SCHEMA_NAME.test(input.name ?? "")) errors.push(`name: "${input.name}" is not a valid schema name.`);
    if (!Array.isArray(input.fields)) errors.push("fields: Must be an array.");
    if (Array.isArray(input.fields)) checkFields(input.fields, "fields", errors, true);
    if (errors.length) throw validationError(errors);
    this.authorizeWrite(opts, "changeSchema", input.name);
    const existing = await this.getSchema(input.name);
    const now = new Date().toISOString();
    const actor = this.actorFor(opts);
    // As in Squidex, a field id is never given out twice: not even the id of a field deleted since.
    const floor = existing ? (lastFieldIds.get(existing) ?? 0) : 0;
    const fields: SchemaField[] = withIds(input.fields, existing?.fields ?? [], floor).map(({ nested, ...f }) => {
      const before = existing?.fields.find((e) => e.name === f.name);
      return { ...f, ...(nested ? { nested: withIds(nested, before?.nested ?? []) } : {}) };
    });
    const definition = JSON.stringify({ properties: input.properties ?? {}, fields, lastFieldId: Math.max(floor, 0, ...fields.map((f) => f.fieldId), ...(existing?.fields ?? []).map((f) => f.fieldId)) });
    if (existing) {
      if (opts.expectedVersion !== undefined && opts.expectedVersion !== existing.version)
        throw versionConflict(opts.expectedVersion, existing.version);
      const res = await this.db
        .updateTable("schemas")
        .set({
          type: input.type ?? existing.type,
          is_published: (input.isPublished ?? existing.isPublished) ? 1 : 0,
          definition,
          version: existing.version + 1,
          last_modified: now,
          last_modified_by: actor,
        })
        .where("id", "=", existing.id)
        .where("version", "=", existing.version)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) throw versionConflict(existing.version, existing.version + 1);
    } else {
      await this.db
        .insertInto("schemas")
        .values({
          id: randomUUID(),
          name: input.name,
          type: input.type ?? "Default",
          is_published: (input.isPublished ?? true) ? 1 : 0,
          definition,
          version: 0,
          created: now,
          created_by: actor,
          last_modified: now,
          last_modified_by: actor,
        })
        .execute();
    }
    this.schemaCache = null;
    const schema = (await this.getSchema(input.name))!;
    await ensureIndexes(this.db, this.dialect, [schema]);
    if (existing && referenceSignature(existing) !== referenceSignature(schema)) {
      // Reference rows follow the fields: a component's change touches every schema that may embed it.
      const affected = schema.type === "Component" ? (await this.listSchemas()).filter((s) => s.fields.some((f) => f.properties.fieldType === "Component" || f.properties.fieldType === "Components")) : [schema];
      await this.rebuildReferences(affected);
    }
    await this.audit(opts, existing ? "update-schema" : "create-schema", schema.name, [{ id: schema.id, version: schema.version }]);
    this.emit({ kind: "schema", id: input.name });
    return schema;
  }

  /**
   * Deletes a schema with all its items (Squidex's DELETE …/schemas/{name}), audited. Refused with a
   * 400 and the reason: a schema the site itself reads (`requiredSchemas`), a component still placed
   * in an item, a schema another schema's field names, and any schema on a remote Squidex.
   */
  async deleteSchema(nameOrId: string, opts: WriteOptions = {}): Promise<void> {
    if (this.upstream)
      throw new ContentError(400, "The site runs on a remote Squidex (SQUIDEX_URL): schemas are changed there, in Squidex itself, and reach this site with its next sync.", undefined, "SCHEMA_REMOTE");
    const schema = await this.getSchema(nameOrId);
    if (!schema) throw notFound(`Schema "${nameOrId}" not found.`);
    this.authorizeWrite(opts, "changeSchema", schema.name);
    if (opts.expectedVersion !== undefined && opts.expectedVersion !== schema.version) throw versionConflict(opts.expectedVersion, schema.version);
    if (this.requiredSchemas.has(schema.name)) throw badRequest(`The site itself reads the schema "${schema.name}": it cannot be deleted.`);
    const namedBy = (await this.listSchemas()).flatMap((other) =>
      other.id === schema.id ? [] : [...other.fields, ...other.fields.flatMap((f) => f.nested ?? [])].filter((f) => f.properties.schemaIds?.includes(schema.id) || f.properties.schemaIds?.includes(schema.name)).map((f) => `${other.name}.${f.name}`),
    );
    if (namedBy.length) throw badRequest(`The schema "${schema.name}" is named by ${namedBy.slice(0, 5).join(", ")}${namedBy.length > 5 ? ` and ${namedBy.length - 5} more fields` : ""}: change those fields first.`);
    if (schema.type === "Component") {
      // One scan, for a rare write: a component placed in an item would be left without its fields.
      const names = [schema.name, schema.id];
      const placedIn = (column: "data" | "published_data") =>
        this.dialect === "postgres"
          ? sql<boolean>`jsonb_path_exists(${sql.ref(column)}, '$.**.schemaId ? (@ == $a || @ == $b)', jsonb_build_object('a', ${names[0]}::text, 'b', ${names[1]}::text))`
          : sql<boolean>`(${sql.ref(column)} like ${`%"schemaId":"${names[0]}"%`} or ${sql.ref(column)} like ${`%"schemaId":"${names[1]}"%`})`;
      const placed = await this.db
        .selectFrom("contents")
        .select(["id", "schema_name"])
        .where(sql<boolean>`(${placedIn("data")}) or (${placedIn("published_data")})`)
        .limit(1)
        .executeTakeFirst();
      if (placed) throw badRequest(`The component "${schema.name}" is still placed in ${placed.schema_name} item "${placed.id}": remove it there first.`);
    }
    await this.atomically(async (store) => {
      const gone = await store.db.deleteFrom("schemas").where("id", "=", schema.id).where("version", "=", schema.version).executeTakeFirst();
      if (Number(gone.numDeletedRows) === 0) throw versionConflict(schema.version, schema.version + 1);
      const items = store.db.selectFrom("contents").select("id").where("schema_name", "=", schema.name);
      await store.db.deleteFrom("content_references").where("source_id", "in", items).execute();
      await store.db.deleteFrom("content_schedules").where("schema_name", "=", schema.name).execute();
      const removed = await store.db.deleteFrom("contents").where("schema_name", "=", schema.name).executeTakeFirst();
      await dropIndexTables(store.db, schema.name);
      await store.audit({ ...opts, note: opts.note ?? { action: "delete-schema", detail: `${Number(removed.numDeletedRows)} items` } }, "delete-schema", schema.name, [{ id: schema.id, version: schema.version }]);
    });
    this.schemaCache = null;
    this.emit({ kind: "schema", id: schema.name });
    this.emit({ kind: "content", schemaName: schema.name, id: "*" });
  }

  private async validationContext(): Promise<ValidationContext> {
    const map = await this.schemaMap();
    return {
      languages: LANGUAGES,
      masterLanguage: MASTER_LANGUAGE,
      componentSchema: (ref) => map.get(ref) ?? [...map.values()].find((s) => s.id === ref),
    };
  }

  private async validate(schema: Schema, data: unknown): Promise<ContentData> {
    const errors = validateData(schema, data, await this.validationContext());
    const text = JSON.stringify(data) ?? "";
    // PostgreSQL's jsonb cannot hold U+0000, and no content needs it: refused on both databases alike.
    if (text.includes("\\u0000")) errors.push("Text must not contain the NUL character (U+0000).");
    // Every writer (the Squidex API, the admin's JSON inputs, imports) is held to the request bodies'
    // depth: SQLite's JSON functions refuse documents past 1 000 levels, and one such item would make
    // every search and filter of its collection fail.
    if (jsonNestingExceeds(text, MAX_JSON_DEPTH)) errors.push(`Data must not nest deeper than ${MAX_JSON_DEPTH} levels.`);
    // A page's slug is its address: every writer, not only the admin's page screens, is held to the rule.
    if (schema.name === PAGES_SCHEMA) errors.push(...pageSlugErrors(data));
    if (errors.length) throw validationError(errors);
    return data as ContentData;
  }

  /**
   * Runs `fn` against this store inside one database transaction: every write in it is kept, or
   * none. Change events go out after the commit (and not at all after a rollback).
   */
  async transaction<T>(fn: (store: ContentStore) => Promise<T>): Promise<T> {
    const pending: ContentChange[] = [];
    const result = await this.db.transaction().execute(async (trx) => {
      const scoped = Object.create(this) as ContentStore;
      Object.defineProperty(scoped, "db", { value: trx });
      Object.defineProperty(scoped, "emit", { value: (change: ContentChange) => pending.push(change) });
      return fn(scoped);
    });
    for (const change of pending) this.emit(change);
    return result;
  }

  /**
   * `transaction` for a sequence of item writes (a draft, then its change; a change, then a mail):
   * one local transaction. On a remote Squidex, which keeps no transaction across calls, the writes
   * go one after another, each kept here once Squidex took it, so no local transaction is held open
   * while Squidex answers (on SQLite it would stall every reader). Callers write items first and
   * local rows (mails) after, so a refused write leaves nothing behind.
   */
  sequence<T>(fn: (store: ContentStore) => Promise<T>): Promise<T> {
    return this.upstream && !this.db.isTransaction ? fn(this) : this.transaction(fn);
  }

  /** Runs `fn` in the current transaction, or in a new one. */
  private atomically<T>(fn: (store: ContentStore) => Promise<T>): Promise<T> {
    return this.db.isTransaction ? fn(this) : this.transaction(fn);
  }

  /** Side tables by schema name (field-index.ts). */
  private async indexSpecs(): Promise<ReadonlyMap<string, IndexSpec>> {
    const schemas = await this.schemaMap();
    let specs = specsBySchemas.get(schemas);
    if (!specs) {
      specs = new Map();
      for (const schema of schemas.values()) {
        const spec = indexSpec(schema);
        if (spec) specs.set(schema.name, spec);
      }
      specsBySchemas.set(schemas, specs);
    }
    return specs;
  }

  /** Rewrites the item's side-table row from what is stored now (inside the write's transaction). */
  private async syncIndex(schema: Schema, id: string, published: { data: unknown } | undefined, fresh = false) {
    const spec = indexSpec(schema);
    if (!spec) return;
    await syncIndexRow(this.db, this.dialect, spec, id, published ? published.data : null, fresh);
  }

  // ---- references (references.ts, migration 0013) ---------------------------------------------

  /** The component lookup for the schema's reference rows, or undefined when its items reference nothing. */
  private async referenceLookup(schema: Schema): Promise<ComponentLookup | undefined> {
    const map = await this.schemaMap();
    let known = referencingBySchemas.get(map);
    if (!known) referencingBySchemas.set(map, (known = new Map()));
    const lookup: ComponentLookup = (ref) => map.get(ref) ?? [...map.values()].find((s) => s.id === ref);
    let may = known.get(schema.name);
    if (may === undefined) known.set(schema.name, (may = mayReference(schema, lookup)));
    return may ? lookup : undefined;
  }

  /**
   * Rewrites the reference rows of these items from their data (current: `live` 0, published:
   * `live` 1), inside the write's transaction. `fresh`: new items, nothing to delete first.
   */
  private async syncReferences(schema: Schema, rows: ReadonlyArray<Pick<ContentRow, "id" | "data" | "published_data">>, fresh = false): Promise<void> {
    const lookup = await this.referenceLookup(schema);
    if (!lookup || !rows.length) return;
    if (!fresh) for (let i = 0; i < rows.length; i += 500) await this.db.deleteFrom("content_references").where("source_id", "in", rows.slice(i, i + 500).map((r) => r.id)).execute();
    const refs: Array<Database["content_references"]> = [];
    for (const row of rows) {
      for (const [live, data] of [[0, row.data], [1, row.published_data]] as const) {
        if (data === null || data === undefined) continue;
        for (const target of referencedIds(schema, readJsonColumn(data), lookup)) refs.push({ source_id: row.id, live, target_id: target });
      }
    }
    // 3 values a row; SQLite takes 32 766 bound values per statement.
    for (let i = 0; i < refs.length; i += 5000) await this.db.insertInto("content_references").values(refs.slice(i, i + 5000)).execute();
  }

  /** Whether a write changes what the item references, in its current or its published data. */
  private async referencesChange(schema: Schema, before: Pick<ContentRow, "data" | "published_data">, after: Pick<ContentRow, "data" | "published_data">): Promise<boolean> {
    const lookup = await this.referenceLookup(schema);
    if (!lookup) return false;
    const refs = (data: unknown) => (data === null || data === undefined ? "" : referencedIds(schema, readJsonColumn(data), lookup).sort().join("\n"));
    return refs(before.data) !== refs(after.data) || refs(before.published_data) !== refs(after.published_data);
  }

  /** Rewrites the reference rows of every item of these schemas (their fields changed). */
  private async rebuildReferences(schemas: readonly Schema[]): Promise<void> {
    for (const schema of schemas) {
      await this.atomically(async (store) => {
        await store.db.deleteFrom("content_references").where("source_id", "in", (eb) => eb.selectFrom("contents").select("id").where("schema_name", "=", schema.name)).execute();
        let after = "";
        for (;;) {
          const rows = await store.db.selectFrom("contents").select(["id", "data", "published_data"]).where("schema_name", "=", schema.name).where("id", ">", after).orderBy("id").limit(1000).execute();
          if (!rows.length) break;
          after = rows[rows.length - 1]!.id;
          await store.syncReferences(schema, rows, true);
        }
      });
    }
  }

  /**
   * The items `id` references (`references`: what its data names in References fields, also inside
   * arrays and components), or the items that reference it (`referencing`), of every content schema,
   * in the lists' default order (last change first, then id): Squidex's GET …/{id}/references and
   * …/{id}/referencing. Without `unpublished` only published items count, and what their published
   * data references; with it every item and its current data. One lookup in content_references (by
   * source, or by target through its index), whatever the number of items.
   */
  async related(
    direction: "references" | "referencing",
    id: string,
    opts: ReadOptions & Pick<ContentQuery, "filter" | "sort" | "ids"> & { skip?: number; take?: number; noTotal?: boolean } = {},
  ): Promise<{ total: number; items: ContentItem[] }> {
    // Filters and sorting read the items' own data (the lists span schemas, which share no side table).
    checkQueryShape({ filter: opts.filter, sort: opts.sort, ids: opts.ids });
    const published = !opts.unpublished;
    const live = published ? 1 : 0;
    const schemas = await this.schemaMap();
    const names = [...schemas.values()].filter((s) => s.type !== "Component" && (s.isPublished || !published)).map((s) => s.name);
    recordRead(...names);
    if (!names.length) return { total: 0, items: [] };
    const [from, to] = direction === "references" ? (["r.source_id", "r.target_id"] as const) : (["r.target_id", "r.source_id"] as const);
    // The reference rows first, then each item by its id: a cross join keeps SQLite from walking a
    // schema's items by status instead (what it chose for `c.id in (subquery)` at 100 000 items).
    let base = this.db
      .selectFrom("content_references as r")
      .crossJoin("contents as c")
      .whereRef("c.id", "=", to)
      .where(from, "=", id)
      .where("r.live", "=", live)
      .where("c.schema_name", "in", names);
    if (published) base = base.where("c.status", "=", "Published");
    if (opts.ids) base = opts.ids.length ? base.where("c.id", "in", opts.ids) : base.where(sql<boolean>`1 = 0`);
    const skip = opts.skip ?? 0;
    const take = pageSize({ take: opts.take });
    const compiler = new SqlCompiler({ dialect: this.dialect, alias: "c", published, language: MASTER_LANGUAGE, indexes: await this.indexSpecs() });
    if (opts.filter) base = base.where(compiler.filter(opts.filter) as RawBuilder<SqlBool>);
    let page = base.select("c.id");
    for (const term of compiler.orderBy(opts.sort)) page = page.orderBy(term);
    const pageIds = take === 0 ? [] : (await page.limit(take).offset(skip).execute()).map((r) => r.id);
    const found = pageIds.length ? await this.db.selectFrom("contents").selectAll().where("id", "in", pageIds).execute() : [];
    const byId = new Map(found.map((r) => [r.id, r]));
    const items = pageIds.flatMap((pid) => {
      const row = byId.get(pid);
      const schema = row && schemas.get(row.schema_name);
      return row && schema ? [this.toItem(row, schema, published)] : [];
    });
    const count = async () => (opts.noTotal ? -1 : Number((await base.select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow()).n));
    const total = take > 0 && pageIds.length < take && (pageIds.length > 0 || skip === 0) ? skip + pageIds.length : await count();
    return { total, items };
  }

  // ---- contents ------------------------------------------------------------------------------

  private toItem(row: ContentRow & { __slug?: string | null }, schema: Schema, published: boolean): ContentItem {
    const data = published ? row.published_data : row.data;
    return {
      ...(row.__slug ? { slug: row.__slug } : {}),
      id: row.id,
      schemaName: row.schema_name,
      schemaId: schema.id,
      status: row.status as Status,
      ...(!published && row.new_status ? { newStatus: row.new_status as Status } : {}),
      // Live data comes with the stamp it was written with, not a pending draft's.
      version: published ? (row.published_version ?? row.version) : row.version,
      data: (data === null ? {} : readJsonColumn(data)) as ContentData,
      created: row.created,
      createdBy: row.created_by,
      lastModified: published ? (row.published_last_modified ?? row.last_modified) : row.last_modified,
      lastModifiedBy: published ? (row.published_last_modified_by ?? row.last_modified_by) : row.last_modified_by,
    };
  }

  /**
   * One page of a schema's items matching `query`, with the exact total, computed in the database
   * (see sql-query.ts). `where` adds conditions the caller imposes (a visitor's visibility rules);
   * `all` lifts the page size limit for internal callers that state they need everything.
   * `noTotal` skips counting (total -1 unless the page tells it), as Squidex's `X-NoTotal`.
   * `countCache` may keep totals, keyed by the exact counting statement (every page of one search
   * asks the same); the count records its reads, so a cache with read tags drops it on a change.
   */
  async query(
    schemaName: string,
    query: ContentQuery = {},
    opts: ReadOptions & {
      language?: string;
      searchFields?: ReadonlySet<string>;
      where?: FilterNode;
      all?: boolean;
      noTotal?: boolean;
      countCache?: CountCache;
      /**
       * Only the first match (in the query's order) for each value of this field: a side-table field
       * with one value per item (a text, or a reference list of at most one). The items come in id
       * order, `take` bounds how many, and the total is how many came.
       */
      firstPer?: string;
    } = {},
  ): Promise<{ total: number; items: ContentItem[] }> {
    const schema = await this.requireSchema(schemaName, opts);
    recordRead(schema.name, ...referencedSchemas(query.filter), ...referencedSchemas(opts.where));
    const published = !opts.unpublished;
    const indexes = await this.indexSpecs();
    const spec = published ? indexes.get(schema.name) : undefined;
    const searchIndex = published ? undefined : indexes.get(schema.name);
    const compiler = new SqlCompiler({
      dialect: this.dialect,
      alias: "c",
      published,
      language: opts.language ?? MASTER_LANGUAGE,
      indexes,
      ...(spec ? { index: { alias: "x", spec } } : {}),
      ...(searchIndex ? { searchIndex } : {}),
    });
    checkQueryShape(query);
    const ids = query.ids ? [...new Set(checkIds(query.ids))] : undefined;
    if (ids && !ids.length) return { total: 0, items: [] };
    const conditions = compileWhere(compiler, query, opts.searchFields);
    if (opts.where) conditions.push(compiler.filter(opts.where));
    const skip = query.skip ?? 0;
    const take = opts.all && query.take === undefined ? Infinity : pageSize(query);
    if (opts.firstPer !== undefined) {
      const f = spec ? indexedField(spec, opts.firstPer) : undefined;
      const column = f?.single ?? (f?.kind === "string" ? f.column : undefined);
      if (!spec || !column) throw badRequest(`"${opts.firstPer}" is no single-valued field of "${schema.name}"'s side table: no first item per value.`);
      return this.firstPerValue(schema, spec, compiler, [...conditions, ...(ids ? [sql`x.id in (${sql.join(ids)})`] : [])], { column, sort: query.sort, take });
    }
    if (spec) {
      const tags = [schema.name, ...referencedSchemas(query.filter), ...referencedSchemas(opts.where)];
      return this.indexedQuery(schema, spec, compiler, conditions, { ids, sort: query.sort, skip, take, noTotal: opts.noTotal, countCache: opts.countCache, tags });
    }

    let base = this.db.selectFrom("contents as c").where("c.schema_name", "=", schema.name);
    if (published) base = base.where("c.status", "=", "Published");
    if (ids) base = base.where("c.id", "in", ids);
    for (const condition of conditions) base = base.where(condition as RawBuilder<SqlBool>);
    const counting = base.select((eb) => eb.fn.countAll<number | string>().as("n"));
    const tags = [schema.name, ...referencedSchemas(query.filter), ...referencedSchemas(opts.where)];
    const count = async () =>
      opts.noTotal ? -1 : this.cachedCount(counting.compile(), tags, opts.countCache, async () => Number((await counting.executeTakeFirstOrThrow()).n));
    if (take === 0) return { total: await count(), items: [] };
    let rows: ContentRow[];
    /** Rows the ordered query gave (an item deleted between the two reads of a deep page still counts). */
    let ordered: number;
    if (skip > 0 && Number.isFinite(take)) {
      // A deep page sorts and skips ids only, then reads the page's documents: sorting whole rows
      // made the sorter carry every skipped document (an admin list's last page at 100 000 items).
      let page = base.select("c.id");
      if (ids && !query.sort?.length) page = page.orderBy(compiler.idPosition(ids));
      else for (const term of compiler.orderBy(query.sort)) page = page.orderBy(term);
      const pageIds = (await page.limit(take).offset(skip).execute()).map((r) => r.id);
      const found = pageIds.length
        ? await this.db.selectFrom("contents as c").selectAll("c").where("c.schema_name", "=", schema.name).where("c.id", "in", pageIds).execute()
        : [];
      const byId = new Map(found.map((r) => [r.id, r]));
      rows = pageIds.map((id) => byId.get(id)).filter((r): r is (typeof found)[number] => !!r);
      ordered = pageIds.length;
    } else {
      let q = base.selectAll("c");
      if (ids && !query.sort?.length) q = q.orderBy(compiler.idPosition(ids));
      else for (const term of compiler.orderBy(query.sort)) q = q.orderBy(term);
      if (Number.isFinite(take)) q = q.limit(take);
      else if (skip && this.dialect === "sqlite") q = q.limit(-1);
      if (skip) q = q.offset(skip);
      rows = await q.execute();
      ordered = rows.length;
    }
    // A page that is not full (or everything) tells the total itself: count only when it cannot.
    const total = ordered < take && (ordered > 0 || skip === 0) ? skip + ordered : await count();
    return { total, items: rows.map((r) => this.toItem(r, schema, published)) };
  }

  /**
   * The fields a full-text search of the schema finds fast (its side table's search text: every
   * field visitors may see), or undefined when it has no side table. Editors' searches over exactly
   * these fields read the search text for live items and only drafts as JSON.
   */
  async indexedSearchFields(schemaName: string): Promise<ReadonlySet<string> | undefined> {
    return (await this.indexSpecs()).get(schemaName)?.searchFields;
  }

  /** A count, through `cache` when given (outside transactions: their writes are not others' yet). */
  private cachedCount(statement: { sql: string; parameters: readonly unknown[] }, tags: string[], cache: CountCache | undefined, count: () => Promise<number>): Promise<number> {
    if (!cache || this.db.isTransaction) return count();
    const key = `${this.dialect}:${statement.sql}:${JSON.stringify(statement.parameters)}`;
    return cache(key, async () => {
      recordRead(...tags);
      return count();
    });
  }

  /**
   * The same query over the schema's side table (published items only): conditions on its columns
   * need no JSON, the count reads only the side table when it can, and sorting by an indexed field
   * walks its index.
   */
  private async indexedQuery(
    schema: Schema,
    spec: IndexSpec,
    compiler: SqlCompiler,
    conditions: RawBuilder<unknown>[],
    page: { ids?: string[]; sort?: ContentQuery["sort"]; skip: number; take: number; noTotal?: boolean; countCache?: CountCache; tags: string[] },
  ): Promise<{ total: number; items: ContentItem[] }> {
    const where = [...conditions];
    if (page.ids) where.push(sql`x.id in (${sql.join(page.ids)})`);
    const condition = where.length ? sql.join(where, sql` and `) : sql`1 = 1`;
    const countNeedsContents = compiler.needsContents;
    const table = sql.table(spec.table);
    const from = countNeedsContents ? sql`${table} as x join contents as c on c.id = x.id` : sql`${table} as x`;
    const counting = sql<{ n: number | string }>`select count(*) as n from ${from} where ${condition}`;
    const count = async () => {
      if (page.noTotal) return -1;
      return this.cachedCount(counting.compile(this.db), page.tags, page.countCache, async () => Number((await counting.execute(this.db)).rows[0]?.n ?? 0));
    };
    if (page.take === 0) return { total: await count(), items: [] };
    const order = page.ids && !page.sort?.length ? [compiler.idPosition(page.ids)] : compiler.orderBy(page.sort);
    const slug = spec.slugField ? sql`, x.slug as __slug` : sql``;
    const limit = Number.isFinite(page.take) ? sql` limit ${page.take}` : this.dialect === "sqlite" && page.skip ? sql` limit -1` : sql``;
    const offset = page.skip ? sql` offset ${page.skip}` : sql``;
    let rows: Array<ContentRow & { __slug?: string }>;
    if (compiler.needsContents) {
      rows = (await sql<ContentRow & { __slug?: string }>`select c.*${slug} from ${table} as x join contents as c on c.id = x.id where ${condition} order by ${sql.join(order)}${limit}${offset}`.execute(this.db)).rows;
    } else {
      // Filter, sort and page in the side table alone, then read only the page's documents: joining
      // first would read the document of every match just to sort them.
      const picked = (await sql<{ id: string; __slug?: string }>`select x.id${slug} from ${table} as x where ${condition} order by ${sql.join(order)}${limit}${offset}`.execute(this.db)).rows;
      const documents = picked.length ? await this.db.selectFrom("contents").selectAll().where("id", "in", picked.map((p) => p.id)).execute() : [];
      const byId = new Map(documents.map((d) => [d.id, d]));
      rows = picked.flatMap((p) => {
        const row = byId.get(p.id);
        return row ? [{ ...row, ...(p.__slug ? { __slug: p.__slug } : {}) }] : [];
      });
    }
    const total = rows.length < page.take && (rows.length > 0 || page.skip === 0) ? page.skip + rows.length : await count();
    return { total, items: rows.map((r) => this.toItem(r, schema, true)) };
  }

  /** One statement for `firstPer`: a window over the matches, numbered per value in the query's order. */
  private async firstPerValue(
    schema: Schema,
    spec: IndexSpec,
    compiler: SqlCompiler,
    conditions: RawBuilder<unknown>[],
    opts: { column: string; sort?: ContentQuery["sort"]; take: number },
  ): Promise<{ total: number; items: ContentItem[] }> {
    const condition = conditions.length ? sql.join(conditions, sql` and `) : sql`1 = 1`;
    const order = compiler.orderBy(opts.sort);
    const table = sql.table(spec.table);
    const from = compiler.needsContents ? sql`${table} as x join contents as c on c.id = x.id` : sql`${table} as x`;
    const slug = spec.slugField ? sql`x.slug` : sql`null`;
    const limit = Number.isFinite(opts.take) ? sql` limit ${opts.take}` : sql``;
    const picked = (
      await sql<{ id: string; __slug?: string }>`select t.id, t.__slug from (select x.id, ${slug} as __slug, row_number() over (partition by ${sql.ref(`x.${opts.column}`)} order by ${sql.join(order)}) as pn_rank from ${from} where ${condition} and ${sql.ref(`x.${opts.column}`)} is not null) as t where t.pn_rank = 1 order by t.id${limit}`.execute(this.db)
    ).rows;
    const documents = picked.length ? await this.db.selectFrom("contents").selectAll().where("id", "in", picked.map((p) => p.id)).execute() : [];
    const byId = new Map(documents.map((d) => [d.id, d]));
    const items = picked.flatMap((p) => {
      const row = byId.get(p.id);
      return row ? [this.toItem({ ...row, ...(p.__slug ? { __slug: p.__slug } : {}) }, schema, true)] : [];
    });
    return { total: items.length, items };
  }

  /**
   * The distinct values of a field over the published items matching `where` (list fields give their
   * elements), for facets: read from the schema's side table.
   */
  async distinctValues(schemaName: string, field: string, opts: { where?: FilterNode; language?: string } = {}): Promise<unknown[]> {
    const schema = await this.requireSchema(schemaName);
    recordRead(schema.name, ...referencedSchemas(opts.where));
    const indexes = await this.indexSpecs();
    const spec = indexes.get(schema.name);
    const f = spec?.fields.get(field);
    // Facets read a column, never every item: only fields of the side table have them.
    if (!spec || !f) throw badRequest(`"${field}" is no field of "${schema.name}"'s side table; mark it isIndexed to list its values.`);
    const compiler = new SqlCompiler({ dialect: this.dialect, alias: "c", published: true, language: opts.language ?? MASTER_LANGUAGE, indexes, index: { alias: "x", spec } });
    const condition = opts.where ? compiler.filter(opts.where) : sql`1 = 1`;
    const from = compiler.needsContents ? sql`${sql.table(spec.table)} as x join contents as c on c.id = x.id` : sql`${sql.table(spec.table)} as x`;
    const column = sql.ref(`x.${f.column}`);
    const rows = await sql<{ v: unknown }>`select distinct ${column} as v from ${from} where ${condition} and ${column} is not null`.execute(this.db);
    const values = rows.rows.flatMap((r) => (f.kind === "list" ? parseListText(String(r.v)) : [f.kind === "boolean" ? r.v === 1 : r.v]));
    return [...new Set(values)];
  }

  /**
   * Points of Geolocation fields counted per grid cell, for a map (published items matching `query`
   * and `where`). The grid divides the unit Web Mercator square into `2^level` × `2^level` cells;
   * `cells` is the area asked for, in cell indices (x0, y0 inclusive, x1, y1 exclusive). Every point of
   * every field counts (an item with two places shows at both). A cell with one point names its item.
   * The database does the counting: the answer is one row per occupied cell, whatever the number of items.
   */
  async geoCells(
    schemaName: string,
    opts: {
      fields: readonly string[];
      level: number;
      cells: { x0: number; y0: number; x1: number; y1: number };
      query?: ContentQuery;
      searchFields?: ReadonlySet<string>;
      where?: FilterNode;
      language?: string;
    },
  ): Promise<Array<{ cx: number; cy: number; count: number; x: number; y: number; id?: string }>> {
    const schema = await this.requireSchema(schemaName);
    const query = opts.query ?? {};
    recordRead(schema.name, ...referencedSchemas(query.filter), ...referencedSchemas(opts.where));
    const indexes = await this.indexSpecs();
    const spec = indexes.get(schema.name);
    const geo = opts.fields.map((name) => {
      const g = spec?.geo.get(name);
      if (!g) throw badRequest(`"${name}" is no Geolocation field of "${schema.name}"'s side table: no map points.`);
      return g;
    });
    if (!spec || !geo.length) return [];
    if (!Number.isInteger(opts.level) || opts.level < 0 || opts.level > 30) throw badRequest("The grid level must be a whole number from 0 to 30.");
    checkQueryShape(query);
    const compiler = new SqlCompiler({ dialect: this.dialect, alias: "c", published: true, language: opts.language ?? MASTER_LANGUAGE, indexes, index: { alias: "x", spec } });
    const conditions = compileWhere(compiler, query, opts.searchFields);
    if (opts.where) conditions.push(compiler.filter(opts.where));
    const condition = conditions.length ? sql.join(conditions, sql` and `) : sql`1 = 1`;
    const from = compiler.needsContents ? sql`${sql.table(spec.table)} as x join contents as c on c.id = x.id` : sql`${sql.table(spec.table)} as x`;
    const n = 2 ** opts.level;
    const { x0, y0, x1, y1 } = opts.cells;
    const points = geo.map((g) => {
      const [px, py] = [sql.ref(`x.${g.x}`), sql.ref(`x.${g.y}`)];
      return sql`select x.id as id, ${px} as px, ${py} as py from ${from} where ${condition} and ${py} >= ${y0 / n} and ${py} < ${y1 / n} and ${px} >= ${x0 / n} and ${px} < ${x1 / n}`;
    });
    // A cell's index: the coordinate scaled to the grid, rounded down (the coordinates are never negative).
    const cell = (v: RawBuilder<unknown>) => (this.dialect === "postgres" ? sql`least(floor(${v} * ${n})::bigint, ${n - 1})` : sql`min(cast(${v} * ${n} as integer), ${n - 1})`);
    const { rows } = await sql<{ cx: number | string; cy: number | string; n: number | string; ax: number; ay: number; id: string }>`
      select ${cell(sql`p.px`)} as cx, ${cell(sql`p.py`)} as cy, count(*) as n, avg(p.px) as ax, avg(p.py) as ay, min(p.id) as id
      from (${sql.join(points, sql` union all `)}) as p group by 1, 2`.execute(this.db);
    return rows.map((r) => {
      const count = Number(r.n);
      return { cx: Number(r.cx), cy: Number(r.cy), count, x: Number(r.ax), y: Number(r.ay), ...(count === 1 ? { id: r.id } : {}) };
    });
  }

  /**
   * The items before and after `id` in the order of an indexed String field (then the id), among the
   * published items matching `where`, wrapping around at both ends. Undefined when `id` is not among them.
   */
  async adjacent(
    schemaName: string,
    id: string,
    opts: { field: string; where?: FilterNode; language?: string },
  ): Promise<{ previous: ContentItem; next: ContentItem } | undefined> {
    const schema = await this.requireSchema(schemaName);
    recordRead(schema.name, ...referencedSchemas(opts.where));
    const indexes = await this.indexSpecs();
    const spec = indexes.get(schema.name);
    const f = spec?.fields.get(opts.field);
    if (!spec || f?.kind !== "string" || !f.indexed) throw badRequest(`"${opts.field}" is no indexed text field of "${schema.name}".`);
    const compiler = new SqlCompiler({ dialect: this.dialect, alias: "c", published: true, language: opts.language ?? MASTER_LANGUAGE, indexes, index: { alias: "x", spec } });
    const condition = opts.where ? compiler.filter(opts.where) : sql`1 = 1`;
    const table = sql.table(spec.table);
    const idKey = this.dialect === "postgres" ? sql`x.id collate "C"` : sql`x.id`;
    const key = sql`(x.${sql.id(f.extra)}, x.${sql.id(f.column)}, ${idKey})`;
    const slug = spec.slugField ? sql`, x.slug as __slug` : sql``;
    // One step along the field's index (SQLite's planner, seeing a range of unknown width, may prefer
    // scanning and sorting the table otherwise).
    const indexed = this.dialect === "sqlite" ? sql` indexed by ${sql.id(`${spec.table}_${f.column}`)}` : sql``;
    const one = async (extra: RawBuilder<unknown>, descending: boolean) => {
      const dir = sql.raw(descending ? "desc" : "asc");
      const nulls = sql.raw(this.dialect === "postgres" ? (descending ? " nulls last" : " nulls first") : "");
      const r = await sql<ContentRow & { __slug?: string }>`select c.*${slug} from ${table} as x${indexed} join contents as c on c.id = x.id
        where ${condition} and ${extra} order by x.${sql.id(f.extra)} ${dir}${nulls}, x.${sql.id(f.column)} ${dir}, ${idKey} ${dir} limit 1`.execute(this.db);
      return r.rows[0] ? this.toItem(r.rows[0], schema, true) : undefined;
    };
    const self = await sql<Record<string, unknown>>`select x.* from ${table} as x join contents as c on c.id = x.id where ${condition} and x.id = ${id}`.execute(this.db);
    const row = self.rows[0];
    if (!row) return undefined;
    const at = sql`(${row[f.extra] as string}, ${row[f.column] as string}, ${id})`;
    // Both directions at once (on PostgreSQL two connections); at either end it wraps around.
    const [after, before] = await Promise.all([one(sql`${key} > ${at}`, false), one(sql`${key} < ${at}`, true)]);
    const next = after ?? (await one(sql`1 = 1`, false));
    const previous = before ?? (await one(sql`1 = 1`, true));
    return next && previous ? { previous, next } : undefined;
  }

  async get(schemaName: string, id: string, opts: ReadOptions = {}): Promise<ContentItem | undefined> {
    const schema = await this.requireSchema(schemaName, opts);
    recordRead(schema.name);
    const row = await this.findRow(schema.name, id);
    if (!row || (!opts.unpublished && row.status !== "Published")) return undefined;
    return this.toItem(row, schema, !opts.unpublished);
  }

  private findRow(schemaName: string, id: string) {
    return this.db.selectFrom("contents").selectAll().where("id", "=", id).where("schema_name", "=", schemaName).executeTakeFirst();
  }

  /** The contents row of a new item: its data checked against the schema, its id checked or made. */
  private async freshRow(schema: Schema, data: unknown, opts: { id?: string; publish?: boolean; actor: string }, now: string): Promise<{ row: ContentRow; valid: ContentData }> {
    const valid = await this.validate(schema, data);
    const id = opts.id === undefined ? newId() : requireValidId(opts.id);
    if (RESERVED_IDS.has(id)) throw badRequest(`"${id}" is a reserved name in the content API and cannot be an id.`);
    const actor = opts.actor;
    const json = JSON.stringify(valid);
    const row: ContentRow = {
      id,
      schema_name: schema.name,
      status: opts.publish ? "Published" : "Draft",
      new_status: null,
      version: opts.publish ? 1 : 0,
      data: json,
      published_data: opts.publish ? json : null,
      published_version: opts.publish ? 1 : null,
      published_last_modified: opts.publish ? now : null,
      published_last_modified_by: opts.publish ? actor : null,
      created: now,
      created_by: actor,
      last_modified: now,
      last_modified_by: actor,
    };
    return { row, valid };
  }

  async create(schemaName: string, data: unknown, opts: CreateOptions = {}): Promise<ContentItem> {
    this.authorizeWrite(opts, "create", schemaName);
    if (opts.publish) this.authorizeWrite(opts, "publish", schemaName);
    const schema = await this.requireSchema(schemaName, { unpublished: true });
    await this.refuseSecondSingleton(schema.name, 1);
    const { row, valid } = await this.freshRow(schema, data, { ...opts, actor: this.actorFor(opts) }, new Date().toISOString());
    const id = row.id;
    const spec = indexSpec(schema);
    if (this.upstream) {
      // Checked here first (the same rules), then made on Squidex under this id; kept with its version there.
      if (await this.findRow(schema.name, id)) throw alreadyExists(`An item with id "${id}" already exists.`);
      const made = await this.upstream.create(schema.name, id, readJsonColumn(row.data), !!opts.publish);
      Object.assign(row, { version: made.version }, opts.publish ? { published_version: made.version } : {});
    }
    if (this.dialect === "postgres" && !spec?.slugField && !this.db.isTransaction && !opts.by && !this.upstream && !(await this.referenceLookup(schema))) {
      // One statement, atomic by itself (see insertFreshItemPostgres).
      const inserted = await insertFreshItemPostgres(this.db, spec, row, opts.publish ? valid : undefined);
      if (!inserted) throw alreadyExists(`An item with id "${id}" already exists.`);
      this.emit({ kind: "content", schemaName: schema.name, id });
      return this.toItem(row, schema, false);
    }
    return this.atomically(async (store) => {
      const res = await store.db
        .insertInto("contents")
        .values(row)
        .onConflict((oc) => oc.column("id").doNothing())
        .executeTakeFirst();
      if (Number(res.numInsertedOrUpdatedRows ?? 0) === 0) throw alreadyExists(`An item with id "${id}" already exists.`);
      if (opts.publish) await store.syncIndex(schema, id, { data: valid }, true);
      await store.syncReferences(schema, [row], true);
      await store.audit(opts, "create-content", schema.name, [{ id, version: row.version }]);
      store.emit({ kind: "content", schemaName: schema.name, id });
      return store.toItem(row, schema, false);
    });
  }

  /**
   * The site's one settings item (SINGLETON_COLLECTIONS) stays one: creating another is refused on
   * every path (screens, the Squidex API, bulk jobs), as Squidex refuses items of a singleton schema.
   */
  private async refuseSecondSingleton(schemaName: string, adding: number): Promise<void> {
    if (!SINGLETON_COLLECTIONS.has(schemaName)) return;
    const row = await this.db.selectFrom("contents").select((eb) => eb.fn.countAll<number>().as("n")).where("schema_name", "=", schemaName).executeTakeFirst();
    if (Number(row?.n ?? 0) + adding > 1) throw new ContentError(400, "This collection holds the site's one settings item: a second one cannot be created. Change the existing one instead.", undefined, SINGLETON_ERROR);
  }

  /** Which of `ids` name an item of the schema (drafts too). */
  async existingIds(schemaName: string, ids: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      const rows = await this.db.selectFrom("contents").select("id").where("schema_name", "=", schemaName).where("id", "in", chunk).execute();
      for (const r of rows) found.add(r.id);
    }
    return found;
  }

  /**
   * Creates many items of one schema together (bulk jobs): all or none, one multi-row insert per
   * table instead of a few statements per item. Every item is checked first, in order, as `create`
   * would check it one at a time; the first that fails throws a `BatchItemError` with its index and
   * nothing is written.
   */
  async createMany(schemaName: string, items: ReadonlyArray<{ data: unknown; id?: string; publish?: boolean }>, opts: WriteOptions = {}): Promise<ContentItem[]> {
    if (!items.length) return [];
    this.authorizeWrite(opts, "create", schemaName);
    if (items.some((item) => item.publish)) this.authorizeWrite(opts, "publish", schemaName);
    const schema = await this.requireSchema(schemaName, { unpublished: true });
    await this.refuseSecondSingleton(schema.name, items.length);
    const now = new Date().toISOString();
    const spec = indexSpec(schema);
    const actor = this.actorFor(opts);
    // PostgreSQL, a schema without slugs, no transaction open, nothing to audit with it: one statement for all of them.
    const oneStatement = this.dialect === "postgres" && !this.db.isTransaction && !spec?.slugField && !opts.by && !this.upstream && !(await this.referenceLookup(schema));
    // On a remote Squidex the items are made there before any local transaction opens (one held
    // open while Squidex answers would stall every reader of SQLite); they are kept here in one after.
    const remoteFirst = !!this.upstream && !this.db.isTransaction;
    return (oneStatement || remoteFirst ? (fn: (store: ContentStore) => Promise<ContentItem[]>) => fn(this) : this.atomically.bind(this))(async (store) => {
      const explicit = items.flatMap((item) => (typeof item.id === "string" ? [item.id] : []));
      const existing = explicit.length ? await store.existingIds(schema.name, explicit) : new Set<string>();
      const seen = new Set<string>();
      const rows: ContentRow[] = [];
      const published: { id: string; data: ContentData }[] = [];
      for (const [index, item] of items.entries()) {
        try {
          const { row, valid } = await store.freshRow(schema, item.data, { ...item, actor }, now);
          if (existing.has(row.id) || seen.has(row.id)) throw alreadyExists(`An item with id "${row.id}" already exists.`);
          seen.add(row.id);
          rows.push(row);
          if (item.publish) published.push({ id: row.id, data: valid });
        } catch (error) {
          throw new BatchItemError(index, error);
        }
      }
      if (store.upstream) {
        // One by one on Squidex (it has no transaction across items): one refused stops the rest,
        // and those made before it reach this mirror with the next sync.
        const publishing = new Set(published.map((p) => p.id));
        for (const [index, row] of rows.entries()) {
          try {
            const made = await store.upstream.create(schema.name, row.id, readJsonColumn(row.data), publishing.has(row.id));
            Object.assign(row, { version: made.version }, publishing.has(row.id) ? { published_version: made.version } : {});
          } catch (error) {
            throw new BatchItemError(index, error);
          }
        }
      }
      if (remoteFirst) return store.transaction((tx) => tx.keepFresh(schema, rows, published, opts));
      try {
        if (oneStatement && (await insertFreshItemsPostgres(store.db, spec, rows, published))) {
          // Written, atomically, without BEGIN and COMMIT round trips.
        } else if (oneStatement) {
          // Too many values for one statement: in a transaction after all.
          await store.transaction((tx) => tx.insertFresh(schema, rows, published));
        } else await store.insertFresh(schema, rows, published);
      } catch (error) {
        // Another writer took one of the ids between the check above and this insert (PostgreSQL).
        if (isUniqueViolation(error)) throw alreadyExists("An item with one of these ids was created at the same time.");
        throw error;
      }
      await store.audit(opts, "create-content", schema.name, rows.map((row) => ({ id: row.id, version: row.version })));
      for (const row of rows) store.emit({ kind: "content", schemaName: schema.name, id: row.id });
      return rows.map((row) => store.toItem(row, schema, false));
    });
  }

  /** createMany's rows as a remote Squidex made them, kept here with their audit line (in a transaction). */
  private async keepFresh(schema: Schema, rows: readonly ContentRow[], published: ReadonlyArray<{ id: string; data: ContentData }>, opts: WriteOptions): Promise<ContentItem[]> {
    await this.insertFresh(schema, rows, published);
    await this.audit(opts, "create-content", schema.name, rows.map((row) => ({ id: row.id, version: row.version })));
    for (const row of rows) this.emit({ kind: "content", schemaName: schema.name, id: row.id });
    return rows.map((row) => this.toItem(row, schema, false));
  }

  /** New contents rows and the side-table rows of the published ones (createMany). */
  private async insertFresh(schema: Schema, rows: readonly ContentRow[], published: ReadonlyArray<{ id: string; data: ContentData }>) {
    // 11 values a row; SQLite takes 32 766 bound values per statement.
    for (let i = 0; i < rows.length; i += 2000) await this.db.insertInto("contents").values(rows.slice(i, i + 2000)).execute();
    const spec = indexSpec(schema);
    if (spec && published.length) await insertFreshRows(this.db, this.dialect, spec, published);
    await this.syncReferences(schema, rows, true);
  }

  /**
   * Applies `change` to the current row as one compare-and-set on its version. With an expected
   * version a stale writer gets 412; without one a lost race is retried on fresh data.
   */
  private async mutate(
    schemaName: string,
    id: string,
    opts: WriteOptions,
    audited: { action: Action; name: string },
    change: (row: ContentRow, schema: Schema) => Promise<Partial<ContentRow>> | Partial<ContentRow>,
  ): Promise<ContentItem> {
    this.authorizeWrite(opts, audited.action, schemaName);
    const schema = await this.requireSchema(schemaName, { unpublished: true });
    // A write with an audit line is kept together with it: in a transaction.
    if (this.dialect === "postgres" && !this.db.isTransaction && !indexSpec(schema)?.slugField && !opts.by && !this.upstream) {
      const done = await this.mutateRow(schema, id, opts, change, true);
      if (done) return done;
    }
    // On a remote Squidex, Squidex answers first with no local transaction open (one held open while
    // it answers would stall every reader of SQLite); the row is then kept here in a short one.
    const planned = this.upstream && !this.db.isTransaction ? await this.planRemote(schema, id, opts, change) : undefined;
    return this.atomically(async (store) => {
      const item = (await store.mutateRow(schema, id, opts, change, false, planned))!;
      await store.audit(opts, audited.name, schema.name, [{ id: item.id, version: item.version }]);
      return item;
    });
  }

  /** The change a write makes to the row as it is now, with its stamp (version, time, writer). */
  private async nextChange(
    schema: Schema,
    id: string,
    opts: WriteOptions,
    change: (row: ContentRow, schema: Schema) => Promise<Partial<ContentRow>> | Partial<ContentRow>,
  ): Promise<PlannedChange> {
    const row = await this.findRow(schema.name, id);
    if (!row) throw notFound(`Content item "${id}" not found in "${schema.name}".`);
    if (opts.expectedVersion !== undefined && opts.expectedVersion !== row.version) throw versionConflict(opts.expectedVersion, row.version);
    const set = await change(row, schema);
    const stamp = { version: row.version + 1, last_modified: new Date().toISOString(), last_modified_by: this.actorFor(opts) };
    return { row, set, stamp };
  }

  /**
   * A write's change made on the remote Squidex first, against the version read here (If-Match): a
   * change made there meanwhile is a conflict for the caller, as a local one is. Squidex's answer
   * gives the version the mirror keeps.
   */
  private async planRemote(
    schema: Schema,
    id: string,
    opts: WriteOptions,
    change: (row: ContentRow, schema: Schema) => Promise<Partial<ContentRow>> | Partial<ContentRow>,
  ): Promise<PlannedChange> {
    const planned = await this.nextChange(schema, id, opts, change);
    const done = await this.upstream!.apply(schema.name, id, planned.row.version, planned.set as UpstreamChange);
    planned.stamp.version = done.version;
    return planned;
  }

  /**
   * The compare-and-set loop of `mutate`. With `oneStatement` (PostgreSQL, a schema without slugs,
   * no transaction open) the common writes — a draft edit, or live data that stays published, as a
   * booking — are one statement with their side-table row: one round trip instead of six. For any
   * other write it then writes nothing and returns undefined, and the caller goes on in a transaction.
   */
  private async mutateRow(
    schema: Schema,
    id: string,
    opts: WriteOptions,
    change: (row: ContentRow, schema: Schema) => Promise<Partial<ContentRow>> | Partial<ContentRow>,
    oneStatement: boolean,
    planned?: PlannedChange,
  ): Promise<ContentItem | undefined> {
    const spec = indexSpec(schema);
    for (let attempt = 0; attempt < 5; attempt++) {
      // Made on the remote Squidex already (planRemote), or worked out now: on a remote Squidex
      // inside a caller's transaction, Squidex is asked here.
      const { row, set, stamp } = planned ?? (this.upstream ? await this.planRemote(schema, id, opts, change) : await this.nextChange(schema, id, opts, change));
      // Live data written now carries this write's stamp; a draft's edits leave the live one's (what visitors read).
      if ("published_data" in set) Object.assign(stamp, { published_version: stamp.version, published_last_modified: stamp.last_modified, published_last_modified_by: stamp.last_modified_by });
      const next: ContentRow = { ...row, ...set, ...stamp };
      // The side table follows what visitors see: only a change of status or live data touches it.
      const touchesLive = spec !== undefined && ("status" in set || "published_data" in set);
      const live = next.status === "Published" && next.published_data !== null;
      // Reference rows are rewritten only when what the item references changes (a booking does not).
      const references = ("data" in set || "published_data" in set) && (await this.referencesChange(schema, row, next));
      // One statement cannot write them with the item: in a transaction, then.
      if (oneStatement && references) return undefined;
      let written: number;
      if (oneStatement && touchesLive) {
        if (row.status !== "Published" || !live) return undefined;
        written = await updateLiveItemPostgres(this.db, spec, id, row.version, { ...set, ...stamp } as Record<string, string | number | null>, readJsonColumn(next.published_data) as ContentData);
      } else {
        const res = await this.db.updateTable("contents").set({ ...set, ...stamp }).where("id", "=", id).where("version", "=", row.version).executeTakeFirst();
        written = Number(res.numUpdatedRows);
        if (written === 1 && touchesLive) await this.syncIndex(schema, id, live ? { data: next.published_data } : undefined);
        if (written === 1 && references) await this.syncReferences(schema, [next]);
      }
      if (written === 1) {
        this.emit({ kind: "content", schemaName: schema.name, id });
        return this.toItem(next, schema, false);
      }
      if (this.upstream) {
        // Squidex took it; the mirror's sync wrote a newer state of the item meanwhile (which holds it),
        // or removed it (deleted on Squidex since): trying the same change again would change nothing.
        const now = await this.findRow(schema.name, id);
        if (now) return this.toItem(now, schema, false);
        if (planned) throw notFound(`Content item "${id}" not found in "${schema.name}".`);
      }
      if (opts.expectedVersion !== undefined) {
        const now = await this.findRow(schema.name, id);
        throw versionConflict(opts.expectedVersion, now?.version ?? -1);
      }
    }
    throw new ContentError(409, "The item is being changed by others; try again.", undefined, "OBJECT_CONFLICT");
  }

  /**
   * Replaces the data. With a pending draft only the draft changes; a published item without a
   * draft is changed live, as in Squidex. Call `createDraft` first to edit a published item quietly.
   */
  async update(schemaName: string, id: string, data: unknown, opts: WriteOptions = {}): Promise<ContentItem> {
    return this.mutate(schemaName, id, opts, { action: "update", name: "update-content" }, async (row, schema) => {
      assertEditable(row);
      const json = JSON.stringify(await this.validate(schema, data));
      return row.status === "Published" && !row.new_status ? { data: json, published_data: json } : { data: json };
    });
  }

  /** Merges per field and per language: `{title: {en: "x"}}` changes only the English title. */
  async patch(schemaName: string, id: string, data: unknown, opts: WriteOptions = {}): Promise<ContentItem> {
    if (!isPlainObject(data)) throw validationError(["Request body has an invalid format: data must be an object."]);
    return this.mutate(schemaName, id, opts, { action: "update", name: "patch-content" }, async (row, schema) => {
      assertEditable(row);
      const merged = readJsonColumn(row.data) as ContentData;
      for (const [field, partitions] of Object.entries(data)) {
        if (partitions === null) delete merged[field];
        else if (isPlainObject(partitions) && isPlainObject(merged[field])) merged[field] = { ...merged[field], ...partitions };
        else merged[field] = partitions as Record<string, unknown>;
      }
      const json = JSON.stringify(await this.validate(schema, merged));
      return row.status === "Published" && !row.new_status ? { data: json, published_data: json } : { data: json };
    });
  }

  /**
   * Changes the status now. A status change waiting for its time (scheduleStatus) is cancelled with
   * it, as in Squidex, in the same transaction: the scheduler applies its jobs through here too.
   */
  async changeStatus(schemaName: string, id: string, status: string, opts: WriteOptions = {}): Promise<ContentItem> {
    if (!STATUSES.includes(status as Status)) throw badRequest(`Unknown status "${status}"; use ${STATUSES.join(", ")}.`);
    const audited = status === "Published" ? ({ action: "publish", name: "publish-content" } as const) : ({ action: "unpublish", name: status === "Archived" ? "archive-content" : "unpublish-content" } as const);
    const change = async (store: ContentStore) => {
      const item = await store.mutate(schemaName, id, opts, audited, async (row, schema) => {
        if (status === "Published") {
          await store.validate(schema, readJsonColumn(row.data));
          return { status, new_status: null, published_data: jsonText(row.data) };
        }
        return { status, new_status: null, published_data: null };
      });
      await store.db.deleteFrom("content_schedules").where("content_id", "=", id).execute();
      return item;
    };
    // On a remote Squidex the change is kept once Squidex took it (mutate), with no transaction
    // around the call; the schedule it replaces goes after.
    return this.upstream && !this.db.isTransaction ? change(this) : this.atomically(change);
  }

  // ---- scheduled status changes (migration 0015, scheduler.ts) ---------------------------------

  /**
   * Sets the item's status to change to `status` at `dueTime` (Squidex's ChangeStatus with a DueTime):
   * asked of the policy as that change is now, and again when it is applied. An item has one
   * schedule at most: a new one replaces the old. The item itself (its version) does not change.
   */
  async scheduleStatus(schemaName: string, id: string, status: string, dueTime: Date, opts: WriteOptions = {}): Promise<ContentItem> {
    if (!STATUSES.includes(status as Status)) throw badRequest(`Unknown status "${status}"; use ${STATUSES.join(", ")}.`);
    if (Number.isNaN(dueTime.getTime())) throw badRequest("The due time is not a date.");
    if (dueTime.getTime() <= Date.now()) throw badRequest(`The due time ${dueTime.toISOString()} has passed; give a time in the future, or none to change the status now.`);
    if (dueTime.getUTCFullYear() > 9999) throw badRequest("The due time must be before the year 10000.");
    this.authorizeWrite(opts, status === "Published" ? "publish" : "unpublish", schemaName);
    const schema = await this.requireSchema(schemaName, { unpublished: true });
    return this.atomically(async (store) => {
      const row = await store.findRow(schema.name, id);
      if (!row) throw notFound(`Content item "${id}" not found in "${schema.name}".`);
      if (opts.expectedVersion !== undefined && opts.expectedVersion !== row.version) throw versionConflict(opts.expectedVersion, row.version);
      const now = new Date().toISOString();
      const due = dueTime.toISOString();
      const job = { job_id: randomUUID(), status, due_time: due, scheduled_by: store.actorFor(opts), principal: JSON.stringify(opts.by ?? null), created: now, next_attempt_at: due, claimed_by: null, claimed_at: null, attempts: 0, last_error: null };
      await store.db
        .insertInto("content_schedules")
        .values({ content_id: id, schema_name: schema.name, ...job })
        .onConflict((oc) => oc.column("content_id").doUpdateSet({ schema_name: schema.name, ...job }))
        .execute();
      await store.audit({ ...opts, note: { action: opts.note?.action ?? "schedule-status", detail: opts.note?.detail ?? `${status} ${due}` } }, "schedule-status", schema.name, [{ id, version: row.version }]);
      return { ...store.toItem(row, schema, false), scheduleJob: { id: job.job_id, status: status as Status, scheduledBy: job.scheduled_by, dueTime: due } };
    });
  }

  /**
   * Cancels the item's scheduled status change, if it has one (Squidex's DELETE …/status), asked of
   * the policy as the change itself would be. The item is returned as it is now.
   */
  async cancelSchedule(schemaName: string, id: string, opts: WriteOptions = {}): Promise<ContentItem> {
    const schema = await this.requireSchema(schemaName, { unpublished: true });
    return this.atomically(async (store) => {
      const row = await store.findRow(schema.name, id);
      if (!row) throw notFound(`Content item "${id}" not found in "${schema.name}".`);
      const job = await store.db.selectFrom("content_schedules").select(["job_id", "status", "due_time"]).where("content_id", "=", id).executeTakeFirst();
      if (job) {
        store.authorizeWrite(opts, job.status === "Published" ? "publish" : "unpublish", schema.name);
        await store.db.deleteFrom("content_schedules").where("content_id", "=", id).execute();
        await store.audit({ ...opts, note: { action: opts.note?.action ?? "cancel-schedule", detail: opts.note?.detail ?? `${job.status} ${job.due_time}` } }, "cancel-schedule", schema.name, [{ id, version: row.version }]);
      }
      return store.toItem(row, schema, false);
    });
  }

  /** The items with their scheduled status changes (`scheduleJob`) where they have one: one query. */
  async withSchedules<T extends ContentItem>(items: readonly T[]): Promise<T[]> {
    if (!items.length) return [...items];
    const jobs = new Map<string, Database["content_schedules"]>();
    const ids = [...new Set(items.map((i) => i.id))];
    for (let i = 0; i < ids.length; i += 500)
      for (const row of await this.db.selectFrom("content_schedules").selectAll().where("content_id", "in", ids.slice(i, i + 500)).execute()) jobs.set(row.content_id, row);
    if (!jobs.size) return [...items];
    return items.map((item) => {
      const job = jobs.get(item.id);
      return job ? { ...item, scheduleJob: { id: job.job_id, status: job.status as Status, scheduledBy: job.scheduled_by, dueTime: job.due_time } } : item;
    });
  }

  /** Starts a new draft of a published item; the live version stays as it is until published. */
  async createDraft(schemaName: string, id: string, opts: WriteOptions = {}): Promise<ContentItem> {
    return this.mutate(schemaName, id, opts, { action: "update", name: "create-draft" }, (row) => {
      if (row.status !== "Published") throw badRequest("Only published items can have a new draft.");
      if (row.new_status) throw badRequest("The item already has a draft.");
      return { new_status: "Draft" };
    });
  }

  async discardDraft(schemaName: string, id: string, opts: WriteOptions = {}): Promise<ContentItem> {
    return this.mutate(schemaName, id, opts, { action: "update", name: "discard-draft" }, (row) => {
      if (!row.new_status || row.published_data === null) throw badRequest("The item has no draft to discard.");
      return { new_status: null, data: jsonText(row.published_data) };
    });
  }

  /**
   * Squidex's validity check (GET …/{id}/validity, bulk Validate): the item's data against its schema
   * as it is now, with every problem listed (a 400, as a write of that data would get). The current
   * data with `unpublished`, else the live data of a published item; 404 when the caller cannot see it.
   */
  async checkValidity(schemaName: string, id: string, opts: ReadOptions = {}): Promise<void> {
    const item = await this.get(schemaName, id, opts);
    if (!item) throw notFound(`Content item "${id}" not found in "${schemaName}".`);
    await this.validate(await this.requireSchema(schemaName, { unpublished: true }), item.data);
  }

  /**
   * Fills the schema's default values into the fields (and languages) that have no value or null, and
   * saves that as a new version, checked, authorized and audited as an update (Squidex's PUT
   * …/{id}/defaults, bulk EnrichDefaults). Values that are set stay as they are.
   */
  async enrichDefaults(schemaName: string, id: string, opts: WriteOptions = {}): Promise<ContentItem> {
    return this.mutate(schemaName, id, opts, { action: "update", name: "enrich-defaults" }, async (row, schema) => {
      assertEditable(row);
      const data = withDefaults(schema, readJsonColumn(row.data) as ContentData);
      const json = JSON.stringify(await this.validate(schema, data));
      return row.status === "Published" && !row.new_status ? { data: json, published_data: json } : { data: json };
    });
  }

  async delete(schemaName: string, id: string, opts: WriteOptions = {}): Promise<void> {
    this.authorizeWrite(opts, "delete", schemaName);
    const schema = await this.requireSchema(schemaName, { unpublished: true });
    if (this.upstream) {
      const row = await this.findRow(schema.name, id);
      if (!row) throw notFound(`Content item "${id}" not found in "${schema.name}".`);
      if (opts.expectedVersion !== undefined && opts.expectedVersion !== row.version) throw versionConflict(opts.expectedVersion, row.version);
      await this.upstream.delete(schema.name, id, row.version);
      opts = { ...opts, expectedVersion: undefined };
    }
    await this.atomically(async (store) => {
      let q = store.db.deleteFrom("contents").where("id", "=", id).where("schema_name", "=", schema.name);
      if (opts.expectedVersion !== undefined) q = q.where("version", "=", opts.expectedVersion);
      const res = await q.executeTakeFirst();
      if (Number(res.numDeletedRows) === 0) {
        const row = await store.findRow(schema.name, id);
        if (!row) throw notFound(`Content item "${id}" not found in "${schema.name}".`);
        throw versionConflict(opts.expectedVersion ?? -1, row.version);
      }
      await store.syncIndex(schema, id, undefined);
      await store.db.deleteFrom("content_references").where("source_id", "=", id).execute();
      await store.db.deleteFrom("content_schedules").where("content_id", "=", id).execute();
      await store.audit(opts, "delete-content", schema.name, [{ id, version: opts.expectedVersion ?? null }]);
      store.emit({ kind: "content", schemaName: schema.name, id });
    });
  }

  // ---- the mirror of a remote Squidex (remote/mirror.ts) ----------------------------------------

  /**
   * Items as the remote Squidex has them now: each kept where it is new here or newer than the row
   * here (by version), with its side-table and reference rows, in one transaction; every change is
   * told as a local one is (caches and cached pages drop what it touched). Returns the ids written.
   */
  async applyMirrored(schemaName: string, rows: readonly ContentRow[]): Promise<string[]> {
    const schema = await this.requireSchema(schemaName, { unpublished: true });
    if (!rows.length) return [];
    return this.atomically(async (store) => {
      const have = new Map<string, number>();
      for (let i = 0; i < rows.length; i += 500)
        for (const r of await store.db.selectFrom("contents").select(["id", "version", "schema_name"]).where("id", "in", rows.slice(i, i + 500).map((r) => r.id)).execute()) {
          if (r.schema_name !== schema.name) throw badRequest(`Item "${r.id}" belongs to "${r.schema_name}" here, not to "${schema.name}".`);
          have.set(r.id, r.version);
        }
      const written: ContentRow[] = [];
      for (const row of rows) {
        const kept = have.get(row.id);
        if (kept !== undefined && kept >= row.version) continue;
        if (kept === undefined) await store.db.insertInto("contents").values(row).execute();
        else await store.db.updateTable("contents").set(row).where("id", "=", row.id).execute();
        await store.syncIndex(schema, row.id, row.status === "Published" && row.published_data !== null ? { data: row.published_data } : undefined, kept === undefined);
        written.push(row);
      }
      await store.syncReferences(schema, written);
      for (const row of written) store.emit({ kind: "content", schemaName: schema.name, id: row.id });
      return written.map((r) => r.id);
    });
  }

  /** Items the remote Squidex no longer has: gone here too, with their side rows and schedules. */
  async removeMirrored(schemaName: string, ids: readonly string[]): Promise<void> {
    const schema = await this.requireSchema(schemaName, { unpublished: true });
    if (!ids.length) return;
    await this.atomically(async (store) => {
      for (const id of ids) {
        const res = await store.db.deleteFrom("contents").where("id", "=", id).where("schema_name", "=", schema.name).executeTakeFirst();
        if (Number(res.numDeletedRows) === 0) continue;
        await store.syncIndex(schema, id, undefined);
        await store.db.deleteFrom("content_references").where("source_id", "=", id).execute();
        await store.db.deleteFrom("content_schedules").where("content_id", "=", id).execute();
        store.emit({ kind: "content", schemaName: schema.name, id });
      }
    });
  }

  /** The ids and versions of a schema's items kept here, in pages (the mirror's full comparison). */
  async mirroredVersions(schemaName: string): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    let after = "";
    for (;;) {
      const rows = await this.db.selectFrom("contents").select(["id", "version"]).where("schema_name", "=", schemaName).where("id", ">", after).orderBy("id").limit(5000).execute();
      if (!rows.length) return out;
      for (const r of rows) out.set(r.id, r.version);
      after = rows[rows.length - 1]!.id;
    }
  }

  /**
   * After rows were written straight into the tables (an import, transfer/import.ts), in the same
   * transaction: forgets the schemas read before, makes the side tables of `schemaNames` anew from
   * their published items (items keep the slugs in `slugs`, by schema name) and rewrites the
   * reference rows of every schema (a component's fields may have changed with them).
   */
  async rebuildDerived(schemaNames: readonly string[], slugs: ReadonlyMap<string, ReadonlyMap<string, string>>): Promise<void> {
    this.schemaCache = null;
    const schemas = await this.listSchemas();
    await ensureIndexes(this.db, this.dialect, schemas.filter((s) => schemaNames.includes(s.name)), { force: true, slugs });
    await this.rebuildReferences(schemas.filter((s) => s.type !== "Component"));
  }

  async countContents(): Promise<number> {
    const r = await this.db.selectFrom("contents").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  // ---- settings shared by all app nodes ------------------------------------------------------

  async getSetting(key: string): Promise<string | undefined> {
    return (await this.db.selectFrom("app_settings").select("value").where("key", "=", key).executeTakeFirst())?.value;
  }

  /** Stores `value` unless the key exists already; returns what is stored (first writer wins). */
  async ensureSetting(key: string, value: string): Promise<string> {
    const existing = await this.getSetting(key);
    if (existing !== undefined) return existing;
    try {
      await this.db.insertInto("app_settings").values({ key, value }).execute();
      return value;
    } catch {
      return (await this.getSetting(key)) ?? value;
    }
  }
}

/** Side tables by schema name, made once per set of schemas read (not per query). */
const specsBySchemas = new WeakMap<Map<string, Schema>, Map<string, IndexSpec>>();

/** Whether items of a schema may reference others (references.ts), once per set of schemas read. */
const referencingBySchemas = new WeakMap<Map<string, Schema>, Map<string, boolean>>();

/** Keeps totals: `load` computes one (and records what it read), the cache may answer instead. */
export type CountCache = (key: string, load: () => Promise<number>) => Promise<number>;


/** A JSON column's value as JSON text again, to write it back (either database takes text). */
function jsonText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Schemas a filter reads besides its own (the targets of `refersTo`). */
function referencedSchemas(node: FilterNode | undefined): string[] {
  if (!node) return [];
  if ("and" in node) return node.and.flatMap(referencedSchemas);
  if ("or" in node) return node.or.flatMap(referencedSchemas);
  if ("not" in node) return referencedSchemas(node.not);
  if ("refersTo" in node) return [node.refersTo.schema, ...referencedSchemas(node.refersTo.filter)];
  return [];
}

/**
 * `data` with the fields' default values where a partition has no value or null (Squidex's
 * DefaultValueGenerator): `defaultValues[language]` before `defaultValue` for localized fields.
 */
export function withDefaults(schema: Schema, data: ContentData): ContentData {
  const out: ContentData = isPlainObject(data) ? { ...data } : {};
  for (const field of schema.fields) {
    const props = field.properties as SchemaField["properties"] & { defaultValues?: Record<string, unknown> };
    const perLanguage = isPlainObject(props.defaultValues) ? props.defaultValues : {};
    const keys = field.partitioning === "invariant" ? ["iv"] : [...LANGUAGES];
    const partitions: Record<string, unknown> = isPlainObject(out[field.name]) ? { ...out[field.name] } : {};
    let changed = false;
    for (const key of keys) {
      if (partitions[key] !== undefined && partitions[key] !== null) continue;
      const value = perLanguage[key] ?? props.defaultValue;
      if (value === undefined || value === null) continue;
      partitions[key] = structuredClone(value);
      changed = true;
    }
    if (changed) out[field.name] = partitions;
  }
  return out;
}

function assertEditable(row: ContentRow) {
  if (row.status === "Archived") throw badRequest("Archived items cannot be changed; move them to Draft first.");
}

type FieldInput = Omit<NestedField, "fieldId"> & { fieldId?: number };

/**
 * The fields of a schema (`top`), or the entry fields of an Array field: valid names each once, a
 * field type, ids (they name side-table columns, f<id>) whole and each once; partitions and entry
 * fields at the top only.
 */
function checkFields(list: readonly unknown[], path: string, errors: string[], top: boolean) {
  const names = new Set<string>();
  const ids = new Set<number>();
  list.forEach((item, i) => {
    const at = `${path}[${i + 1}]`;
    if (!isPlainObject(item)) return void errors.push(`${at}: Must be a field.`);
    const f = item as Partial<SchemaField> & { nested?: unknown };
    if (!FIELD_NAME.test(f.name ?? "")) errors.push(`${at}.name: "${f.name}" is not a valid field name.`);
    else if (names.has(f.name!)) errors.push(`${at}.name: Duplicate field "${f.name}".`);
    names.add(f.name!);
    if (top && f.partitioning !== "invariant" && f.partitioning !== "language") errors.push(`${at}.partitioning: Must be invariant or language.`);
    if (!f.properties?.fieldType) errors.push(`${at}.properties.fieldType: Field is required.`);
    if (f.fieldId !== undefined) {
      if (!Number.isSafeInteger(f.fieldId) || f.fieldId < 1) errors.push(`${at}.fieldId: Must be a whole number from 1.`);
      else if (ids.has(f.fieldId)) errors.push(`${at}.fieldId: Duplicate id ${f.fieldId}.`);
      ids.add(f.fieldId);
    }
    if (f.nested === undefined) return;
    if (!top || !Array.isArray(f.nested)) errors.push(`${at}.nested: ${top ? "Must be an array." : "Entry fields have no entry fields."}`);
    else if (f.properties?.fieldType !== "Array" && f.nested.length) errors.push(`${at}.nested: Only Array fields have nested fields.`);
    else checkFields(f.nested, `${at}.nested`, errors, false);
  });
}

/** Fields with ids: given, else the id the same name had before, else the next one no field has. */
function withIds<F extends FieldInput>(list: readonly F[], before: readonly NestedField[], floor = 0): Array<F & { fieldId: number }> {
  let next = Math.max(floor, ...before.map((b) => b.fieldId), ...list.map((f) => f.fieldId ?? 0));
  return list.map((f) => ({ ...f, fieldId: f.fieldId ?? before.find((b) => b.name === f.name)?.fieldId ?? ++next, properties: { ...f.properties } }));
}
