import { describe, expect, it } from "vitest";
import { parseDirectoryQuery } from "./directory";

describe("parseDirectoryQuery", () => {
  it("reads the query string defensively", () => {
    expect(parseDirectoryQuery(new URLSearchParams("q=%20K%C3%B6ln%20&page=-3&language=en"))).toEqual({ q: "Köln", language: "en", country: undefined, page: 1 });
    expect(parseDirectoryQuery(new URLSearchParams("page=2.7&country=AT")).page).toBe(2);
    expect(parseDirectoryQuery(new URLSearchParams(`q=${"x".repeat(500)}`)).q).toHaveLength(80);
    for (const page of ["1e18", "9".repeat(400), "Infinity"]) expect(parseDirectoryQuery(new URLSearchParams({ page })).page, page).toBeLessThanOrEqual(1_000_000);
  });
});
