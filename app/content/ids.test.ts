import path from "node:path";
import { describe, expect, it } from "vitest";
import { isValidId, newId, pathInside } from "./ids";

describe("ids", () => {
  it("accepts content and asset ids as Squidex and our seed write them", () => {
    for (const id of ["prac-001", "appt-001-01", "logo-2", "0f8fad5b-d9cb-469f-a165-70867728950e", "a.b_c~d"]) expect(isValidId(id)).toBe(true);
  });
  it("refuses dots, separators, empties and oversize ids", () => {
    for (const id of [".", "..", ".hidden", "a/b", "a\\b", "", "a b", "%2e%2e", "x".repeat(101), "ü", "a\u0000"]) expect(isValidId(id)).toBe(false);
    expect(isValidId(undefined)).toBe(false);
  });
});

describe("newId", () => {
  it("is a valid UUID of version 7 whose first 48 bits are the time, so new ids sort by creation", () => {
    const before = Date.now();
    const ids = Array.from({ length: 200 }, () => newId());
    const after = Date.now();
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(isValidId(id)).toBe(true);
      const ms = parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
      expect(ms).toBeGreaterThanOrEqual(before);
      expect(ms).toBeLessThanOrEqual(after);
    }
    expect(new Set(ids).size).toBe(ids.length);
    const later = newId();
    expect([ids[0]!, later].sort()).toEqual([ids[0]!, later]);
  });
});

describe("pathInside", () => {
  const dir = path.resolve("/data/assets");
  it("joins names below the folder", () => {
    expect(pathInside(dir, "logo-2", "0")).toBe(path.join(dir, "logo-2", "0"));
  });
  it.each([[".."], ["..", "0"], ["a", "..", ".."], ["/etc/passwd"], ["."]])("refuses %j", (...parts) => {
    expect(() => pathInside(dir, ...parts)).toThrow(/outside its folder/);
  });
});
