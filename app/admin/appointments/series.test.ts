import { describe, expect, it } from "vitest";
import { berlinTime } from "~/booking/days";
import { berlinToUtc, dayNumber, expandSeries, expandSingle, MAX_SLOTS_PER_REQUEST, overlapping } from "./series";

/** Berlin wall-clock times to UTC, weekly series and their limits: no store, the runtime's zone data. */

const NOW = new Date("2030-01-10T12:00:00.000Z");
const series = (over: Partial<Parameters<typeof expandSeries>[0]> = {}) => expandSeries({ weekdays: [1], time: "09:00", durationMinutes: 30, from: "2030-03-18", to: "2030-04-07", ...over }, NOW);
const starts = (e: ReturnType<typeof expandSeries>) => (e.ok ? e.slots.map((s) => s.start) : e.problems);

describe("berlinToUtc", () => {
  it("uses UTC+1 in winter and UTC+2 in summer", () => {
    expect(new Date(berlinToUtc(dayNumber("2030-01-15")!, 9 * 60)!).toISOString()).toBe("2030-01-15T08:00:00.000Z");
    expect(new Date(berlinToUtc(dayNumber("2030-07-15")!, 9 * 60)!).toISOString()).toBe("2030-07-15T07:00:00.000Z");
  });

  it("has no 02:30 on the night the clocks go forward, and takes the first 02:30 when they go back", () => {
    // 2030: summer time from 31 March, back on 27 October.
    expect(berlinToUtc(dayNumber("2030-03-31")!, 150)).toBeUndefined();
    expect(new Date(berlinToUtc(dayNumber("2030-10-27")!, 150)!).toISOString()).toBe("2030-10-27T00:30:00.000Z");
    expect(new Date(berlinToUtc(dayNumber("2030-10-27")!, 0)!).toISOString()).toBe("2030-10-26T22:00:00.000Z");
  });
});

