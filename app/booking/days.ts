import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import { de, enGB } from "date-fns/locale";
import type { Language } from "~/i18n/languages";

/** Slots are stored in UTC; people book in German local time, whatever their browser's zone. */
export const BERLIN = "Europe/Berlin";

export interface DaySlot {
  id: string;
  /** UTC ISO, as stored. */
  start: string;
  /** Berlin wall-clock time, "09:30". */
  time: string;
}

export interface BerlinDay {
  /** The Berlin calendar date, "2026-03-29". */
  day: string;
  /** "Sonntag, 29. März 2026" / "Sunday, 29 March 2026". */
  label: string;
  slots: DaySlot[];
}

const DAY_LABEL: Record<Language, string> = { de: "EEEE, d. MMMM yyyy", en: "EEEE, d MMMM yyyy" };
const LOCALE = { de, en: enGB } as const;

const inBerlin = (start: string | Date) => new TZDate(typeof start === "string" ? Date.parse(start) : start.getTime(), BERLIN);

/** The Berlin date of an instant, "2026-03-29". */
export function berlinDay(start: string | Date): string {
  return format(inBerlin(start), "yyyy-MM-dd");
}

/** The Berlin wall-clock time of an instant, "09:30". */
export function berlinTime(start: string | Date): string {
  return format(inBerlin(start), "HH:mm");
}

/** The Berlin date of an instant as words, "Sonntag, 29. März 2026" / "Sunday, 29 March 2026". */
export function berlinDayLabel(start: string | Date, language: Language): string {
  return format(inBerlin(start), DAY_LABEL[language], { locale: LOCALE[language] });
}

/**
 * Slots grouped by their day in Berlin, days and slots in time order. The day comes from the Berlin
 * wall clock, not from the UTC date: 23:30 UTC in summer is already the next day. On the night the
 * clocks go back, two slots an hour apart can both read "02:30"; they stay apart, in time order.
 */
export function groupByBerlinDay(slots: ReadonlyArray<{ id: string; start: string }>, language: Language): BerlinDay[] {
  const ordered = slots.map((s) => ({ ...s, at: Date.parse(s.start) })).filter((s) => Number.isFinite(s.at));
  ordered.sort((a, b) => a.at - b.at);
  const days: BerlinDay[] = [];
  for (const slot of ordered) {
    const local = inBerlin(new Date(slot.at));
    const day = format(local, "yyyy-MM-dd");
    let last = days[days.length - 1];
    if (last?.day !== day) {
      last = { day, label: format(local, DAY_LABEL[language], { locale: LOCALE[language] }), slots: [] };
      days.push(last);
    }
    last.slots.push({ id: slot.id, start: slot.start, time: format(local, "HH:mm") });
  }
  return days;
}
