import { field, nestedFields, schema } from "~/content/schema-builder";

/** The block's fields: every one has a default or a known tag, so the editor can build a new block. */
export const blockSchema = schema("block-accordion", "Component", "Akkordeon", "Fragen und Antworten zum Aufklappen.", [
  field("heading", "String", "Überschrift", { defaultValue: "" }),
  field("items", "Array", "Einträge", {
    defaultValue: [],
    nested: nestedFields([
      ["question", "String", "Frage", { isRequired: true }],
      ["answer", "String", "Antwort", { editor: "TextArea", isRequired: true }],
    ]),
  }),
]);
