import { createHash, randomUUID } from "node:crypto";
import type { ContentClient, ReadScope } from "~/content/client";
import { isUniqueViolation } from "~/content/db";
import { ContentError } from "~/content/errors";
import type { ContentStore } from "~/content/store";
import type { FlatItem } from "~/content/types";
import { localizedPath, type Language } from "~/i18n/languages";
import type { TokenSigner } from "~/lib/tokens.server";
import type { Outbox } from "~/mail/outbox";
import { BookingStore, type Booking, type BookingRecord } from "./bookings";
import { cancellationMail, confirmationMail, type BookingMailFacts } from "./mail";

const APPOINTMENTS = "gm-appointments";
const PRACTITIONERS = "gm-content-practitioners";
/** Who changed the slot, as editors see it in the item's history. */
const ACTOR = "client:praxisnetz:booking";
const DEFAULT_DURATION_MINUTES = 30;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export interface BookerInput {
  name: string;
  email: string;
  phone: string;
  note?: string | null;
  language: Language;
}

/** A booking as its booker sees it (the API answer): sent to no one else. */
export interface BookingView {
  id: string;
  appointmentId: string;
  practitionerId: string;
  practitionerName: string;
  /** UTC ISO. */
  start: string;
  end: string;
  name: string;
  email: string;
  phone: string | null;
  note: string | null;
  language: Language;
}

export type BookingRefusal = "missing" | "past" | "taken";

/** What a refused booking says, in both languages: the HTTP layer answers in the request's. */
export const BOOKING_MESSAGES: Record<BookingRefusal, Record<Language, string>> = {
  missing: { de: "Diesen Termin gibt es nicht.", en: "This appointment does not exist." },
  past: { de: "Dieser Termin liegt in der Vergangenheit.", en: "This appointment is in the past." },
  taken: { de: "Dieser Termin wurde gerade von jemand anderem gebucht.", en: "This appointment has just been booked by someone else." },
};

const ERROR_CODES: Record<BookingRefusal, string> = { missing: "BOOKING_NOT_FOUND", past: "BOOKING_PAST", taken: "BOOKING_TAKEN" };

/** A booking refused: 404 (missing) or 409 (past, taken), its message in the booker's language. */
export class BookingError extends ContentError {
  constructor(
    readonly reason: BookingRefusal,
    readonly language: Language,
  ) {
    super(reason === "missing" ? 404 : 409, BOOKING_MESSAGES[reason][language], undefined, ERROR_CODES[reason]);
    this.name = "BookingError";
  }

  get messages(): Record<Language, string> {
    return BOOKING_MESSAGES[this.reason];
  }
}

export type CancelRefusal = "invalid" | "expired" | "gone";

/** What the cancel page shows before the booker confirms, or why it cannot cancel. */
export type CancellationView =
  | { ok: true; bookingId: string; appointmentId: string; start: string; practitionerName: string; language: Language }
  | { ok: false; reason: CancelRefusal };

/** What an editor's cancellation did: mailed `email`, or found no booking (gone) or one already begun (past). */
export type EditorCancellation = { ok: true; bookingId: string; email: string; start: string } | { ok: false; reason: "gone" | "past" };

export interface BookingServiceOptions {
  /** The site's name (SITE_NAME), named in the calendar files (the content client applies its visibility rules). */
  siteName: string;
  /** How long booker details are kept after the appointment started (BOOKING_RETENTION_DAYS). */
  retentionDays?: number;
  /** Where a booking undone on a remote Squidex, and failing to be, is told (the app's logger). */
  log?: (message: string, details: Record<string, unknown>) => void;
}

/** A slot as a visitor may see it, with what a booking needs of its practitioner. */
export interface SlotFacts {
  id: string;
  start: string;
  end: string;
  durationMinutes: number;
  booked: boolean;
  practitionerId: string;
  practitionerName: string;
  /** The practitioner's profile slug (their page). */
  practitionerSlug: string;
  location: string | null;
}

