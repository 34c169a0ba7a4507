import { describe, expect, it } from "vitest";
import { auditId } from "./audit";

describe("audit ids", () => {
  it("sort in the order they were made, also within one millisecond", () => {
    const now = Date.UTC(2026, 10, 28, 4, 0, 0);
    const ids = Array.from({ length: 50 }, () => auditId(now));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(50);
  });

  it("sort by time first, across milliseconds", () => {
    const later = auditId(Date.UTC(2026, 10, 28, 4, 0, 1));
    const earlier = auditId(Date.UTC(2026, 10, 28, 4, 0, 0));
    expect(earlier < later).toBe(true);
  });
});
