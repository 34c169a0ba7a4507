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

/**
 * The schemas' hints (written for whoever sets up a schema) in editors' words, in both languages.
 * A hint missing here shows as written for German-speaking editors and not at all in English.
 */
const HINTS: Readonly<Record<string, Record<Language, string>>> = {
  "„edit“ ist die Ansicht für Behandelnde zum Pflegen der eigenen Termine.": {
    de: "„Termine pflegen“ zeigt Behandelnden ihre eigenen Termine zum Bearbeiten.",
    en: "“Manage slots” shows practitioners their own slots to edit.",
  },
  "Name aus core-theme-icons.": { de: "Ein Symbol aus der Symbolbibliothek.", en: "An icon from the icon library." },
  "Wird statt des HTML-Inhalts verwendet, wenn dieser leer ist.": {
    de: "Wird gezeigt, wenn der formatierte Inhalt leer ist.",
    en: "Shown when the formatted content is empty.",
  },
  "Wessen Termine die Variante „edit“ pflegt; leer: die eine Person, die die Seite zeigt.": {
    de: "Wessen Termine „Termine pflegen“ zeigt; leer: die Person, um die es auf der Seite geht.",
    en: "Whose slots “Manage slots” shows; empty: the person the page is about.",
  },
  "Untereinander, oder ab Tablet-Breite in zwei oder drei Spalten nebeneinander.": {
    de: "Untereinander, oder ab Tablet-Breite in zwei oder drei Spalten nebeneinander.",
    en: "Stacked, or from tablet width in two or three columns side by side.",
  },
  "Hex-Code, z. B. #f3ede4. Leer: kein eigener Hintergrund.": {
    de: "Eine Farbe des Themes oder eine eigene; leer: kein eigener Hintergrund.",
    en: "A theme colour or one of your own; empty: no background of its own.",
  },
  "Für Screenreader.": { de: "Wird von Screenreadern vorgelesen.", en: "Read out by screen readers." },
  "Erlaubt: p, h2, h3, ul, ol, li, a, strong, em. Wird beim Anzeigen bereinigt.": {
    de: "Absätze, Zwischenüberschriften, Listen, Links, fett und kursiv.",
    en: "Paragraphs, subheadings, lists, links, bold and italic.",
  },
  "Interner Pfad oder https-Adresse.": { de: "Eine Seite dieser Website oder eine https-Adresse.", en: "A page of this site or an https address." },
};

function hintFor(hints: string | undefined, language: Language): string | undefined {
  if (!hints) return undefined;
  if (Object.hasOwn(HINTS, hints)) return HINTS[hints]![language];
  return language === "de" ? hints : undefined;
}

/** A block field's label in `language` (the admin's schema screens read block fields too). */
export const blockFieldLabel = (label: string, language: Language): string => (language === "de" || !Object.hasOwn(ENGLISH, label) ? label : ENGLISH[label]!);

/** A block field's hint in `language`, or undefined for none. */
export const blockFieldHint = (hints: string | undefined, language: Language): string | undefined => hintFor(hints, language);

/** Whether a block field's label and hint have their words here (a test checks every block field). */
export const hasBlockWords = (label: string, hints: string | undefined): boolean => Object.hasOwn(ENGLISH, label) && (!hints || Object.hasOwn(HINTS, hints));

export const optionLabel = (value: string, language: Language): string => (Object.hasOwn(OPTIONS, value) ? OPTIONS[value]![language] : value);

/** A field (and its list entries' fields) labelled and explained in the editor's language. */
export function labelled(field: EditorField, language: Language): EditorField {
  return {
    ...field,
    label: blockFieldLabel(field.label, language),
    hints: hintFor(field.hints, language),
    ...(field.nested ? { nested: field.nested.map((f) => labelled(f, language)) } : {}),
  };
}
