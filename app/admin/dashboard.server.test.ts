import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoSchemas } from "~/content/seed/schemas";
import type { ContentStore } from "~/content/store";
import { Outbox } from "~/mail/outbox";
import { sqliteStoreBackend, type StoreBackend } from "../../tests/support/store-backends";
import { berlinDayBounds, itemTitle, loadDashboard, RECENT_CHANGES } from "./dashboard.server";

/**
 * The dashboard's numbers on a real SQLite store: registrations waiting, failed mails as the reader
 * may see them, today's bookings by the Berlin calendar day, and the recent changes with names and
 * titles in place of ids.
 */

const PRACTITIONERS = "gm-content-practitioners";

describe("the Berlin day", () => {
  it("runs from Berlin midnight to Berlin midnight, 23 or 25 hours around the clock changes", () => {
    expect(berlinDayBounds(new Date("2026-07-10T21:59:00Z"))).toEqual({ from: "2026-07-09T22:00:00.000Z", to: "2026-07-10T22:00:00.000Z" });
    expect(berlinDayBounds(new Date("2026-07-10T22:00:00Z"))).toEqual({ from: "2026-07-10T22:00:00.000Z", to: "2026-07-11T22:00:00.000Z" });
    expect(berlinDayBounds(new Date("2026-01-15T12:00:00Z"))).toEqual({ from: "2026-01-14T23:00:00.000Z", to: "2026-01-15T23:00:00.000Z" });
    expect(berlinDayBounds(new Date("2026-03-29T12:00:00Z"))).toEqual({ from: "2026-03-28T23:00:00.000Z", to: "2026-03-29T22:00:00.000Z" });
    expect(berlinDayBounds(new Date("2026-10-25T12:00:00Z"))).toEqual({ from: "2026-10-24T22:00:00.000Z", to: "2026-10-25T23:00:00.000Z" });
  });
});

