import { field, schema } from "~/content/schema-builder";

/** The block's fields: every one has a default or a known tag, so the editor can build a new block. */
export const blockSchema = schema("block-richtext", "Component", "Fließtext", "Formatierter Text (HTML oder Markdown).", [
  field("html", "String", "Inhalt", {
    editor: "Html",
    contentType: "Html",
    defaultValue: "<p>Neuer Text</p>",
    hints: "Erlaubt: p, h2, h3, ul, ol, li, a, strong, em. Wird beim Anzeigen bereinigt.",
  }),
  field("markdown", "String", "Inhalt (Markdown)", {
    editor: "Markdown",
    contentType: "Markdown",
    defaultValue: "",
    hints: "Wird statt des HTML-Inhalts verwendet, wenn dieser leer ist.",
  }),
]);
