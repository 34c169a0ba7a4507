import { berlinOffset, berlinToUtc } from "~/booking/days";

/**
 * Bookable slots for ten practitioners over the three weeks after `now`: weekday mornings in
 * Europe/Berlin local time, stored as UTC ISO strings. About a quarter are already booked.
 */
import { type DemoItem, cycle, iv } from "./helpers";

/** Practitioners with bookable slots (all visible on PRAXISNETZ), with their slot length. */
const BOOKABLE: Array<[practitionerNumber: string, durationMinutes: number]> = [
  ["001", 30],
  ["002", 30],
  ["003", 45],
  ["004", 30],
  ["006", 45],
  ["008", 60],
  ["012", 60],
  ["017", 30],
  ["019", 30],
  ["023", 45],
];

const SLOTS_PER_PRACTITIONER = 6;
const WEEKDAYS_AHEAD = 15;
const FIRST_SLOT_MINUTES = 9 * 60;
const SLOTS_PER_DAY = 8;
const MINUTE = 60_000;
const DAY_MS = 24 * 60 * MINUTE;

const BOOKERS: Array<{ name: string; phone: string; note: string }> = [
  { name: "Petra Lindqvist", phone: "+49 30 00000101", note: "Erstbehandlung, Überweisung liegt vor." },
  { name: "Hakan Çelik", phone: "+49 30 00000102", note: "Bitte Termin per E-Mail bestätigen." },
  { name: "Jana Wünsche", phone: "+49 30 00000103", note: "" },
  { name: "Thomas O'Connor", phone: "+49 30 00000104", note: "Please treat in English if possible." },
  { name: "Birgit Maaß", phone: "+49 30 00000105", note: "Komme mit dem Rollstuhl, bitte Zugang prüfen." },
  { name: "Ali Rahimi", phone: "+49 30 00000106", note: "" },
  { name: "Greta Schölzel", phone: "+49 30 00000107", note: "Folgetermin nach Knie-OP." },
  { name: "Nikolai Brandt", phone: "+49 30 00000108", note: "" },
  { name: "Ayşe Kaya", phone: "+49 30 00000109", note: "Termin für meine Tochter (8 Jahre)." },
  { name: "Ulrike Dreßler", phone: "+49 30 00000110", note: "" },
  { name: "Samuel Okafor", phone: "+49 30 00000111", note: "First visit, no referral." },
  { name: "Merle Hübner", phone: "+49 30 00000112", note: "Bitte kurz vorher anrufen." },
  { name: "Ewa Zielińska", phone: "+49 30 00000113", note: "" },
  { name: "Konstantin Rößler", phone: "+49 30 00000114", note: "Rezept bringe ich mit." },
  { name: "Lea-Marie Voß", phone: "+49 30 00000115", note: "" },
];

/** Germany's UTC offset at an instant, in minutes (the booking domain's, from the runtime's zone data). */
export const berlinOffsetMinutes = berlinOffset;

/** Converts a Berlin wall-clock time to UTC. Only used for daytime slots, away from the 02:00–03:00 switch. */
export function berlinLocalToUtc(year: number, month: number, day: number, minutesOfDay: number): Date {
  return new Date(berlinToUtc(Date.UTC(year, month, day) / DAY_MS, minutesOfDay)!);
}

/** The next `count` Monday–Friday dates after `now`'s calendar day, as [year, month, day]. */
function upcomingWeekdays(now: Date, count: number): Array<[number, number, number]> {
  const days: Array<[number, number, number]> = [];
  for (let offset = 1; days.length < count; offset++) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + offset));
    const weekday = d.getUTCDay();
    if (weekday !== 0 && weekday !== 6) days.push([d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()]);
  }
  return days;
}

/** Who booked a demo slot: kept beside the slot in the private bookings table, never in its content. */
export interface DemoBooking {
  appointmentId: string;
  name: string;
  email: string;
  phone: string;
  note: string | null;
}

export function buildAppointments(now: Date): DemoItem[] {
  return buildAppointmentSeed(now).items;
}

export function buildAppointmentSeed(now: Date): { items: DemoItem[]; bookings: DemoBooking[] } {
  const days = upcomingWeekdays(now, WEEKDAYS_AHEAD);
  const items: DemoItem[] = [];
  const bookings: DemoBooking[] = [];
  let bookerIndex = 0;

  BOOKABLE.forEach(([practitionerNumber, durationMinutes], p) => {
    for (let k = 0; k < SLOTS_PER_PRACTITIONER; k++) {
      // Spread slots over the three weeks; the day repeats for k=0 and k=5 but the time differs.
      const [year, month, day] = cycle(days, 2 * p + 3 * k);
      const slotOfDay = (p + 2 * k) % SLOTS_PER_DAY;
      const start = berlinLocalToUtc(year, month, day, FIRST_SLOT_MINUTES + slotOfDay * durationMinutes);
      const booked = (p + k) % 4 === 0;
      const id = `appt-${practitionerNumber}-${String(k + 1).padStart(2, "0")}`;

      const data: DemoItem["data"] = {
        practitioner: iv([`prac-${practitionerNumber}`]),
        start: iv(start.toISOString()),
        durationMinutes: iv(durationMinutes),
        booked: iv(booked),
      };
      if (booked) {
        const booker = cycle(BOOKERS, bookerIndex);
        bookerIndex++;
        bookings.push({
          appointmentId: id,
          name: booker.name,
          email: `buchung${String(bookerIndex).padStart(2, "0")}@example.org`,
          phone: booker.phone,
          note: booker.note === "" ? null : booker.note,
        });
      }
      items.push({ schema: "gm-appointments", id, status: "Published", data });
    }
  });

  return { items, bookings };
}
