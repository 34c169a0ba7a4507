import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContentCache } from "~/content/cache";
import { createEmbeddedClient, type ContentClient } from "~/content/client";
import { ContentError } from "~/content/errors";
import { demoSchemas } from "~/content/seed/schemas";
import type { ContentStore } from "~/content/store";
import { TokenSigner } from "~/lib/tokens.server";
import { Outbox, type OutboxEntry } from "~/mail/outbox";
import { postgresStoreBackend, sqliteStoreBackend, type StoreBackend } from "../../tests/support/store-backends";
import { BookingStore } from "./bookings";
import { BookingError, BookingService, type BookerInput } from "./service";

/**
 * The booking flow on a real store: a SQLite file always, PostgreSQL when TEST_DATABASE_URL is set
 * (its own schema, dropped afterwards). Nothing of our own is mocked; time is passed in (`now`,
 * and the token signer's clock) so slots and links expire when a test says so.
 */

const APPOINTMENTS = "gm-appointments";
const PRACTITIONERS = "gm-content-practitioners";
const NOW = new Date("2030-06-03T08:00:00.000Z");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (ms: number) => new Date(NOW.getTime() + ms);
const ORIGIN = "http://localhost:3000";

function bookingSuite(name: string, open: (() => StoreBackend) | undefined) {
  (open ? describe : describe.skip)(name, () => {
    let backend: StoreBackend;
    let store: ContentStore;
    let content: ContentClient;
    let outbox: Outbox;
    let clock = NOW.getTime();
    let service: BookingService;
    let slotCount = 0;

    beforeAll(async () => {
      backend = open!();
      store = await backend.openStore();
      await store.migrate();
      for (const schema of demoSchemas.filter((s) => s.name === PRACTITIONERS || s.name === APPOINTMENTS)) await store.upsertSchema(schema);
      const cache = new ContentCache();
      store.onChange((change) => cache.invalidate(change));
      content = createEmbeddedClient({ store, cache, siteName: "praxisnetz" });
      outbox = new Outbox(store.db);
      service = new BookingService(store, content, outbox, new TokenSigner(TokenSigner.newKey(), () => clock), { siteName: "praxisnetz", retentionDays: 90 });
      const practitioner = (name: string, display: boolean) => ({
        name: { iv: name },
        display: { iv: display },
        websites: { iv: ["PRAXISNETZ"] },
        city: { iv: "Berlin" },
        street: { iv: "Torstraße 1" },
        zip: { iv: "10119" },
        email: { iv: "praxis@example.org" },
      });
      await store.create(PRACTITIONERS, practitioner("Dr. Mia <Kern> & Partner", true), { id: "prac-visible", publish: true });
      await store.create(PRACTITIONERS, practitioner("Hanna Hidden", false), { id: "prac-hidden", publish: true });
      await store.create(PRACTITIONERS, practitioner("Olaf Other", true), { id: "prac-other", publish: true });
    });

    afterAll(async () => {
      await store?.close();
      await backend?.dispose();
    });

    /** A published slot of a practitioner, starting `fromNow` ms after NOW. */
    async function slot(fromNow: number, opts: { practitioner?: string; publish?: boolean; booked?: boolean } = {}): Promise<string> {
      const id = `slot-${++slotCount}`;
      const data = {
        practitioner: { iv: [opts.practitioner ?? "prac-visible"] },
        start: { iv: at(fromNow).toISOString() },
        durationMinutes: { iv: 45 },
        booked: { iv: opts.booked ?? false },
      };
      await store.create(APPOINTMENTS, data, { id, publish: opts.publish ?? true });
      return id;
    }

    const booker = (n: number | string, more: Partial<BookerInput> = {}): BookerInput => ({
      name: `Booker ${n}`,
      email: `booker${n}@example.org`,
      phone: `+49 30 ${String(n).padStart(6, "0")}`,
      note: null,
      language: "de",
      ...more,
    });

    const mails = async (to: string, kind?: string) => (await outbox.list({ to, ...(kind ? { kind } : {}), limit: 500 })) as OutboxEntry[];
    const rows = (slotId: string) => store.db.selectFrom("bookings").selectAll().where("appointment_id", "=", slotId).execute();
    const visitorSlot = (id: string) => content.get(APPOINTMENTS, id, { audience: "visitor", language: "de" });
    const cancelToken = (mail: OutboxEntry) => {
      const url = new URL(/https?:\/\/\S+\/appointments\/cancel\?token=\S+/.exec(mail.text)![0]);
      return url.searchParams.get("token")!;
    };
    const ics = (mail: OutboxEntry) => mail.attachments[0]!.content;
    const refusal = async (promise: Promise<unknown>) => {
      const error = await promise.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(BookingError);
      return error as BookingError;
    };

    it("lets exactly one of 200 simultaneous bookers have the slot", async () => {
      const id = await slot(2 * DAY);
      const results = await Promise.allSettled(Array.from({ length: 200 }, (_, i) => service.book(id, booker(`race${i}`), { origin: ORIGIN, now: NOW })));
      const won = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
      const lost = results.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
      expect(won).toHaveLength(1);
      expect(won[0]!.created).toBe(true);
      expect(lost).toHaveLength(199);
      for (const error of lost) {
        expect(error).toBeInstanceOf(ContentError);
        expect(error).toMatchObject({ statusCode: 409, reason: "taken", message: "Dieser Termin wurde gerade von jemand anderem gebucht." });
      }
      expect((await visitorSlot(id))?.data.booked).toBe(true);
      expect((await store.get(APPOINTMENTS, id))?.data.booked).toEqual({ iv: true });
      expect((await store.get(APPOINTMENTS, id, { unpublished: true }))?.data.booked).toEqual({ iv: true });
      const stored = await rows(id);
      expect(stored).toHaveLength(1);
      expect(stored[0]!.email).toBe(won[0]!.booking.email);
      const confirmations = (await outbox.list({ kind: "booking-confirmation", limit: 500 })).filter((m) => m.to.startsWith("bookerrace"));
      expect(confirmations).toHaveLength(1);
      expect(confirmations[0]!.to).toBe(won[0]!.booking.email);
    });

    it("returns the booker's booking, without their details in the slot's content", async () => {
      const id = await slot(3 * DAY);
      const me = booker("view", { note: "Bitte im Erdgeschoss", language: "en" });
      const { booking, created } = await service.book(id, me, { origin: ORIGIN, now: NOW });
      expect(created).toBe(true);
      expect(booking).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        appointmentId: id,
        practitionerId: "prac-visible",
        practitionerName: "Dr. Mia <Kern> & Partner",
        start: at(3 * DAY).toISOString(),
        end: at(3 * DAY + 45 * 60_000).toISOString(),
        name: me.name,
        email: me.email,
        phone: me.phone,
        note: "Bitte im Erdgeschoss",
        language: "en",
      });
      const contentReads = [
        await visitorSlot(id),
        await content.query(APPOINTMENTS, { ids: [id] }, { audience: "visitor", language: "de" }),
        await content.get(APPOINTMENTS, id, { audience: "system", language: "de" }),
        await store.get(APPOINTMENTS, id),
        await store.get(APPOINTMENTS, id, { unpublished: true }),
      ];
      for (const read of contentReads) {
        const json = JSON.stringify(read);
        expect(json).toContain(id);
        for (const secret of [me.name, me.email, me.phone, "Erdgeschoss"]) expect(json).not.toContain(secret);
      }
      // The booking row is where they are, with what the retention and the mails need.
      expect(await rows(id)).toEqual([
        expect.objectContaining({ id: booking.id, practitioner_id: "prac-visible", starts_at: booking.start, language: "en", idempotency_key: expect.stringMatching(/^[0-9a-f]{64}$/), email: me.email }),
      ]);
    });

    it("gives a repeat of the same request the same booking, and anyone else 409", async () => {
      const id = await slot(4 * DAY);
      const first = await service.book(id, booker("idem"), { origin: ORIGIN, now: NOW, idempotencyKey: "key-idem-0001" });
      const again = await service.book(id, booker("idem"), { origin: ORIGIN, now: NOW, idempotencyKey: "key-idem-0001" });
      expect(first.created).toBe(true);
      expect(again).toEqual({ booking: first.booking, created: false });
      // Concurrent repeats too (a retried request racing its original).
      const repeats = await Promise.all(Array.from({ length: 10 }, () => service.book(id, booker("idem"), { origin: ORIGIN, now: NOW, idempotencyKey: "key-idem-0001" })));
      for (const r of repeats) expect(r).toEqual({ booking: first.booking, created: false });
      expect(await mails("bookeridem@example.org")).toHaveLength(1);

      // The same person with another key, or someone else with this key: taken.
      expect(await refusal(service.book(id, booker("idem"), { origin: ORIGIN, now: NOW, idempotencyKey: "key-idem-0002" }))).toMatchObject({ statusCode: 409, reason: "taken" });
      expect(await refusal(service.book(id, booker("thief"), { origin: ORIGIN, now: NOW, idempotencyKey: "key-idem-0001" }))).toMatchObject({ statusCode: 409, reason: "taken" });
      expect(await refusal(service.book(id, booker("idem", { note: "anders" }), { origin: ORIGIN, now: NOW, idempotencyKey: "key-idem-0001" }))).toMatchObject({ statusCode: 409, reason: "taken" });
      expect(await refusal(service.book(id, booker("idem"), { origin: ORIGIN, now: NOW }))).toMatchObject({ statusCode: 409 });
      const english = await refusal(service.book(id, booker("other", { language: "en" }), { origin: ORIGIN, now: NOW, idempotencyKey: "key-idem-0003" }));
      expect(english.message).toBe("This appointment has just been booked by someone else.");
      expect(english.messages).toEqual({ de: "Dieser Termin wurde gerade von jemand anderem gebucht.", en: "This appointment has just been booked by someone else." });
      expect(await mails("bookeridem@example.org")).toHaveLength(1);
      expect(await rows(id)).toHaveLength(1);
    });

    it("treats a double-click without a key as one booking: the same details give the same booking", async () => {
      const id = await slot(5 * DAY);
      const me = booker("click", { note: "Erstbesuch" });
      const [a, b] = await Promise.all([service.book(id, me, { origin: ORIGIN, now: NOW }), service.book(id, { ...me, email: "BookerClick@Example.org" }, { origin: ORIGIN, now: NOW })]);
      expect([a.created, b.created].sort()).toEqual([false, true]);
      expect(a.booking.id).toBe(b.booking.id);
      // One mail, to the address as the winning request spelled it.
      expect([...(await mails("bookerclick@example.org")), ...(await mails("BookerClick@Example.org"))]).toHaveLength(1);
      // Someone who knows the name, address and phone but not the note cannot read the booking back.
      expect(await refusal(service.book(id, { ...me, note: null }, { origin: ORIGIN, now: NOW }))).toMatchObject({ statusCode: 409 });
    });

    it("lets the database refuse a second booking even when the slot's flag says free", async () => {
      const id = await slot(6 * DAY);
      // A booking row without the flag (as if a check had passed and another insert came first).
      await new BookingStore(store.db).put(id, { name: "Erste", email: "erste@example.org", phone: null, note: null }, NOW);
      expect((await visitorSlot(id))?.data.booked).toBe(false);
      expect(await refusal(service.book(id, booker("second"), { origin: ORIGIN, now: NOW }))).toMatchObject({ statusCode: 409, reason: "taken" });
      expect((await visitorSlot(id))?.data.booked).toBe(false);
      expect(await mails("bookersecond@example.org")).toHaveLength(0);
    });

    it("refuses past slots (409), slots a visitor cannot see and unknown ids (404)", async () => {
      const past = await slot(-HOUR);
      const now = await slot(0);
      const hidden = await slot(DAY, { practitioner: "prac-hidden" });
      const draft = await slot(DAY, { publish: false });
      const editorBooked = await slot(DAY, { booked: true });
      expect(await refusal(service.book(past, booker("p"), { origin: ORIGIN, now: NOW }))).toMatchObject({ statusCode: 409, reason: "past", message: "Dieser Termin liegt in der Vergangenheit." });
      expect(await refusal(service.book(now, booker("p", { language: "en" }), { origin: ORIGIN, now: NOW }))).toMatchObject({ statusCode: 409, message: "This appointment is in the past." });
      for (const id of [hidden, draft, "no-such-slot", "../etc/passwd"]) {
        expect(await refusal(service.book(id, booker("p", { language: "en" }), { origin: ORIGIN, now: NOW }))).toMatchObject({ statusCode: 404, reason: "missing", message: "This appointment does not exist." });
      }
      expect(await refusal(service.book(hidden, booker("p"), { origin: ORIGIN, now: NOW }))).toMatchObject({ message: "Diesen Termin gibt es nicht." });
      // Marked booked by an editor, without a booking row: taken all the same.
      expect(await refusal(service.book(editorBooked, booker("p"), { origin: ORIGIN, now: NOW }))).toMatchObject({ statusCode: 409, reason: "taken" });
      for (const id of [past, now, hidden, draft, editorBooked]) expect(await rows(id)).toHaveLength(0);
      expect(await mails("bookerp@example.org")).toHaveLength(0);
    });

    it("mails a confirmation with a working cancel link and a calendar entry; cancelling frees the slot for the next booker", async () => {
      const id = await slot(7 * DAY);
      const { booking } = await service.book(id, booker("cancel", { name: "Jana <b>Wünsche</b>" }), { origin: ORIGIN, now: NOW });
      const [confirmation] = await mails("bookercancel@example.org", "booking-confirmation");
      expect(confirmation!.subject).toContain("Dr. Mia <Kern> & Partner");
      expect(confirmation!.text).toContain("Guten Tag Jana <b>Wünsche</b>,");
      expect(confirmation!.text).toContain("Montag, 10. Juni 2030, 10:00–10:45 Uhr (deutsche Zeit)");
      expect(confirmation!.text).toContain("Torstraße 1, 10119 Berlin");
      expect(confirmation!.html).toContain("Jana &lt;b&gt;Wünsche&lt;/b&gt;");
      expect(confirmation!.html).toContain("Dr. Mia &lt;Kern&gt; &amp; Partner");
      expect(confirmation!.html).not.toMatch(/<b>|<Kern>/);
      const token = cancelToken(confirmation!);
      expect(confirmation!.text).toContain(`${ORIGIN}/appointments/cancel?token=`);
      const entry = ics(confirmation!);
      expect(confirmation!.attachments[0]).toMatchObject({ filename: "termin.ics", contentType: "text/calendar; charset=utf-8; method=PUBLISH" });
      expect(entry).toContain(`UID:${booking.id}@praxisnetz`);
      expect(entry).toMatch(/^SEQUENCE:0$/m);
      expect(entry).toMatch(/^METHOD:PUBLISH$/m);
      expect(entry).toMatch(/^PRODID:-\/\/Praxisnetz\/\/praxisnetz\/\/DE$/m);
      expect(entry).toMatch(/^DTSTART:20300610T080000Z$/m);
      expect(entry).toMatch(/^DTEND:20300610T084500Z$/m);
      expect(entry).toContain("SUMMARY:Termin bei Dr. Mia <Kern> & Partner");
      expect(entry).not.toMatch(/bookercancel|Wünsche|ATTENDEE/);

      expect(await service.describeCancellation(token, NOW)).toEqual({ ok: true, bookingId: booking.id, appointmentId: id, start: booking.start, practitionerName: "Dr. Mia <Kern> & Partner", language: "de" });
      expect(await service.cancel(token, { now: NOW })).toMatchObject({ ok: true, bookingId: booking.id });
      expect((await visitorSlot(id))?.data.booked).toBe(false);
      expect((await store.get(APPOINTMENTS, id, { unpublished: true }))?.data.booked).toEqual({ iv: false });
      expect(await rows(id)).toHaveLength(0);
      const [cancellation] = await mails("bookercancel@example.org", "booking-cancellation");
      const cancelled = ics(cancellation!);
      expect(cancelled).toContain(`UID:${booking.id}@praxisnetz`);
      expect(cancelled).toMatch(/^SEQUENCE:1$/m);
      expect(cancelled).toMatch(/^METHOD:CANCEL$/m);
      expect(cancelled).toMatch(/^STATUS:CANCELLED$/m);
      expect(cancellation!.attachments[0]!.contentType).toBe("text/calendar; charset=utf-8; method=CANCEL");

      // Twice: gone, and no second mail.
      expect(await service.cancel(token, { now: NOW })).toEqual({ ok: false, reason: "gone" });
      expect(await service.describeCancellation(token, NOW)).toEqual({ ok: false, reason: "gone" });
      expect(await mails("bookercancel@example.org", "booking-cancellation")).toHaveLength(1);

      // The slot is free again.
      const next = await service.book(id, booker("next"), { origin: ORIGIN, now: NOW });
      expect(next.created).toBe(true);
      expect(next.booking.id).not.toBe(booking.id);
      expect((await visitorSlot(id))?.data.booked).toBe(true);
    });

    it("cancels once when the link is used twice at the same moment", async () => {
      const id = await slot(8 * DAY);
      await service.book(id, booker("twice", { language: "en" }), { origin: ORIGIN, now: NOW });
      const [confirmation] = await mails("bookertwice@example.org", "booking-confirmation");
      expect(confirmation!.text).toContain(`${ORIGIN}/en/appointments/cancel?token=`);
      expect(confirmation!.attachments[0]!.filename).toBe("appointment.ics");
      const token = cancelToken(confirmation!);
      const results = await Promise.all(Array.from({ length: 5 }, () => service.cancel(token, { now: NOW })));
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok)).toEqual(Array(4).fill({ ok: false, reason: "gone" }));
      expect(await mails("bookertwice@example.org", "booking-cancellation")).toHaveLength(1);
      expect((await visitorSlot(id))?.data.booked).toBe(false);
    });

    it("refuses forged links, links of other purposes and links of appointments that have begun", async () => {
      const id = await slot(DAY);
      const { booking } = await service.book(id, booker("expiry"), { origin: ORIGIN, now: NOW });
      const token = cancelToken((await mails("bookerexpiry@example.org", "booking-confirmation"))[0]!);
      const [body, mac] = token.split(".");
      expect(await service.describeCancellation(`${body}.${mac!.slice(0, -2)}xx`, NOW)).toEqual({ ok: false, reason: "invalid" });
      expect(await service.cancel("not-a-token", { now: NOW })).toEqual({ ok: false, reason: "invalid" });
      expect(await service.cancel(new TokenSigner(TokenSigner.newKey()).sign("booking-cancel", booking.id, 3600), { now: NOW })).toEqual({ ok: false, reason: "invalid" });
      // A valid signature for another purpose (as a newsletter link would carry): invalid here.
      const other = (service as unknown as { tokens: TokenSigner }).tokens.sign("newsletter-confirm", booking.id, 3600);
      expect(await service.cancel(other, { now: NOW })).toEqual({ ok: false, reason: "invalid" });

      // The appointment has begun: by the service's clock, and by the link's own expiry.
      expect(await service.cancel(token, { now: at(DAY) })).toEqual({ ok: false, reason: "expired" });
      clock = at(DAY + 1000).getTime();
      try {
        expect(await service.describeCancellation(token, at(DAY + 1000))).toEqual({ ok: false, reason: "expired" });
        expect(await service.cancel(token)).toEqual({ ok: false, reason: "expired" });
      } finally {
        clock = NOW.getTime();
      }
      expect(await rows(id)).toHaveLength(1);
      expect((await visitorSlot(id))?.data.booked).toBe(true);
      expect(await mails("bookerexpiry@example.org", "booking-cancellation")).toHaveLength(0);
    });

    it("books a slot with an editor's pending draft in its live data and its draft", async () => {
      const id = await slot(9 * DAY);
      await store.createDraft(APPOINTMENTS, id);
      await store.patch(APPOINTMENTS, id, { durationMinutes: { iv: 60 } });
      const { booking } = await service.book(id, booker("draft"), { origin: ORIGIN, now: NOW });
      expect(booking.end).toBe(at(9 * DAY + 45 * 60_000).toISOString());
      const live = await store.get(APPOINTMENTS, id);
      const draft = await store.get(APPOINTMENTS, id, { unpublished: true });
      expect(live?.data).toMatchObject({ booked: { iv: true }, durationMinutes: { iv: 45 } });
      expect(draft?.data).toMatchObject({ booked: { iv: true }, durationMinutes: { iv: 60 } });
      expect(draft?.newStatus).toBe("Draft");
      const token = cancelToken((await mails("bookerdraft@example.org", "booking-confirmation"))[0]!);
      expect((await service.cancel(token, { now: NOW })).ok).toBe(true);
      expect((await store.get(APPOINTMENTS, id))?.data).toMatchObject({ booked: { iv: false }, durationMinutes: { iv: 45 } });
      expect((await store.get(APPOINTMENTS, id, { unpublished: true }))?.data).toMatchObject({ booked: { iv: false }, durationMinutes: { iv: 60 } });
    });

    it("purges booker details once the retention period after the appointment is over, and keeps the slots", async () => {
      // Later than every other test's slot, so what an earlier purge takes is theirs.
      const id = await slot(400 * DAY);
      await service.book(id, booker("purge"), { origin: ORIGIN, now: NOW });
      const legacy = await slot(401 * DAY, { booked: true });
      // A row from before the booking flow (no start): its age counts from when it was made.
      await new BookingStore(store.db).put(legacy, { name: "Alt", email: "alt@example.org", phone: null, note: null }, at(402 * DAY));
      const start = at(400 * DAY).getTime();
      await service.purgeExpired(new Date(start + 90 * DAY - 1000));
      expect(await rows(id)).toHaveLength(1);
      expect(await service.purgeExpired(new Date(start + 90 * DAY + 1000))).toBe(1);
      expect(await rows(id)).toHaveLength(0);
      expect(await rows(legacy)).toHaveLength(1);
      expect(await service.purgeExpired(new Date(at(402 * DAY).getTime() + 90 * DAY - 1000))).toBe(0);
      expect(await service.purgeExpired(new Date(at(402 * DAY).getTime() + 90 * DAY + 1000))).toBe(1);
      expect(await rows(legacy)).toHaveLength(0);
      expect((await store.get(APPOINTMENTS, id))?.data.booked).toEqual({ iv: true });
      expect((await store.get(APPOINTMENTS, legacy))?.data.booked).toEqual({ iv: true });
    });
  });
}

bookingSuite("sqlite", () => sqliteStoreBackend("booking-test", 1024 * 1024));
const databaseUrl = process.env.TEST_DATABASE_URL;
bookingSuite(
  databaseUrl ? "postgres" : "postgres (set TEST_DATABASE_URL to run)",
  databaseUrl ? () => postgresStoreBackend(databaseUrl, "booking-test", "bk_", 1024 * 1024) : undefined,
);
