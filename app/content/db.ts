import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import SQLite from "better-sqlite3";
import {
  CompiledQuery,
  type CreateTableBuilder,
  type DatabaseConnection,
  type Driver,
  type Generated,
  Kysely,
  type LogEvent,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  sql,
  type Migration,
  type TransactionSettings,
} from "kysely";
import type pg from "pg";
import { fold, postgresFoldFunction } from "./fold";
import { referencedIds } from "./references";

/** Tables of the embedded content service. JSON columns are text, booleans 0/1: one layout for SQLite and PostgreSQL. */
export interface Database {
  schemas: {
    id: string;
    name: string;
    type: string;
    is_published: number;
    definition: string;
    version: number;
    created: string;
    created_by: string;
    last_modified: string;
    last_modified_by: string;
  };
  contents: {
    id: string;
    schema_name: string;
    status: string;
    new_status: string | null;
    version: number;
    /** What an editor sees: the pending draft when there is one. JSON: text on SQLite, jsonb on PostgreSQL (read as parsed values). */
    data: string;
    /** What visitors see: set only while the item is Published. */
    published_data: string | null;
    /** The version, time and author of the write that made `published_data` (migration 0009): what visitors see of it. */
    published_version: number | null;
    published_last_modified: string | null;
    published_last_modified_by: string | null;
    created: string;
    created_by: string;
    last_modified: string;
    last_modified_by: string;
  };
  /**
   * Which items an item references (migration 0013, references.ts): one row per referenced id, for
   * its current data (`live` 0) and for its published data (`live` 1). Written with every write of
   * the item; read by target for "who references X" (Squidex's referencing).
   */
  content_references: {
    source_id: string;
    live: number;
    target_id: string;
  };
  /**
   * Status changes set to happen later (migration 0015, scheduler.ts): one row per item at most (a
   * new schedule replaces the old), deleted when it is applied, cancelled, or the item is deleted.
   */
  content_schedules: {
    content_id: string;
    schema_name: string;
    /** A fresh id per schedule: applying checks it, so a replaced job is never applied. */
    job_id: string;
    status: string;
    /** UTC ISO (toISOString: sorts as text). */
    due_time: string;
    /** Actor ref token shown as the job's scheduledBy. */
    scheduled_by: string;
    /** JSON of the Principal who scheduled it: the change is authorized and audited as theirs. */
    principal: string;
    created: string;
    /** When a scheduler may next take it (UTC ISO): the due time, later after a failed try. */
    next_attempt_at: string;
    /** The app node holding it and since when; a claim older than the lease is free again. */
    claimed_by: string | null;
    claimed_at: string | null;
    attempts: number;
    last_error: string | null;
  };
  /** Which schemas have a typed side table (field-index.ts), and its shape when it was made. */
  content_indexes: {
    schema_name: string;
    table_name: string;
    signature: string;
  };
  assets: {
    id: string;
    file_name: string;
    slug: string;
    mime_type: string;
    file_size: number;
    file_hash: string;
    file_version: number;
    type: string;
    pixel_width: number | null;
    pixel_height: number | null;
    tags: string;
    parent_id: string;
    version: number;
    created: string;
    created_by: string;
    last_modified: string;
    last_modified_by: string;
    /** Squidex's annotation metadata (migration 0017): a flat JSON object; the pixel sizes are the columns above. */
    metadata: string;
    /** 1: the file is served only to a signed-in person or a client token (migration 0017). */
    is_protected: number;
  };
  /** Asset folders (Squidex's AssetFolder): `parent_id` is the empty GUID for the root, as on assets. */
  asset_folders: {
    id: string;
    parent_id: string;
    folder_name: string;
    version: number;
    created: string;
    created_by: string;
    last_modified: string;
    last_modified_by: string;
  };
  app_settings: { key: string; value: string };
  /** Who booked an appointment slot: private, beside the slot's content (see booking/bookings.ts). */
  bookings: {
    /** The slot booked: the primary key, so a slot has at most one booking (the database decides races). */
    appointment_id: string;
    /** The booking's own id (random; the .ics UID is made from it). Null only for rows older than migration 0005. */
    id: string | null;
    practitioner_id: string | null;
    /** The slot's start (UTC ISO), copied at booking time: the retention clock runs from it. */
    starts_at: string | null;
    /** The language the booker used: their mails are written in it. */
    language: string | null;
    /** A hash of the client's Idempotency-Key (or of the request itself): a repeat returns this booking. */
    idempotency_key: string | null;
    name: string;
    email: string;
    phone: string | null;
    note: string | null;
    created: string;
  };
  /** Newsletter addresses: pending until the owner confirms the link mailed to them (double opt-in). */
  /** Proof of consent (issue 24): when, which text, which categories; nothing about the person. */
  consent_records: {
    id: string;
    at: string;
    text_version: string;
    categories: string;
  };
  subscribers: {
    /** Lower-cased address. */
    email: string;
    status: "pending" | "confirmed";
    language: string;
    created: string;
    confirmed_at: string | null;
  };
  /** Mail to send: every message is kept here first, so a failed delivery is retried, never lost. */
  outbox: {
    id: string;
    /** What it is (booking-confirmation, newsletter-confirm, …): for the admin list and tests. */
    kind: string;
    recipient: string;
    subject: string;
    text: string;
    html: string;
    /** JSON object of extra headers (List-Unsubscribe, …). */
    headers: string;
    /** JSON array of {filename, contentType, content} (text content: .ics). */
    attachments: string;
    status: "pending" | "sent" | "failed";
    attempts: number;
    /** When the next delivery attempt may start (UTC ISO); a sender claims a message by moving it on. */
    next_attempt_at: string;
    last_error: string | null;
    created: string;
    sent_at: string | null;
  };
  /** People who sign in to /manage (auth/users.server.ts). */
  users: {
    id: string;
    /** Lower-cased, unique. */
    email: string;
    name: string;
    /** argon2id (PHC string); null until an invited user sets a password. */
    password_hash: string | null;
    role: "editor";
    /** 1: may manage users, delete content and change global settings. */
    superuser: number;
    /** The admin area's language for this user. */
    language: string;
    /** Sessions carry this number; raising it ends every session of the user (sign out everywhere, new password). */
    session_generation: number;
    created: string;
    updated: string;
    last_sign_in: string | null;
  };
  /** Who changed what and when (auth/audit.server.ts): read by superusers. */
  audit_log: {
    id: string;
    at: string;
    user_id: string | null;
    user_email: string;
    action: string;
    schema_name: string | null;
    item_id: string | null;
    version: number | null;
    detail: string | null;
  };
  /** Who has a page open in edit mode (editor/presence.server.ts): a row per page and person, refreshed by a heartbeat. */
  editor_presence: {
    page_id: string;
    user_id: string;
    /** The person's name (or e-mail) when last seen: what other editors are shown. */
    name: string;
    /** UTC ISO of the last heartbeat. */
    seen_at: string;
  };
  /** Selections of blocks saved for reuse on other pages (editor/templates.server.ts). */
  editor_templates: {
    id: string;
    name: string;
    /** JSON array of page-form blocks (containers with their children), without ids. */
    blocks: string;
    /** Top-level blocks in `blocks`: the list shows it without reading every template's blocks. */
    block_count: number;
    /** The user id of whoever saved it. */
    created_by: string;
    created_at: string;
  };
  /**
   * Sessions signed out before their cookie expires (auth/users.server.ts): refused on every node
   * until `expires` (UTC ISO, the latest moment any cookie of the session could be valid), then purged.
   */
  ended_sessions: {
    /** The session's random id, from its sealed cookie. */
    sid: string;
    user_id: string;
    expires: string;
  };
  /**
   * Kept versions of pages' blocks (migration 0010, editor/history.server.ts): the newest first by
   * `id`. `blocks` is JSON `{de: Block[], en: Block[]}`, `title` JSON `{de, en}`.
   */
  page_history: {
    id: Generated<number>;
    page_id: string;
    version: number;
    /** "draft" (one rolling entry per editor while they work), "published" or "restored". */
    kind: string;
    blocks: string;
    title: string;
    /** Who: `subject:<user id>` (as the content's last_modified_by). */
    by_actor: string;
    /** When (UTC ISO). */
    at: string;
  };
  /** The visitor-hash salt of each UTC day (analytics/collector.server.ts): only today's is kept. */
  analytics_salts: { day: string; salt: string };
  /** Today's visitors by salted hash: the end of their current visit. Purged when the day is over. */
  analytics_visitors: { day: string; hash: string; last_seen: number; visit_pageviews: number };
  /** Which breakdown values (page, source…) a visitor of today has been counted for. Purged with the day. */
  analytics_seen: { day: string; hash: string; dim: string; value: string };
  /** Daily rollups (migration 0014): all the dashboard reads. */
  analytics_daily: { day: string; visitors: number; pageviews: number; visits: number; bounces: number; visit_seconds: number; events: number };
  analytics_breakdown: { dim: string; day: string; value: string; visitors: number; pageviews: number; visits: number; events: number };
  analytics_props: { day: string; name: string; prop: string; value: string; events: number };
  analytics_revenue: { day: string; name: string; currency: string; events: number; amount: number };
}

