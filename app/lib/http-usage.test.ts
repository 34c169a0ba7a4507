import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every request our code sends goes through the one HTTP client (app/lib/http.ts), which knows what
 * may be retried (§7, §9). A bare fetch() elsewhere would skip that: this test lists any.
 * XMLHttpRequest stays where upload progress is shown (fetch has no upload progress).
 */
const root = path.resolve(import.meta.dirname, "../..");
const files = (dir: string): string[] =>
  fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" || e.name.startsWith(".") || e.name === "+types" ? [] : files(rel);
    return /\.(ts|tsx)$/.test(e.name) && !/\.test\.|test-support|\.d\.ts$/.test(e.name) ? [rel] : [];
  });

/**
 * Not /api calls, and not through this client on purpose: the service worker's own cache strategies
 * (a program of its own, sw-script.server.ts) and the PWA's build pointers (/builds/*.json, polled:
 * the next poll is the retry), which load with every public page and must stay a few bytes.
 */
const EXEMPT = new Set([path.join("app", "pwa", "sw-script.server.ts"), path.join("app", "pwa", "client.ts")]);

describe("one HTTP client", () => {
  it("no module but app/lib/http.ts calls fetch() itself", () => {
    const bare = [...files("app"), ...files("server")]
      .filter((f) => f !== path.join("app", "lib", "http.ts") && !EXEMPT.has(f))
      .flatMap((f) =>
        fs
          .readFileSync(path.join(root, f), "utf8")
          .split("\n")
          .map((line, i) => ({ line, at: `${f}:${i + 1}` }))
          .filter(({ line }) => /(^|[^.\w])fetch\(/.test(line) && !/^\s*(\/\/|\*)/.test(line))
          .map(({ at, line }) => `${at}: ${line.trim()}`),
      );
    expect(bare).toEqual([]);
  });
});
