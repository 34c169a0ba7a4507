import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BLOCK_SCHEMAS } from "./schemas";
import { BLOCKS, BLOCK_DEFINITIONS, isContainerKind } from "./registry";
import { blockNeeds, isKnownBlock, prepareBlock, type DroppedChild } from "./registry.server";

const folders = fs.readdirSync(import.meta.dirname, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

describe("the block registry", () => {
  it("has one folder per block kind, each with its schema, component and palette entry", () => {
    expect(folders.length).toBe(BLOCKS.length);
    for (const folder of folders) {
      expect(fs.existsSync(path.join(import.meta.dirname, folder, "index.tsx")), folder).toBe(true);
      expect(fs.existsSync(path.join(import.meta.dirname, folder, "schema.ts")), folder).toBe(true);
      expect(BLOCK_DEFINITIONS[`block-${folder}`]?.name, folder).toBe(`block-${folder}`);
    }
    for (const schema of BLOCK_SCHEMAS) expect(schema.type, schema.name).toBe("Component");
    for (const block of BLOCKS) {
      expect(block.palette.label.de && block.palette.label.en, block.name).toBeTruthy();
      expect(typeof block.Component).toBe("function");
    }
    expect(BLOCK_SCHEMAS.map((s) => s.name).sort()).toEqual(BLOCKS.map((b) => b.name).sort());
    expect(BLOCK_SCHEMAS.map((s) => s.name)).toContain("block-practitioner-overview");
  });

  it("gives every server part a kind that exists (a typo would drop its loading and sanitising)", () => {
    const servers = Object.entries(import.meta.glob<{ server: { name: string } }>("./*/server.ts", { eager: true }));
    expect(servers.length).toBeGreaterThan(5);
    for (const [file, module] of servers) {
      expect(module.server.name, file).toBe(`block-${file.split("/")[1]}`);
      expect(BLOCK_DEFINITIONS[module.server.name], file).toBeDefined();
    }
    const richtext = prepareBlock({ schemaId: "block-richtext", html: "<script>x</script><p>ok</p>" });
    expect(richtext.html).toBe("<p>ok</p>");
  });

  it("knows only its own kinds, also for names on Object.prototype", () => {
    expect(isKnownBlock({ schemaId: "block-hero" })).toBe(true);
    for (const schemaId of ["block-unknown", "constructor", "__proto__", "toString"]) expect(isKnownBlock({ schemaId }), schemaId).toBe(false);
  });

  it("sanitises rich text when a page is prepared and leaves other blocks alone", () => {
    const prepared = prepareBlock({ schemaId: "block-richtext", html: '<p onclick="x()">Hallo<script>alert(1)</script></p>' });
    expect(prepared.html).toBe("<p>Hallo</p>");
    const hero = { schemaId: "block-hero", heading: "<b>kept as text</b>" };
    expect(prepareBlock(hero)).toBe(hero);
    expect(prepareBlock({ schemaId: "block-richtext", html: "", markdown: "**fett**" }).html).toContain("<strong>fett</strong>");
  });

  it("merges what the blocks of a page need: the longest list, every practitioner and asset once, the directory", () => {
    const needs = blockNeeds([
      { schemaId: "block-practitioner-list", limit: 7 },
      { schemaId: "block-practitioner-smalllist" },
      { schemaId: "block-practitioner-single", practitioner: ["p1"] },
      { schemaId: "block-practitioner-single", practitioner: ["p2", "p9"] },
      { schemaId: "block-practitioner-single", practitioner: "p7" },
      { schemaId: "block-hero", image: ["a1"] },
      { schemaId: "block-image", image: ["a2", "a3"] },
      { schemaId: "block-image", image: { id: "a4" } },
      { schemaId: "block-practitioner-overview" },
      { schemaId: "block-book-appointment" },
      { schemaId: "block-richtext" },
    ]);
    expect(needs).toEqual({
      firstPractitioners: 5,
      practitionerLists: [7],
      practitioners: { ids: ["p1", "p2"], slotsEach: 6 },
      directory: true,
      soonestSlots: 12,
      assets: ["a1", "a2"],
    });
    expect(blockNeeds([{ schemaId: "block-practitioner-list", limit: 1e9 }]).practitionerLists).toEqual([200]);
    expect(blockNeeds([{ schemaId: "block-practitioner-list", limit: 4 }, { schemaId: "block-practitioner-list", limit: 4 }, { schemaId: "block-practitioner-list" }]).practitionerLists).toEqual([4, 10]);
    // Wrong types fall back to the schema's default, on the server and in the component alike.
    expect(blockNeeds([{ schemaId: "block-practitioner-list", limit: "7" }]).practitionerLists).toEqual([10]);
    expect(blockNeeds([{ schemaId: "block-practitioner-smalllist", limit: -2 }]).firstPractitioners).toBe(5);
    expect(blockNeeds([{ schemaId: "block-cta" }])).toMatchObject({ firstPractitioners: 0, practitionerLists: [], directory: false, soonestSlots: 0 });
  });

  it("knows the section as its one container kind, holding every other kind", () => {
    expect(BLOCKS.filter((b) => isContainerKind(b.name)).map((b) => b.name)).toEqual(["block-section"]);
    for (const schemaId of ["block-hero", "block-unknown", "constructor", "__proto__"]) expect(isContainerKind(schemaId), schemaId).toBe(false);
    const field = BLOCK_SCHEMAS.find((s) => s.name === "block-section")?.fields.find((f) => f.name === "blocks");
    expect(field?.properties.fieldType).toBe("Components");
    expect(field?.properties.schemaIds).toEqual(BLOCK_SCHEMAS.map((s) => s.name).filter((n) => n !== "block-section"));
  });

  it("prepares a section's children: rich text sanitised, unknown kinds and sections inside sections left out and reported", () => {
    const dropped: DroppedChild[] = [];
    const section = {
      schemaId: "block-section",
      id: "s1",
      heading: "Wir",
      layout: "two-columns",
      blocks: [
        { schemaId: "block-richtext", id: "c1", html: '<p onclick="x()">Hallo<script>alert(1)</script></p>' },
        { schemaId: "block-video", id: "c2", url: "https://video.example/x" },
        { schemaId: "block-section", id: "c3", blocks: [{ schemaId: "block-richtext", id: "c3a", html: "<script>deep</script>" }] },
        "not a block",
        null,
        { schemaId: "block-richtext", id: "c4", html: "", markdown: "**fett**" },
      ],
    };
    const prepared = prepareBlock(section, (child) => dropped.push(child));
    expect(prepared).toMatchObject({ schemaId: "block-section", id: "s1", heading: "Wir", layout: "two-columns" });
    expect(prepared.blocks).toEqual([
      { schemaId: "block-richtext", id: "c1", html: "<p>Hallo</p>" },
      { schemaId: "block-richtext", id: "c4", html: "<p><strong>fett</strong></p>\n" },
    ]);
    expect(dropped.map((d) => [d.block.id, d.reason])).toEqual([
      ["c2", "unknown"],
      ["c3", "too-deep"],
    ]);
    // The stored block is left as it was (the page's data is shared with the cache).
    expect(section.blocks).toHaveLength(6);
    // A block that is no container keeps whatever its kind makes of it, "blocks" field or not.
    const hero = { schemaId: "block-hero", heading: "H", blocks: [{ schemaId: "block-richtext", html: "<script>x</script>" }] };
    expect(prepareBlock(hero)).toBe(hero);
    expect(prepareBlock({ schemaId: "block-section", blocks: "nonsense" }).blocks).toEqual([]);
  });

  it("merges the needs of a section's children: lists, chosen practitioners, images", () => {
    const needs = blockNeeds([
      { schemaId: "block-hero", image: ["a1"] },
      {
        schemaId: "block-section",
        blocks: [
          { schemaId: "block-image", image: ["a2"] },
          { schemaId: "block-practitioner-list", limit: 4 },
          { schemaId: "block-practitioner-single", practitioner: ["p1"] },
          { schemaId: "block-image", image: ["a1"] },
        ],
      },
      { schemaId: "block-section", layout: "stack", blocks: [{ schemaId: "block-practitioner-overview" }] },
    ]);
    expect(needs).toEqual({
      firstPractitioners: 0,
      practitionerLists: [4],
      practitioners: { ids: ["p1"], slotsEach: 6 },
      directory: true,
      soonestSlots: 0,
      assets: ["a1", "a2"],
    });
    // Only one level: what a section inside a section would hold loads nothing.
    const deep = blockNeeds([{ schemaId: "block-section", blocks: [{ schemaId: "block-section", blocks: [{ schemaId: "block-image", image: ["a9"] }] }] }]);
    expect(deep.assets).toEqual([]);
  });
});