export type DB = Kysely<Database>;
export type Dialect = "sqlite" | "postgres";

export interface DatabaseOptions {
  /** postgres://… to use PostgreSQL; otherwise SQLite at `sqlitePath`. */
  databaseUrl?: string;
  sqlitePath?: string;
  /** PostgreSQL only: a schema (namespace) to keep the tables in, created if missing. Used by tests. */
  pgSchema?: string;
  /** SQLite file only: copy the WAL into the database from a worker thread (see startCheckpointer). */
  checkpointInBackground?: boolean;
  /** Called for each statement that took at least `slowQueryMs` (SQL_SLOW_MS), with its text and values. */
  onSlowQuery?: (query: { ms: number; sql: string; parameters: readonly unknown[] }) => void;
  slowQueryMs?: number;
}

/** Kysely's log hook for slow statements, when asked for (0: none, and no cost per statement). */
function slowQueryLog({ onSlowQuery, slowQueryMs }: DatabaseOptions) {
  if (!onSlowQuery || !slowQueryMs) return {};
  return {
    log: (event: LogEvent) => {
      if (event.queryDurationMillis >= slowQueryMs) onSlowQuery({ ms: Math.round(event.queryDurationMillis * 100) / 100, sql: event.query.sql, parameters: event.query.parameters });
    },
  };
}

