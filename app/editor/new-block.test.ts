import { describe, expect, it } from "vitest";
import { BLOCK_SCHEMAS } from "~/blocks/schemas";
import type { EditorField, EditorSchema } from "./types";
import { newBlock, newEntry, PLACEHOLDER_IMAGE } from "./new-block";

const schemaOf = (name: string, fields: EditorField[], container = false): EditorSchema => ({ name, label: name, fields, container });

describe("a new block (§4, §5, §9)", () => {
  it("starts every field from its default, without sharing the schema's default objects", () => {
    const columns: EditorField = { name: "columns", label: "Spalten", fieldType: "Array", defaultValue: [{ heading: "Spalte" }] };
    const schema = schemaOf("block-x", [{ name: "heading", label: "Überschrift", fieldType: "String", defaultValue: "Neu" }, columns]);
    const a = newBlock(schema, "a");
    const b = newBlock(schema, "b");
    expect(a).toEqual({ ok: true, block: { schemaId: "block-x", id: "a", heading: "Neu", columns: [{ heading: "Spalte" }] } });
    if (!a.ok || !b.ok) throw new Error("expected blocks");
    expect(a.block.columns).not.toBe(b.block.columns);
    expect(a.block.columns).not.toBe(columns.defaultValue);
  });

  it("gives image fields the placeholder image, minItems copies, and lists at least minItems entries", () => {
    const schema = schemaOf("block-gallery", [
      { name: "images", label: "Bilder", fieldType: "Assets", tags: ["image"], minItems: 3 },
      { name: "hero", label: "Bild", fieldType: "Assets", tags: ["image"], defaultValue: [PLACEHOLDER_IMAGE], minItems: 2 },
      { name: "rows", label: "Zeilen", fieldType: "Array", defaultValue: [{ q: "?" }], minItems: 2 },
    ]);
    const made = newBlock(schema, "g");
    expect(made).toEqual({
      ok: true,
      block: { schemaId: "block-gallery", id: "g", images: [PLACEHOLDER_IMAGE, PLACEHOLDER_IMAGE, PLACEHOLDER_IMAGE], hero: [PLACEHOLDER_IMAGE, PLACEHOLDER_IMAGE], rows: [{ q: "?" }, { q: "?" }] },
    });
  });

  it("refuses a field with neither a default nor a known tag, naming it", () => {
    const schema = schemaOf("block-bad", [
      { name: "ok", label: "Gut", fieldType: "String", defaultValue: "" },
      { name: "odd", label: "Seltsam", fieldType: "String", tags: ["mystery"] },
    ]);
    expect(newBlock(schema, "x")).toEqual({ ok: false, fields: ["Seltsam"] });
  });

  it("gives a container an empty list of children", () => {
    const made = newBlock(schemaOf("block-section", [{ name: "blocks", label: "Blöcke", fieldType: "Components" }], true), "s");
    expect(made).toEqual({ ok: true, block: { schemaId: "block-section", id: "s", blocks: [] } });
  });

  it("can start every block kind this site has (the seed's schemas)", () => {
    for (const s of BLOCK_SCHEMAS) {
      const fields = s.fields.map((f) => ({ name: f.name, label: f.properties.label ?? f.name, ...f.properties }) as EditorField);
      const made = newBlock(schemaOf(s.name, fields, fields.some((f) => f.name === "blocks" && f.fieldType === "Components")), "id");
      expect(made.ok, s.name).toBe(true);
    }
  });

  it("makes a list's new entry from its nested fields", () => {
    expect(newEntry({ name: "items", label: "", fieldType: "Array", nested: [
      { name: "question", label: "", fieldType: "String" },
      { name: "open", label: "", fieldType: "Boolean" },
      { name: "icon", label: "", fieldType: "String", defaultValue: "check" },
    ] })).toEqual({ question: "", open: false, icon: "check" });
  });
});