describe("on a store", () => {
  let backend: StoreBackend;
  let store: ContentStore;
  let outbox: Outbox;
  const editor = { kind: "user" as const, userId: "u-erika", email: "erika@example.org", superuser: false };
  const NOW = new Date("2026-07-10T10:00:00Z");

  beforeAll(async () => {
    backend = sqliteStoreBackend("dashboard", 4096);
    store = await backend.openStore();
    await store.migrate();
    outbox = new Outbox(store.db);
    for (const s of demoSchemas) await store.upsertSchema(s);
    const base = { websites: { iv: ["PRAXISNETZ"] }, city: { iv: "Berlin" } };
    await store.create(PRACTITIONERS, { ...base, name: { iv: "Anna Approved" }, display: { iv: true } }, { id: "shown", publish: true, by: editor });
    await store.create(PRACTITIONERS, { ...base, name: { iv: "Nina New" }, display: { iv: false } }, { id: "new-one" });
    await store.create(PRACTITIONERS, { ...base, name: { iv: "Rita Rejected" }, display: { iv: false } }, { id: "rejected" });
    await store.changeStatus(PRACTITIONERS, "rejected", "Archived", { by: { ...editor, userId: "u-gone", email: "gone@example.org" } });
    await store.create(PRACTITIONERS, { ...base, name: { iv: "Dora Deleted" }, display: { iv: true } }, { id: "deleted", publish: true });
    await store.delete(PRACTITIONERS, "deleted", { by: { ...editor, superuser: true } });

    const mail = (kind: string) => ({ kind, to: "x@example.org", subject: "s", text: "t", html: "h" });
    for (const kind of ["booking-confirmation", "user-invite", "registration-approved"]) {
      const id = await outbox.enqueue(mail(kind), undefined, NOW);
      const claim = await outbox.claimNext(NOW, new Date(NOW.getTime() + 60_000));
      expect(claim?.entry.id).toBe(id);
      await outbox.markFailed(claim!, "refused", NOW, null);
    }
    await outbox.enqueue(mail("booking-confirmation"), undefined, NOW);

    // Bookings: two today (Berlin), one just before midnight yesterday, one tomorrow.
    const booking = (n: number, startsAt: string) => ({
      appointment_id: `slot-${n}`,
      id: `b-${n}`,
      practitioner_id: "shown",
      starts_at: startsAt,
      language: "de",
      idempotency_key: `k-${n}`,
      name: "Booker",
      email: "booker@example.org",
      phone: null,
      note: null,
      created: NOW.toISOString(),
    });
    await store.db
      .insertInto("bookings")
      .values([booking(1, "2026-07-09T22:00:00.000Z"), booking(2, "2026-07-10T21:59:00.000Z"), booking(3, "2026-07-09T21:59:00.000Z"), booking(4, "2026-07-10T22:00:00.000Z")])
      .execute();
  });

  afterAll(async () => {
    await store.close();
    await backend.dispose();
  });

  const load = (superuser: boolean) =>
    loadDashboard({ store, db: store.db, mail: outbox, reader: { superuser }, userName: async (id) => (id === "u-erika" ? "Erika Prüfer" : undefined) }, NOW);

  it("counts what needs attention", async () => {
    const editorView = await load(false);
    expect(editorView).toMatchObject({ registrations: 1, failedMails: 2, draftPages: 0, changedPages: 0, bookingsToday: 2 });
    // A superuser also counts the account mails editors never see.
    expect((await load(true)).failedMails).toBe(3);
  });

  it("lists the last changes with names and titles, not ids", async () => {
    const { recent } = await load(false);
    expect(recent.length).toBeLessThanOrEqual(RECENT_CHANGES);
    // Written within a millisecond or two: found by what they did, not by their order.
    const by = (action: string) => recent.find((r) => r.action === action);
    expect(by("delete-content")).toMatchObject({ who: "Erika Prüfer", title: null, href: null });
    expect(by("archive-content")).toMatchObject({ who: "gone@example.org", title: "Rita Rejected", href: "/manage/content/gm-content-practitioners/rejected" });
    expect(by("create-content")).toMatchObject({ who: "Erika Prüfer", title: "Anna Approved" });
  });

  it("collapses a run of the same change into one entry with its count, and names an appointment by its practitioner and start", async () => {
    const slots = [];
    for (let i = 0; i < 12; i++) {
      const start = new Date(Date.UTC(2026, 11, 1 + i, 8)).toISOString();
      slots.push(await store.create("gm-appointments", { practitioner: { iv: ["rejected"] }, start: { iv: start }, durationMinutes: { iv: 30 }, booked: { iv: false } }, { publish: true }));
    }
    for (const [i, slot] of slots.entries())
      await store.db
        .insertInto("audit_log")
        .values({ id: `series-${String(i).padStart(2, "0")}`, at: new Date(NOW.getTime() + 60_000 + i).toISOString(), user_id: "u-erika", user_email: "erika@example.org", action: "create-appointment", schema_name: "gm-appointments", item_id: slot.id, version: 1, detail: null })
        .execute();
    const { recent } = await load(false);
    const series = recent.filter((r) => r.action === "create-appointment");
    expect(series).toHaveLength(1);
    expect(series[0]).toMatchObject({ who: "Erika Prüfer", count: 12, title: "Rita Rejected", when: slots.at(-1)!.data.start!.iv });
    // The rest of the list is still there: older changes fill the entries after it.
    expect(recent.length).toBeGreaterThan(1);
    expect(recent.filter((r) => r.count === 1).length).toBe(recent.length - 1);
  });

  it("takes a page's title, else a name", () => {
    expect(itemTitle({ data: { title: { de: "Startseite", en: "Home" } } } as never)).toBe("Startseite");
    expect(itemTitle({ data: { name: { iv: " Nina " } } } as never)).toBe("Nina");
    expect(itemTitle({ data: {} } as never)).toBeNull();
  });
});
