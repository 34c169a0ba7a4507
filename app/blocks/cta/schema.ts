import { field, schema } from "~/content/schema-builder";

/** The block's fields: every one has a default or a known tag, so the editor can build a new block. */
export const blockSchema = schema("block-cta", "Component", "Handlungsaufforderung", "Hervorgehobener Kasten mit Button.", [
  field("heading", "String", "Überschrift", { isRequired: true, defaultValue: "Neue Überschrift" }),
  field("text", "String", "Text", { defaultValue: "" }),
  field("label", "String", "Button-Beschriftung", { isRequired: true, defaultValue: "Mehr erfahren" }),
  field("link", "String", "Button-Link", { isRequired: true, defaultValue: "/", tags: ["link"] }),
]);
