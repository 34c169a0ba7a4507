import path from "node:path";
import Database from "better-sqlite3";

/**
 * The error better-sqlite3 throws when another connection holds the write lock past the wait: made
 * for real in a SQLite file under `dir` (one connection holds `begin immediate`, a second one without
 * a busy timeout asks for it too), so error mappings are tested with the driver's own error.
 */
export function realBusyError(dir: string): unknown {
  const file = path.join(dir, "busy.sqlite");
  const holder = new Database(file);
  holder.pragma("journal_mode = WAL");
  const waiter = new Database(file);
  waiter.pragma("busy_timeout = 0");
  try {
    holder.exec("begin immediate");
    waiter.exec("begin immediate");
    return undefined;
  } catch (error) {
    return error;
  } finally {
    if (holder.inTransaction) holder.exec("rollback");
    holder.close();
    waiter.close();
  }
}
