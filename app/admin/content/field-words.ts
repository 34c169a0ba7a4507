import { blockFieldHint, blockFieldLabel } from "~/editor/field-labels";
import type { Language } from "~/i18n/languages";

/**
 * Collections and fields as the admin names them, in the editor's language. A schema carries one
 * label and one hint, written in German for whoever set the schema up ("ISO-639-1-Codes…"); the
 * seed's schemas are named here in both languages and in editors' words. Schemas editors make
 * themselves (and fields they add) show what they wrote. Block fields keep their own table
 * (editor/field-labels.ts), which the page editor reads too.
 */

type Words = Readonly<Record<Language, string>>;

interface FieldWords {
  label: Words;
  hint?: Words;
  /** The fields of each entry of a list field. */
  nested?: Readonly<Record<string, { label: Words; hint?: Words }>>;
}

interface SchemaWords {
  name: Words;
  /** What the collection holds, in one sentence (the content list shows it). */
  about: Words;
  fields: Readonly<Record<string, FieldWords>>;
}

const w = (de: string, en: string): Words => ({ de, en });
const f = (de: string, en: string, hint?: Words, nested?: FieldWords["nested"]): FieldWords => ({ label: w(de, en), ...(hint ? { hint } : {}), ...(nested ? { nested } : {}) });

const PRIVATE = w("Privat: wird nie öffentlich angezeigt.", "Private: never shown to visitors.");
const NAME = f("Name", "Name");
const ORDER = f("Reihenfolge", "Order");
const ICON = f("Icon", "Icon");