/** Whether `error` is the database refusing a second row with the same key (PostgreSQL 23505, SQLite's constraint). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "SQLITE_CONSTRAINT_UNIQUE";
}

/** The driver under Kysely, for libraries that bring their own SQL (the rate limiter's store). */
export type RawDatabase = { dialect: "sqlite"; sqlite: SQLite.Database } | { dialect: "postgres"; pool: pg.Pool };

export async function openDatabase(opts: DatabaseOptions): Promise<{ db: DB; dialect: Dialect; raw: RawDatabase }> {
  if (opts.databaseUrl) {
    // Loaded only for PostgreSQL: the embedded store starts without it.
    const { default: pg } = await import("pg");
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: 10,
      ...(opts.pgSchema ? { options: `-c search_path=${opts.pgSchema}` } : {}),
    });
    // A connection the database drops (restart, failover, admin) must not crash the process: the
    // error surfaces in the query that used it, and the pool opens a new connection next time.
    pool.on("error", () => {});
    pool.on("connect", (client) => {
      client.on("error", () => {});
      preparePlans(client);
    });
    if (opts.pgSchema) {
      if (!/^[a-z_][a-z0-9_]*$/.test(opts.pgSchema)) throw new Error(`Invalid PostgreSQL schema name "${opts.pgSchema}"`);
      await pool.query(`create schema if not exists ${opts.pgSchema}`);
    }
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...slowQueryLog(opts) }), dialect: "postgres", raw: { dialect: "postgres", pool } };
  }
  const file = opts.sqlitePath ?? ":memory:";
  if (file !== ":memory:") createPrivateFile(file);
  const sqlite = new SQLite(file);
  // The fold used by queries (sql-query.ts); PostgreSQL gets the same as an SQL function.
  sqlite.function("pn_fold", { deterministic: true }, (text: unknown) => (typeof text === "string" ? fold(text) : null));
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  // 64 MiB of pages in memory (SQLite's default is 2 MiB): the indexes a write touches stay cached.
  sqlite.pragma("cache_size = -65536");
  // Reads through a memory map: no system call and copy per page that is not in that cache.
  sqlite.pragma(`mmap_size = ${1024 * 1024 * 1024}`);
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = ON");
  const checkpointer = opts.checkpointInBackground && file !== ":memory:" ? startCheckpointer(sqlite, file) : undefined;
  return {
    db: new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite, checkpointer) }), ...slowQueryLog(opts) }),
    dialect: "sqlite",
    raw: { dialect: "sqlite", sqlite },
  };
}

/**
 * Kysely begins SQLite transactions with a plain (deferred) `begin`: the write lock is taken at the
 * first write. A transaction that read first and then finds the lock held (the checkpointer's
 * RESTART holds it while it waits for readers) gets SQLITE_BUSY at once: SQLite does not wait for a
 * connection that already reads, since waiting could deadlock. The store's writes read before they
 * write (versions, slugs, existence), so that was a 500 now and then under sustained writes. Here a
 * transaction takes the write lock when it begins, where `busy_timeout` does wait; one the caller
 * marks `read only` stays deferred. The app has one connection, so taking the lock early costs it
 * nothing.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection, settings?: TransactionSettings): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(settings?.accessMode === "read only" ? "begin" : "begin immediate"));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly driverConfig: SqliteDialectConfig) {
    super(driverConfig);
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.driverConfig);
  }
}

const CHECKPOINTER = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.module);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma("busy_timeout = 1000");
const timer = setInterval(() => {
  try {
    // Copy what is there without blocking anyone; then, with the WAL long, finish the copy and let
    // the next writer start the WAL from its beginning (which waits for a pause in the writes).
    const [{ log }] = db.pragma("wal_checkpoint(PASSIVE)");
    if (log > workerData.restartFrames) db.pragma("wal_checkpoint(RESTART)");
  } catch {}
}, workerData.intervalMs);
parentPort.on("message", () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * By default SQLite copies the WAL back into the database file inside a commit, every 1 000 pages:
 * on a busy store that was a third of what a write cost, on the request thread. Here a worker thread
 * with its own connection does it every second (PASSIVE: it never waits for readers or writers), so
 * a commit only appends to the WAL; past 4 000 pages (16 MB) it finishes with a RESTART, which
 * waits for a pause between writes, so the WAL starts over instead of growing. Should the worker fail, the app's connection still checkpoints
 * itself once the WAL reaches 100 000 pages (~400 MB); after a checkpoint the WAL file is cut back
 * to 64 MB.
 */
function startCheckpointer(sqlite: SQLite.Database, file: string): { close(): void } {
  sqlite.pragma("wal_autocheckpoint = 100000");
  sqlite.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
  const worker = new Worker(CHECKPOINTER, {
    eval: true,
    workerData: { module: createRequire(import.meta.url).resolve("better-sqlite3"), file: path.resolve(file), intervalMs: 1000, restartFrames: 4000 },
  });
  worker.unref();
  worker.on("error", () => sqlite.pragma("wal_autocheckpoint = 1000"));
  return { close: () => worker.postMessage("close") };
}

