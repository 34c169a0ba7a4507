import { field, HEX_COLOR_PATTERN, schema } from "~/content/schema-builder";

/**
 * The kinds a section may hold: every other block folder, found by the build like the registry's
 * kinds (a folder is a kind named block-<folder>), so a new kind can be put in a section without a
 * list to update. Not sections themselves: one nesting level keeps pages and the editor simple.
 * Only the file names are used; nothing is loaded from these modules here.
 */
const CHILD_KINDS = Object.keys(import.meta.glob(["../*/schema.ts", "!../section/schema.ts"]))
  .map((file) => `block-${file.split("/")[1]}`)
  .sort();

/** The block's fields: every one has a default or a known tag, so the editor can build a new block. */
export const blockSchema = schema("block-section", "Component", "Abschnitt", "Fasst Blöcke zusammen: untereinander oder in zwei bis drei Spalten.", [
  field("heading", "String", "Überschrift", { defaultValue: "" }),
  field("layout", "String", "Anordnung", {
    editor: "Dropdown",
    allowedValues: ["stack", "two-columns", "three-columns"],
    defaultValue: "stack",
    hints: "Untereinander, oder ab Tablet-Breite in zwei oder drei Spalten nebeneinander.",
  }),
  // No tag: the editor knows no "color" tag to start a field from (block-rules), so it starts empty.
  field("background", "String", "Hintergrundfarbe", {
    editor: "Color",
    pattern: HEX_COLOR_PATTERN,
    defaultValue: "",
    hints: "Hex-Code, z. B. #f3ede4. Leer: kein eigener Hintergrund.",
  }),
  field("blocks", "Components", "Blöcke", { schemaIds: CHILD_KINDS, defaultValue: [] }),
]);