/**
 * Booking appointment slots (issue 9). The database decides every race: the bookings table's primary
 * key (the slot's id) lets one booking in, and the booking row, the slot's `booked` flag and the
 * confirmation mail are written in one transaction, so none exists without the others.
 */
export class BookingService {
  private readonly bookings: BookingStore;
  private readonly retentionDays: number;

  constructor(
    private readonly store: ContentStore,
    private readonly content: ContentClient,
    private readonly outbox: Outbox,
    private readonly tokens: TokenSigner,
    readonly options: BookingServiceOptions,
  ) {
    this.bookings = new BookingStore(store.db);
    this.retentionDays = options.retentionDays ?? 90;
  }

  /**
   * Books a slot for `booker` (validated by the caller). A repeat of the same request (the same
   * booker's details, with the same Idempotency-Key when there is one) gets the same booking with
   * created false; anyone else gets 409 and learns nothing of the booking. Throws BookingError:
   * 404 for a slot a visitor cannot see, 409 when past or taken.
   */
  async book(slotId: string, booker: BookerInput, opts: { idempotencyKey?: string; origin: string; now?: Date }): Promise<{ booking: BookingView; created: boolean }> {
    const now = opts.now ?? new Date();
    const language = booker.language;
    const slot = await this.slot(slotId);
    if (!slot) throw new BookingError("missing", language);
    if (Date.parse(slot.start) <= now.getTime()) throw new BookingError("past", language);
    const key = idempotencyKey(slotId, booker, opts.idempotencyKey);

    // A slot shown as booked may be a repeat of this very request; the insert below is the guard
    // for everything else (this check only spares it the attempt).
    if (!slot.booked) {
      const record: BookingRecord = {
        id: randomUUID(),
        appointmentId: slotId,
        practitionerId: slot.practitionerId,
        startsAt: slot.start,
        language,
        idempotencyKey: key,
        name: booker.name,
        email: booker.email,
        phone: booker.phone,
        note: booker.note ?? null,
        created: now.toISOString(),
      };
      // The cancel link works until the appointment starts.
      const token = this.tokens.sign("booking-cancel", record.id, Math.max(1, Math.floor((Date.parse(slot.start) - now.getTime()) / 1000)));
      const cancelUrl = `${opts.origin}${localizedPath(language, "/appointments/cancel")}?token=${encodeURIComponent(token)}`;
      const mail = confirmationMail(this.mailFacts(record, slot), cancelUrl);
      try {
        if (this.store.upstream) await this.bookRemotely(record, mail);
        else
          await this.store.transaction(async (tx) => {
            await new BookingStore(tx.db).insert(record);
            await setBooked(tx, slotId, true);
            await this.outbox.enqueue(mail, tx.db);
          });
        return { booking: toView(record, slot), created: true };
      } catch (error) {
        // An editor deleted or archived the slot since it was read: nothing was written.
        if (error instanceof ContentError && (error.statusCode === 404 || error.statusCode === 400)) throw new BookingError("missing", language);
        // On a remote Squidex: the slot changed there since this site read it (another site booked
        // it, or an editor changed it): Squidex's version check refused the write, nothing is kept.
        if (error instanceof ContentError && error.statusCode === 409 && error.errorCode === "OBJECT_CONFLICT") throw new BookingError("taken", language);
        // Someone else's insert won (the transaction is rolled back; on PostgreSQL it is aborted,
        // so the winner is read after it, outside).
        if (!isUniqueViolation(error)) throw error;
      }
    }
    const existing = await this.bookings.recordOfSlot(slotId);
    if (existing && existing.idempotencyKey === key) return { booking: toView(existing, slot), created: false };
    throw new BookingError("taken", language);
  }

