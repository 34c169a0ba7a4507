import { describe, expect, it } from "vitest";
import { ASSETS_TAG, TaggedLru } from "./read-tags";

const entry = (...tags: string[]) => ({ tags: new Set(tags) });
const change = (schemaName: string) => ({ kind: "content" as const, schemaName, id: "x" });

/** The tag index of TaggedLru must hold exactly the keys the cache holds, whatever made entries leave. */
describe("TaggedLru", () => {
  it("drops exactly the entries that read what changed", () => {
    const lru = new TaggedLru<ReturnType<typeof entry>>({ max: 100, ttl: 60_000 });
    lru.set("home", entry("pages"));
    lru.set("profile", entry("practitioners", "appointments"));
    lru.set("list", entry("practitioners"));
    lru.set("plain", entry());
    lru.drop(change("appointments"));
    expect(["home", "profile", "list", "plain"].filter((k) => lru.get(k))).toEqual(["home", "list", "plain"]);
    lru.drop(change("practitioners"));
    expect(["home", "profile", "list", "plain"].filter((k) => lru.get(k))).toEqual(["home", "plain"]);
    expect(lru.keysOf("practitioners")).toEqual([]);
    // Assets and their folders drop what read the asset list, nothing else.
    lru.set("media", entry(ASSETS_TAG));
    lru.drop({ kind: "asset-folder", id: "f" });
    expect(["home", "media", "plain"].filter((k) => lru.get(k))).toEqual(["home", "plain"]);
    lru.drop({ kind: "schema", id: "pages" });
    expect(lru.size).toBe(0);
    expect(lru.keysOf("pages")).toEqual([]);
  });

  it("forgets keys that left by eviction or replacement, so a change never drops a newer entry by an old tag", () => {
    const lru = new TaggedLru<ReturnType<typeof entry>>({ max: 3, ttl: 60_000 });
    for (let i = 0; i < 10; i++) lru.set(`k${i}`, entry("a", i % 2 ? "odd" : "even"));
    expect(lru.size).toBe(3);
    expect(lru.keysOf("a").sort()).toEqual(["k7", "k8", "k9"]);
    expect(lru.keysOf("odd").sort()).toEqual(["k7", "k9"]);
    // Replaced with other tags: only the new ones index it.
    lru.set("k9", entry("b"));
    expect(lru.keysOf("odd")).toEqual(["k7"]);
    lru.drop(change("odd"));
    expect(lru.get("k9")).toBeDefined();
    expect(lru.get("k7")).toBeUndefined();
    lru.drop(change("b"));
    expect(lru.get("k9")).toBeUndefined();
    expect(lru.keysOf("a")).toEqual(["k8"]);
  });
});
