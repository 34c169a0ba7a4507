import { describe, expect, it } from "vitest";
import { parseBerlinTime } from "./schedule";

describe("parseBerlinTime: the admin's schedule time as German wall-clock time", () => {
  const now = Date.UTC(2026, 10, 27, 12, 0);
  it("reads winter and summer time", () => {
    expect(parseBerlinTime("2026-12-01T08:00", now)).toEqual(new Date("2026-12-01T07:00:00Z"));
    expect(parseBerlinTime("2027-06-01T10:30", now)).toEqual(new Date("2027-06-01T08:30:00Z"));
    expect(parseBerlinTime("2027-06-01T10:30:00", now)).toEqual(new Date("2027-06-01T08:30:00Z"));
  });
  it("takes the first 02:30 when the clocks go back, and refuses the hour they skip", () => {
    expect(parseBerlinTime("2027-10-31T02:30", now)).toEqual(new Date("2027-10-31T00:30:00Z"));
    expect(parseBerlinTime("2027-03-28T02:30", now)).toBe("missing");
  });
  it("refuses times that have passed and what is no time", () => {
    expect(parseBerlinTime("2026-11-27T12:59", now)).toBe("past");
    for (const bad of [undefined, "", "morgen", "2027-02-30T10:00", "2027-13-01T10:00", "2027-01-01T24:00", "2027-01-01", "12027-01-01T10:00", "2027-01-01T10:00Z"])
      expect(parseBerlinTime(bad, now), String(bad)).toBe("bad");
  });
});
