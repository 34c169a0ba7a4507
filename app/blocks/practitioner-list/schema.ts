import { field, schema } from "~/content/schema-builder";

/** The block's fields: every one has a default or a known tag, so the editor can build a new block. */
export const blockSchema = schema("block-practitioner-list", "Component", "Behandelnde (Liste)", "Liste sichtbarer Behandelnder.", [
  field("heading", "String", "Überschrift", { defaultValue: "" }),
  field("limit", "Number", "Anzahl", { minValue: 1, defaultValue: 10 }),
]);