/** SQL text → name of its prepared statement (the same on every connection), at most 2 000. */
const statementNames = new Map<string, string>();
let statementCount = 0;
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;
/**
 * Searches stay unnamed: a generic plan cannot see how rare a pattern is, so the planner walked the
 * name index past thousands of rows for a rare city (26 ms at 100 000) where the pattern's own plan
 * reads the trigram index (3 ms).
 */
const VALUE_DEPENDENT = /\blike \$\d/i;

/**
 * PostgreSQL plans every unnamed statement anew: for our generated SQL that took 2–3 ms a query,
 * more than running it. Queries Kysely sends with parameters go out as named prepared statements
 * instead, so each connection plans a statement once (PostgreSQL may then keep a generic plan). A
 * statement whose cached plan a schema change broke ("cached plan must not change result type") is
 * sent again unnamed and gets a new name for next time.
 */
function preparePlans(client: pg.PoolClient) {
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (config: unknown, values?: unknown, callback?: unknown) => {
    if (typeof config !== "string" || !Array.isArray(values) || !values.length || callback !== undefined || !PREPARABLE.test(config) || VALUE_DEPENDENT.test(config)) return query(config, values, callback);
    let name = statementNames.get(config);
    if (!name && statementNames.size < 2000) statementNames.set(config, (name = `pn_${++statementCount}`));
    if (!name) return query(config, values);
    return query({ name, text: config, values }).catch((error: { code?: string }) => {
      if (error?.code !== "0A000") throw error;
      statementNames.delete(config);
      return query(config, values);
    });
  };
}

/**
 * Kysely prepares every statement anew; better-sqlite3's statements can be run again and again (each
 * run is synchronous, so two never overlap). Keeping the recent ones saves the parse and plan of the
 * same SQL on every request. SQLite re-prepares a kept statement itself after a schema change.
 */
function withStatementCache(sqlite: SQLite.Database, checkpointer?: { close(): void }) {
  const statements = new Map<string, SQLite.Statement>();
  return {
    prepare(source: string) {
      let statement = statements.get(source);
      if (!statement) {
        statement = sqlite.prepare(source);
        if (statements.size >= 500) statements.delete(statements.keys().next().value!);
        statements.set(source, statement);
      }
      return statement;
    },
    close() {
      statements.clear();
      checkpointer?.close();
      sqlite.close();
    },
  };
}

/**
 * The database holds the Squidex client secret and signing key: its folder is the owner's alone
 * (0700) and the file is created 0600 before SQLite opens it (SQLite gives its -wal and -shm files
 * the same mode). A store made by an older version is tightened on start.
 */
export function createPrivateFile(file: string) {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.closeSync(fs.openSync(file, "a", 0o600));
  for (const [target, mode] of [[dir, 0o700], [file, 0o600], [`${file}-wal`, 0o600], [`${file}-shm`, 0o600]] as const) {
    try {
      if (fs.existsSync(target)) fs.chmodSync(target, mode);
    } catch {
      // Not ours to change (a shared mount): the operator decides.
    }
  }
}

/** Who created and last changed a row, and when: the same four columns on every table. */
const withAudit = <T extends CreateTableBuilder<string, never>>(t: T) =>
  t
    .addColumn("created", "text", (c) => c.notNull())
    .addColumn("created_by", "text", (c) => c.notNull())
    .addColumn("last_modified", "text", (c) => c.notNull())
    .addColumn("last_modified_by", "text", (c) => c.notNull()) as T;

const migrations: Record<string, Migration> = {
  "0001_content_model": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("schemas")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull().unique())
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("is_published", "integer", (c) => c.notNull())
        .addColumn("definition", "text", (c) => c.notNull())
        .addColumn("version", "integer", (c) => c.notNull())
        .$call(withAudit)
        .execute();
      await db.schema
        .createTable("contents")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("schema_name", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("new_status", "text")
        .addColumn("version", "integer", (c) => c.notNull())
        .addColumn("data", "text", (c) => c.notNull())
        .addColumn("published_data", "text")
        .$call(withAudit)
        .execute();
      await db.schema.createIndex("contents_schema_status").on("contents").columns(["schema_name", "status"]).execute();
      await db.schema
        .createTable("assets")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("file_name", "text", (c) => c.notNull())
        .addColumn("slug", "text", (c) => c.notNull())
        .addColumn("mime_type", "text", (c) => c.notNull())
        .addColumn("file_size", "integer", (c) => c.notNull())
        .addColumn("file_hash", "text", (c) => c.notNull())
        .addColumn("file_version", "integer", (c) => c.notNull())
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("pixel_width", "integer")
        .addColumn("pixel_height", "integer")
        .addColumn("tags", "text", (c) => c.notNull())
        .addColumn("parent_id", "text", (c) => c.notNull())
        .addColumn("version", "integer", (c) => c.notNull())
        .$call(withAudit)
        .execute();
      await db.schema
        .createTable("app_settings")
        .addColumn("key", "text", (c) => c.primaryKey())
        .addColumn("value", "text", (c) => c.notNull())
        .execute();
    },
  },
};

const BOOKER_FIELDS = ["bookerName", "bookerEmail", "bookerPhone", "bookerNote"] as const;

/**
 * Booker details used to be fields of the appointment item, where every query over contents could
 * reach them. They move to a table of their own; the fields leave the schema and the stored data.
 */
