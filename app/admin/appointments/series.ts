import { berlinDay, berlinToUtc } from "~/booking/days";

// The Berlin wall clock to UTC lives with the other Berlin time helpers; the screen and tests find it here too.
export { berlinToUtc };

/**
 * Turning what an editor types — Berlin dates, a wall-clock time, weekdays — into UTC slot starts.
 * Pure and synchronous, so the limits and the daylight-saving rules are tested without a store.
 */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** At most this many slots in one go: more is almost certainly a typo in the date range. */
export const MAX_SLOTS_PER_REQUEST = 500;
/** A series spans at most a year (from and to inclusive). */
export const MAX_RANGE_DAYS = 366;
/** Slots may be planned this far ahead, no further. */
export const MAX_DAYS_AHEAD = 2 * 365;
export const MIN_DURATION = 5;
export const MAX_DURATION = 240;

/** Why a request for slots is refused; the screen's texts word each in both languages. */
export type SlotProblem =
  | { field: "date" | "from" | "to"; code: "badDate" }
  | { field: "time" | "until"; code: "badTime" }
  | { field: "until"; code: "endBeforeStart" }
  | { field: "duration"; code: "badDuration" }
  | { field: "weekdays"; code: "noWeekdays" }
  | { field: "to"; code: "endBeforeStart" | "rangeTooLong" }
  | { field: "date" | "from"; code: "past" | "tooFarAhead" }
  | { field: "time"; code: "noSuchTime"; day: string }
  | { field: "from"; code: "noSlots" | "tooMany"; count: number };

export interface NewSlot {
  /** UTC ISO. */
  start: string;
  durationMinutes: number;
}

export type Expansion = { ok: true; slots: NewSlot[] } | { ok: false; problems: SlotProblem[] };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** "2026-03-29" as days since the epoch; undefined for anything that is not a real calendar date. */
export function dayNumber(value: string): number | undefined {
  const m = DATE.exec(value.trim());
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return undefined;
  return ms / DAY;
}

const dayString = (n: number) => new Date(n * DAY).toISOString().slice(0, 10);

