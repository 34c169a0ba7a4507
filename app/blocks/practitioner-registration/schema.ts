import { field, schema } from "~/content/schema-builder";

/** The block's fields: every one has a default or a known tag, so the editor can build a new block. */
export const blockSchema = schema(
  "block-practitioner-registration",
  "Component",
  "Registrierung Behandelnde",
  "Formular, mit dem sich Behandelnde eintragen.",
  [
    field("heading", "String", "Überschrift", { defaultValue: "" }),
    field("intro", "String", "Einleitung", { editor: "TextArea", defaultValue: "" }),
  ],
);