  /**
   * A booking on a remote Squidex (decision 0037): Squidex decides the race first, by the slot's
   * version (If-Match), with no local transaction held open while it answers; the booking row and
   * its mail are then kept here in one. Should that fail, the slot is freed on Squidex again. A slot
   * can so end up booked without a booking (a crash between the two steps: an editor frees it), never
   * a booking and a mail without its slot.
   */
  private async bookRemotely(record: BookingRecord, mail: Parameters<Outbox["enqueue"]>[0]): Promise<void> {
    await setBooked(this.store, record.appointmentId, true);
    try {
      await this.store.transaction(async (tx) => {
        await new BookingStore(tx.db).insert(record);
        await this.outbox.enqueue(mail, tx.db);
      });
    } catch (error) {
      await setBooked(this.store, record.appointmentId, false).catch((undo: unknown) =>
        this.options.log?.("A slot booked on Squidex for a booking that failed here could not be freed again; free it by hand", {
          slot: record.appointmentId,
          error: undo instanceof Error ? undo.message : String(undo),
        }),
      );
      throw error;
    }
  }

  /**
   * The local part of a cancellation (the booking row goes, the mail is queued: `local`, one
   * transaction that answers whether it removed the row). On a remote Squidex the slot is freed there
   * first, with no local transaction open while it answers; should the row be gone already (another
   * cancellation won) the slot stays free, as the winner left it.
   */
  private async unbook<T>(slotId: string, local: (tx: ContentStore) => Promise<T>): Promise<T> {
    if (!this.store.upstream)
      return this.store.transaction(async (tx) => {
        const removed = await local(tx);
        if (removed) await setBooked(tx, slotId, false);
        return removed;
      });
    await setBooked(this.store, slotId, false);
    return this.store.transaction(local);
  }

  /** What the cancel link's page shows (nothing changes), or why the link cannot cancel. */
  async describeCancellation(token: string, now = new Date()): Promise<CancellationView> {
    const found = await this.cancellable(token, now);
    return found.ok ? found.view : found;
  }

  /**
   * Cancels the booking a cancel link names: the row goes and the slot is free again, in one
   * transaction with the cancellation mail. A second cancellation (even at the same moment) finds
   * no row: "gone", and no second mail.
   */
  async cancel(token: string, opts: { now?: Date } = {}): Promise<CancellationView> {
    const now = opts.now ?? new Date();
    const found = await this.cancellable(token, now);
    if (!found.ok) return found;
    const { record, facts } = found;
    const removed = await this.unbook(record.appointmentId, async (tx) => {
      // The guard: of two cancellations at once only one deletes the row.
      const row = await new BookingStore(tx.db).removeUpcoming(record.id, now);
      if (!row) return undefined;
      await this.outbox.enqueue(cancellationMail(facts), tx.db);
      return row;
    });
    if (!removed) return { ok: false, reason: (await this.bookings.recordById(record.id)) ? "expired" : "gone" };
    return found.view;
  }

  /**
   * An editor cancels the booking of a slot (the admin screen): the row goes, the slot is free
   * again and the booker gets the cancellation mail with the calendar CANCEL, in one transaction
   * as with the cancel link. Bookings older than the booking flow (no id of their own) are
   * cancelled too; their calendar UID is the slot's id. Past appointments stay as they are.
   */
  async cancelBySlot(slotId: string, opts: { now?: Date } = {}): Promise<EditorCancellation> {
    const now = opts.now ?? new Date();
    const row = await this.bookings.get(slotId);
    if (!row) return { ok: false, reason: "gone" };
    const record = (await this.bookings.recordOfSlot(slotId)) ?? legacyRecord(row);
    const system: ReadScope = { audience: "system", language: asLanguage(record.language) };
    const slot = await this.content.get(APPOINTMENTS, slotId, system);
    const d = (slot?.data ?? {}) as { start?: unknown; durationMinutes?: unknown; practitioner?: unknown };
    const start = typeof d.start === "string" && Number.isFinite(Date.parse(d.start)) ? new Date(d.start).toISOString() : record.startsAt;
    if (!start || Date.parse(start) <= now.getTime()) return { ok: false, reason: "past" };
    const practitionerId = record.practitionerId || (Array.isArray(d.practitioner) && typeof d.practitioner[0] === "string" ? d.practitioner[0] : "");
    const practitioner = practitionerId ? await this.content.get(PRACTITIONERS, practitionerId, system) : undefined;
    const { practitionerName, location } = practitioner ? practitionerFacts(practitioner) : { practitionerName: "", location: null };
    const facts = this.mailFacts({ ...record, startsAt: start }, { practitionerName, location, end: endOf(start, duration(d.durationMinutes)) });
    const removed = await this.unbook(slotId, async (tx) => {
      // The guard, as with the link: of two cancellations at once only one deletes the row.
      if (!(await new BookingStore(tx.db).remove(slotId))) return false;
      await this.outbox.enqueue(cancellationMail(facts), tx.db);
      return true;
    });
    if (!removed) return { ok: false, reason: "gone" };
    return { ok: true, bookingId: record.id, email: record.email, start };
  }