/** "09:30" as minutes after midnight. */
export function minutesOfDay(value: string): number | undefined {
  const m = TIME.exec(value.trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
}

/** Today's date in Berlin as days since the epoch. */
export function berlinToday(now: Date): number {
  return dayNumber(berlinDay(now))!;
}

export interface SingleRequest {
  date: string;
  time: string;
  durationMinutes: number;
}

export interface SeriesRequest {
  /** ISO weekdays: 1 Monday … 7 Sunday. */
  weekdays: number[];
  time: string;
  /** Optional: slots follow each other from `time` until this time (the last one ends by it). */
  until?: string;
  durationMinutes: number;
  from: string;
  to: string;
}

function checkDuration(value: number): SlotProblem[] {
  return Number.isInteger(value) && value >= MIN_DURATION && value <= MAX_DURATION ? [] : [{ field: "duration", code: "badDuration" }];
}

/** Slots are created for the future only, and not further ahead than MAX_DAYS_AHEAD. */
function checkWhen(slots: readonly NewSlot[], field: "date" | "from", now: Date): SlotProblem[] {
  const first = slots[0];
  if (first && Date.parse(first.start) <= now.getTime()) return [{ field, code: "past" }];
  const last = slots[slots.length - 1];
  if (last && Date.parse(last.start) > now.getTime() + MAX_DAYS_AHEAD * DAY) return [{ field, code: "tooFarAhead" }];
  return [];
}

/** One slot at a Berlin date and time. */
export function expandSingle(req: SingleRequest, now: Date): Expansion {
  const day = dayNumber(req.date);
  const minutes = minutesOfDay(req.time);
  const problems: SlotProblem[] = [...(day === undefined ? [{ field: "date", code: "badDate" } as const] : []), ...(minutes === undefined ? [{ field: "time", code: "badTime" } as const] : []), ...checkDuration(req.durationMinutes)];
  if (problems.length || day === undefined || minutes === undefined) return { ok: false, problems };
  const at = berlinToUtc(day, minutes);
  if (at === undefined) return { ok: false, problems: [{ field: "time", code: "noSuchTime", day: dayString(day) }] };
  const slots = [{ start: new Date(at).toISOString(), durationMinutes: req.durationMinutes }];
  const when = checkWhen(slots, "date", now);
  return when.length ? { ok: false, problems: when } : { ok: true, slots };
}

/**
 * A weekly series: the time (or back-to-back slots from the time until `until`) on each chosen
 * weekday from `from` to `to` (both inclusive, Berlin dates), the same wall-clock time in summer
 * and winter. Refused whole when any part is wrong: a
 * series with a hole where the clocks jump is not what the editor asked for.
 */
export function expandSeries(req: SeriesRequest, now: Date): Expansion {
  const from = dayNumber(req.from);
  const to = dayNumber(req.to);
  const minutes = minutesOfDay(req.time);
  const weekdays = new Set(req.weekdays.filter((d) => Number.isInteger(d) && d >= 1 && d <= 7));
  const problems: SlotProblem[] = [];
  if (from === undefined) problems.push({ field: "from", code: "badDate" });
  if (to === undefined) problems.push({ field: "to", code: "badDate" });
  if (minutes === undefined) problems.push({ field: "time", code: "badTime" });
  const until = req.until?.trim() ? minutesOfDay(req.until) : undefined;
  if (req.until?.trim() && until === undefined) problems.push({ field: "until", code: "badTime" });
  else if (until !== undefined && minutes !== undefined && until < minutes + req.durationMinutes) problems.push({ field: "until", code: "endBeforeStart" });
  if (!weekdays.size) problems.push({ field: "weekdays", code: "noWeekdays" });
  problems.push(...checkDuration(req.durationMinutes));
  if (from !== undefined && to !== undefined) {
    if (to < from) problems.push({ field: "to", code: "endBeforeStart" });
    else if (to - from + 1 > MAX_RANGE_DAYS) problems.push({ field: "to", code: "rangeTooLong" });
  }
  if (problems.length || from === undefined || to === undefined || minutes === undefined) return { ok: false, problems };

  const times: number[] = [];
  for (let m = minutes; m === minutes || (until !== undefined && m + req.durationMinutes <= until); m += req.durationMinutes) times.push(m);
  const slots: NewSlot[] = [];
  let count = 0;
  for (let day = from; day <= to; day++) {
    // 1970-01-01 was a Thursday (ISO weekday 4).
    if (!weekdays.has(((day + 3) % 7) + 1)) continue;
    for (const m of times) {
      if (++count > MAX_SLOTS_PER_REQUEST) continue;
      const at = berlinToUtc(day, m);
      if (at === undefined) return { ok: false, problems: [{ field: "time", code: "noSuchTime", day: dayString(day) }] };
      slots.push({ start: new Date(at).toISOString(), durationMinutes: req.durationMinutes });
    }
  }
  if (count > MAX_SLOTS_PER_REQUEST) return { ok: false, problems: [{ field: "from", code: "tooMany", count }] };
  if (!slots.length) return { ok: false, problems: [{ field: "from", code: "noSlots", count: 0 }] };
  const when = checkWhen(slots, "from", now);
  return when.length ? { ok: false, problems: when } : { ok: true, slots };
}

/**
 * The new slots that overlap another new one or an existing one (sorted by start or not): a
 * practitioner sees one person at a time. Touching ends (10:00–10:30, 10:30–11:00) do not overlap.
 */
export function overlapping(fresh: readonly NewSlot[], existing: readonly NewSlot[]): NewSlot[] {
  const span = (s: NewSlot) => [Date.parse(s.start), Date.parse(s.start) + s.durationMinutes * MINUTE] as const;
  const all = [...existing.map((s) => ({ s, fresh: false })), ...fresh.map((s) => ({ s, fresh: true }))].map((e) => ({ ...e, span: span(e.s) }));
  all.sort((a, b) => a.span[0] - b.span[0]);
  const clashes = new Set<NewSlot>();
  let open: (typeof all)[number] | undefined;
  for (const e of all) {
    if (open && e.span[0] < open.span[1]) {
      if (e.fresh) clashes.add(e.s);
      if (open.fresh) clashes.add(open.s);
    }
    if (!open || e.span[1] > open.span[1]) open = e;
  }
  return fresh.filter((s) => clashes.has(s));
}
