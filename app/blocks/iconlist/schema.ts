import { field, nestedFields, schema } from "~/content/schema-builder";

/** The block's fields: every one has a default or a known tag, so the editor can build a new block. */
export const blockSchema = schema("block-iconlist", "Component", "Icon-Liste", "Aufzählung mit Icons.", [
  field("heading", "String", "Überschrift", { defaultValue: "" }),
  field("items", "Array", "Einträge", {
    defaultValue: [],
    nested: nestedFields([
      ["icon", "String", "Icon", { tags: ["icon"], hints: "Name aus core-theme-icons." }],
      ["text", "String", "Text"],
    ]),
  }),
]);