  /**
   * Deletes booker details of appointments that started more than `retentionDays` ago (rows from
   * before the booking flow, without a start, count from when they were made). The slots stay.
   */
  async purgeExpired(now = new Date()): Promise<number> {
    return this.bookings.removeBefore(new Date(now.getTime() - this.retentionDays * DAY));
  }

  /** The slot and its practitioner through the visitor scope: undefined when a visitor cannot see it. */
  async slot(slotId: string): Promise<SlotFacts | undefined> {
    let slot: FlatItem | undefined;
    try {
      slot = await this.content.get(APPOINTMENTS, slotId, VISITOR);
    } catch (error) {
      // An id the content API refuses to look up (its shape) names no slot either.
      if (error instanceof ContentError && error.statusCode === 400) return undefined;
      throw error;
    }
    if (!slot) return undefined;
    const d = slot.data as { start?: unknown; durationMinutes?: unknown; booked?: unknown; practitioner?: unknown };
    const practitionerId = Array.isArray(d.practitioner) ? d.practitioner[0] : undefined;
    if (typeof practitionerId !== "string" || typeof d.start !== "string" || !Number.isFinite(Date.parse(d.start))) return undefined;
    const practitioner = await this.content.get(PRACTITIONERS, practitionerId, VISITOR);
    if (!practitioner) return undefined;
    const start = new Date(d.start).toISOString();
    const durationMinutes = duration(d.durationMinutes);
    return {
      id: slotId,
      start,
      end: endOf(start, durationMinutes),
      durationMinutes,
      booked: d.booked === true,
      practitionerId,
      practitionerSlug: practitioner.slug ?? practitioner.id,
      ...practitionerFacts(practitioner),
    };
  }

  /** The booking a cancel link names, if it can still be cancelled, with what its mail says. */
  private async cancellable(token: string, now: Date): Promise<{ ok: false; reason: CancelRefusal } | { ok: true; record: BookingRecord; facts: BookingMailFacts; view: CancellationView & { ok: true } }> {
    const check = this.tokens.verify("booking-cancel", token);
    if (!check.ok) return { ok: false, reason: check.reason };
    const record = await this.bookings.recordById(check.subject);
    if (!record) return { ok: false, reason: "gone" };
    if (Date.parse(record.startsAt) <= now.getTime()) return { ok: false, reason: "expired" };
    // System scope: a practitioner hidden since the booking does not stop the booker from cancelling.
    const system: ReadScope = { audience: "system", language: record.language };
    const [practitioner, slot] = await Promise.all([
      record.practitionerId ? this.content.get(PRACTITIONERS, record.practitionerId, system) : undefined,
      this.content.get(APPOINTMENTS, record.appointmentId, system),
    ]);
    const { practitionerName, location } = practitioner ? practitionerFacts(practitioner) : { practitionerName: "", location: null };
    const end = endOf(record.startsAt, duration((slot?.data as { durationMinutes?: unknown } | undefined)?.durationMinutes));
    const facts = this.mailFacts(record, { practitionerName, location, end });
    const language = asLanguage(record.language);
    return {
      ok: true,
      record,
      facts,
      view: { ok: true, bookingId: record.id, appointmentId: record.appointmentId, start: record.startsAt, practitionerName, language },
    };
  }

