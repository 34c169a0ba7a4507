import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BookingService } from "~/booking/service";
import { ContentCache } from "~/content/cache";
import { createEmbeddedClient } from "~/content/client";
import { demoSchemas } from "~/content/seed/schemas";
import type { ContentStore } from "~/content/store";
import { TokenSigner } from "~/lib/tokens.server";
import { Outbox } from "~/mail/outbox";
import { sqliteStoreBackend, type StoreBackend } from "../../../tests/support/store-backends";
import { dayNumber, berlinToUtc, expandSeries } from "./series";
import { APPOINTMENTS, createSlots, findPractitioner, listSlots, PRACTITIONERS, removeFreeSlots, searchPractitioners } from "./slots.server";

/**
 * Slot management and the editor's cancel on a real SQLite store: nothing of our own mocked, time
 * passed in. The slots are in 2030, so the test never depends on today.
 */

const NOW = new Date("2030-06-01T08:00:00.000Z");
const ACTOR = { by: { kind: "user" as const, userId: "editor-test", email: "editor@example.org", superuser: false } };
const DAY = 86_400_000;
let backend: StoreBackend;
let store: ContentStore;
let outbox: Outbox;
let service: BookingService;

beforeAll(async () => {
  backend = sqliteStoreBackend("appointments-admin-test", 1024 * 1024);
  store = await backend.openStore();
  await store.migrate();
  for (const schema of demoSchemas.filter((s) => s.name === PRACTITIONERS || s.name === APPOINTMENTS)) await store.upsertSchema(schema);
  const cache = new ContentCache();
  store.onChange((change) => cache.invalidate(change));
  const content = createEmbeddedClient({ store, cache, siteName: "praxisnetz" });
  outbox = new Outbox(store.db);
  service = new BookingService(store, content, outbox, new TokenSigner(TokenSigner.newKey(), () => NOW.getTime()), { siteName: "praxisnetz" });
  const practitioner = (name: string) => ({ name: { iv: name }, display: { iv: true }, websites: { iv: ["PRAXISNETZ"] }, city: { iv: "Berlin" }, email: { iv: "praxis@example.org" } });
  await store.createMany(PRACTITIONERS, [
    ...Array.from({ length: 45 }, (_, i) => ({ id: `prac-${i}`, publish: true, data: practitioner(`Zora Muster ${String(i).padStart(2, "0")}`) })),
    { id: "prac-anna", publish: true, data: practitioner("Anna Ärztin") },
    { id: "prac-koeln", publish: true, data: { ...practitioner("Karl Muster"), city: { iv: "Köln" } } },
  ]);
});

afterAll(async () => {
  await store?.close();
  await backend?.dispose();
});

const series = (from: string, to: string, weekdays = [1, 3]) => {
  const e = expandSeries({ weekdays, time: "10:00", durationMinutes: 30, from, to }, NOW);
  if (!e.ok) throw new Error(JSON.stringify(e.problems));
  return e.slots;
};
const june = { fromMs: berlinToUtc(dayNumber("2030-06-01")!, 0)!, toMs: berlinToUtc(dayNumber("2030-07-01")!, 0)! };

describe("practitioners", () => {
  it("are searched by name or city in the database, paged by name; an empty search lists nobody", async () => {
    const first = await searchPractitioners(store, "muster", 1);
    expect(first).toMatchObject({ total: 46, pages: 3, page: 1 });
    expect(first.items[0]).toMatchObject({ id: "prac-koeln", name: "Karl Muster", city: "Köln" });
    expect(first.items[1]).toMatchObject({ id: "prac-0", name: "Zora Muster 00", city: "Berlin" });
    const last = await searchPractitioners(store, "muster", 3);
    expect(last.items.map((p) => p.id)).toEqual(["prac-39", "prac-40", "prac-41", "prac-42", "prac-43", "prac-44"]);
    expect((await searchPractitioners(store, "koeln", 1)).items.map((p) => p.id)).toEqual(["prac-koeln"]);
    expect((await searchPractitioners(store, "muster berlin", 1)).total).toBe(45);
    expect(await searchPractitioners(store, "  ", 1)).toEqual({ items: [], page: 1, pages: 1, total: 0 });
    expect((await searchPractitioners(store, "ärztin", 1)).items.map((p) => p.id)).toEqual(["prac-anna"]);
    expect(await findPractitioner(store, "prac-nobody")).toBeUndefined();
    expect(await findPractitioner(store, "../x")).toBeUndefined();
  });
});

