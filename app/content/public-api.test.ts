import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AssetStore } from "./assets";
import { ContentCache } from "./cache";
import { openDatabase } from "./db";
import { ContentError } from "./errors";
import { contentItem, listItems, restItems, thirdPartyScripts, type ApiContext } from "./public-api";
import { seedDemoContent } from "./seed-demo";
import { ContentStore } from "./store";

let dir: string;
let store: ContentStore;
let ctx: ApiContext;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-api-"));
  const { db, dialect } = await openDatabase({ sqlitePath: path.join(dir, "db.sqlite") });
  store = new ContentStore(db, dialect, new AssetStore(path.join(dir, "assets"), 1024 * 1024));
  await store.migrate();
  await seedDemoContent(store);
  const cache = new ContentCache({ ttlMs: 60_000 });
  store.onChange(() => cache.clear());
  ctx = { store, cache, siteName: "praxisnetz", isEditor: false };
});
afterAll(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("internal API functions", () => {
  it("serves cached reads until content changes, then fresh data", async () => {
    const home = (await restItems({ url: "core-pages", language: "de" }, ctx)).items.find((p) => (p.data.seo as { slug: string }).slug === "home")!;
    const hitsBefore = ctx.cache.hits;
    await restItems({ url: "core-pages", language: "de" }, ctx);
    expect(ctx.cache.hits).toBe(hitsBefore + 1);

    await store.patch("core-pages", home.id, { title: { de: "Neue Startseite" } });
    const after = (await restItems({ url: "core-pages", language: "de" }, ctx)).items.find((p) => p.id === home.id)!;
    expect(after.data.title).toBe("Neue Startseite");
  });

  it("bypasses the cache when asked", async () => {
    const misses = ctx.cache.misses;
    await restItems({ url: "core-theme-colors", language: "de", cache: false }, ctx);
    await restItems({ url: "core-theme-colors", language: "de", cache: false }, ctx);
    expect(ctx.cache.misses).toBe(misses);
  });

  it("keeps a pending draft from visitors while the published page stays live", async () => {
    const { items } = await store.query("core-pages", {}, {});
    const page = items[0]!;
    const liveTitle = (page.data.title as Record<string, string>).de;
    await store.createDraft("core-pages", page.id);
    await store.patch("core-pages", page.id, { title: { de: "Entwurf des Titels" } });
    const visitor = await contentItem({ url: "core-pages", id: page.id, language: "de" }, ctx);
    expect(visitor.data.title).toBe(liveTitle);
    const asks = await contentItem({ url: "core-pages", id: page.id, language: "de", unpublished: true }, ctx);
    expect(asks.data.title).toBe(liveTitle);
    const editor = await contentItem({ url: "core-pages", id: page.id, language: "de", unpublished: true }, { ...ctx, isEditor: true });
    expect(editor.data.title).toBe("Entwurf des Titels");
  });

  it("pages visitors' practitioner lists after the visibility rules", async () => {
    const all = await restItems({ url: "gm-content-practitioners", language: "de" }, ctx);
    const page = await restItems({ url: "gm-content-practitioners?$top=4&$skip=4", language: "de" }, ctx);
    expect(page.items).toHaveLength(4);
    expect(page.total).toBe(all.total);
    expect(page.items.map((i) => i.id)).toEqual(all.items.slice(4, 8).map((i) => i.id));
  });

  it("reads third-party scripts from the global settings", async () => {
    const { items } = await thirdPartyScripts({ language: "de" }, ctx);
    expect(items.map((s) => s.category)).toContain("statistic");
  });

  it("refuses bad bodies with a 400 listing the fields", async () => {
    await expect(restItems({ url: "", language: "xx" }, ctx)).rejects.toMatchObject({
      statusCode: 400,
      details: expect.arrayContaining([expect.stringMatching(/^url:/), expect.stringMatching(/^language:/)]),
    });
    await expect(restItems("core-pages", ctx)).rejects.toBeInstanceOf(ContentError);
  });
});

describe("totals kept per content change", () => {
  it("counts a search once for all its pages, drops the count when its schema changes and keeps it for others", async () => {
    const tagged = { ...ctx, cache: new ContentCache({ ttlMs: 60_000 }) };
    const unsubscribe = store.onChange((change) => tagged.cache.invalidate(change));
    try {
      const page = (skip: number) => listItems("gm-content-practitioners", tagged, { language: "de", query: { sort: [{ path: "data.name.iv" }], skip, take: 2 } });
      const first = await page(0);
      expect(first.total).toBeGreaterThan(4);
      const misses = tagged.cache.misses;
      const hits = tagged.cache.hits;
      const second = await page(2);
      expect(second.total).toBe(first.total);
      expect(tagged.cache.misses).toBe(misses);
      expect(tagged.cache.hits).toBe(hits + 1);
      // A booking-shaped change to appointments keeps the practitioners' total.
      const slot = (await store.query("gm-appointments", { take: 1 })).items[0]!;
      await store.patch("gm-appointments", slot.id, { booked: { iv: true } });
      await page(4);
      expect(tagged.cache.misses).toBe(misses);
      expect(tagged.cache.hits).toBe(hits + 2);
      // A new visible practitioner is counted at once.
      await store.create("gm-content-practitioners", { name: { iv: "Zora Zählerin" }, city: { iv: "Kiel" }, display: { iv: true }, websites: { iv: ["PRAXISNETZ"] } }, { publish: true });
      expect((await page(0)).total).toBe(first.total + 1);
    } finally {
      unsubscribe();
    }
  });
});
