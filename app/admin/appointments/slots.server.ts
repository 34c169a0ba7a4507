import { BookingStore, type Booker } from "~/booking/bookings";
import type { ContentStore } from "~/content/store";
import type { ContentItem, FilterNode, WriteOptions } from "~/content/types";
import { overlapping, type NewSlot } from "./series";

/**
 * The slots of one practitioner as editors manage them. Reads go through the slots' side table
 * (practitioner and start are indexed), filtered, sorted and paged in the database: a practitioner
 * may have tens of thousands of slots. Only published slots count — a draft slot is bookable by no one.
 */

export const APPOINTMENTS = "gm-appointments";
export const PRACTITIONERS = "gm-content-practitioners";
export const PRACTITIONER_PAGE_SIZE = 20;
export const SLOT_PAGE_SIZE = 100;
const MINUTE = 60_000;
/** The longest slot the schema allows: a slot starting this long before a range can still reach into it. */
const LONGEST_SLOT_MINUTES = 240;

export interface PractitionerChoice {
  id: string;
  name: string;
  /** The public profile's slug (/practitioners/{slug}). */
  slug: string;
  /** Tells equal names apart. */
  city: string;
}

export interface AdminSlot {
  id: string;
  /** UTC ISO. */
  start: string;
  durationMinutes: number;
  booked: boolean;
  /** Who booked: only for booked slots, only on the signed-in screen. */
  booker: Booker | null;
}

export interface Paged<T> {
  items: T[];
  page: number;
  pages: number;
  total: number;
}

const iv = (item: ContentItem, field: string): unknown => item.data[field]?.iv;
const pages = (total: number, size: number) => Math.max(1, Math.ceil(total / size));
const clampPage = (page: number) => (Number.isInteger(page) && page > 0 ? page : 1);

function toChoice(item: ContentItem): PractitionerChoice {
  const name = iv(item, "name");
  const city = iv(item, "city");
  return { id: item.id, name: typeof name === "string" ? name : item.id, slug: item.slug ?? item.id, city: typeof city === "string" ? city : "" };
}

function toSlot(item: ContentItem): NewSlot & { id: string; booked: boolean } {
  const minutes = iv(item, "durationMinutes");
  return {
    id: item.id,
    start: new Date(String(iv(item, "start"))).toISOString(),
    durationMinutes: typeof minutes === "number" && minutes > 0 ? minutes : 30,
    booked: iv(item, "booked") === true,
  };
}

/**
 * Practitioners whose searchable text (name, city, street …; not private fields) holds every word of
 * `search`, by name, one page; nobody for an empty search: there are thousands, nobody pages through
 * them. Published practitioners' search runs on their side table's indexed search text.
 */
export async function searchPractitioners(store: ContentStore, search: string, page: number): Promise<Paged<PractitionerChoice>> {
  const current = clampPage(page);
  const needle = search.trim().slice(0, 100);
  if (!needle) return { items: [], page: 1, pages: 1, total: 0 };
  const searchFields = await store.indexedSearchFields(PRACTITIONERS);
  const { items, total } = await store.query(
    PRACTITIONERS,
    {
      fullText: needle,
      sort: [{ path: "data.name.iv" }, { path: "id" }],
      skip: (current - 1) * PRACTITIONER_PAGE_SIZE,
      take: PRACTITIONER_PAGE_SIZE,
    },
    searchFields ? { searchFields } : {},
  );
  return { items: items.map(toChoice), page: current, pages: pages(total, PRACTITIONER_PAGE_SIZE), total };
}

/** One published practitioner, or undefined (an unknown id is the editor's mistake, not a 500). */
export async function findPractitioner(store: ContentStore, id: string): Promise<PractitionerChoice | undefined> {
  if (!/^[\w-]{1,100}$/.test(id)) return undefined;
  const { items } = await store.query(PRACTITIONERS, { ids: [id], take: 1 });
  return items[0] && toChoice(items[0]);
}

const inRange = (practitionerId: string, fromMs: number, toMs: number): FilterNode => ({
  and: [
    { path: "data.practitioner.iv", op: "eq", value: practitionerId },
    { path: "data.start.iv", op: "ge", value: new Date(fromMs).toISOString() },
    { path: "data.start.iv", op: "lt", value: new Date(toMs).toISOString() },
  ],
});

