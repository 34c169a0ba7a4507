import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteStoreBackend, type StoreBackend } from "../../../tests/support/store-backends";
import { demoSchemas } from "~/content/seed/schemas";
import type { ContentStore } from "~/content/store";
import { newPageData, pageSettings, settingsPatch } from "./page-data";
import { getPage, pageByName, patchPage } from "./page-edit";
import { listPages } from "./page-list";
import { checkPageSlugs, normalizePageSlug, PAGES_SCHEMA, slugOwner, slugProblem } from "./page-slug";

/** Slug rules and uniqueness of pages, against a real SQLite store with the site's schemas. */
describe("page slugs", () => {
  let backend: StoreBackend;
  let store: ContentStore;

  beforeAll(async () => {
    backend = sqliteStoreBackend("admin-pages", 4096);
    store = await backend.openStore();
    await store.migrate();
    const components = demoSchemas.filter((s) => s.type === "Component");
    for (const schema of [...components, ...demoSchemas.filter((s) => s.type !== "Component")]) await store.upsertSchema(schema);
    await store.create(PAGES_SCHEMA, newPageData("Über uns", "ueber-uns"), { id: "page-about", publish: true });
    await store.create(PAGES_SCHEMA, newPageData("Ratgeber Rücken", "ratgeber/ruecken"), { id: "page-guide" });
  });
  afterAll(async () => {
    await store.close();
    await backend.dispose();
  });

  it("accepts lower-case words, digits and hyphens in slash-separated sections", () => {
    for (const slug of ["home", "ueber-uns", "ratgeber/rueckenschmerzen", "a1/b-2/c"]) expect(slugProblem(slug), slug).toBeNull();
  });

  it("refuses empty, malformed and too long slugs", () => {
    expect(slugProblem("")).toBe("empty");
    for (const slug of ["Über", "a b", "a--b", "-a", "a/", "a//b", "a_b", "ü"]) expect(slugProblem(slug), slug).toBe("format");
    expect(slugProblem("a".repeat(121))).toBe("tooLong");
  });

  it("refuses slugs whose path a route owns", () => {
    for (const slug of ["practitioners", "manage", "api/x", "login", "en", "de/seite", "newsletter/anna", "present/x", "appointments/cancel"]) expect(slugProblem(slug), slug).toBe("reserved");
    // Only the sub-paths of these are routes: the demo's newsletter and appointments pages live at the segment itself.
    for (const slug of ["practitioners-guide", "newsletter", "appointments"]) expect(slugProblem(slug), slug).toBeNull();
  });

  it("normalises what editors type", () => {
    expect(normalizePageSlug("  /Ratgeber/Ruecken/ ")).toBe("ratgeber/ruecken");
  });

  it("finds the page that owns a slug, drafts too, but not the page itself", async () => {
    expect(await slugOwner(store, "de", "ueber-uns")).toBe("page-about");
    expect(await slugOwner(store, "en", "ratgeber/ruecken")).toBe("page-guide");
    expect(await slugOwner(store, "de", "ueber-uns", "page-about")).toBeUndefined();
    expect(await slugOwner(store, "de", "nirgends")).toBeUndefined();
  });

  it("reports taken, reserved and malformed slugs per language", async () => {
    expect(await checkPageSlugs(store, { de: "ueber-uns", en: "about-us" })).toEqual({ de: "taken" });
    expect(await checkPageSlugs(store, { de: "ueber-uns", en: "manage" }, "page-about")).toEqual({ en: "reserved" });
    expect(await checkPageSlugs(store, { de: "Neu" })).toEqual({ de: "format" });
    expect(await checkPageSlugs(store, { de: "neu", en: "new" })).toEqual({});
  });

  it("keeps the live slug taken while a draft changes it", async () => {
    const page = (await getPage(store, "page-about"))!;
    const next = { ...pageSettings(page), slug: { de: "wir", en: "us" } };
    const changed = await patchPage(store, "page-about", settingsPatch(page.data, next), { by: { kind: "user" as const, userId: "t", email: "editor@example.org", superuser: false }, expectedVersion: page.version });
    expect(changed.status).toBe("Published");
    expect(changed.newStatus).toBe("Draft");
    expect(await slugOwner(store, "de", "wir")).toBe("page-about");
    expect(await slugOwner(store, "de", "ueber-uns")).toBe("page-about");
    expect((await store.get(PAGES_SCHEMA, "page-about"))!.data.seo?.de).toMatchObject({ slug: "ueber-uns" });
  });

  it("refuses a change at a stale version", async () => {
    const page = (await getPage(store, "page-guide"))!;
    await expect(patchPage(store, "page-guide", { title: { de: "X" } }, { by: { kind: "user" as const, userId: "t", email: "editor@example.org", superuser: false }, expectedVersion: page.version + 5 })).rejects.toMatchObject({ statusCode: 412 });
  });

  it("finds a page by id or by German slug", async () => {
    expect((await pageByName(store, "page-guide"))?.id).toBe("page-guide");
    expect((await pageByName(store, "ratgeber/ruecken"))?.id).toBe("page-guide");
    expect(await pageByName(store, "../etc")).toBeUndefined();
    // Hostile names (GET /manage/pages/%00 was a 500) are no page, never an error.
    for (const name of ["\u0000", "a\u0000b", "x".repeat(10_000), "ratgeber//ruecken", " ", "%2e%2e"]) expect(await pageByName(store, name), JSON.stringify(name.slice(0, 20))).toBeUndefined();
  });

  it("lists pages by state and search in the database", async () => {
    const query = { search: "", state: "" as const, page: 1 };
    expect((await listPages(store, query)).items.map((i) => i.id)).toEqual(["page-guide", "page-about"]);
    expect((await listPages(store, { ...query, state: "Draft" })).items.map((i) => i.id)).toEqual(["page-guide"]);
    expect((await listPages(store, { ...query, state: "Changed" })).items.map((i) => i.id)).toEqual(["page-about"]);
    expect((await listPages(store, { ...query, state: "Published" })).total).toBe(0);
    expect((await listPages(store, { ...query, search: "rucken" })).items.map((i) => i.id)).toEqual(["page-guide"]);
  });
});
