import { createHash, randomUUID } from "node:crypto";
import { sql } from "kysely";
import type pg from "pg";
import type { Logger } from "~/lib/logger.server";
import type { ContentChange, ContentStore } from "./store";

/**
 * The notification channel of the store in `schema` (its PostgreSQL schema, `current_schema()`).
 * Channels belong to the whole database, so two sites in two schemas of one database (or two test
 * runs) would otherwise empty each other's caches with every change. A hash keeps the name a plain
 * identifier of fixed length whatever the schema is called.
 */
export function feedChannel(schema: string | null): string {
  return `praxisnetz_changes_${createHash("sha256").update(schema ?? "").digest("hex").slice(0, 16)}`;
}

/**
 * Tells the other app nodes on the same PostgreSQL database about content changes (LISTEN/NOTIFY),
 * so every node empties its caches at once, not when their entries expire. A lost connection is
 * re-opened with backoff; meanwhile the caches' TTL still bounds how stale a node can be.
 */
export async function startChangeFeed(store: ContentStore, databaseUrl: string, logger: Logger): Promise<{ close(): Promise<void> }> {
  const { default: pg } = await import("pg");
  const node = randomUUID();
  const schema = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(store.db).then((r) => r.rows[0]?.schema ?? null);
  const channel = feedChannel(schema);
  let client: pg.Client | null = null;
  let closed = false;
  let delay = 500;

  const retry = (reason: string, error?: unknown) => {
    if (closed) return;
    logger.warn({ err: error, retryMs: delay }, `change feed ${reason}; reconnecting`);
    setTimeout(() => void connect(), delay).unref();
    delay = Math.min(delay * 2, 30_000);
  };

  const connect = async () => {
    if (closed) return;
    const next = new pg.Client({ connectionString: databaseUrl });
    let live = false;
    next.on("error", () => {});
    next.on("end", () => {
      if (live) retry("disconnected");
      live = false;
    });
    next.on("notification", (message) => {
      try {
        const { from, changes } = JSON.parse(message.payload ?? "{}") as { from: string; changes: ContentChange[] };
        if (from !== node) for (const change of changes) store.applyRemoteChange(change);
      } catch (error) {
        logger.warn({ err: error }, "change feed: unreadable notification");
      }
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
      live = true;
      client = next;
      delay = 500;
      // Whatever changed while we were away: start clean.
      store.applyRemoteChange({ kind: "content", id: "*" });
    } catch (error) {
      await next.end().catch(() => {});
      retry("cannot listen", error);
    }
  };

  // The changes of one turn of the event loop go out together: one notification (of at most ~7 KB,
  // under PostgreSQL's 8 000-byte limit) instead of one query per write.
  let queued: ContentChange[] = [];
  const send = () => {
    const changes = queued;
    queued = [];
    for (const batch of batches(changes, node)) {
      void sql`select pg_notify(${channel}, ${batch})`.execute(store.db).catch((error) => logger.warn({ err: error }, "change feed: notify failed"));
    }
  };
  const unsubscribe = store.onChange((change) => {
    if (change.remote) return;
    if (!queued.length) setImmediate(send);
    queued.push(change);
  });
  await connect();
  return {
    async close() {
      closed = true;
      unsubscribe();
      await client?.end().catch(() => {});
    },
  };
}

/** Notification payloads `{from, changes}` for `changes`, each under 7 000 bytes. */
export function batches(changes: readonly ContentChange[], from: string): string[] {
  const out: string[] = [];
  let current: ContentChange[] = [];
  let size = 0;
  for (const change of changes) {
    const length = Buffer.byteLength(JSON.stringify(change)) + 1;
    if (current.length && size + length > 6800) {
      out.push(JSON.stringify({ from, changes: current }));
      current = [];
      size = 0;
    }
    current.push(change);
    size += length;
  }
  if (current.length) out.push(JSON.stringify({ from, changes: current }));
  return out;
}
