import { ContentError } from "~/content/errors";
import type { OutboxStatus } from "~/mail/outbox";

/**
 * The outbox screen's URL (`?status=…&limit=…&id=…`), checked: the outbox lists the newest
 * messages up to a limit, so "more" means a bigger limit, in fixed steps up to the outbox's 500.
 */

export const OUTBOX_STATUSES = ["pending", "sent", "failed"] as const satisfies readonly OutboxStatus[];
export const OUTBOX_LIMITS = [50, 100, 200, 500] as const;

export interface OutboxParams {
  status: OutboxStatus | "";
  limit: (typeof OUTBOX_LIMITS)[number];
  /** A message to show in full. */
  id: string | null;
}

const MESSAGE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const isMessageId = (id: unknown): id is string => typeof id === "string" && MESSAGE_ID.test(id);

/** Throws a 400 ContentError for a status, limit or message id that cannot be one. */
export function parseOutboxParams(params: URLSearchParams): OutboxParams {
  const status = params.get("status") ?? "";
  if (status !== "" && !(OUTBOX_STATUSES as readonly string[]).includes(status)) throw new ContentError(400, "status: pending, sent or failed");
  const rawLimit = params.get("limit");
  const limit = rawLimit === null || rawLimit === "" ? OUTBOX_LIMITS[0] : Number(rawLimit);
  if (!(OUTBOX_LIMITS as readonly number[]).includes(limit)) throw new ContentError(400, `limit: one of ${OUTBOX_LIMITS.join(", ")}`);
  const id = params.get("id");
  if (id !== null && !isMessageId(id)) throw new ContentError(400, "id: not a message id");
  return { status: status as OutboxStatus | "", limit: limit as OutboxParams["limit"], id };
}

/** The next bigger limit, or null at the largest. */
export const nextLimit = (limit: OutboxParams["limit"]) => OUTBOX_LIMITS[OUTBOX_LIMITS.indexOf(limit) + 1] ?? null;

export function outboxHref(params: OutboxParams, change: Partial<OutboxParams>): string {
  const next = { ...params, ...change };
  const q = new URLSearchParams();
  if (next.status) q.set("status", next.status);
  if (next.limit !== OUTBOX_LIMITS[0]) q.set("limit", String(next.limit));
  if (next.id) q.set("id", next.id);
  const s = q.toString();
  return s ? `?${s}` : "?";
}
