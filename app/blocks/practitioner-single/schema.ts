import { field, schema } from "~/content/schema-builder";

/** The block's fields: every one has a default or a known tag, so the editor can build a new block. */
export const blockSchema = schema(
  "block-practitioner-single",
  "Component",
  "Behandelnde:r (einzeln)",
  "Stellt eine:n ausgewählte:n Behandelnde:n vor.",
  [
    field("practitioner", "References", "Behandelnde:r", {
      schemaIds: ["gm-content-practitioners"],
      maxItems: 1,
      isRequired: true,
      tags: ["practitioner"],
    }),
  ],
);
