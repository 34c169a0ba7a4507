import { ContentError } from "~/content/errors";
import type { ContentStore } from "~/content/store";
import type { Principal } from "~/content/policy";
import type { ContentItem, FilterNode } from "~/content/types";
import type { Language } from "~/i18n/languages";
import type { Outbox } from "~/mail/outbox";
import { renderMail } from "~/mail/templates";
import { profilePath } from "~/practitioners/paths";
import { PRACTITIONERS } from "~/registration/registration.server";
import { PAGE_SIZE } from "./list-query";
import { MAX_REASON_LENGTH } from "./registration-rules";

/**
 * New practitioner registrations for editors: practitioners not displayed yet. A registration
 * creates a Draft with display off (registration.server.ts); approving it turns display on and
 * publishes it, together, so a visitor never sees one half of it. Rejecting archives it: it leaves
 * the list but stays in the store, so the decision can be looked up (and undone in the editor).
 * Both mail the practitioner, in the same transaction as the change.
 */

/**
 * Not shown in the directory and not rejected: display off or never set (items made by other means
 * than the public form), status not Archived. One `ne` for display instead of "false or missing":
 * the same items (null and missing alike), and the database reads the JSON once a row instead of
 * twice (100 000 practitioners: 385 -> 290 ms).
 */
export const NOT_DISPLAYED: FilterNode = { path: "data.display.iv", op: "ne", value: true };
export const PENDING_REGISTRATION: FilterNode = { and: [NOT_DISPLAYED, { path: "status", op: "ne", value: "Archived" }] };

export { MAX_REASON_LENGTH };

/**
 * Where a registration stands, from its fields, not from the content status alone: a registration
 * can be "Published" in the store (data live) and still hidden (display off), which is what the
 * old green "Published" badge got wrong.
 */
export type Visibility = "visible" | "hidden-published" | "hidden-draft";

export interface RegistrationRow {
  id: string;
  name: string;
  city: string;
  email: string;
  /** The practitioner finished the registration (the continue link is closed). */
  finished: boolean;
  visibility: Visibility;
  created: string;
  status: ContentItem["status"];
  version: number;
}

const text = (v: unknown) => (typeof v === "string" ? v : "");
type Cells = Record<string, Record<string, unknown> | undefined>;

export function visibilityOf(item: ContentItem): Visibility {
  const data = item.data as Cells;
  if (item.status !== "Published") return "hidden-draft";
  return data.display?.iv === true ? "visible" : "hidden-published";
}

export function toRow(item: ContentItem): RegistrationRow {
  const data = item.data as Cells;
  return {
    id: item.id,
    name: text(data.name?.iv),
    city: text(data.city?.iv),
    email: text(data.email?.iv),
    finished: data.finishedPractitioner?.iv === true,
    visibility: visibilityOf(item),
    created: item.created,
    status: item.status,
    version: item.version,
  };
}

/**
 * One page of registrations, newest change first (paged in the database). By last change, not by
 * arrival: the admin lists' index (schema, last_modified, id) then hands rows over in order and the
 * page stops after 25 matches, where sorting by `created` (no index) sorts every match first.
 */
export async function listRegistrations(store: ContentStore, page: number): Promise<{ total: number; rows: RegistrationRow[] }> {
  const { total, items } = await store.query(
    PRACTITIONERS,
    { filter: PENDING_REGISTRATION, sort: [{ path: "lastModified", order: "descending" }, { path: "id" }], skip: (page - 1) * PAGE_SIZE, take: PAGE_SIZE },
    { unpublished: true },
  );
  return { total, rows: items.map(toRow) };
}

/** How many registrations wait for review (the dashboard): a count, no rows read. */
export async function countRegistrations(store: ContentStore): Promise<number> {
  return (await store.query(PRACTITIONERS, { filter: PENDING_REGISTRATION, take: 0 }, { unpublished: true })).total;
}

/** One registration still open for review, or undefined (approved, rejected, gone). */
export async function pendingRegistration(store: ContentStore, id: string): Promise<RegistrationRow | undefined> {
  const item = await store.get(PRACTITIONERS, id, { unpublished: true });
  if (!item || item.status === "Archived" || visibilityOf(item) === "visible") return undefined;
  return toRow(item);
}

/**
 * The practitioner's language for mails. The store keeps no language of its own for a registration,
 * but the form writes localised fields (speciality, description) in the language it was filled in,
 * and the first mail went out in it; failing both, German, the site's first language.
 */
export async function practitionerLanguage(item: ContentItem, outbox: Outbox): Promise<Language> {
  const data = item.data as Cells;
  const written = new Set<string>();
  for (const [name, cell] of Object.entries(data)) {
    if (!cell || name === "websites" || "iv" in cell) continue;
    for (const [lang, value] of Object.entries(cell)) if (value !== null && value !== "") written.add(lang);
  }
  if (written.size === 1) {
    const only = [...written][0];
    if (only === "de" || only === "en") return only;
  }
  const email = text(data.email?.iv);
  if (email) {
    const [first] = await outbox.list({ to: email, kind: "registration-received", limit: 1 });
    const lang = first?.html.match(/<html lang="(de|en)"/)?.[1];
    if (lang === "de" || lang === "en") return lang;
  }
  return "de";
}

export interface DecisionOptions {
  by: Principal;
  expectedVersion?: number;
  /** The site's address, for the profile link in the approval mail. */
  origin: string;
}

/** What a decision did: the changed item and whether a mail went out (no address, no mail). */
export interface Decision {
  item: ContentItem;
  mailed: boolean;
  language: Language;
}

