import { describe, expect, it } from "vitest";
import { berlinDay, berlinDayLabel, berlinTime, groupByBerlinDay } from "./days";

/** Slots are UTC; the booking page groups and labels them by the Berlin wall clock, across both clock changes. */
describe("slots grouped by their day in Berlin", () => {
  it("spring forward (2026-03-29): 01:00 UTC is 03:00 CEST, and the evening before can be the next day already", () => {
    const days = groupByBerlinDay(
      [
        { id: "late", start: "2026-03-29T21:30:00Z" }, // 23:30 CEST, still the 29th
        { id: "after", start: "2026-03-29T03:30:00Z" }, // 05:30 CEST
        { id: "before", start: "2026-03-29T00:30:00Z" }, // 01:30 CET
        { id: "eve", start: "2026-03-28T23:30:00Z" }, // 00:30 CET on the 29th
        { id: "jump", start: "2026-03-29T01:00:00Z" }, // 03:00 CEST: 02:00–03:00 does not exist
        { id: "sat", start: "2026-03-28T22:30:00Z" }, // 23:30 CET on the 28th
      ],
      "de",
    );
    expect(days.map((d) => [d.day, d.label])).toEqual([
      ["2026-03-28", "Samstag, 28. März 2026"],
      ["2026-03-29", "Sonntag, 29. März 2026"],
    ]);
    expect(days[0]!.slots).toEqual([{ id: "sat", start: "2026-03-28T22:30:00Z", time: "23:30" }]);
    expect(days[1]!.slots.map((s) => [s.id, s.time])).toEqual([
      ["eve", "00:30"],
      ["before", "01:30"],
      ["jump", "03:00"],
      ["after", "05:30"],
      ["late", "23:30"],
    ]);
  });

  it("fall back (2026-10-25): the hour 02:00–03:00 comes twice and both slots stay, in time order", () => {
    const days = groupByBerlinDay(
      [
        { id: "second", start: "2026-10-25T01:30:00Z" }, // 02:30 CET
        { id: "first", start: "2026-10-25T00:30:00Z" }, // 02:30 CEST
        { id: "night", start: "2026-10-25T23:30:00Z" }, // 00:30 CET on the 26th
        { id: "eve", start: "2026-10-24T22:30:00Z" }, // 00:30 CEST on the 25th
        { id: "morning", start: "2026-10-25T08:00:00Z" }, // 09:00 CET
      ],
      "en",
    );
    expect(days.map((d) => [d.day, d.label])).toEqual([
      ["2026-10-25", "Sunday, 25 October 2026"],
      ["2026-10-26", "Monday, 26 October 2026"],
    ]);
    expect(days[0]!.slots.map((s) => [s.id, s.time])).toEqual([
      ["eve", "00:30"],
      ["first", "02:30"],
      ["second", "02:30"],
      ["morning", "09:00"],
    ]);
    expect(days[1]!.slots.map((s) => [s.id, s.time])).toEqual([["night", "00:30"]]);
  });

  it("labels in German and British English, and keeps the stored start as it was", () => {
    expect(berlinDayLabel("2026-12-01T08:00:00.000Z", "de")).toBe("Dienstag, 1. Dezember 2026");
    expect(berlinDayLabel("2026-12-01T08:00:00.000Z", "en")).toBe("Tuesday, 1 December 2026");
    expect(berlinTime("2026-07-01T07:15:00Z")).toBe("09:15");
    expect(berlinTime("2026-12-01T07:15:00Z")).toBe("08:15");
    expect(berlinDay("2026-12-31T23:00:00Z")).toBe("2027-01-01");
    expect(groupByBerlinDay([{ id: "a", start: "2026-12-01T08:00:00.000Z" }], "de")[0]!.slots[0]!.start).toBe("2026-12-01T08:00:00.000Z");
    expect(groupByBerlinDay([], "en")).toEqual([]);
  });
});
