import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { serviceWorkerScript } from "./sw-script.server";

/** Runs the script in a bare context with a stand-in `self`, and returns what it defined and registered. */
function load(script: string) {
  const listeners: Record<string, unknown> = {};
  const context = vm.createContext({ self: { addEventListener: (type: string, fn: unknown) => (listeners[type] = fn), location: { origin: "https://p.example" } }, URL });
  new vm.Script(`${script}\n;globalThis.__rules = { strategyFor, mayKeepResponse, PRECACHE };`).runInContext(context);
  return { listeners, rules: (context as unknown as { __rules: { strategyFor: (m: string, u: string, o: string) => string; mayKeepResponse: (...a: unknown[]) => boolean; PRECACHE: string[] } }).__rules };
}

describe("the service worker script", () => {
  it("is valid JavaScript that listens for install, activate, fetch and message", () => {
    const { listeners } = load(serviceWorkerScript("abc123", ["/assets/entry.client-X.js"]));
    expect(Object.keys(listeners).sort()).toEqual(["activate", "fetch", "install", "message"]);
  });

  it("runs the same cache rules as the tested module, and precaches the shell and both offline pages", () => {
    const { rules } = load(serviceWorkerScript("abc123", ["/assets/entry.client-X.js"]));
    expect(rules.PRECACHE).toEqual(["/assets/entry.client-X.js", "/offline", "/en/offline"]);
    expect(rules.strategyFor("GET", "https://p.example/manage/pages", "https://p.example")).toBe("none");
    expect(rules.strategyFor("GET", "https://p.example/assets/a.js", "https://p.example")).toBe("asset");
    expect(rules.strategyFor("GET", "https://p.example/en/about", "https://p.example")).toBe("page");
    expect(rules.mayKeepResponse(200, "basic", "private, no-store", false)).toBe(false);
  });
});
