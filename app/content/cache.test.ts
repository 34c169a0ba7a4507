import { describe, expect, it } from "vitest";
import { ContentCache } from "./cache";
import { recordRead } from "./read-tags";

/** A load that reads schema A while a change happens: kept unless the change touched what it read. */
async function loadAcross(cache: ContentCache, key: string, change: () => void): Promise<number> {
  let loads = 0;
  const load = async () => {
    loads++;
    recordRead("gm-content-practitioners");
    change();
    return loads;
  };
  await cache.getOrLoad(key, load);
  await cache.getOrLoad(key, load);
  return loads;
}

describe("ContentCache across changes", () => {
  it("keeps a load that overlapped a change to another schema (a booking beside a practitioner list)", async () => {
    const cache = new ContentCache();
    expect(await loadAcross(cache, "a", () => cache.invalidate({ kind: "content", schemaName: "gm-appointments", id: "x" }))).toBe(1);
  });

  it("does not keep a load that overlapped a change to what it read, nor one across a schema change or a flush", async () => {
    const cache = new ContentCache();
    expect(await loadAcross(cache, "b", () => cache.invalidate({ kind: "content", schemaName: "gm-content-practitioners", id: "x" }))).toBe(2);
    expect(await loadAcross(cache, "c", () => cache.invalidate({ kind: "schema", id: "gm-appointments" }))).toBe(2);
    expect(await loadAcross(cache, "d", () => cache.clear())).toBe(2);
  });

  it("shares one load between callers that miss together, unless what it read changed meanwhile", async () => {
    const cache = new ContentCache();
    let loads = 0;
    /** A load of core-pages that waits until released. */
    const gated = () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const load = async () => {
        loads++;
        recordRead("core-pages");
        await gate;
        return loads;
      };
      return { load, release };
    };
    const one = gated();
    const together = [cache.getOrLoad("site", one.load), cache.getOrLoad("site", one.load), cache.getOrLoad("site", one.load)];
    one.release();
    expect(await Promise.all(together)).toEqual([1, 1, 1]);
    expect(loads).toBe(1);

    // A change to what the running load reads: a caller that joined it loads again.
    cache.clear();
    const slow = gated();
    const first = cache.getOrLoad("site", slow.load);
    const second = cache.getOrLoad("site", async () => ++loads);
    cache.invalidate({ kind: "content", schemaName: "core-pages", id: "home" });
    slow.release();
    expect(await first).toBe(2);
    expect(await second).toBe(3);
  });
});
