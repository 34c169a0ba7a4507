import { randomUUID } from "node:crypto";
import type { DB } from "~/content/db";

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

/** A message as stored (admin list, tests). */
export interface OutboxEntry extends Required<MailMessage> {
  id: string;
  status: "pending" | "sent" | "failed";
  attempts: number;
  nextAttemptAt: string;
  lastError: string | null;
  created: string;
  sentAt: string | null;
}

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

  /** The newest messages first, optionally only those to one address or of one kind. */
  async list(opts: { to?: string; kind?: string; limit?: number } = {}): Promise<OutboxEntry[]> {
    let q = this.db.selectFrom("outbox").selectAll().orderBy("created", "desc").orderBy("id").limit(Math.min(opts.limit ?? 50, 500));
    if (opts.to) q = q.where("recipient", "=", opts.to);
    if (opts.kind) q = q.where("kind", "=", opts.kind);
    const rows = await q.execute();
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      to: r.recipient,
      subject: r.subject,
      text: r.text,
      html: r.html,
      headers: JSON.parse(r.headers) as Record<string, string>,
      attachments: JSON.parse(r.attachments) as MailMessage["attachments"] & object,
      status: r.status,
      attempts: Number(r.attempts),
      nextAttemptAt: r.next_attempt_at,
      lastError: r.last_error,
      created: r.created,
      sentAt: r.sent_at,
    }));
  }
}
