import type { Database, DB } from "~/content/db";
import { auditRow } from "~/content/audit";
import type { User } from "./users.server";

/** One change, as the audit log keeps it. */
export interface AuditEntry {
  id: string;
  at: string;
  userId: string | null;
  userEmail: string;
  action: string;
  schema: string | null;
  itemId: string | null;
  version: number | null;
  detail: string | null;
}

export interface AuditRecord {
  action: string;
  schema?: string | null;
  itemId?: string | null;
  version?: number | null;
  /** A short note (a new slug, a user's address); never a password, never booker data. */
  detail?: string | null;
}

export const AUDIT_PAGE_SIZE = 50;

/** Which entries: all filters together; `since`/`until` are ISO instants (until exclusive). */
export interface AuditQuery {
  before?: { at: string; id: string };
  limit?: number;
  schema?: string;
  itemId?: string;
  userId?: string;
  action?: string;
  since?: string;
  until?: string;
}

const toEntry = (r: Database["audit_log"]): AuditEntry => ({
  id: r.id,
  at: r.at,
  userId: r.user_id,
  userEmail: r.user_email,
  action: r.action,
  schema: r.schema_name,
  itemId: r.item_id,
  version: r.version === null ? null : Number(r.version),
  detail: r.detail,
});

/** Who changed what and when: written by every admin mutation, read by superusers. */
export class AuditLog {
  constructor(private readonly db: DB) {}

  async record(user: Pick<User, "id" | "email"> | null, entry: AuditRecord): Promise<void> {
    await this.db
      .insertInto("audit_log")
      .values(auditRow({ userId: user?.id ?? null, email: user?.email ?? "system" }, entry))
      .execute();
  }

  /** Newest first, a page at a time (keyset: `before` is the last entry of the previous page). */
  async list(opts: AuditQuery = {}): Promise<AuditEntry[]> {
    const limit = Math.min(Math.max(opts.limit ?? AUDIT_PAGE_SIZE, 1), 200);
    let q = this.db.selectFrom("audit_log").selectAll();
    if (opts.schema) q = q.where("schema_name", "=", opts.schema);
    if (opts.itemId) q = q.where("item_id", "=", opts.itemId);
    if (opts.userId) q = q.where("user_id", "=", opts.userId);
    if (opts.action) q = q.where("action", "=", opts.action);
    if (opts.since) q = q.where("at", ">=", opts.since);
    if (opts.until) q = q.where("at", "<", opts.until);
    const before = opts.before;
    if (before) q = q.where((eb) => eb.or([eb("at", "<", before.at), eb.and([eb("at", "=", before.at), eb("id", "<", before.id)])]));
    const rows = await q.orderBy("at", "desc").orderBy("id", "desc").limit(limit).execute();
    return rows.map(toEntry);
  }
}