describe("expandSeries", () => {
  it("keeps the wall-clock time across the March change: 08:00 UTC before, 07:00 UTC after", () => {
    expect(starts(series({ weekdays: [1, 7] }))).toEqual([
      "2030-03-18T08:00:00.000Z",
      "2030-03-24T08:00:00.000Z",
      "2030-03-25T08:00:00.000Z",
      "2030-03-31T07:00:00.000Z",
      "2030-04-01T07:00:00.000Z",
      "2030-04-07T07:00:00.000Z",
    ]);
  });

  it("keeps the wall-clock time across the October change, and every slot reads 09:00 in Berlin", () => {
    const e = series({ weekdays: [6, 7], from: "2030-10-19", to: "2030-11-03" });
    expect(starts(e)).toEqual(["2030-10-19T07:00:00.000Z", "2030-10-20T07:00:00.000Z", "2030-10-26T07:00:00.000Z", "2030-10-27T08:00:00.000Z", "2030-11-02T08:00:00.000Z", "2030-11-03T08:00:00.000Z"]);
    if (e.ok) for (const s of e.slots) expect(berlinTime(s.start)).toBe("09:00");
  });

  it("includes both ends of the range and only the chosen weekdays", () => {
    const e = series({ weekdays: [3], from: "2030-05-01", to: "2030-05-15" });
    expect(starts(e)).toEqual(["2030-05-01T07:00:00.000Z", "2030-05-08T07:00:00.000Z", "2030-05-15T07:00:00.000Z"]);
    expect(e.ok && e.slots.every((s) => s.durationMinutes === 30)).toBe(true);
  });

  it("refuses a time that does not exist on one of the days (the spring change)", () => {
    expect(starts(series({ weekdays: [7], time: "02:30" }))).toEqual([{ field: "time", code: "noSuchTime", day: "2030-03-31" }]);
  });

  it("refuses a range ending before it starts, longer than a year, or without any of the weekdays", () => {
    expect(starts(series({ from: "2030-04-07", to: "2030-03-18" }))).toEqual([{ field: "to", code: "endBeforeStart" }]);
    expect(starts(series({ from: "2030-02-01", to: "2031-02-02" }))).toEqual([{ field: "to", code: "rangeTooLong" }]);
    expect(series({ from: "2030-02-01", to: "2031-02-01" }).ok).toBe(true);
    expect(starts(series({ weekdays: [2], from: "2030-03-18", to: "2030-03-18" }))).toEqual([{ field: "from", code: "noSlots", count: 0 }]);
  });

  it("fills the hours from the time until the end with back-to-back slots, each ending by it", () => {
    const e = series({ weekdays: [1], from: "2030-05-06", to: "2030-05-06", time: "09:00", until: "10:40", durationMinutes: 30 });
    expect(starts(e)).toEqual(["2030-05-06T07:00:00.000Z", "2030-05-06T07:30:00.000Z", "2030-05-06T08:00:00.000Z"]);
    expect(starts(series({ time: "09:00", until: "09:20" }))).toEqual([{ field: "until", code: "endBeforeStart" }]);
    expect(starts(series({ until: "9 Uhr" }))).toEqual([{ field: "until", code: "badTime" }]);
  });

  it(`refuses more than ${MAX_SLOTS_PER_REQUEST} slots at once, and allows exactly that many`, () => {
    // 50 weekdays (10 weeks Monday to Friday) with 10 slots a day: 500.
    const weekdays = [1, 2, 3, 4, 5];
    const exactly = series({ weekdays, from: "2030-03-04", to: "2030-05-10", time: "08:00", until: "13:00", durationMinutes: 30 });
    expect(exactly.ok && exactly.slots.length).toBe(MAX_SLOTS_PER_REQUEST);
    expect(starts(series({ weekdays, from: "2030-03-04", to: "2030-05-13", time: "08:00", until: "13:00", durationMinutes: 30 }))).toEqual([{ field: "from", code: "tooMany", count: 510 }]);
  });

  it("refuses bad fields, each by name", () => {
    expect(starts(series({ from: "2030-02-30", to: "tomorrow", time: "25:00", weekdays: [0, 8], durationMinutes: 4 }))).toEqual([
      { field: "from", code: "badDate" },
      { field: "to", code: "badDate" },
      { field: "time", code: "badTime" },
      { field: "weekdays", code: "noWeekdays" },
      { field: "duration", code: "badDuration" },
    ]);
    expect(starts(series({ durationMinutes: 241 }))).toEqual([{ field: "duration", code: "badDuration" }]);
  });

  it("refuses past slots and slots too far ahead", () => {
    expect(starts(series({ from: "2030-01-07", to: "2030-01-31" }))).toEqual([{ field: "from", code: "past" }]);
    expect(starts(series({ from: "2032-01-01", to: "2032-02-01" }))).toEqual([{ field: "from", code: "tooFarAhead" }]);
  });
});

describe("expandSingle", () => {
  it("makes one slot in Berlin time, refusing the past and a time lost to the clock change", () => {
    expect(expandSingle({ date: "2030-06-03", time: "14:15", durationMinutes: 45 }, NOW)).toEqual({ ok: true, slots: [{ start: "2030-06-03T12:15:00.000Z", durationMinutes: 45 }] });
    expect(expandSingle({ date: "2030-01-10", time: "12:00", durationMinutes: 30 }, NOW)).toEqual({ ok: false, problems: [{ field: "date", code: "past" }] });
    expect(expandSingle({ date: "2030-03-31", time: "02:15", durationMinutes: 30 }, NOW)).toEqual({ ok: false, problems: [{ field: "time", code: "noSuchTime", day: "2030-03-31" }] });
  });
});

describe("overlapping", () => {
  const slot = (start: string, durationMinutes = 30) => ({ start, durationMinutes });

  it("finds new slots that overlap existing ones or each other; touching ends are fine", () => {
    const existing = [slot("2030-06-03T08:00:00.000Z", 60)];
    const a = slot("2030-06-03T08:30:00.000Z");
    const b = slot("2030-06-03T09:00:00.000Z");
    const c = slot("2030-06-03T10:00:00.000Z", 45);
    const d = slot("2030-06-03T10:30:00.000Z");
    expect(overlapping([a, b, c, d], existing)).toEqual([a, c, d]);
    expect(overlapping([b], existing)).toEqual([]);
  });

  it("sees an overlap with a long slot that started before a short one in between", () => {
    const long = slot("2030-06-03T08:00:00.000Z", 240);
    const short = slot("2030-06-03T08:30:00.000Z", 15);
    const late = slot("2030-06-03T11:00:00.000Z");
    expect(overlapping([late], [long, short])).toEqual([late]);
  });
});
