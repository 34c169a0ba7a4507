import { describe, expect, it } from "vitest";
import { etagMatches } from "./etag";

describe("etagMatches", () => {
  it("matches the tag itself, in a list, weakened, or *", () => {
    expect(etagMatches('"abc"', '"abc"')).toBe(true);
    expect(etagMatches('"x", "abc"', '"abc"')).toBe(true);
    expect(etagMatches('W/"abc"', '"abc"')).toBe(true);
    expect(etagMatches('"abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches("*", '"abc"')).toBe(true);
  });

  it("does not match other tags, parts of tags or nothing", () => {
    expect(etagMatches('"abcd"', '"abc"')).toBe(false);
    expect(etagMatches('abc', '"abc"')).toBe(false);
    expect(etagMatches(",,,", '"abc"')).toBe(false);
    expect(etagMatches("", '"abc"')).toBe(false);
    expect(etagMatches(null, '"abc"')).toBe(false);
    expect(etagMatches(undefined, '"abc"')).toBe(false);
  });
});
