import { describe, expect, it } from "vitest";
import { formatCount } from "./numbers";

describe("formatCount", () => {
  it("groups thousands in the reader's language", () => {
    expect(formatCount(10036, "de")).toBe("10.036");
    expect(formatCount(10036, "en")).toBe("10,036");
    expect(formatCount(100000, "de")).toBe("100.000");
    expect(formatCount(7, "de")).toBe("7");
  });
});
