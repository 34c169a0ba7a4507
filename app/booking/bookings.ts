import type { DB } from "~/content/db";

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

/**
 * Booker details, kept beside the appointment slots in a table of their own: a slot's content
 * (practitioner, start, booked) is public, who booked it is not, so no query over contents — a
 * visitor's filter, search or sort — can ever reach it.
 */
export class BookingStore {
  constructor(private readonly db: DB) {}

  async put(appointmentId: string, booker: Booker, now = new Date()): Promise<void> {
    await this.db
      .insertInto("bookings")
      .values({ appointment_id: appointmentId, ...booker, created: now.toISOString() })
      .execute();
  }

  async get(appointmentId: string): Promise<Booking | undefined> {
    const row = await this.db.selectFrom("bookings").selectAll().where("appointment_id", "=", appointmentId).executeTakeFirst();
    return row && { appointmentId: row.appointment_id, name: row.name, email: row.email, phone: row.phone, note: row.note, created: row.created };
  }

  async remove(appointmentId: string): Promise<boolean> {
    const res = await this.db.deleteFrom("bookings").where("appointment_id", "=", appointmentId).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }
}
