import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteStoreBackend, type StoreBackend } from "../../../tests/support/store-backends";
import { ContentError } from "~/content/errors";
import { demoSchemas } from "~/content/seed/schemas";
import { seedDemoContent } from "~/content/seed-demo";
import type { ContentStore } from "~/content/store";
import { Blocks } from "../registry";
import type { Block, PageBlockData } from "../types";
import { definition } from "./index";

const DATA: PageBlockData = {
  practitioners: [],
  appointments: [],
  assets: { a1: { url: "/assets/a1", width: 40, height: 30, mimeType: "image/svg+xml", fileName: "a1.svg" } },
  directory: null,
  facets: { languages: [], countries: [] },
  lists: {},
};

const section = (fields: Record<string, unknown>): Block => ({ schemaId: "block-section", id: "s1", ...fields });
const render = (blocks: Block[]) => renderToStaticMarkup(<Blocks blocks={blocks} data={DATA} />);

describe("the section block", () => {
  it("shows its heading and its children, each wrapped like a page's blocks, in the chosen columns", () => {
    const html = render([
      section({
        heading: "Wer wir sind",
        layout: "three-columns",
        blocks: [
          { schemaId: "block-richtext", id: "c1", html: "<p>Text</p>" },
          { schemaId: "block-image", id: "c2", image: ["a1"], alt: "Team" },
        ],
      }),
    ]);
    expect(html).toMatch(/<div data-block="block-section"><section[^>]*><div[^>]*><h2[^>]*>Wer wir sind<\/h2><\/div><div class="[^"]*md:grid-cols-3[^"]*">/);
    expect(html).toContain('<div data-block="block-richtext"><section');
    expect(html).toContain('<div data-block="block-image"><figure');
    // Near the top of the page the section's images load eagerly, as they would on their own.
    expect(html).toContain('loading="eager"');
  });

  it("stacks its children without a grid, and shows no empty heading or unknown layout", () => {
    for (const layout of ["stack", "grid-of-nine", "constructor", undefined]) {
      const html = render([section({ heading: "", layout, blocks: [{ schemaId: "block-richtext", html: "<p>A</p>" }] })]);
      expect(html, String(layout)).not.toContain("grid");
      expect(html).not.toContain("<h2");
      expect(html).toContain('data-block="block-richtext"');
    }
  });

  it("never lets a child take the page's h1, nor nests a section in a section", () => {
    const html = render([
      section({
        blocks: [
          { schemaId: "block-hero", heading: "Im Abschnitt" },
          { schemaId: "block-section", heading: "Zu tief", blocks: [] },
        ],
      }),
    ]);
    expect(html).not.toContain("<h1");
    expect(html).toContain("Im Abschnitt</h2>");
    expect(html).not.toContain("Zu tief");
  });

  it("takes a background only as a hex code", () => {
    expect(render([section({ background: "#f3ede4" })])).toContain('style="background-color:#f3ede4"');
    expect(render([section({ background: "url(https://tracker.example/x)" })])).not.toContain("style=");
  });

  it("renders the editor's slot in place of its children, inside its layout", () => {
    const { Component } = definition;
    const html = renderToStaticMarkup(
      <Component block={section({ layout: "two-columns", blocks: [{ schemaId: "block-richtext", html: "<p>stored</p>" }] })} data={DATA} index={3} slot={<p data-editor-slot>drop here</p>} />,
    );
    expect(html).toMatch(/md:grid-cols-2[^>]*><p data-editor-slot="true">drop here<\/p><\/div>/);
    expect(html).not.toContain("stored");
  });
});

/** The store keeps pages whose blocks hold sections, with the site's real schemas. */
describe("a page with a section, in the store", () => {
  let backend: StoreBackend;
  let store: ContentStore;
  const page = (de: unknown[]) => ({
    title: { de: "Abschnitte", en: "Sections" },
    seo: { de: { schemaId: "component-seo", slug: "abschnitte" }, en: { schemaId: "component-seo", slug: "sections" } },
    blocks: { de, en: [] },
  });

  beforeAll(async () => {
    backend = sqliteStoreBackend("section-block", 4096);
    store = await backend.openStore();
    await store.migrate();
    const components = demoSchemas.filter((s) => s.type === "Component");
    for (const schema of [...components, ...demoSchemas.filter((s) => s.type !== "Component")]) await store.upsertSchema(schema);
  });
  afterAll(async () => {
    await store.close();
    await backend.dispose();
  });

  it("accepts a section with children in the German blocks and gives them back as stored", async () => {
    const blocks = [
      {
        schemaId: "block-section",
        id: "s1",
        heading: "Wer wir sind",
        layout: "two-columns",
        background: "#f3ede4",
        blocks: [
          { schemaId: "block-richtext", id: "s1-1", html: "<p>Text</p>" },
          { schemaId: "block-practitioner-list", id: "s1-2", heading: "Netzwerk", limit: 4 },
        ],
      },
    ];
    const created = await store.create("core-pages", page(blocks), { id: "page-sections", publish: true });
    expect(created.data.blocks?.de).toEqual(blocks);
    expect((await store.get("core-pages", "page-sections"))?.data.blocks?.de).toEqual(blocks);
  });

  it("refuses a section inside a section, an unknown child kind and a layout it does not know", async () => {
    const refused = async (child: Record<string, unknown>, layout = "stack") => {
      const error = await store.create("core-pages", page([{ schemaId: "block-section", id: "s", layout, blocks: [child] }])).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ContentError);
      expect((error as ContentError).statusCode).toBe(400);
      return (error as ContentError).details?.join("\n");
    };
    expect(await refused({ schemaId: "block-section", id: "inner", blocks: [] })).toMatch(/"block-section" is not allowed here/);
    expect(await refused({ schemaId: "block-video", id: "v" })).toMatch(/Unknown component schema "block-video"/);
    expect(await refused({ schemaId: "block-richtext", id: "r", html: "<p>x</p>" }, "masonry")).toMatch(/Not an allowed value/);
  });

  it("takes the whole demo seed, whose about page opens with a section in both languages", async () => {
    const fresh = sqliteStoreBackend("section-seed", 64 * 1024);
    const seeded = await fresh.openStore();
    try {
      await seeded.migrate();
      expect(await seedDemoContent(seeded)).not.toBeNull();
      const about = await seeded.get("core-pages", "page-about");
      for (const lang of ["de", "en"]) {
        const [first] = (about?.data.blocks?.[lang] ?? []) as Block[];
        expect(first?.schemaId, lang).toBe("block-section");
        expect((first?.blocks as Block[]).map((b) => b.schemaId), lang).toEqual(["block-richtext", "block-image"]);
      }
    } finally {
      await seeded.close();
      await fresh.dispose();
    }
  });
});
