// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startTracker } from "./tracker";

/** What the tracker sends, read from fetch (the browser's, replaced here: not our code). */
let sent: Array<{ url: string; body: Record<string, unknown> }>;
beforeEach(() => {
  sent = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    sent.push({ url, body: JSON.parse(String(init.body)) });
    return new Response(null, { status: 202 });
  });
  localStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

/** happy-dom moves the window to another address without a navigation. */
const at = (href: string) => (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(href);
const config = { endpoint: "/api/event", domain: null, trackLocalhost: false };

describe("the tracker", () => {
  it("sends a page view once per path, with Plausible's fields", () => {
    at("https://praxis.example/ueber-uns?x=1");
    const t = startTracker(config)!;
    t.pageview();
    t.pageview();
    at("https://praxis.example/kontakt");
    t.pageview();
    expect(sent.map((s) => s.body.u)).toEqual(["https://praxis.example/ueber-uns?x=1", "https://praxis.example/kontakt"]);
    expect(sent[0]).toMatchObject({ url: "/api/event", body: { n: "pageview", d: "praxis.example", h: false } });
    expect(typeof sent[0]!.body.w).toBe("number");
    t.stop();
  });

  it("stays silent on localhost unless the server allowed it, and with the opt-out flag", () => {
    at("http://localhost:3000/");
    expect(startTracker(config)).toBeNull();
    at("http://127.0.0.1:3000/");
    expect(startTracker(config)).toBeNull();
    const allowed = startTracker({ ...config, trackLocalhost: true })!;
    allowed.pageview();
    expect(sent).toHaveLength(1);
    // Set later (another tab): no more events.
    localStorage.setItem("plausible_ignore", "true");
    allowed.event("Signup");
    expect(sent).toHaveLength(1);
    at("https://praxis.example/");
    expect(startTracker(config)).toBeNull();
    allowed.stop();
  });

  it("counts outbound link clicks and form submissions, not links within the site", () => {
    at("https://praxis.example/");
    const t = startTracker({ ...config, domain: "www.praxis.example" })!;
    document.body.innerHTML = '<a id="out" href="https://other.example/x">x</a><a id="in" href="/kontakt">k</a><form id="f" action="/api/newsletter/subscribe"></form>';
    document.getElementById("in")!.addEventListener("click", (e) => e.preventDefault());
    document.getElementById("out")!.addEventListener("click", (e) => e.preventDefault());
    document.getElementById("in")!.click();
    document.getElementById("out")!.click();
    document.getElementById("f")!.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
    expect(sent.map((s) => [s.body.n, s.body.p, s.body.d])).toEqual([
      ["Outbound Link: Click", { url: "https://other.example/x" }, "www.praxis.example"],
      ["Form: Submission", { path: "/" }, "www.praxis.example"],
    ]);
    t.stop();
  });
});