  private mailFacts(record: BookingRecord, slot: { practitionerName: string; location: string | null; end: string }): BookingMailFacts {
    return {
      bookingId: record.id,
      to: record.email,
      name: record.name,
      language: asLanguage(record.language),
      practitionerName: slot.practitionerName,
      location: slot.location,
      start: record.startsAt,
      end: slot.end,
      siteName: this.options.siteName,
    };
  }
}

/** Slots are read as a visitor reads them; their data has no language. */
const VISITOR: ReadScope = { audience: "visitor", language: "de" };

/**
 * What identifies a booking request, hashed (the stored key): the booker's details, and the
 * client's Idempotency-Key when it sent one. A repeat gets the booking back, with its details, so
 * it must be the same booker: a key alone is not a secret (a second person sending the same key got
 * the first one's name, address, phone and note). Without a key the details alone make a
 * double-click one booking. The note counts too: whoever knows a booker's name, address and phone
 * still cannot read back their note.
 */
export function idempotencyKey(slotId: string, booker: Pick<BookerInput, "name" | "email" | "phone" | "note">, clientKey?: string): string {
  const details = [booker.email.trim().toLowerCase(), booker.name.trim(), booker.phone.trim(), (booker.note ?? "").trim()];
  const parts = clientKey !== undefined ? ["key", slotId, clientKey, ...details] : ["request", slotId, ...details];
  return createHash("sha256").update(parts.join("\u0000")).digest("hex");
}

/**
 * Sets the slot's `booked` through the store, so its change event reaches the caches and pages. A
 * slot with an editor's pending draft gets the flag in both: the live data (what visitors see) and
 * the draft (which would otherwise put the old flag back when published).
 */
async function setBooked(tx: ContentStore, slotId: string, booked: boolean): Promise<void> {
  const patch = { booked: { iv: booked } };
  let item;
  try {
    item = await tx.patch(APPOINTMENTS, slotId, patch, { actor: ACTOR });
  } catch (error) {
    // Freeing a slot an editor deleted or archived meanwhile: the booking goes all the same.
    if (!booked && error instanceof ContentError && (error.statusCode === 404 || error.statusCode === 400)) return;
    throw error;
  }
  if (!item.newStatus) return;
  // A patch with a draft pending changes only the draft: set the live data through the draft's
  // own steps, then put the draft (now with the flag) back.
  const draft = item.data;
  await tx.discardDraft(APPOINTMENTS, slotId, { actor: ACTOR });
  await tx.patch(APPOINTMENTS, slotId, patch, { actor: ACTOR });
  await tx.createDraft(APPOINTMENTS, slotId, { actor: ACTOR });
  await tx.update(APPOINTMENTS, slotId, draft, { actor: ACTOR });
}

function practitionerFacts(practitioner: FlatItem): { practitionerName: string; location: string | null } {
  const d = practitioner.data as Record<string, unknown>;
  const text = (k: string) => (typeof d[k] === "string" ? (d[k] as string).trim() : "");
  const place = [text("zip"), text("city")].filter(Boolean).join(" ");
  const location = [text("street"), place].filter(Boolean).join(", ");
  return { practitionerName: text("name"), location: location || null };
}

function toView(record: BookingRecord, slot: SlotFacts): BookingView {
  return {
    id: record.id,
    appointmentId: record.appointmentId,
    practitionerId: record.practitionerId,
    practitionerName: slot.practitionerName,
    start: record.startsAt,
    end: endOf(record.startsAt, slot.durationMinutes),
    name: record.name,
    email: record.email,
    phone: record.phone,
    note: record.note,
    language: asLanguage(record.language),
  };
}

/** A booking row from before the booking flow (demo seed): its slot's id stands in for its own. */
function legacyRecord(row: Booking): BookingRecord {
  return { ...row, id: row.appointmentId, practitionerId: "", startsAt: "", language: "de", idempotencyKey: "" };
}

const asLanguage = (value: string): Language => (value === "en" ? "en" : "de");
const duration = (value: unknown) => (typeof value === "number" && Number.isFinite(value) && value > 0 ? value : DEFAULT_DURATION_MINUTES);
const endOf = (start: string, minutes: number) => new Date(Date.parse(start) + minutes * MINUTE).toISOString();