migrations["0002_bookings_beside_slots"] = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("bookings")
      .addColumn("appointment_id", "text", (c) => c.primaryKey())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("phone", "text")
      .addColumn("note", "text")
      .addColumn("created", "text", (c) => c.notNull())
      .execute();
    const rows: Array<{ id: string; data: string; published_data: string | null; last_modified: string }> = await db
      .selectFrom("contents")
      .select(["id", "data", "published_data", "last_modified"])
      .where("schema_name", "=", "gm-appointments")
      .execute();
    const strip = (json: string) => {
      const data = JSON.parse(json) as Record<string, { iv?: unknown }>;
      const found: Record<string, unknown> = {};
      for (const f of BOOKER_FIELDS) {
        if (f in data) found[f] = data[f]?.iv;
        delete data[f];
      }
      return { json: JSON.stringify(data), found };
    };
    for (const row of rows) {
      const draft = strip(row.data);
      const live = row.published_data === null ? null : strip(row.published_data);
      const b = { ...live?.found, ...draft.found };
      if (typeof b.bookerName === "string" || typeof b.bookerEmail === "string") {
        await db
          .insertInto("bookings")
          .values({
            appointment_id: row.id,
            name: String(b.bookerName ?? ""),
            email: String(b.bookerEmail ?? ""),
            phone: typeof b.bookerPhone === "string" ? b.bookerPhone : null,
            note: typeof b.bookerNote === "string" ? b.bookerNote : null,
            created: row.last_modified,
          })
          .execute();
      }
      await db.updateTable("contents").set({ data: draft.json, published_data: live?.json ?? null }).where("id", "=", row.id).execute();
    }
    const schema: { id: string; definition: string } | undefined = await db
      .selectFrom("schemas")
      .select(["id", "definition"])
      .where("name", "=", "gm-appointments")
      .executeTakeFirst();
    if (schema) {
      const def = JSON.parse(schema.definition) as { fields: Array<{ name: string }> };
      def.fields = def.fields.filter((f) => !(BOOKER_FIELDS as readonly string[]).includes(f.name));
      await db.updateTable("schemas").set({ definition: JSON.stringify(def) }).where("id", "=", schema.id).execute();
    }
  },
};

/**
 * On PostgreSQL the documents become jsonb: queries (sql-query.ts) read into them many times per
 * row, and a text column would be parsed again for every one of those reads. SQLite keeps text,
 * which its JSON functions read directly.
 */
migrations["0003_jsonb_documents"] = {
  async up(db: Kysely<any>) {
    const dialect = await sql<{ v: string }>`select version() as v`.execute(db).then(
      (r) => (String(r.rows[0]?.v ?? "").startsWith("PostgreSQL") ? "postgres" : "sqlite"),
      () => "sqlite",
    );
    if (dialect !== "postgres") return;
    await sql`alter table contents alter column data type jsonb using data::jsonb, alter column published_data type jsonb using published_data::jsonb`.execute(db);
  },
};

/** Side tables of the schemas read at size (field-index.ts); the tables themselves follow the schemas. */
migrations["0004_content_indexes"] = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("content_indexes")
      .addColumn("schema_name", "text", (c) => c.primaryKey())
      .addColumn("table_name", "text", (c) => c.notNull())
      .addColumn("signature", "text", (c) => c.notNull())
      .execute();
    // Stores made before: the fields the site reads at size get marked, as the seed now marks them.
    const marks: Record<string, { fields: string[]; slugField?: string }> = {
      "gm-content-practitioners": { fields: ["name", "websites", "languages", "country", "city"], slugField: "name" },
      "gm-appointments": { fields: ["practitioner", "start"] },
    };
    for (const [name, mark] of Object.entries(marks)) {
      const row = await db.selectFrom("schemas").select(["id", "definition"]).where("name", "=", name).executeTakeFirst();
      if (!row) continue;
      const def = JSON.parse(row.definition) as { properties?: Record<string, unknown>; fields: Array<{ name: string; properties: Record<string, unknown> }> };
      for (const f of def.fields) if (mark.fields.includes(f.name)) f.properties.isIndexed = true;
      if (mark.slugField) def.properties = { ...def.properties, slugField: mark.slugField };
      await db.updateTable("schemas").set({ definition: JSON.stringify(def) }).where("id", "=", row.id).execute();
    }
  },
};

/**
 * The visitor flows (issue 9): bookings get their own id, the slot's start (retention), the booker's
 * language and an idempotency key; newsletter subscribers and the mail outbox get tables.
 */
