import path from "node:path";
import { describe, expect, it } from "vitest";
import { isValidId, pathInside } from "./ids";

describe("ids", () => {
  it("accepts content and asset ids as Squidex and our seed write them", () => {
    for (const id of ["prac-001", "appt-001-01", "logo-2", "0f8fad5b-d9cb-469f-a165-70867728950e", "a.b_c~d"]) expect(isValidId(id)).toBe(true);
  });
  it("refuses dots, separators, empties and oversize ids", () => {
    for (const id of [".", "..", ".hidden", "a/b", "a\\b", "", "a b", "%2e%2e", "x".repeat(101), "ü", "a\u0000"]) expect(isValidId(id)).toBe(false);
    expect(isValidId(undefined)).toBe(false);
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
