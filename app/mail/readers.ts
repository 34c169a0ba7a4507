import type { OutboxEntry } from "./outbox";

/**
 * What people in the admin may read of the outbox (issue 20, finding 1). A mail's signed link
 * (TokenSigner: set password, confirm, unsubscribe, continue a registration, cancel a booking,
 * the present) acts for its recipient on its own, so whoever reads it can be that recipient: an
 * editor who read a superuser's invitation became a superuser. So no one reads a live link here;
 * "send again" sends the stored mail, link and all, to its recipient.
 *
 * Which mails: editors see the visitor flows' mails (bookings, newsletter, registrations), the
 * work they already do in the admin; account mails (invitations, password resets) and any kind
 * not named here are for superusers only, so a new kind of mail is hidden from editors until
 * someone decides otherwise. See docs/decisions/0019-outbox-readers.md.
 *
 * Registration mails, all for editors by the "registration-" prefix: registration-received and
 * registration-finished (to the registrant, the first with a continue link, masked here), and
 * registration-approved and registration-rejected (an editor's decision on the admin's
 * registrations screen, with no signed link: the profile address, the editor's reason).
 */

export interface MailReader {
  superuser: boolean;
}

/** Kinds editors may read, by prefix (`booking-confirmation`, `newsletter-confirm`, …). */
export const EDITOR_MAIL_KIND_PREFIXES = ["booking-", "newsletter-", "registration-"] as const;

export function mayReadKind(reader: MailReader, kind: string): boolean {
  return reader.superuser || EDITOR_MAIL_KIND_PREFIXES.some((prefix) => kind.startsWith(prefix));
}

/** What stands where a link's secret was. */
export const MASKED_SECRET = "••••••";

/**
 * A TokenSigner token: base64url of its JSON `[purpose, subject, expires]` (which starts `["`, so
 * `WyJ`), a dot, and the base64url HMAC-SHA256 (43 characters). Its characters need no escaping
 * in a URL or in HTML, so it stands as is in every body and header of a mail. Any other long
 * base64url run with a dot and a 43-character tail is masked as well: better a harmless string
 * hidden than a secret shown. A match starts only where a run starts, so a long run costs one
 * pass, not one per character.
 */
const SIGNED_TOKEN = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;

/** `text` with every signed token in it replaced by MASKED_SECRET. */
export function maskLinkSecrets(text: string): string {
  return text.replace(SIGNED_TOKEN, MASKED_SECRET);
}

/** An outbox entry as an admin reader gets it: every text of it with its link secrets masked. */
export function readableEntry(entry: OutboxEntry): OutboxEntry {
  return {
    ...entry,
    subject: maskLinkSecrets(entry.subject),
    text: maskLinkSecrets(entry.text),
    html: maskLinkSecrets(entry.html),
    headers: Object.fromEntries(Object.entries(entry.headers).map(([name, value]) => [name, maskLinkSecrets(String(value))])),
    attachments: entry.attachments.map((a) => ({ ...a, content: maskLinkSecrets(a.content) })),
    lastError: entry.lastError === null ? null : maskLinkSecrets(entry.lastError),
  };
}
