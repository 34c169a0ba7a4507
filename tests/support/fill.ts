import path from "node:path";
import Database from "better-sqlite3";
import { startServer, tempDataDir, type RunningServer } from "./server";

/** A value in Squidex's invariant-language shape. */
export const iv = <T,>(value: T) => ({ iv: value });

/** Writes one published item straight into the store's table. */
export type PutPublished = (id: string, schema: string, data: Record<string, unknown>) => void;

/**
 * A server on a store with many more items than the API could write in a test's time: the demo store
 * is created by a first start, `fill` writes into its SQLite file (in one transaction; it may read the
 * seeded rows through `db`), the side tables are dropped — the store makes them anew from the items —
 * and the server starts again on it.
 */
export async function startFilledServer(fill: (put: PutPublished, db: Database.Database) => void): Promise<RunningServer> {
  const dataDir = tempDataDir();
  await (await startServer({ dataDir })).stop();
  const db = new Database(path.join(dataDir, "praxisnetz.sqlite"));
  try {
    const now = new Date().toISOString();
    const insert = db.prepare(
      "insert into contents (id, schema_name, status, new_status, version, data, published_data, created, created_by, last_modified, last_modified_by) values (?, ?, 'Published', null, 1, ?, ?, ?, 'client:test', ?, 'client:test')",
    );
    const put: PutPublished = (id, schema, data) => {
      const json = JSON.stringify(data);
      insert.run(id, schema, json, json, now, now);
    };
    db.transaction(() => fill(put, db))();
    db.prepare("delete from content_indexes").run();
  } finally {
    db.close();
  }
  return startServer({ dataDir });
}