describe("slots", () => {
  it("are created published in one go and listed by practitioner and range, paged in the database", async () => {
    const created = await createSlots(store, "prac-1", series("2030-06-03", "2030-06-30"), ACTOR);
    expect(created.ok && created.ids.length).toBe(8);
    await createSlots(store, "prac-2", series("2030-06-03", "2030-06-30"), ACTOR);
    const listed = await listSlots(store, "prac-1", june, 1);
    expect(listed.total).toBe(8);
    expect(listed.items.map((s) => s.start)).toEqual([...listed.items.map((s) => s.start)].sort());
    expect(listed.items[0]).toMatchObject({ start: "2030-06-03T08:00:00.000Z", durationMinutes: 30, booked: false, booker: null });
    const item = await store.get(APPOINTMENTS, listed.items[0]!.id);
    expect(item).toMatchObject({ status: "Published", createdBy: "subject:editor-test" });
    // A one-week range.
    const week = await listSlots(store, "prac-1", { fromMs: june.fromMs, toMs: berlinToUtc(dayNumber("2030-06-08")!, 0)! }, 1);
    expect(week.total).toBe(2);
  });

  it("pages a practitioner's many slots", async () => {
    const made = await createSlots(store, "prac-3", expandSeriesOk({ weekdays: [1, 2, 3, 4, 5], time: "08:00", until: "18:00", durationMinutes: 30, from: "2030-06-03", to: "2030-06-07" }), ACTOR);
    expect(made.ok && made.ids.length).toBe(100);
    await createSlots(store, "prac-3", expandSeriesOk({ weekdays: [1], time: "08:00", durationMinutes: 30, from: "2030-06-10", to: "2030-06-10" }), ACTOR);
    const second = await listSlots(store, "prac-3", june, 2);
    expect(second).toMatchObject({ total: 101, pages: 2, page: 2 });
    expect(second.items.map((s) => s.start)).toEqual(["2030-06-10T06:00:00.000Z"]);
  });

  it("refuses slots that overlap the practitioner's existing ones, writing none; other practitioners do not count", async () => {
    const clash = series("2030-06-03", "2030-06-03", [1]).map((s) => ({ ...s, start: new Date(Date.parse(s.start) + 15 * 60_000).toISOString() }));
    const free = series("2030-06-04", "2030-06-04", [2]);
    const outcome = await createSlots(store, "prac-1", [...free, ...clash], ACTOR);
    expect(outcome).toEqual({ ok: false, overlaps: clash });
    expect((await listSlots(store, "prac-1", june, 1)).total).toBe(8);
    expect((await createSlots(store, "prac-4", clash, ACTOR)).ok).toBe(true);
  });

  it("deletes free slots only: a booked one among them refuses all", async () => {
    const { items } = await listSlots(store, "prac-2", june, 1);
    const [a, b, c] = items;
    await service.book(c!.id, { name: "Berta Buch", email: "berta@example.org", phone: "+49 30 1", language: "de" }, { origin: "http://x", now: NOW });
    expect(await removeFreeSlots(store, "prac-2", [a!.id, c!.id], ACTOR)).toEqual({ ok: false, reason: "booked", id: c!.id });
    expect(await store.get(APPOINTMENTS, a!.id)).toBeDefined();
    expect(await removeFreeSlots(store, "prac-1", [a!.id], ACTOR)).toEqual({ ok: false, reason: "unknown", id: a!.id });
    const removed = await removeFreeSlots(store, "prac-2", [a!.id, b!.id], ACTOR);
    expect(removed.ok && removed.removed.map((r) => r.id)).toEqual([a!.id, b!.id]);
    expect(await store.get(APPOINTMENTS, a!.id)).toBeUndefined();
    expect((await listSlots(store, "prac-2", june, 1)).total).toBe(6);
  });
});

describe("an editor cancelling a booking", () => {
  it("frees the slot, deletes the booker's details and mails the booker the calendar CANCEL", async () => {
    const { items } = await listSlots(store, "prac-4", june, 1);
    const slot = items[0]!;
    const { booking } = await service.book(slot.id, { name: "Carl Kunde", email: "carl@example.org", phone: "+49 30 2", note: "Rollstuhl", language: "en" }, { origin: "http://x", now: NOW });
    const seen = (await listSlots(store, "prac-4", june, 1)).items[0]!;
    expect(seen).toMatchObject({ booked: true, booker: { name: "Carl Kunde", email: "carl@example.org", phone: "+49 30 2", note: "Rollstuhl" } });

    expect(await service.cancelBySlot(slot.id, { now: NOW })).toEqual({ ok: true, bookingId: booking.id, email: "carl@example.org", start: slot.start });
    expect((await listSlots(store, "prac-4", june, 1)).items[0]).toMatchObject({ booked: false, booker: null });
    expect(await store.db.selectFrom("bookings").selectAll().where("appointment_id", "=", slot.id).execute()).toEqual([]);
    const [mail] = await outbox.list({ to: "carl@example.org", kind: "booking-cancellation" });
    expect(mail).toBeDefined();
    const ics = mail!.attachments[0]!.content;
    expect(ics).toContain("METHOD:CANCEL");
    expect(ics).toContain("STATUS:CANCELLED");
    expect(ics).toContain(`UID:${booking.id}@praxisnetz`);
    // The mail speaks the booker's language.
    expect(mail!.subject).toMatch(/cancel/i);

    // Twice: nothing left, no second mail.
    expect(await service.cancelBySlot(slot.id, { now: NOW })).toEqual({ ok: false, reason: "gone" });
    expect(await outbox.list({ to: "carl@example.org", kind: "booking-cancellation" })).toHaveLength(1);
  });

  it("leaves an appointment that has begun", async () => {
    const slot = (await listSlots(store, "prac-1", june, 1)).items[1]!;
    await service.book(slot.id, { name: "Dora", email: "dora@example.org", phone: "+49 30 3", language: "de" }, { origin: "http://x", now: NOW });
    expect(await service.cancelBySlot(slot.id, { now: new Date(Date.parse(slot.start) + DAY) })).toEqual({ ok: false, reason: "past" });
    expect((await listSlots(store, "prac-1", june, 1)).items[1]).toMatchObject({ booked: true, booker: { name: "Dora" } });
  });
});

function expandSeriesOk(req: Parameters<typeof expandSeries>[0]) {
  const e = expandSeries(req, NOW);
  if (!e.ok) throw new Error(JSON.stringify(e.problems));
  return e.slots;
}
