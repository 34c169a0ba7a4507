import type { Language } from "~/i18n/languages";

/**
 * Slots are stored in UTC; people book in German local time, whatever their browser's zone. One set
 * of Berlin formatters (Intl, with the time zone database the runtime has) for the slot lists in
 * the browser and the mails on the server: no date library in the page bundle.
 */
export const BERLIN = "Europe/Berlin";

const locale = (language: Language) => (language === "de" ? "de-DE" : "en-GB");
const cache = new Map<string, Intl.DateTimeFormat>();
function formatter(key: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  let f = cache.get(key);
  if (!f) cache.set(key, (f = make()));
  return f;
}
const at = (start: string | Date) => (typeof start === "string" ? new Date(start) : start);

/** The Berlin date of an instant, "2026-03-29" (en-CA writes ISO dates). */
export function berlinDay(start: string | Date): string {
  return formatter("day", () => new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit", timeZone: BERLIN })).format(at(start));
}

/** The Berlin wall-clock time of an instant, "09:30". */
export function berlinTime(start: string | Date, language: Language = "de"): string {
  return formatter(`time:${language}`, () => new Intl.DateTimeFormat(locale(language), { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: BERLIN })).format(at(start));
}

/** The Berlin date of an instant as words, "Sonntag, 29. März 2026" / "Sunday, 29 March 2026". */
export function berlinDayLabel(start: string | Date, language: Language): string {
  return formatter(`label:${language}`, () => new Intl.DateTimeFormat(locale(language), { weekday: "long", day: "numeric", month: "long", year: "numeric", timeZone: BERLIN })).format(at(start));
}

/** Date and time in Berlin, "Do., 26.11.2026, 09:00" (short) or with the weekday and month written out (full). */
export function formatSlot(language: Language, iso: string, style: "short" | "full" = "short"): string {
  return formatter(`slot:${language}:${style}`, () => new Intl.DateTimeFormat(locale(language), { dateStyle: style === "full" ? "full" : "medium", timeStyle: "short", timeZone: BERLIN })).format(new Date(iso));
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Berlin's offset from UTC at an instant, in minutes (60 in winter, 120 in summer), from the runtime's zone data. */
export function berlinOffset(utcMs: number): number {
  const offsetFormat = formatter("offset", () => new Intl.DateTimeFormat("en-US", { timeZone: BERLIN, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric" }));
  const part = Object.fromEntries(offsetFormat.formatToParts(new Date(utcMs)).map((p) => [p.type, p.value]));
  const wall = Date.UTC(Number(part.year), Number(part.month) - 1, Number(part.day), Number(part.hour), Number(part.minute));
  return Math.round((wall - Math.floor(utcMs / MINUTE) * MINUTE) / MINUTE);
}

/**
 * The UTC instant of a Berlin wall-clock time on a Berlin day (days since the epoch, as the admin's
 * slot forms count them). On the night the clocks go back the hour 02:00–03:00 happens twice: the
 * first (summer-time) one is taken. On the night they go forward it does not happen at all: undefined.
 */
export function berlinToUtc(day: number, minutes: number): number | undefined {
  const asIfUtc = day * DAY + minutes * MINUTE;
  for (const offset of [120, 60]) {
    const at = asIfUtc - offset * MINUTE;
    if (berlinOffset(at) === offset) return at;
  }
  return undefined;
}

export interface BerlinDay<T> {
  /** The Berlin calendar date, "2026-03-29". */
  day: string;
  /** "Sonntag, 29. März 2026" / "Sunday, 29 March 2026". */
  label: string;
  /** The slots of that day in time order, each with its Berlin wall-clock time ("09:30"). */
  slots: Array<T & { time: string }>;
}

/**
 * Slots grouped by their day in Berlin, days and slots in time order. The day comes from the Berlin
 * wall clock, not from the UTC date: 23:30 UTC in summer is already the next day. On the night the
 * clocks go back, two slots an hour apart can both read "02:30"; they stay apart, in time order.
 */
export function groupByBerlinDay<T extends { start: string }>(slots: readonly T[], language: Language): Array<BerlinDay<T>> {
  const ordered = slots.map((s) => ({ slot: s, at: Date.parse(s.start) })).filter((s) => Number.isFinite(s.at));
  ordered.sort((a, b) => a.at - b.at);
  const days: Array<BerlinDay<T>> = [];
  for (const { slot, at: ms } of ordered) {
    const date = new Date(ms);
    const day = berlinDay(date);
    let last = days[days.length - 1];
    if (last?.day !== day) days.push((last = { day, label: berlinDayLabel(date, language), slots: [] }));
    last.slots.push({ ...slot, time: berlinTime(date, language) });
  }
  return days;
}