migrations["0005_visitor_flows"] = {
  async up(db: Kysely<any>) {
    for (const column of ["id", "practitioner_id", "starts_at", "language", "idempotency_key"]) {
      await db.schema.alterTable("bookings").addColumn(column, "text").execute();
    }
    await db.schema.createIndex("bookings_id").unique().on("bookings").column("id").execute();
    await db.schema.createIndex("bookings_idempotency_key").unique().on("bookings").column("idempotency_key").execute();
    await db.schema.createIndex("bookings_starts_at").on("bookings").column("starts_at").execute();
    await db.schema
      .createTable("subscribers")
      .addColumn("email", "text", (c) => c.primaryKey())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("language", "text", (c) => c.notNull())
      .addColumn("created", "text", (c) => c.notNull())
      .addColumn("confirmed_at", "text")
      .execute();
    await db.schema.createIndex("subscribers_status_created").on("subscribers").columns(["status", "created"]).execute();
    await db.schema
      .createTable("outbox")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("recipient", "text", (c) => c.notNull())
      .addColumn("subject", "text", (c) => c.notNull())
      .addColumn("text", "text", (c) => c.notNull())
      .addColumn("html", "text", (c) => c.notNull())
      .addColumn("headers", "text", (c) => c.notNull())
      .addColumn("attachments", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("attempts", "integer", (c) => c.notNull())
      .addColumn("next_attempt_at", "text", (c) => c.notNull())
      .addColumn("last_error", "text")
      .addColumn("created", "text", (c) => c.notNull())
      .addColumn("sent_at", "text")
      .execute();
    await db.schema.createIndex("outbox_due").on("outbox").columns(["status", "next_attempt_at"]).execute();
    await db.schema.createIndex("outbox_created").on("outbox").column("created").execute();
  },
};

/**
 * Sign-in and the admin area (issue 10): users, the audit log; indexes for purging sent mail and
 * for the admin's lists of a collection by last change.
 */
migrations["0006_users_audit"] = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("users")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("email", "text", (c) => c.notNull().unique())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("password_hash", "text")
      .addColumn("role", "text", (c) => c.notNull())
      .addColumn("superuser", "integer", (c) => c.notNull())
      .addColumn("language", "text", (c) => c.notNull())
      .addColumn("session_generation", "integer", (c) => c.notNull())
      .addColumn("created", "text", (c) => c.notNull())
      .addColumn("updated", "text", (c) => c.notNull())
      .addColumn("last_sign_in", "text")
      .execute();
    await db.schema
      .createTable("audit_log")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("at", "text", (c) => c.notNull())
      .addColumn("user_id", "text")
      .addColumn("user_email", "text", (c) => c.notNull())
      .addColumn("action", "text", (c) => c.notNull())
      .addColumn("schema_name", "text")
      .addColumn("item_id", "text")
      .addColumn("version", "integer")
      .addColumn("detail", "text")
      .execute();
    await db.schema.createIndex("audit_log_at").on("audit_log").columns(["at", "id"]).execute();
    await db.schema.createIndex("audit_log_item").on("audit_log").columns(["schema_name", "item_id", "at"]).execute();
    await db.schema.createIndex("outbox_sent_at").on("outbox").columns(["status", "sent_at"]).execute();
    // The admin lists: every item of a collection (drafts too), newest change first, a page at a time.
    await db.schema.createIndex("contents_schema_last_modified").on("contents").columns(["schema_name", "last_modified", "id"]).execute();
  },
};

/**
 * Asset folders (named, nested, as Squidex has them) and the index the asset library pages by: the
 * assets of one folder, newest change first.
 */
migrations["0007_asset_folders"] = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("asset_folders")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("parent_id", "text", (c) => c.notNull())
      .addColumn("folder_name", "text", (c) => c.notNull())
      .addColumn("version", "integer", (c) => c.notNull())
      .addColumn("created", "text", (c) => c.notNull())
      .addColumn("created_by", "text", (c) => c.notNull())
      .addColumn("last_modified", "text", (c) => c.notNull())
      .addColumn("last_modified_by", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("asset_folders_parent_name").on("asset_folders").columns(["parent_id", "folder_name"]).execute();
    await db.schema.createIndex("assets_parent_last_modified").on("assets").columns(["parent_id", "last_modified", "id"]).execute();
  },
};

/**
 * Signing out ends the session on the server (issue 20): a row per signed-out session id until the
 * session could have expired anyway (decision record 0015). The index serves the hourly purge.
 */
migrations["0008_ended_sessions"] = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("ended_sessions")
      .addColumn("sid", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull())
      .addColumn("expires", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("ended_sessions_expires").on("ended_sessions").column("expires").execute();
  },
};

/**
 * The stamp of the live data (issue 20, finding 10a): visitors read `published_data` but got the
 * row's version and last change, which a pending draft moves on. Items published before this
 * migration get the row's stamp: exact unless a draft was pending then.
 */
migrations["0009_published_stamp"] = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable("contents").addColumn("published_version", "integer").execute();
    await db.schema.alterTable("contents").addColumn("published_last_modified", "text").execute();
    await db.schema.alterTable("contents").addColumn("published_last_modified_by", "text").execute();
    await db
      .updateTable("contents")
      .set((eb: any) => ({ published_version: eb.ref("version"), published_last_modified: eb.ref("last_modified"), published_last_modified_by: eb.ref("last_modified_by") }))
      .where("published_data", "is not", null)
      .execute();
    // Visitors' lists are newest first by default (sql-query.ts reads the live stamp with a fallback): the
    // same index as contents_schema_last_modified serves, on that expression.
    await sql`create index contents_schema_published_modified on contents (schema_name, (coalesce(published_last_modified, last_modified)), id)`.execute(db);
  },
};

/**
 * The page editor's version history (issue "Version history"): one row per kept version of a page's
 * blocks and title (editor/history.server.ts). An integer key that grows with every row gives the
 * order (two saves in one millisecond still sort), and the index serves a page's newest first.
 */
