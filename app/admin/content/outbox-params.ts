import { ContentError } from "~/content/errors";
import type { Language } from "~/i18n/languages";
import type { OutboxStatus } from "~/mail/outbox";

/**
 * The outbox screen's URL (`?status=…&before=…&id=…`), checked: the outbox lists the newest
 * messages a page at a time; `before` names the last message of the previous page (keyset paging
 * in the database, so an outbox of any length costs one page).
 */

export const OUTBOX_STATUSES = ["pending", "sent", "failed"] as const satisfies readonly OutboxStatus[];
export const OUTBOX_PAGE_SIZE = 50;

export interface OutboxParams {
  status: OutboxStatus | "";
  /** The last message of the previous page; the list goes on after it. */
  before: string | null;
  /** A message to show in full. */
  id: string | null;
}

const MESSAGE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const isMessageId = (id: unknown): id is string => typeof id === "string" && MESSAGE_ID.test(id);

const problems = {
  de: { status: "Unbekannter Status; erlaubt sind pending, sent und failed.", id: "Das ist keine Nachrichten-ID.", before: "Der Seitenanfang ist keine Nachrichten-ID." },
  en: { status: "Unknown status; use pending, sent or failed.", id: "That is not a message id.", before: "The page start is not a message id." },
} satisfies Record<Language, Record<string, string>>;

/** Throws a 400 ContentError, in the editor's language, for a status or message id that cannot be one. */
export function parseOutboxParams(params: URLSearchParams, language: Language = "de"): OutboxParams {
  const problem = problems[language];
  const status = params.get("status") ?? "";
  if (status !== "" && !(OUTBOX_STATUSES as readonly string[]).includes(status)) throw new ContentError(400, problem.status);
  const id = params.get("id");
  if (id !== null && !isMessageId(id)) throw new ContentError(400, problem.id);
  const before = params.get("before");
  if (before !== null && !isMessageId(before)) throw new ContentError(400, problem.before);
  return { status: status as OutboxStatus | "", before, id };
}

export function outboxHref(params: OutboxParams, change: Partial<OutboxParams>): string {
  const next = { ...params, ...change };
  const q = new URLSearchParams();
  if (next.status) q.set("status", next.status);
  if (next.before) q.set("before", next.before);
  if (next.id) q.set("id", next.id);
  const s = q.toString();
  return s ? `?${s}` : "?";
}
