import { describe, expect, it } from "vitest";
import { berlinDays } from "./components";

/** The slot lists' day groups (Intl in the browser): stored in UTC, grouped by the day in Berlin. */
describe("berlinDays", () => {
  it("groups by the Berlin day across the spring switch (2026-03-29: 02:00 → 03:00)", () => {
    const days = berlinDays(
      [
        { id: "c", start: "2026-03-29T22:30:00.000Z" }, // 00:30 CEST on the 30th
        { id: "a", start: "2026-03-28T23:30:00.000Z" }, // 00:30 CET on the 29th
        { id: "b", start: "2026-03-29T01:30:00.000Z" }, // 03:30 CEST on the 29th
      ],
      "de",
    );
    expect(days.map((d) => [d.key, d.slots.map((s) => s.id)])).toEqual([
      ["2026-03-29", ["a", "b"]],
      ["2026-03-30", ["c"]],
    ]);
    expect(days[0]!.label).toBe("Sonntag, 29. März 2026");
  });

  it("keeps the repeated hour of the autumn switch (2026-10-25: 03:00 → 02:00) on one day, in order", () => {
    const days = berlinDays(
      [
        { id: "second-0230", start: "2026-10-25T01:30:00.000Z" }, // 02:30 CET
        { id: "first-0230", start: "2026-10-25T00:30:00.000Z" }, // 02:30 CEST
        { id: "evening", start: "2026-10-25T22:59:00.000Z" }, // 23:59 CET, still the 25th
        { id: "next", start: "2026-10-25T23:00:00.000Z" }, // 00:00 on the 26th
      ],
      "en",
    );
    expect(days.map((d) => [d.key, d.slots.map((s) => s.id)])).toEqual([
      ["2026-10-25", ["first-0230", "second-0230", "evening"]],
      ["2026-10-26", ["next"]],
    ]);
    expect(days[0]!.label).toBe("Sunday, 25 October 2026");
  });
});
