import type { Language } from "~/i18n/languages";
import type { EditorField } from "./types";

/**
 * The block fields' labels in English. Schemas carry one label (German, as written in each block's
 * schema.ts); an English-speaking editor reads these instead. A label missing here shows as it is.
 */
const ENGLISH: Readonly<Record<string, string>> = {
  Alternativtext: "Alt text",
  Anordnung: "Layout",
  Antwort: "Answer",
  Anzahl: "Number shown",
  "Behandelnde:r": "Practitioner",
  Bild: "Image",
  Bildunterschrift: "Caption",
  Blöcke: "Blocks",
  "Button-Beschriftung": "Button label",
  "Button-Link": "Button link",
  Einleitung: "Introduction",
  Einträge: "Entries",
  Frage: "Question",
  Hintergrundfarbe: "Background colour",
  Icon: "Icon",
  Inhalt: "Content",
  "Inhalt (Markdown)": "Content (Markdown)",
  Ort: "Location",
  Spalten: "Columns",
  Text: "Text",
  Variante: "Variant",
  Zoomstufe: "Zoom level",
  Überschrift: "Heading",
};

/** Choices of the block fields' dropdowns, in words (the stored values are the schema's). */
const OPTIONS: Readonly<Record<string, Record<Language, string>>> = {
  stack: { de: "Untereinander", en: "Stacked" },
  "two-columns": { de: "Zwei Spalten", en: "Two columns" },
  "three-columns": { de: "Drei Spalten", en: "Three columns" },
  standard: { de: "Standard (Termine buchen)", en: "Standard (book slots)" },
  edit: { de: "Termine pflegen (nur im Bearbeitungsmodus)", en: "Manage slots (edit mode only)" },
};

export const optionLabel = (value: string, language: Language): string => (Object.hasOwn(OPTIONS, value) ? OPTIONS[value]![language] : value);

/**
 * A field (and its list entries' fields) labelled in the editor's language. Hints are written in
 * German in the schemas: an English-speaking editor gets none rather than German ones.
 */
export function labelled(field: EditorField, language: Language): EditorField {
  if (language === "de") return field;
  return {
    ...field,
    label: Object.hasOwn(ENGLISH, field.label) ? ENGLISH[field.label]! : field.label,
    hints: undefined,
    ...(field.nested ? { nested: field.nested.map((f) => labelled(f, language)) } : {}),
  };
}
