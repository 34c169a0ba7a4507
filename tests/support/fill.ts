import type Database from "better-sqlite3";

/** A value in Squidex's invariant-language shape. */
export const iv = <T,>(value: T) => ({ iv: value });

/**
 * Writes published items straight into a stopped server's SQLite file, far faster than the API (for
 * size tests). Returns `put(id, schema, data)`; call `done()` after the last one: it drops the side
 * tables, which the store then makes anew from the items at its next start.
 */
export function publishedWriter(db: Database.Database) {
  const now = new Date().toISOString();
  const insert = db.prepare(
    "insert into contents (id, schema_name, status, new_status, version, data, published_data, created, created_by, last_modified, last_modified_by) values (?, ?, 'Published', null, 1, ?, ?, ?, 'client:test', ?, 'client:test')",
  );
  return {
    put(id: string, schema: string, data: Record<string, unknown>) {
      const json = JSON.stringify(data);
      insert.run(id, schema, json, json, now, now);
    },
    done() {
      db.prepare("delete from content_indexes").run();
    },
  };
}
