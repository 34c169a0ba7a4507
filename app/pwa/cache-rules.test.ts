import { describe, expect, it } from "vitest";
import { mayKeepResponse, strategyFor } from "./cache-rules";

const O = "https://praxis.example";
const s = (path: string, method = "GET") => strategyFor(method, `${O}${path}`, O);

describe("which requests the service worker may cache", () => {
  it("keeps hashed assets and theme stylesheets cache-first, pages network-first", () => {
    expect(s("/assets/entry.client-AbC123.js")).toBe("asset");
    expect(s("/theme/1a2b3c.css")).toBe("asset");
    expect(s("/")).toBe("page");
    expect(s("/en")).toBe("page");
    expect(s("/practitioners?page=2")).toBe("page");
    expect(s("/en/ueber-uns")).toBe("page");
    expect(s("/practitioners/anna-muster.data")).toBe("page");
  });

  it("never caches a non-GET", () => {
    for (const m of ["POST", "PUT", "PATCH", "DELETE", "HEAD"]) expect(s("/", m)).toBe("none");
  });

  it("never caches the APIs, the admin, sign-in, builds and the worker itself", () => {
    for (const p of ["/api/rest", "/api/appointments/1/book", "/manage", "/manage/pages", "/login", "/en/login", "/de/login", "/login.data", "/builds/latest.json", "/sw.js", "/manifest.webmanifest", "/en/manifest.webmanifest"]) {
      expect(s(p), p).toBe("none");
    }
  });

  it("never caches pages carrying booker or subscriber data", () => {
    for (const p of [
      "/appointments/book/123",
      "/en/appointments/cancel?token=abc",
      "/newsletter/a%40b.de",
      "/en/newsletter/a@b.de",
      "/present/x@y.org",
      "/NEWSLETTER/a@b.de",
      "/somewhere?token=1",
      "/somewhere?email=a",
      "/page?edit=1",
      "/page?preview=1",
    ]) {
      expect(s(p), p).toBe("none");
    }
  });

  it("never caches another origin or a malformed URL", () => {
    expect(strategyFor("GET", "https://cdn.example/assets/x.js", O)).toBe("none");
    expect(strategyFor("GET", "not a url", O)).toBe("none");
  });
});

describe("which answers the service worker may keep", () => {
  it("keeps a plain 200", () => {
    expect(mayKeepResponse(200, "basic", "no-cache", false)).toBe(true);
    expect(mayKeepResponse(200, "basic", null, false)).toBe(true);
    expect(mayKeepResponse(200, "basic", "public, max-age=0, s-maxage=60", false)).toBe(true);
  });

  it("never keeps private or no-store answers (a signed-in editor's), errors, redirects or cookies", () => {
    expect(mayKeepResponse(200, "basic", "private, no-store", false)).toBe(false);
    expect(mayKeepResponse(200, "basic", "no-store", false)).toBe(false);
    expect(mayKeepResponse(200, "basic", "Private", false)).toBe(false);
    expect(mayKeepResponse(200, "basic", "no-cache, private", false)).toBe(false);
    expect(mayKeepResponse(404, "basic", null, false)).toBe(false);
    expect(mayKeepResponse(200, "opaqueredirect", null, false)).toBe(false);
    expect(mayKeepResponse(200, "basic", null, true)).toBe(false);
  });
});