/** The seed's collections (app/content/seed/schemas.ts), field by field. */
const COLLECTIONS: Readonly<Record<string, SchemaWords>> = {
  "component-seo": {
    name: w("SEO", "SEO"),
    about: w("Titel, Adresse und Beschreibung einer Seite.", "A page's title, address and description."),
    fields: {
      seotitle: f("SEO-Titel", "SEO title", w("Erscheint im Browser-Tab und in Suchergebnissen.", "Shown in the browser tab and in search results.")),
      slug: f("Slug", "Slug", w("Der Pfad der Seite ohne Schrägstrich am Anfang, z. B. „ueber-uns“ oder „ratgeber/rueckenschmerzen“.", "The page's path without a slash at the start, e.g. “about-us” or “guide/back-pain”.")),
      description: f("Beschreibung für Suchmaschinen", "Description for search engines"),
    },
  },
  "core-theme-languages": {
    name: w("Sprachen", "Languages"),
    about: w("Die Sprachen der Website.", "The site's languages."),
    fields: { code: f("Sprache", "Language"), name: NAME, isDefault: f("Standardsprache", "Default language"), order: ORDER },
  },
  "core-theme-colors": {
    name: w("Farben", "Colours"),
    about: w("Die Farbpalette der Website.", "The site's colour palette."),
    fields: { name: NAME, hexcode: f("Hex-Code", "Hex code", w("z. B. #0f5e63", "e.g. #0f5e63")) },
  },
  "core-theme-settings": {
    name: w("Theme-Einstellungen", "Theme settings"),
    about: w("Die Farben eines Themes nach ihrer Rolle.", "A theme's colours by their role."),
    fields: {
      name: NAME,
      colorMain: f("Hauptfarbe", "Main colour"),
      colorSupport: f("Nebenfarbe", "Support colour"),
      colorAccent: f("Akzentfarbe", "Accent colour"),
      colorNeutral: f("Neutralfarbe", "Neutral colour"),
      colorBlack: f("Schwarz", "Black"),
      colorWhite: f("Weiß", "White"),
    },
  },
  "core-text-styles": {
    name: w("Textstile", "Text styles"),
    about: w("Benannte Textstile: Größe, Stärke und Abstände.", "Named text styles: size, weight and spacing."),
    fields: {
      name: NAME,
      twclasses: f("Tailwind-Klassen", "Tailwind classes", w("Klassen durch Leerzeichen getrennt, z. B. „text-4xl font-bold tracking-tight“.", "Classes separated by spaces, e.g. “text-4xl font-bold tracking-tight”.")),
    },
  },
  "core-font-styles": {
    name: w("Schriften", "Fonts"),
    about: w("Schriftfamilien und wofür sie verwendet werden.", "Font families and what they are used for."),
    fields: {
      name: NAME,
      mission: f("Verwendung", "Used for"),
      font: f("Schriftdateien", "Font files", undefined, {
        name: { label: w("Schriftname", "Font name") },
        weight: { label: w("Stärke", "Weight") },
        url: { label: w("Datei", "File"), hint: w("Adresse der Datei, z. B. /fonts/source-sans-3-400.woff2", "The file's address, e.g. /fonts/source-sans-3-400.woff2") },
        type: { label: w("Dateiformat", "File format"), hint: w("z. B. woff2", "e.g. woff2") },
      }),
    },
  },
  "core-theme-icons": {
    name: w("Icons", "Icons"),
    about: w("Die Symbole der Website.", "The site's icons."),
    fields: {
      name: NAME,
      svg: f("SVG-Code", "SVG code"),
      critical: f("Kritisch", "Critical", w("Wird mit der Seite geladen statt danach.", "Loaded with the page instead of after it.")),
      loading: f("Ladeanzeige", "Loading indicator", w("Das Symbol dreht sich, solange etwas lädt.", "The icon spins while something loads.")),
    },
  },
  "core-backend-navigation": {
    name: w("Menü der Verwaltung", "Admin menu"),
    about: w("Die Menüpunkte im Verwaltungsbereich.", "The entries of the admin menu."),
    fields: {
      label: f("Beschriftung", "Label"),
      slug: f("Pfad", "Path", w("z. B. /manage/pages", "e.g. /manage/pages")),
      icon: ICON,
      children: f("Unterpunkte", "Sub-entries", undefined, { label: { label: w("Beschriftung", "Label") }, slug: { label: w("Pfad", "Path") } }),
      component: f("Ansicht", "Screen", w("Welche Ansicht der Verwaltung der Punkt öffnet.", "Which admin screen the entry opens.")),
      type: f("Art", "Kind"),
      order: ORDER,
    },
  },
  "core-pages": {
    name: w("Seiten", "Pages"),
    about: w("Die Seiten der Website, aus Blöcken aufgebaut.", "The site's pages, built from blocks."),
    fields: {
      title: f("Titel", "Title"),
      critical: f("Kritisch", "Critical", w("Die Seite wird bevorzugt vorgeladen.", "The page is preloaded first.")),
      seo: f("SEO", "SEO"),
      themesettings: f("Theme", "Theme"),
      backgroundColor: f("Hintergrundfarbe", "Background colour"),
      blocks: f("Blöcke", "Blocks"),
      navigation: f("Menü", "Menu", w("Wo die Seite im Menü erscheint.", "Where the page appears in the menu.")),
      navigationOrder: f("Reihenfolge im Menü", "Order in the menu"),
    },
  },
  "core-settings-blocks": {
    name: w("Block-Palette", "Block palette"),
    about: w("Welche Blöcke Redakteur:innen einfügen können.", "Which blocks editors can insert."),
    fields: {
      name: f("Block", "Block", w("Der Block, z. B. block-hero.", "The block, e.g. block-hero.")),
      label: f("Beschriftung", "Label"),
      description: f("Beschreibung", "Description"),
      icon: ICON,
      category: f("Gruppe", "Group"),
      active: f("Aktiv", "Active"),
    },
  },
  "core-global-settings": {
    name: w("Globale Einstellungen", "Global settings"),
    about: w("Einstellungen für die ganze Website.", "Settings for the whole site."),
    fields: {
      siteName: f("Name der Website", "Site name"),
      tagline: f("Slogan", "Tagline"),
      contactEmail: f("Kontakt-E-Mail", "Contact email"),
      mapDefault: f("Kartenmitte", "Map centre"),
      mapZoom: f("Zoomstufe der Karte", "Map zoom level"),
      defaultTheme: f("Standard-Theme", "Default theme", w("Gilt für alle Seiten ohne eigenes Theme.", "Applies to every page without a theme of its own.")),
      thirdPartyScripts: f(
        "Dienste von Drittanbietern",
        "Third-party services",
        w("Werden erst geladen, wenn Besucher:innen ihrer Einwilligungskategorie zugestimmt haben; notwendige Dienste sofort.", "Loaded only once visitors have agreed to their consent category; necessary services at once."),
        {
          name: { label: w("Name", "Name") },
          src: { label: w("Adresse", "Address") },
          category: { label: w("Einwilligungskategorie", "Consent category") },
          consentServiceId: { label: w("Dienst im Einwilligungsbanner", "Service in the consent banner") },
        },
      ),
      footerText: f("Text der Fußzeile", "Footer text"),
    },
  },
  "gm-content-practitioners": {
    name: w("Behandelnde", "Practitioners"),
    about: w("Das Verzeichnis der Behandelnden.", "The directory of practitioners."),
    fields: {
      name: NAME,
      photo: f("Foto", "Photo", w("Ein Porträt oder ein Bild der Praxis; erscheint auf der Profilseite.", "A portrait or a picture of the practice; shown on the profile page.")),
      display: f("Sichtbar", "Visible"),
      websites: f("Websites", "Websites", w("Auf welchen Websites der Eintrag erscheint, in Großbuchstaben, z. B. PRAXISNETZ.", "Which websites show the entry, in capitals, e.g. PRAXISNETZ.")),
      coords: f("Praxisstandort", "Practice location"),
      coords2: f("Zweiter Standort", "Second location", w("Optional, für eine zweite Praxis.", "Optional, for a second practice.")),
      languages: f("Sprachen", "Languages", w("In welchen Sprachen die Praxis behandelt.", "The languages the practice treats in.")),
      country: f("Land", "Country", w("Das Land, in dem die Praxis liegt.", "The country the practice is in.")),
      city: f("Ort", "Town"),
      street: f("Straße und Hausnummer", "Street and number"),
      zip: f("PLZ", "Postcode"),
      adress2: f("Adresszusatz", "Address line 2"),
      finishedPractitioner: f("Registrierung abgeschlossen", "Registration complete"),
      speciality: f("Fachgebiet", "Speciality"),
      description: f("Beschreibung", "Description"),
      website: f("Website", "Website", w("Vollständige Adresse mit https://.", "Full address with https://.")),
      email: f("E-Mail", "Email", PRIVATE),
      phone: f("Telefon", "Phone", PRIVATE),
    },
  },
  "gm-appointments": {
    name: w("Termine", "Appointments"),
    about: w("Buchbare Termine.", "Bookable appointments."),
    fields: {
      practitioner: f("Behandelnde:r", "Practitioner"),
      start: f("Beginn", "Start", w("Datum und Uhrzeit in deutscher Zeit.", "Date and time in German time.")),
      durationMinutes: f("Dauer (Minuten)", "Duration (minutes)"),
      booked: f("Gebucht", "Booked"),
    },
  },
};

