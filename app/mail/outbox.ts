import { randomUUID } from "node:crypto";
import type { Database, DB } from "~/content/db";
import { EDITOR_MAIL_KIND_PREFIXES, mayReadKind, readableEntry, type MailReader } from "./readers";

/** One mail, as the flows hand it over: already rendered in the recipient's language. */
export interface MailMessage {
  /** What it is (booking-confirmation, newsletter-confirm, …): shown in admin, read by tests. */
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
  attachments?: Array<{ filename: string; contentType: string; content: string }>;
}

export type OutboxStatus = Database["outbox"]["status"];

/** A message as stored (admin list, tests). */
export interface OutboxEntry extends Required<MailMessage> {
  id: string;
  status: OutboxStatus;
  attempts: number;
  nextAttemptAt: string;
  lastError: string | null;
  created: string;
  sentAt: string | null;
}

/**
 * A message one sender holds: `lease` is the `next_attempt_at` it wrote when claiming. Only the holder
 * of that value may record the outcome, so a sender whose lease ran out cannot overwrite the result
 * of the one that took the message over.
 */
export interface OutboxClaim {
  entry: OutboxEntry;
  lease: string;
}

export interface OutboxListOptions {
  to?: string;
  kind?: string;
  status?: OutboxStatus;
  limit?: number;
  before?: { created: string; id: string };
}

/** last_error is for editors to read, not a log: one line, bounded. */
const MAX_ERROR_LENGTH = 300;
/** Due messages read per claim round: enough that a sender losing a race tries the next at once. */
const CLAIM_CANDIDATES = 10;

/**
 * Every mail goes into the outbox table first (in the caller's transaction when it has one), so a
 * failing SMTP server never loses a message: delivery happens from the table, with retries.
 */
export class Outbox {
  constructor(private readonly db: DB) {}

  /** Stores `message` for delivery; `db` may be a transaction, so the mail exists exactly when the change that caused it does. */
  async enqueue(message: MailMessage, db: DB = this.db, now = new Date()): Promise<string> {
    const id = randomUUID();
    await db
      .insertInto("outbox")
      .values({
        id,
        kind: message.kind,
        recipient: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        headers: JSON.stringify(message.headers ?? {}),
        attachments: JSON.stringify(message.attachments ?? []),
        status: "pending",
        attempts: 0,
        next_attempt_at: now.toISOString(),
        last_error: null,
        created: now.toISOString(),
        sent_at: null,
      })
      .execute();
    return id;
  }

  /**
   * The newest messages first, optionally only those to one address, of one kind or in one state.
   * `before` pages on (keyset): only messages that come after that one in this order, so page n
   * costs what page 1 does however long the outbox is. At most 500 a call. The messages as stored,
   * live links and all: for the flows and tests. People read through `listFor`.
   */
  async list(opts: OutboxListOptions = {}): Promise<OutboxEntry[]> {
    return (await this.select(opts).execute()).map(toEntry);
  }

  /** One message as stored, live links and all (delivery, tests). People read through `getFor`. */
  async get(id: string): Promise<OutboxEntry | undefined> {
    const row = await this.db.selectFrom("outbox").selectAll().where("id", "=", id).executeTakeFirst();
    return row && toEntry(row);
  }

  /** `list` as `reader` may see it: only the kinds it may read, every link secret masked (./readers.ts). */
  async listFor(reader: MailReader, opts: OutboxListOptions = {}): Promise<OutboxEntry[]> {
    let q = this.select(opts);
    // In the query, not after it: a page of 50 stays 50, and keyset paging stays exact.
    if (!reader.superuser) q = q.where((eb) => eb.or(EDITOR_MAIL_KIND_PREFIXES.map((prefix) => eb("kind", "like", `${prefix}%`))));
    return (await q.execute()).map(toEntry).filter((entry) => mayReadKind(reader, entry.kind)).map(readableEntry);
  }

  /**
   * How many messages `reader` may see are in `status` (the dashboard's failed mails): a count over
   * the (status, next_attempt_at) index, with the kind rule of `listFor`, so an editor counts only
   * what the outbox screen shows them.
   */
  async countFor(reader: MailReader, status: OutboxStatus): Promise<number> {
    let q = this.db.selectFrom("outbox").select((eb) => eb.fn.countAll<number | string>().as("n")).where("status", "=", status);
    if (!reader.superuser) q = q.where((eb) => eb.or(EDITOR_MAIL_KIND_PREFIXES.map((prefix) => eb("kind", "like", `${prefix}%`))));
    return Number((await q.executeTakeFirstOrThrow()).n);
  }

  /** `get` as `reader` may see it: undefined for a kind it may not read, as for one that does not exist. */
  async getFor(reader: MailReader, id: string): Promise<OutboxEntry | undefined> {
    const entry = await this.get(id);
    return entry && mayReadKind(reader, entry.kind) ? readableEntry(entry) : undefined;
  }