migrations["0010_page_history"] = {
  async up(db: Kysely<any>) {
    const dialect = await sql<{ v: string }>`select version() as v`.execute(db).then(
      (r) => (String(r.rows[0]?.v ?? "").startsWith("PostgreSQL") ? "postgres" : "sqlite"),
      () => "sqlite",
    );
    await db.schema
      .createTable("page_history")
      .addColumn("id", dialect === "postgres" ? "serial" : "integer", (c) => (dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn("page_id", "text", (c) => c.notNull())
      .addColumn("version", "integer", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("blocks", "text", (c) => c.notNull())
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("by_actor", "text", (c) => c.notNull())
      .addColumn("at", "text", (c) => c.notNull())
      .execute();
    await sql`create index page_history_page_id on page_history (page_id, id desc)`.execute(db);
  },
};

/** Runs the migrations not yet applied, all of them or up to and including `target` (tests). */
export async function migrate(db: DB, target?: string): Promise<string[]> {
  // On PostgreSQL, Kysely looks for its migration tables in every schema of the database; name ours,
  // or another store in the same database (tests, a second site) makes it skip creating them.
  const schema = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db).catch(() => undefined);
  const migrationTableSchema = schema?.rows[0]?.schema ?? undefined;
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, ...(migrationTableSchema ? { migrationTableSchema } : {}) });
  const { error, results } = target ? await migrator.migrateTo(target) : await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/**
 * Two features of the page editor (migration 0011; kept apart from 0010 so each stands alone):
 * who else has a page open in edit mode, and selections of blocks saved as reusable templates.
 * Declared after `migrate` only to keep it apart from the migrations above in the text; the
 * migrator reads the table when it runs, in name order.
 */
migrations["0011_editor_presence"] = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("editor_presence")
      .addColumn("page_id", "text", (c) => c.notNull())
      .addColumn("user_id", "text", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("seen_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("editor_presence_pk", ["page_id", "user_id"])
      .execute();
    // The purge of rows nobody refreshed any more.
    await db.schema.createIndex("editor_presence_seen_at").on("editor_presence").column("seen_at").execute();
    await db.schema
      .createTable("editor_templates")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("blocks", "text", (c) => c.notNull())
      .addColumn("block_count", "integer", (c) => c.notNull())
      .addColumn("created_by", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    // The list: newest first.
    await db.schema.createIndex("editor_templates_created_at").on("editor_templates").columns(["created_at", "id"]).execute();
  },
};

/**
 * The audit screen filters by who and by what was done, newest first (its paging is keyset on
 * `at, id`): without these, a filter on a long log reads the whole table to find one person's rows.
 */
migrations["0012_audit_filters"] = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex("audit_log_user").on("audit_log").columns(["user_id", "at", "id"]).execute();
    await db.schema.createIndex("audit_log_action").on("audit_log").columns(["action", "at", "id"]).execute();
  },
};

/**
 * "Who references this item" (Squidex's referencing, issue 23) without reading every document: the
 * ids each item references, in a table of their own with an index by target. Filled here from the
 * stored items; from now on the store writes an item's rows with the item (store.ts, syncReferences).
 */
migrations["0013_content_references"] = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("content_references")
      .addColumn("source_id", "text", (c) => c.notNull())
      .addColumn("live", "integer", (c) => c.notNull())
      .addColumn("target_id", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("content_references_pk", ["source_id", "live", "target_id"])
      .execute();
    await db.schema.createIndex("content_references_target").on("content_references").columns(["target_id", "live", "source_id"]).execute();
    const schemas = new Map<string, { id: string; name: string; fields: any[] }>();
    for (const row of await db.selectFrom("schemas").select(["id", "name", "definition"]).execute()) {
      const def = JSON.parse(row.definition) as { fields?: any[] };
      schemas.set(row.name, { id: row.id, name: row.name, fields: def.fields ?? [] });
    }
    const components = (ref: string) => schemas.get(ref) ?? [...schemas.values()].find((s) => s.id === ref);
    let after = "";
    for (;;) {
      const rows = await db.selectFrom("contents").select(["id", "schema_name", "data", "published_data"]).where("id", ">", after).orderBy("id").limit(1000).execute();
      if (!rows.length) break;
      after = rows[rows.length - 1]!.id;
      const refs: Array<{ source_id: string; live: number; target_id: string }> = [];
      for (const row of rows) {
        const schema = schemas.get(row.schema_name);
        if (!schema) continue;
        for (const [live, data] of [[0, row.data], [1, row.published_data]] as const) {
          if (data === null) continue;
          for (const target of referencedIds(schema, readJsonColumn(data), components)) refs.push({ source_id: row.id, live, target_id: target });
        }
      }
      for (let i = 0; i < refs.length; i += 5000) await db.insertInto("content_references").values(refs.slice(i, i + 5000)).execute();
    }
  },
};

/**
 * Privacy-friendly analytics (issue 24, decision 0029): daily aggregates only. The visitor tables
 * hold a salted hash of the day (never an address or user agent) and are purged when the day ends.
 */
