import { field, schema } from "~/content/schema-builder";

/** The block's fields: every one has a default or a known tag, so the editor can build a new block. */
export const blockSchema = schema("block-book-appointment", "Component", "Termin buchen", "Freie Termine anzeigen und buchen.", [
  field("heading", "String", "Überschrift", { defaultValue: "" }),
  field("variant", "String", "Variante", {
    editor: "Dropdown",
    allowedValues: ["standard", "edit"],
    defaultValue: "standard",
    hints: "„edit“ ist die Ansicht für Behandelnde zum Pflegen der eigenen Termine.",
  }),
  field("practitioner", "References", "Behandelnde:r", {
    schemaIds: ["gm-content-practitioners"],
    maxItems: 1,
    tags: ["practitioner"],
    hints: "Wessen Termine die Variante „edit“ pflegt; leer: die eine Person, die die Seite zeigt.",
  }),
]);
