import { describe, expect, it } from "vitest";
import { decodeComponent, own, sameSitePath } from "./input";

describe("decodeComponent", () => {
  it("decodes valid escapes and refuses malformed ones", () => {
    expect(decodeComponent("K%C3%B6ln")).toBe("Köln");
    expect(decodeComponent("%E0%A4%A")).toBeUndefined();
    expect(decodeComponent("%")).toBeUndefined();
  });
});

describe("own", () => {
  it("never returns inherited members", () => {
    const icons: Record<string, string> = { heart: "<svg/>" };
    expect(own(icons, "heart")).toBe("<svg/>");
    for (const key of ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"]) expect(own(icons, key)).toBeUndefined();
  });
});

describe("sameSitePath", () => {
  it("keeps paths on this site, re-encoded", () => {
    expect(sameSitePath("/ueber-uns?x=1", "/")).toBe("/ueber-uns?x=1");
    expect(sameSitePath("/en/practitioners?q=M%C3%BCller", "/")).toBe("/en/practitioners?q=M%C3%BCller");
    expect(sameSitePath("/über", "/")).toBe("/%C3%BCber");
    expect(sameSitePath("/a#frag", "/")).toBe("/a");
    expect(sameSitePath("/practitioners?q=Anna%20M", "/")).toBe("/practitioners?q=Anna%20M");
    for (const smuggled of ["/%2F/evil.example", "/%5Cevil.example", "/x%0d%0aSet-Cookie:a=b", "/%E0%A4%A"]) expect(sameSitePath(smuggled, "/")).toBe("/");
  });
  it.each(["/\\evil.example", "/\t/evil.example", "//evil.example", "https://evil.example/", "/\\/evil.example", " /x", "javascript:alert(1)", "/x\r\nSet-Cookie: a=b", "/x\u0000", "", "evil", "/%0a/x\n"])(
    "sends %j to the fallback",
    (value) => {
      expect(sameSitePath(value, "/en")).toBe("/en");
    },
  );
  it("refuses what is not a string or is too long", () => {
    expect(sameSitePath(undefined, "/")).toBe("/");
    expect(sameSitePath(["/a"], "/")).toBe("/");
    expect(sameSitePath(`/${"a".repeat(5000)}`, "/")).toBe("/");
  });
});