migrations["0014_analytics"] = {
  async up(db: Kysely<any>) {
    await db.schema.createTable("analytics_salts").addColumn("day", "text", (c) => c.primaryKey()).addColumn("salt", "text", (c) => c.notNull()).execute();
    await db.schema
      .createTable("analytics_visitors")
      .addColumn("day", "text", (c) => c.notNull())
      .addColumn("hash", "text", (c) => c.notNull())
      // Epoch seconds: past 2038 on PostgreSQL too.
      .addColumn("last_seen", "bigint", (c) => c.notNull())
      .addColumn("visit_pageviews", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("analytics_visitors_pk", ["day", "hash"])
      .execute();
    await db.schema
      .createTable("analytics_seen")
      .addColumn("day", "text", (c) => c.notNull())
      .addColumn("hash", "text", (c) => c.notNull())
      .addColumn("dim", "text", (c) => c.notNull())
      .addColumn("value", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("analytics_seen_pk", ["day", "hash", "dim", "value"])
      .execute();
    const counts = ["visitors", "pageviews", "visits", "bounces", "visit_seconds", "events"] as const;
    let daily = db.schema.createTable("analytics_daily").addColumn("day", "text", (c) => c.primaryKey());
    for (const name of counts) daily = daily.addColumn(name, "integer", (c) => c.notNull().defaultTo(0));
    await daily.execute();
    let breakdown = db.schema
      .createTable("analytics_breakdown")
      .addColumn("dim", "text", (c) => c.notNull())
      .addColumn("day", "text", (c) => c.notNull())
      .addColumn("value", "text", (c) => c.notNull());
    for (const name of ["visitors", "pageviews", "visits", "events"]) breakdown = breakdown.addColumn(name, "integer", (c) => c.notNull().defaultTo(0));
    await breakdown.addPrimaryKeyConstraint("analytics_breakdown_pk", ["dim", "day", "value"]).execute();
    await db.schema
      .createTable("analytics_props")
      .addColumn("day", "text", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("prop", "text", (c) => c.notNull())
      .addColumn("value", "text", (c) => c.notNull())
      .addColumn("events", "integer", (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint("analytics_props_pk", ["day", "name", "prop", "value"])
      .execute();
    await db.schema
      .createTable("analytics_revenue")
      .addColumn("day", "text", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("currency", "text", (c) => c.notNull())
      .addColumn("events", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("amount", "double precision", (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint("analytics_revenue_pk", ["day", "name", "currency"])
      .execute();
  },
};

/**
 * Scheduled status changes (issue 23, Squidex's ScheduleJob): a table beside the contents, so that
 * every app node's scheduler can claim due jobs with one conditional UPDATE (scheduler.ts). Numbered
 * 0015: 0014 belongs to other work.
 */
migrations["0015_schedules"] = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("content_schedules")
      .addColumn("content_id", "text", (c) => c.primaryKey())
      .addColumn("schema_name", "text", (c) => c.notNull())
      .addColumn("job_id", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("due_time", "text", (c) => c.notNull())
      .addColumn("scheduled_by", "text", (c) => c.notNull())
      .addColumn("principal", "text", (c) => c.notNull())
      .addColumn("created", "text", (c) => c.notNull())
      .addColumn("next_attempt_at", "text", (c) => c.notNull())
      .addColumn("claimed_by", "text")
      .addColumn("claimed_at", "text")
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("last_error", "text")
      .execute();
    // What a scheduler's tick asks: the jobs whose time has come.
    await db.schema.createIndex("content_schedules_next").on("content_schedules").columns(["next_attempt_at", "content_id"]).execute();
  },
};

/**
 * SQL functions queries use, made from the code's own tables at every start (so they always match
 * it). Several app nodes may start at once: a lost race means another node just made the same one.
 */
export async function createPostgresFunctions(db: DB): Promise<void> {
  try {
    await sql.raw(postgresFoldFunction()).execute(db);
  } catch (error) {
    const exists = await sql<{ n: number }>`select count(*)::int as n from pg_proc where proname = 'pn_fold'`.execute(db);
    if (!exists.rows[0]?.n) throw error;
  }
}

export async function ping(db: DB): Promise<void> {
  await sql`select 1`.execute(db);
}

/** A JSON column as read: text from SQLite, already parsed from PostgreSQL's jsonb. */
export function readJsonColumn(value: unknown): unknown {
  return typeof value === "string" ? JSON.parse(value) : value;
}

/**
 * Proof of consent: when a visitor chose, which version of the banner's text they saw, and what
 * they allowed. The record's id is in their consent cookie; no address, agent or other personal
 * data is kept (issue 24).
 */
migrations["0016_consent_records"] = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("consent_records")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("at", "text", (c) => c.notNull())
      .addColumn("text_version", "text", (c) => c.notNull())
      .addColumn("categories", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("consent_records_at").on("consent_records").columns(["at"]).execute();
  },
};

/**
 * Squidex's asset annotations beyond name and tags (issue 23): `metadata` (a flat JSON object),
 * `is_protected` (the file only for a session or a token), and an index on `slug`, by which
 * `api/assets/{app}/{idOrSlug}` finds a file when the segment is no id. One column per statement:
 * SQLite adds one at a time; both SQLite and PostgreSQL fill existing rows with the default.
 */
migrations["0017_asset_annotations"] = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable("assets").addColumn("metadata", "text", (c) => c.notNull().defaultTo("{}")).execute();
    await db.schema.alterTable("assets").addColumn("is_protected", "integer", (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.createIndex("assets_slug").on("assets").columns(["slug", "created", "id"]).execute();
  },
};
