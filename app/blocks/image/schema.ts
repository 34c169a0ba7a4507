import { field, schema } from "~/content/schema-builder";

/** The block's fields: every one has a default or a known tag, so the editor can build a new block. */
export const blockSchema = schema("block-image", "Component", "Bild", "Einzelnes Bild mit Alternativtext.", [
  field("image", "Assets", "Bild", { isRequired: true, maxItems: 1, tags: ["image"], defaultValue: ["asset-placeholder"] }),
  field("alt", "String", "Alternativtext", { isRequired: true, defaultValue: "Bildbeschreibung", hints: "Für Screenreader." }),
  field("caption", "String", "Bildunterschrift", { defaultValue: "" }),
]);
