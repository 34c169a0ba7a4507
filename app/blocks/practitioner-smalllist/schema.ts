import { field, schema } from "~/content/schema-builder";
import { DEFAULT_LIMIT } from "./limit";

/** The block's fields: every one has a default or a known tag, so the editor can build a new block. */
export const blockSchema = schema(
  "block-practitioner-smalllist",
  "Component",
  "Behandelnde (kompakt)",
  "Kompakte Liste, z. B. für die Startseite.",
  [
    field("heading", "String", "Überschrift", { defaultValue: "" }),
    field("limit", "Number", "Anzahl", { minValue: 1, defaultValue: DEFAULT_LIMIT }),
  ],
);
