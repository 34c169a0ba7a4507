import { randomUUID } from "node:crypto";
import type { Database, DB } from "./db";
import type { Principal } from "./policy";
import type { AuditNote } from "./types";

type AuditRow = Database["audit_log"];

/** Who an audit row names: a person by id and address, a client token by its client id. */
export function auditor(principal: Principal): { userId: string | null; email: string } {
  if (principal.kind === "user") return { userId: principal.userId, email: principal.email };
  if (principal.kind === "client") return { userId: null, email: `client:${principal.clientId}` };
  return { userId: null, email: "visitor" };
}

export interface AuditFact {
  action: string;
  schema?: string | null;
  itemId?: string | null;
  version?: number | null;
  detail?: string | null;
}

let written = 0;

/**
 * An audit row's id sorts in the order this process wrote its rows: lists order by (at, id), and
 * several rows are often written in the same millisecond (an item's creation and its schedule).
 * The millisecond first keeps ids of different nodes roughly in time order; the random tail keeps
 * them unique across nodes.
 */
export function auditId(now = Date.now()): string {
  written = (written + 1) % 36 ** 6;
  return `${now.toString(36).padStart(9, "0")}-${written.toString(36).padStart(6, "0")}-${randomUUID().slice(0, 8)}`;
}

export function auditRow(who: { userId: string | null; email: string }, fact: AuditFact, at = new Date().toISOString()): AuditRow {
  return {
    id: auditId(),
    at,
    user_id: who.userId,
    user_email: who.email.slice(0, 320),
    action: fact.action.slice(0, 100),
    schema_name: fact.schema ?? null,
    item_id: fact.itemId ?? null,
    version: fact.version ?? null,
    detail: fact.detail ? fact.detail.slice(0, 500) : null,
  };
}

/**
 * Writes what `by` did, on `db` (the write's own transaction where there is one, so the change and
 * its audit line are kept together or not at all). A caller's note names the action in its words.
 */
export async function recordWrites(db: DB, by: Principal, action: string, schema: string | null, items: ReadonlyArray<{ id: string; version: number | null }>, note?: AuditNote): Promise<void> {
  if (!items.length) return;
  const who = auditor(by);
  const at = new Date().toISOString();
  const rows = items.map((item) => auditRow(who, { action: note?.action ?? action, schema, itemId: item.id, version: item.version, detail: note?.detail ?? null }, at));
  // 9 values a row; SQLite takes 32 766 bound values per statement.
  for (let i = 0; i < rows.length; i += 2000) await db.insertInto("audit_log").values(rows.slice(i, i + 2000)).execute();
}
