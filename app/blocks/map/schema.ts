import { field, schema } from "~/content/schema-builder";

/** The block's fields: every one has a default or a known tag, so the editor can build a new block. */
export const blockSchema = schema("block-map", "Component", "Karte", "Kartenausschnitt mit Markierung.", [
  field("heading", "String", "Überschrift", { defaultValue: "" }),
  field("location", "Geolocation", "Ort", { defaultValue: { latitude: 51.3127, longitude: 9.4797 } }),
  field("zoom", "Number", "Zoomstufe", { minValue: 1, maxValue: 18, defaultValue: 12 }),
]);