/** A page of the practitioner's slots starting in [fromMs, toMs), by start, with who booked the booked ones. */
export async function listSlots(store: ContentStore, practitionerId: string, range: { fromMs: number; toMs: number }, page: number): Promise<Paged<AdminSlot>> {
  const current = clampPage(page);
  const { items, total } = await store.query(APPOINTMENTS, {
    filter: inRange(practitionerId, range.fromMs, range.toMs),
    sort: [{ path: "data.start.iv" }],
    skip: (current - 1) * SLOT_PAGE_SIZE,
    take: SLOT_PAGE_SIZE,
  });
  const bookings = new BookingStore(store.db);
  const slots = await Promise.all(
    items.map(async (item): Promise<AdminSlot> => {
      const slot = toSlot(item);
      const row = slot.booked ? await bookings.get(item.id) : undefined;
      return { ...slot, booker: row ? { name: row.name, email: row.email, phone: row.phone, note: row.note } : null };
    }),
  );
  return { items: slots, page: current, pages: pages(total, SLOT_PAGE_SIZE), total };
}

export type CreateOutcome = { ok: true; ids: string[] } | { ok: false; overlaps: NewSlot[] };

/**
 * Creates the slots, published and free, in one createMany (all or none), unless one of them
 * overlaps another or an existing slot of the practitioner. Checked and written in one
 * transaction, so two editors creating at once cannot both slip past the check.
 */
export async function createSlots(store: ContentStore, practitionerId: string, fresh: readonly NewSlot[], who: Pick<WriteOptions, "by" | "note">): Promise<CreateOutcome> {
  if (!fresh.length) return { ok: true, ids: [] };
  const starts = fresh.map((s) => Date.parse(s.start));
  const fromMs = Math.min(...starts) - LONGEST_SLOT_MINUTES * MINUTE;
  const toMs = Math.max(...fresh.map((s) => Date.parse(s.start) + s.durationMinutes * MINUTE));
  return store.sequence(async (tx) => {
    const { items } = await tx.query(APPOINTMENTS, { filter: inRange(practitionerId, fromMs, toMs), sort: [{ path: "data.start.iv" }] }, { all: true, noTotal: true });
    const clashes = overlapping(fresh, items.map(toSlot));
    if (clashes.length) return { ok: false, overlaps: clashes };
    const created = await tx.createMany(
      APPOINTMENTS,
      fresh.map((s) => ({
        publish: true,
        data: { practitioner: { iv: [practitionerId] }, start: { iv: s.start }, durationMinutes: { iv: s.durationMinutes }, booked: { iv: false } },
      })),
      who,
    );
    return { ok: true, ids: created.map((c) => c.id) };
  });
}

export type RemoveOutcome = { ok: true; removed: Array<{ id: string; version: number }> } | { ok: false; reason: "unknown" | "booked"; id: string };

/**
 * Deletes free slots, all or none: a booked one (flag or booking row) refuses the lot, as does an
 * id that is no slot of this practitioner. In one transaction, so a booking arriving meanwhile
 * either comes first (and refuses the delete) or finds its slot gone. On a remote Squidex each
 * delete carries the version read here (If-Match): a booking there meanwhile refuses it.
 */
export async function removeFreeSlots(store: ContentStore, practitionerId: string, ids: readonly string[], who: Pick<WriteOptions, "by" | "note">): Promise<RemoveOutcome> {
  return store.sequence(async (tx) => {
    const bookings = new BookingStore(tx.db);
    const removed: Array<{ id: string; version: number }> = [];
    // Every slot checked before the first is deleted: a refusal leaves all of them in place.
    for (const id of new Set(ids)) {
      const item = await tx.get(APPOINTMENTS, id, { unpublished: true });
      const practitioner = item ? iv(item, "practitioner") : undefined;
      if (!item || !Array.isArray(practitioner) || practitioner[0] !== practitionerId) return { ok: false, reason: "unknown", id };
      if (iv(item, "booked") === true || (await bookings.get(id))) return { ok: false, reason: "booked", id };
      removed.push({ id, version: item.version });
    }
    for (const { id, version } of removed) await tx.delete(APPOINTMENTS, id, { ...who, expectedVersion: version });
    return { ok: true, removed };
  });
}
