import { describe, expect, it } from "vitest";
import { requirementOf, routeAccess, safeRedirect, strongest, UnknownMiddlewareError } from "./access";

describe("safeRedirect", () => {
  it.each([
    ["/manage", "/manage"],
    ["/manage/pages?view=all#top", "/manage/pages?view=all"],
    ["/en/practitioners", "/en/practitioners"],
    ["/manage/pages/%C3%BCber", "/manage/pages/%C3%BCber"],
  ])("keeps the on-site path %j", (target, expected) => {
    expect(safeRedirect(target)).toBe(expected);
  });

  it.each([
    undefined,
    null,
    42,
    "",
    "manage",
    "//evil.example",
    "///evil.example",
    "https://evil.example",
    "http://evil.example/manage",
    "https:evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/%2F/evil.example",
    "/%5Cevil.example",
    "%2F%2Fevil.example",
    "javascript:alert(1)",
    "data:text/html,x",
    "\t//evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/%0a/evil.example",
    "/%E0%A4%A", // malformed escape
    `/${"a".repeat(2048)}`,
    "/login",
    "/login?redirect=/manage",
  ])("falls back for %j", (target) => {
    expect(safeRedirect(target)).toBe("/manage");
    expect(safeRedirect(target, "/elsewhere")).toBe("/elsewhere");
  });

  // Dot segments: the URL parser removes them, which turns "/.//host" into "//host".
  it.each(["/.//evil.example", "/..//evil.example", "/manage/..//evil.example", "/%2e//evil.example", "/%2e%2e//evil.example"])(
    "never answers a protocol-relative path for %j",
    (target) => {
      const result = safeRedirect(target);
      expect(result.startsWith("//"), `${JSON.stringify(target)} gave ${JSON.stringify(result)}`).toBe(false);
      expect(new URL(result, "https://praxisnetz.example").origin).toBe("https://praxisnetz.example");
    },
  );

  it("whatever it is given, the answer stays on the site (property over random strings)", () => {
    const alphabet = ["/", "\\", ".", "%2F", "%5C", "%2e", "evil.example", ":", "@", "?", "#", "a", " ", "\t"];
    for (let i = 0; i < 5000; i++) {
      let s = "/";
      for (let n = 0; n < 1 + (i % 7); n++) s += alphabet[Math.floor(Math.random() * alphabet.length)];
      const result = safeRedirect(s);
      expect(result, JSON.stringify(s)).toMatch(/^\/(?![/\\])/);
      expect(new URL(result, "https://praxisnetz.example").origin, JSON.stringify(s)).toBe("https://praxisnetz.example");
    }
  });
});

describe("requirementOf", () => {
  it("reads routeAccess handles, the strongest wins", () => {
    expect(requirementOf(undefined)).toBe("none");
    expect(requirementOf({})).toBe("none");
    expect(requirementOf({ other: true })).toBe("none");
    expect(requirementOf(routeAccess())).toBe("none");
    expect(requirementOf(routeAccess("auth"))).toBe("editor");
    expect(requirementOf(routeAccess("superuser"))).toBe("superuser");
    expect(requirementOf(routeAccess("auth", "superuser"))).toBe("superuser");
    expect(requirementOf(routeAccess("superuser", "auth"))).toBe("superuser");
    expect(requirementOf({ middleware: "auth" })).toBe("editor");
  });

  it("throws 'Unknown route middleware' for a name it does not know, naming the route", () => {
    expect(() => requirementOf({ middleware: ["admin"] }, "routes/manage/x")).toThrow(UnknownMiddlewareError);
    expect(() => requirementOf({ middleware: ["admin"] }, "routes/manage/x")).toThrow('Unknown route middleware: "admin" (route routes/manage/x)');
    expect(() => requirementOf({ middleware: ["auth", "Auth"] })).toThrow('Unknown route middleware: "Auth"');
    expect(() => requirementOf({ middleware: [null] })).toThrow("Unknown route middleware: null");
    expect(() => requirementOf({ middleware: "superusers" })).toThrow("Unknown route middleware");
  });

  it("strongest ranks none < editor < superuser", () => {
    expect(strongest("none", "editor")).toBe("editor");
    expect(strongest("superuser", "editor")).toBe("superuser");
    expect(strongest("editor", "none")).toBe("editor");
    expect(strongest("none", "none")).toBe("none");
  });
});
