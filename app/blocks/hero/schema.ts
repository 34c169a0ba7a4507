import { field, schema } from "~/content/schema-builder";

/** The block's fields: every one has a default or a known tag, so the editor can build a new block. */
export const blockSchema = schema("block-hero", "Component", "Hero", "Großer Einstieg mit Bild und Handlungsaufforderung.", [
  field("heading", "String", "Überschrift", { isRequired: true, defaultValue: "Neue Überschrift" }),
  field("text", "String", "Text", { editor: "TextArea", defaultValue: "" }),
  field("image", "Assets", "Bild", { maxItems: 1, tags: ["image"], defaultValue: ["asset-placeholder"] }),
  field("ctaLabel", "String", "Button-Beschriftung", { defaultValue: "" }),
  field("ctaLink", "String", "Button-Link", { defaultValue: "", tags: ["link"], hints: "Interner Pfad oder https-Adresse." }),
]);
