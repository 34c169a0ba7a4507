import type { Database, DB } from "~/content/db";

/** Who booked a slot. Private: never part of the slot's content, never sent to a visitor. */
export interface Booker {
  name: string;
  email: string;
  phone: string | null;
  note: string | null;
}

export interface Booking extends Booker {
  appointmentId: string;
  created: string;
}

/** A booking made by the booking flow (migration 0005): with its own id, the slot's start and the booker's language. */
export interface BookingRecord extends Booking {
  id: string;
  practitionerId: string;
  /** The slot's start, UTC ISO (the retention clock runs from it). */
  startsAt: string;
  language: string;
  /** sha256 hex of what identifies the request (BookingService): a repeat finds its booking by it. */
  idempotencyKey: string;
}

/**
 * Booker details, kept beside the appointment slots in a table of their own: a slot's content
 * (practitioner, start, booked) is public, who booked it is not, so no query over contents — a
 * visitor's filter, search or sort — can ever reach it. Pass a transaction as `db` to write
 * together with the slot.
 */
export class BookingStore {
  constructor(private readonly db: DB) {}

  /** A booker without the flow's columns (demo seed, older stores). */
  async put(appointmentId: string, booker: Booker, now = new Date()): Promise<void> {
    await this.db
      .insertInto("bookings")
      .values({ appointment_id: appointmentId, ...booker, created: now.toISOString() })
      .execute();
  }

  /**
   * Inserts a booking. The primary key on the appointment id refuses a second booking of the same
   * slot (isUniqueViolation), whoever tries at the same moment: the database is the guard.
   */
  async insert(record: BookingRecord): Promise<void> {
    await this.db
      .insertInto("bookings")
      .values({
        appointment_id: record.appointmentId,
        id: record.id,
        practitioner_id: record.practitionerId,
        starts_at: record.startsAt,
        language: record.language,
        idempotency_key: record.idempotencyKey,
        name: record.name,
        email: record.email,
        phone: record.phone,
        note: record.note,
        created: record.created,
      })
      .execute();
  }

  async get(appointmentId: string): Promise<Booking | undefined> {
    const row = await this.db.selectFrom("bookings").selectAll().where("appointment_id", "=", appointmentId).executeTakeFirst();
    return row && { appointmentId: row.appointment_id, name: row.name, email: row.email, phone: row.phone, note: row.note, created: row.created };
  }

  /** The slot's booking as the flow made it; undefined for none, or for a row older than the flow. */
  async recordOfSlot(appointmentId: string): Promise<BookingRecord | undefined> {
    return toRecord(await this.db.selectFrom("bookings").selectAll().where("appointment_id", "=", appointmentId).executeTakeFirst());
  }

  async recordById(id: string): Promise<BookingRecord | undefined> {
    return toRecord(await this.db.selectFrom("bookings").selectAll().where("id", "=", id).executeTakeFirst());
  }

  async remove(appointmentId: string): Promise<boolean> {
    const res = await this.db.deleteFrom("bookings").where("appointment_id", "=", appointmentId).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /**
   * Deletes the booking with this id if its slot starts after `now`, and returns what was deleted:
   * of two cancellations at once, only one gets the row back.
   */
  async removeUpcoming(id: string, now: Date): Promise<BookingRecord | undefined> {
    const row = await this.db.deleteFrom("bookings").where("id", "=", id).where("starts_at", ">", now.toISOString()).returningAll().executeTakeFirst();
    return toRecord(row);
  }

  /** Deletes the bookings whose slot started (or, for older rows, which were made) before `cutoff`. */
  async removeBefore(cutoff: Date): Promise<number> {
    const at = cutoff.toISOString();
    const res = await this.db
      .deleteFrom("bookings")
      .where((eb) => eb.or([eb("starts_at", "<", at), eb.and([eb("starts_at", "is", null), eb("created", "<", at)])]))
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}

type BookingRow = Database["bookings"];

function toRecord(row: BookingRow | undefined): BookingRecord | undefined {
  if (!row || row.id === null || row.starts_at === null) return undefined;
  return {
    appointmentId: row.appointment_id,
    id: row.id,
    practitionerId: row.practitioner_id ?? "",
    startsAt: row.starts_at,
    language: row.language ?? "de",
    idempotencyKey: row.idempotency_key ?? "",
    name: row.name,
    email: row.email,
    phone: row.phone,
    note: row.note,
    created: row.created,
  };
}