/**
 * Read before the decision's transaction, not in it: the outbox reads through the store's own
 * connection, which a transaction holds (SQLite has one), and the language needs no lock.
 */
async function languageOf(store: ContentStore, outbox: Outbox, id: string): Promise<Language> {
  const item = await store.get(PRACTITIONERS, id, { unpublished: true });
  return item ? practitionerLanguage(item, outbox) : "de";
}

const notFound = (id: string) => new ContentError(404, `Content item "${id}" not found in "${PRACTITIONERS}".`);

/**
 * Approves a registration: display on, then published, in one transaction and with the version the
 * editor saw (a change in between is a 409), and the approval mail queued in the same transaction.
 * Publishing checks the data against the schema, so an incomplete registration is refused (400) and
 * stays as it was, without a mail. Whether an unfinished registration may be approved is the
 * screen's question (it asks first); here it is allowed.
 */
export async function approveRegistration(store: ContentStore, outbox: Outbox, id: string, opts: DecisionOptions): Promise<Decision> {
  const language = await languageOf(store, outbox, id);
  return store.sequence(async (tx) => {
    const item = await tx.get(PRACTITIONERS, id, { unpublished: true });
    if (!item) throw notFound(id);
    if (item.data.display?.iv === true && item.status === "Published") throw new ContentError(409, "The registration is approved already.");
    const note = { action: "approve-registration" };
    const shown = await tx.patch(PRACTITIONERS, id, { display: { iv: true } }, { by: opts.by, note, ...(opts.expectedVersion !== undefined ? { expectedVersion: opts.expectedVersion } : {}) });
    const published = await tx.changeStatus(PRACTITIONERS, id, "Published", { by: opts.by, note, expectedVersion: shown.version });
    const email = text(item.data.email?.iv);
    // The profile's address: the slug lives in the side table, which a published read goes through.
    const slug = (await tx.query(PRACTITIONERS, { ids: [id], take: 1 })).items[0]?.slug;
    if (email) await outbox.enqueue(approvedMail(email, text(item.data.name?.iv), language, slug ? `${opts.origin}${profilePath(language, slug)}` : undefined), tx.db);
    return { item: published, mailed: email !== "", language };
  });
}

/**
 * Rejects a registration: archived (out of the list, out of every visitor query, kept for the
 * record) with the reason in the audit line, and the reason mailed to the practitioner, together.
 * A reason is required: the practitioner should learn why.
 */
export async function rejectRegistration(store: ContentStore, outbox: Outbox, id: string, reason: string, opts: DecisionOptions): Promise<Decision> {
  const why = reason.trim();
  if (!why) throw new ContentError(400, "A reason is required.");
  if (why.length > MAX_REASON_LENGTH) throw new ContentError(400, `The reason is longer than ${MAX_REASON_LENGTH} characters.`);
  const language = await languageOf(store, outbox, id);
  return store.sequence(async (tx) => {
    const item = await tx.get(PRACTITIONERS, id, { unpublished: true });
    if (!item) throw notFound(id);
    if (item.status === "Archived") throw new ContentError(409, "The registration is rejected already.");
    if (visibilityOf(item) === "visible") throw new ContentError(409, "The registration is approved already.");
    const archived = await tx.changeStatus(PRACTITIONERS, id, "Archived", {
      by: opts.by,
      note: { action: "reject-registration", detail: why },
      ...(opts.expectedVersion !== undefined ? { expectedVersion: opts.expectedVersion } : {}),
    });
    const email = text(item.data.email?.iv);
    if (email) await outbox.enqueue(rejectedMail(email, text(item.data.name?.iv), language, why), tx.db);
    return { item: archived, mailed: email !== "", language };
  });
}

const greeting = (language: Language, name: string) => (language === "de" ? (name ? `Guten Tag ${name},` : "Guten Tag,") : name ? `Hello ${name},` : "Hello,");

function approvedMail(to: string, name: string, language: Language, profileUrl: string | undefined) {
  const de = language === "de";
  return renderMail({
    kind: "registration-approved",
    to,
    language,
    subject: de ? "Ihr Eintrag im Praxisnetz ist freigegeben" : "Your Praxisnetz entry is approved",
    greeting: greeting(language, name),
    paragraphs: de
      ? ["unsere Redaktion hat Ihre Registrierung geprüft und freigegeben. Ihr Eintrag ist jetzt im Verzeichnis zu sehen.", "Wenn Sie später etwas ändern möchten, schreiben Sie uns bitte."]
      : ["our editors have reviewed and approved your registration. Your entry now shows in the directory.", "If you want to change something later, please write to us."],
    ...(profileUrl ? { action: { label: de ? "Eintrag ansehen" : "View your entry", url: profileUrl } } : {}),
  });
}

function rejectedMail(to: string, name: string, language: Language, reason: string) {
  const de = language === "de";
  return renderMail({
    kind: "registration-rejected",
    to,
    language,
    subject: de ? "Ihre Registrierung im Praxisnetz" : "Your Praxisnetz registration",
    greeting: greeting(language, name),
    paragraphs: de
      ? ["unsere Redaktion hat Ihre Registrierung geprüft und kann sie leider nicht in das Verzeichnis aufnehmen. Die Begründung:", reason, "Wenn sich daran etwas ändert, können Sie sich gern erneut registrieren."]
      : ["our editors have reviewed your registration and unfortunately cannot add it to the directory. The reason:", reason, "If this changes, you are welcome to register again."],
  });
}