  private select(opts: OutboxListOptions) {
    let q = this.db.selectFrom("outbox").selectAll().orderBy("created", "desc").orderBy("id").limit(Math.min(opts.limit ?? 50, 500));
    const before = opts.before;
    if (before) q = q.where((eb) => eb.or([eb("created", "<", before.created), eb.and([eb("created", "=", before.created), eb("id", ">", before.id)])]));
    if (opts.to) q = q.where("recipient", "=", opts.to);
    if (opts.kind) q = q.where("kind", "=", opts.kind);
    if (opts.status) q = q.where("status", "=", opts.status);
    return q;
  }

  /**
   * Takes the oldest due message for one delivery attempt, or `undefined` when none is due. Several
   * app nodes share the table, so taking is a conditional UPDATE that moves `next_attempt_at` to
   * `leaseUntil`: it changes the row only while the row is still pending with the due time this
   * sender read. Of two senders racing for a row exactly one changes it (PostgreSQL re-checks the
   * condition after the other's commit, SQLite runs writes one at a time); the loser tries the next.
   * Until the lease runs out nobody else sees the row as due, so a node that dies while sending
   * leaves the message to be retried after the lease.
   */
  async claimNext(now: Date, leaseUntil: Date): Promise<OutboxClaim | undefined> {
    const nowIso = now.toISOString();
    const lease = leaseUntil.toISOString();
    if (lease <= nowIso) throw new Error("the lease must end after now");
    // Bounded: every lost race means another sender took a message, so this ends when the due ones are gone.
    for (let round = 0; round < 20; round++) {
      const due = await this.db
        .selectFrom("outbox")
        .select(["id", "next_attempt_at"])
        .where("status", "=", "pending")
        .where("next_attempt_at", "<=", nowIso)
        .orderBy("next_attempt_at")
        .orderBy("id")
        .limit(CLAIM_CANDIDATES)
        .execute();
      if (!due.length) return undefined;
      for (const candidate of due) {
        const result = await this.db
          .updateTable("outbox")
          .set({ next_attempt_at: lease })
          .where("id", "=", candidate.id)
          .where("status", "=", "pending")
          .where("next_attempt_at", "=", candidate.next_attempt_at)
          .executeTakeFirst();
        if (result.numUpdatedRows !== 1n) continue;
        const entry = await this.get(candidate.id);
        if (entry) return { entry, lease };
      }
    }
    return undefined;
  }

  /** Records a delivered message; false when the claim was no longer this sender's (its lease ran out). */
  async markSent(claim: OutboxClaim, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable("outbox")
      .set({ status: "sent", sent_at: now.toISOString(), attempts: claim.entry.attempts + 1, last_error: null })
      .where("id", "=", claim.entry.id)
      .where("status", "=", "pending")
      .where("next_attempt_at", "=", claim.lease)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /**
   * Records a failed attempt: the message waits until `retryAt`, or, with `retryAt` null, stays in the
   * table as failed for editors to see (and requeue). False when the claim was no longer this sender's.
   */
  async markFailed(claim: OutboxClaim, error: string, now: Date, retryAt: Date | null): Promise<boolean> {
    const result = await this.db
      .updateTable("outbox")
      .set({
        status: retryAt ? "pending" : "failed",
        attempts: claim.entry.attempts + 1,
        last_error: error.replace(/\s+/g, " ").trim().slice(0, MAX_ERROR_LENGTH) || "unknown error",
        next_attempt_at: (retryAt ?? now).toISOString(),
      })
      .where("id", "=", claim.entry.id)
      .where("status", "=", "pending")
      .where("next_attempt_at", "=", claim.lease)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /** An editor's "send again" for a failed message: pending, due now, with a fresh count of attempts. */
  async requeue(id: string, now = new Date()): Promise<boolean> {
    const result = await this.db
      .updateTable("outbox")
      .set({ status: "pending", attempts: 0, next_attempt_at: now.toISOString() })
      .where("id", "=", id)
      .where("status", "=", "failed")
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /**
   * Data minimisation: deletes delivered mail sent more than `olderThanDays` days ago and returns how
   * many went. Pending and failed messages stay: they are not done, and nothing vanishes unseen.
   */
  async purgeSent(olderThanDays: number, now = new Date()): Promise<number> {
    if (!Number.isFinite(olderThanDays) || olderThanDays < 0) throw new Error(`purgeSent: invalid age ${olderThanDays}`);
    const cutoff = new Date(now.getTime() - olderThanDays * 24 * 60 * 60 * 1000).toISOString();
    const result = await this.db.deleteFrom("outbox").where("status", "=", "sent").where("sent_at", "<", cutoff).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

function toEntry(r: Database["outbox"]): OutboxEntry {
  return {
    id: r.id,
    kind: r.kind,
    to: r.recipient,
    subject: r.subject,
    text: r.text,
    html: r.html,
    headers: JSON.parse(r.headers) as Record<string, string>,
    attachments: JSON.parse(r.attachments) as MailMessage["attachments"] & object,
    status: r.status,
    // PostgreSQL drivers may hand integers over as strings.
    attempts: Number(r.attempts),
    nextAttemptAt: r.next_attempt_at,
    lastError: r.last_error,
    created: r.created,
    sentAt: r.sent_at,
  };
}