/** The block schemas' names; their fields are named in editor/field-labels.ts. */
const BLOCKS: Readonly<Record<string, Words>> = {
  "block-accordion": w("Akkordeon", "Accordion"),
  "block-book-appointment": w("Termin buchen", "Book an appointment"),
  "block-columns": w("Spalten", "Columns"),
  "block-cta": w("Handlungsaufforderung", "Call to action"),
  "block-hero": w("Hero", "Hero"),
  "block-iconlist": w("Icon-Liste", "Icon list"),
  "block-image": w("Bild", "Image"),
  "block-map": w("Karte", "Map"),
  "block-practitioner-list": w("Behandelnde (Liste)", "Practitioners (list)"),
  "block-practitioner-overview": w("Behandelnde (Übersicht)", "Practitioners (overview)"),
  "block-practitioner-registration": w("Registrierung für Behandelnde", "Practitioner registration"),
  "block-practitioner-single": w("Behandelnde:r (einzeln)", "Practitioner (single)"),
  "block-practitioner-smalllist": w("Behandelnde (kompakt)", "Practitioners (compact)"),
  "block-richtext": w("Fließtext", "Rich text"),
  "block-section": w("Abschnitt", "Section"),
};

interface NamedSchema {
  name: string;
  properties?: { label?: string; hints?: string };
}

interface NamedField {
  name: string;
  properties: { label?: string; hints?: string };
}

const known = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);
const isBlock = (schemaName: string) => schemaName.startsWith("block-");

/** A collection's (or block's) name; a schema the seed does not hold shows its own label. */
export function collectionName(schema: NamedSchema, language: Language): string {
  const words = known(COLLECTIONS, schema.name)?.name ?? known(BLOCKS, schema.name);
  return words ? words[language] : schema.properties?.label || schema.name;
}

/** What a collection holds, in one sentence; a schema the seed does not hold shows its own hint. */
export function collectionAbout(schema: NamedSchema, language: Language): string {
  const words = known(COLLECTIONS, schema.name)?.about;
  return words ? words[language] : (schema.properties?.hints ?? "");
}

/** A field's label. */
export function fieldLabel(schemaName: string, field: NamedField, language: Language): string {
  if (isBlock(schemaName)) return blockFieldLabel(field.properties.label || field.name, language);
  const words = known(COLLECTIONS, schemaName);
  const fieldWords = words ? known(words.fields, field.name) : undefined;
  return fieldWords ? fieldWords.label[language] : field.properties.label || field.name;
}

/**
 * A field's hint, or undefined for none. A seed field's hint is the one here, not its schema's
 * (written for whoever sets a schema up); fields editors add show theirs.
 */
export function fieldHint(schemaName: string, field: NamedField, language: Language): string | undefined {
  if (isBlock(schemaName)) return blockFieldHint(field.properties.hints, language);
  const words = known(COLLECTIONS, schemaName);
  if (!words) return field.properties.hints || undefined;
  const fieldWords = known(words.fields, field.name);
  if (!fieldWords) return field.properties.hints || undefined;
  return fieldWords.hint?.[language];
}

/** The label of a field of a list field's entries. */
export function nestedFieldLabel(schemaName: string, fieldName: string, nested: NamedField, language: Language): string {
  if (isBlock(schemaName)) return blockFieldLabel(nested.properties.label || nested.name, language);
  const words = known(COLLECTIONS, schemaName);
  const entry = words ? known(words.fields, fieldName)?.nested : undefined;
  const nestedWords = entry ? known(entry, nested.name) : undefined;
  return nestedWords ? nestedWords.label[language] : nested.properties.label || nested.name;
}

/** The hint of a field of a list field's entries, or undefined for none. */
export function nestedFieldHint(schemaName: string, fieldName: string, nested: NamedField, language: Language): string | undefined {
  if (isBlock(schemaName)) return blockFieldHint(nested.properties.hints, language);
  const words = known(COLLECTIONS, schemaName);
  const entry = words ? known(words.fields, fieldName)?.nested : undefined;
  const nestedWords = entry ? known(entry, nested.name) : undefined;
  return nestedWords ? nestedWords.hint?.[language] : nested.properties.hints || undefined;
}

/** The names the tables know, for the test that every seed field has words. */
export const KNOWN = { collections: COLLECTIONS, blocks: BLOCKS };
