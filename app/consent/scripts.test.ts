import { describe, expect, it } from "vitest";
import { NO_CONSENT, parseConsent } from "./consent";
import { cookieDeletions, isOwnCookie, scriptSource, scriptsToLoad } from "./scripts";

const settings = [
  { name: "plausible", src: "/js/script.js", category: "statistic", consentServiceId: "plausible" },
  { name: "maplibre tiles", src: "https://tiles.example.org/style", category: "functional", consentServiceId: "maplibre" },
  { name: "Werbung", src: "https://ads.example.com/tag.js", category: "marketing" },
  { name: "Chat", src: "https://chat.example.net/widget.js", category: "functional", consentServiceId: "chat-123" },
  { name: "Eigenes", src: "/scripts/own.js", category: "necessary" },
  { name: "Böse", src: "javascript:alert(1)", category: "necessary" },
];

describe("third-party scripts by consent", () => {
  it("loads nothing optional before consent; necessary ones of a safe source only", () => {
    expect(scriptsToLoad(settings, NO_CONSENT).map((s) => s.name)).toEqual(["Eigenes"]);
  });

  it("loads a category's scripts once allowed, with their origin for the CSP; the site's own services are not scripts", () => {
    const consent = parseConsent("pn_consent=functional%2Cmarketing%2Cstatistic");
    expect(scriptsToLoad(settings, consent, { consentServiceId: "cmp-1" })).toEqual([
      { name: "Werbung", src: "https://ads.example.com/tag.js", category: "marketing", origin: "https://ads.example.com" },
      { name: "Chat", src: "https://chat.example.net/widget.js", category: "functional", origin: "https://chat.example.net" },
      { name: "Eigenes", src: "/scripts/own.js", category: "necessary", origin: "'self'" },
    ]);
  });

  it("warns about a consent-service id nothing can resolve (no CONSENT_SERVICE_ID), and still decides by our banner", () => {
    const warned: string[] = [];
    const loaded = scriptsToLoad(settings, NO_CONSENT, { warnMissingService: (id) => warned.push(id) });
    expect(warned).toEqual(["chat-123"]);
    expect(loaded.map((s) => s.name)).not.toContain("Chat");
    const none: string[] = [];
    scriptsToLoad(settings, NO_CONSENT, { consentServiceId: "cmp-1", warnMissingService: (id) => none.push(id) });
    expect(none).toEqual([]);
  });

  it("takes https sources and paths of this site; refuses the rest", () => {
    expect(scriptSource("https://cdn.example.org/a.js?v=1")).toEqual({ src: "https://cdn.example.org/a.js?v=1", origin: "https://cdn.example.org" });
    expect(scriptSource("http://127.0.0.1:4000/tp.js")?.origin).toBe("http://127.0.0.1:4000");
    for (const bad of ["http://tracker.example.com/x.js", "//evil.example/x.js", "data:text/javascript,alert(1)", "javascript:alert(1)", "https://u:p@x.example/a.js", "/a.js\" onload=\"x", "\\\\evil\\x.js", "ftp://x.example/a.js", ""]) {
      expect(scriptSource(bad), bad).toBeNull();
    }
  });

  it("on withdrawal deletes every cookie that is not ours, on the host and its parent domain", () => {
    const header = "pn_consent=marketing; pn_session=abc; __Host-pn_session=x; _ga=GA1.2; tp_id=1; bad name=x";
    const deletions = cookieDeletions(header, "www.praxis.example:443");
    expect(deletions).toEqual([
      "_ga=; Path=/; Max-Age=0; SameSite=Lax",
      "_ga=; Path=/; Max-Age=0; SameSite=Lax; Domain=www.praxis.example",
      "_ga=; Path=/; Max-Age=0; SameSite=Lax; Domain=praxis.example",
      "tp_id=; Path=/; Max-Age=0; SameSite=Lax",
      "tp_id=; Path=/; Max-Age=0; SameSite=Lax; Domain=www.praxis.example",
      "tp_id=; Path=/; Max-Age=0; SameSite=Lax; Domain=praxis.example",
    ]);
    expect(cookieDeletions("tp_id=1", "127.0.0.1:3000")).toEqual(["tp_id=; Path=/; Max-Age=0; SameSite=Lax"]);
    expect(isOwnCookie("pn_editor")).toBe(true);
    expect(isOwnCookie("pnx")).toBe(false);
  });
});
