import { field, nestedFields, schema } from "~/content/schema-builder";

/** The block's fields: every one has a default or a known tag, so the editor can build a new block. */
export const blockSchema = schema("block-columns", "Component", "Spalten", "Zwei bis vier Spalten mit Icon, Überschrift und Text.", [
  field("columns", "Array", "Spalten", {
    minItems: 1,
    maxItems: 4,
    defaultValue: [{ heading: "Spalte", text: "", icon: "check" }],
    nested: nestedFields([
      ["heading", "String", "Überschrift"],
      ["text", "String", "Text", { editor: "TextArea" }],
      ["icon", "String", "Icon", { tags: ["icon"], hints: "Name aus core-theme-icons." }],
    ]),
  }),
]);
