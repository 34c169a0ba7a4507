/**
 * Demo content model: the component (block) schemas and the collections the site reads.
 * Field names are read by the rest of the app; rename nothing here without searching for it.
 */
import { BLOCK_SCHEMAS } from "~/blocks/schemas";
import { field, HEX_COLOR_PATTERN, L, nestedFields, schema, type FieldInput } from "../schema-builder";
import type { SchemaInput } from "../types";

/* -------------------------------------------------------------------------------------------- */
/* Components                                                                                    */
/* -------------------------------------------------------------------------------------------- */

const componentSeo = schema("component-seo", "Component", "SEO", "Titel, Slug und Beschreibung einer Seite.", [
  field("seotitle", "String", "SEO-Titel", { maxLength: 70, hints: "Erscheint im Browser-Tab und in Suchergebnissen." }),
  field("slug", "String", "Slug", {
    editor: "Slug",
    isRequired: true,
    hints: "Pfad ohne führenden Schrägstrich, z. B. „ueber-uns“ oder „ratgeber/rueckenschmerzen“.",
  }),
  field("description", "String", "Meta-Beschreibung", { editor: "TextArea", maxLength: 170 }),
]);

/** The block schemas: each block defines its own fields (app/blocks/<kind>/schema.ts). */
export const blockSchemas: SchemaInput[] = BLOCK_SCHEMAS;

export const BLOCK_SCHEMA_NAMES: string[] = blockSchemas.map((s) => s.name);

/* -------------------------------------------------------------------------------------------- */
/* Collections                                                                                   */
/* -------------------------------------------------------------------------------------------- */

const languages = schema("core-theme-languages", "Default", "Sprachen", "Sprachen der Website.", [
  field("code", "String", "Code", { isRequired: true, allowedValues: ["de", "en"], editor: "Dropdown" }),
  field("name", "String", "Name", { ...L, isRequired: true }),
  field("isDefault", "Boolean", "Standardsprache"),
  field("order", "Number", "Reihenfolge"),
]);

const colors = schema("core-theme-colors", "Default", "Farben", "Farbpalette der Website.", [
  field("name", "String", "Name", { isRequired: true }),
  field("hexcode", "String", "Hex-Code", { editor: "Color", isRequired: true, pattern: HEX_COLOR_PATTERN, hints: "z. B. #0f5e63" }),
]);

const themeColorField = (name: string, label: string): FieldInput =>
  field(name, "String", label, { editor: "Color", isRequired: true, pattern: HEX_COLOR_PATTERN });

const themeSettings = schema("core-theme-settings", "Default", "Theme-Einstellungen", "Farbrollen eines Themes.", [
  field("name", "String", "Name", { isRequired: true }),
  themeColorField("colorMain", "Hauptfarbe"),
  themeColorField("colorSupport", "Nebenfarbe"),
  themeColorField("colorAccent", "Akzentfarbe"),
  themeColorField("colorNeutral", "Neutralfarbe"),
  themeColorField("colorBlack", "Schwarz"),
  themeColorField("colorWhite", "Weiß"),
]);

const textStyles = schema("core-text-styles", "Default", "Textstile", "Benannte Tailwind-Klassen für Texte.", [
  field("name", "String", "Name", { isRequired: true }),
  field("twclasses", "String", "Tailwind-Klassen", {
    isRequired: true,
    hints: "Nur einfache Tailwind-Klassen, z. B. „text-4xl font-bold tracking-tight“.",
  }),
]);

const fontStyles = schema("core-font-styles", "Default", "Schriften", "Schriftfamilien und ihre Einsatzzwecke.", [
  field("name", "String", "Name", { isRequired: true }),
  field("mission", "Tags", "Einsatz", { allowedValues: ["main", "support", "navbar", "flowingtext"] }),
  field("font", "Array", "Schriftdateien", {
    nested: nestedFields([
      ["name", "String", "Schriftname"],
      ["weight", "Number", "Stärke", { minValue: 100, maxValue: 900 }],
      ["url", "String", "Datei-URL", { hints: "z. B. /fonts/source-sans-3-400.woff2" }],
      ["type", "String", "Format", { hints: "z. B. woff2" }],
    ]),
  }),
]);

const icons = schema("core-theme-icons", "Default", "Icons", "SVG-Icons der Website.", [
  field("name", "String", "Name", { isRequired: true }),
  field("svg", "String", "SVG", { editor: "TextArea", isRequired: true }),
  field("critical", "Boolean", "Kritisch", { hints: "Wird direkt ins HTML eingebettet statt nachgeladen." }),
  field("loading", "Boolean", "Ladeanzeige", { hints: "Icon dient als Ladeanzeige (Spinner)." }),
]);

const backendNavigation = schema("core-backend-navigation", "Default", "Admin-Navigation", "Menü im Verwaltungsbereich.", [
  field("label", "String", "Beschriftung", { ...L, isRequired: true }),
  field("slug", "String", "Pfad", { isRequired: true, hints: "z. B. /manage/pages" }),
  field("icon", "String", "Icon", { tags: ["icon"] }),
  field("children", "Array", "Unterpunkte", {
    ...L,
    nested: nestedFields([
      ["label", "String", "Beschriftung"],
      ["slug", "String", "Pfad"],
    ]),
  }),
  field("component", "String", "Komponente", { hints: "Name der Admin-Ansicht." }),
  field("type", "String", "Typ", { editor: "Dropdown", allowedValues: ["link", "group", "divider"], defaultValue: "link" }),
  field("order", "Number", "Reihenfolge"),
]);

const pages = schema("core-pages", "Default", "Seiten", "Seiten der Website, aus Blöcken aufgebaut.", [
  field("title", "String", "Titel", { ...L, isRequired: true }),
  field("critical", "Boolean", "Kritisch", { hints: "Seite wird bevorzugt vorgeladen." }),
  field("seo", "Component", "SEO", { ...L, schemaIds: ["component-seo"], isRequired: true }),
  field("themesettings", "References", "Theme", { schemaIds: ["core-theme-settings"], maxItems: 1 }),
  field("backgroundColor", "References", "Hintergrundfarbe", { schemaIds: ["core-theme-colors"], maxItems: 1 }),
  field("blocks", "Components", "Blöcke", { ...L, schemaIds: BLOCK_SCHEMA_NAMES }),
  field("navigation", "String", "Navigation", {
    editor: "Dropdown",
    allowedValues: ["none", "header", "footer"],
    defaultValue: "none",
    hints: "Wo die Seite im Menü erscheint.",
  }),
  field("navigationOrder", "Number", "Reihenfolge im Menü", { defaultValue: 0 }),
]);

const settingsBlocks = schema("core-settings-blocks", "Default", "Block-Palette", "Welche Blöcke Redakteur:innen einfügen können.", [
  field("name", "String", "Block-Schema", { isRequired: true, hints: "Name des Block-Schemas, z. B. block-hero." }),
  field("label", "String", "Beschriftung", { ...L, isRequired: true }),
  field("description", "String", "Beschreibung", { ...L, editor: "TextArea" }),
  field("icon", "String", "Icon", { tags: ["icon"] }),
  field("category", "String", "Kategorie", { editor: "Dropdown", allowedValues: ["layout", "content", "practitioners", "forms"] }),
  field("active", "Boolean", "Aktiv", { defaultValue: true }),
]);

export const CONSENT_CATEGORIES = ["necessary", "functional", "statistic", "marketing", "unclassified"];

const globalSettings = schema("core-global-settings", "Default", "Globale Einstellungen", "Ein Eintrag mit seitenweiten Einstellungen.", [
  field("siteName", "String", "Name der Website", { isRequired: true }),
  field("tagline", "String", "Slogan", L),
  field("contactEmail", "String", "Kontakt-E-Mail", { tags: ["email"] }),
  field("mapDefault", "Geolocation", "Standard-Kartenmitte"),
  field("mapZoom", "Number", "Standard-Zoom", { minValue: 1, maxValue: 18 }),
  field("defaultTheme", "References", "Standard-Theme", { schemaIds: ["core-theme-settings"], maxItems: 1, hints: "Gilt für alle Seiten ohne eigenes Theme." }),
  field("thirdPartyScripts", "Array", "Skripte von Drittanbietern", {
    hints: "Werden erst nach Einwilligung in die jeweilige Kategorie geladen (außer „necessary“).",
    nested: nestedFields([
      ["name", "String", "Name", { isRequired: true }],
      ["src", "String", "Quelle", { isRequired: true }],
      ["category", "String", "Einwilligungskategorie", { isRequired: true, editor: "Dropdown", allowedValues: CONSENT_CATEGORIES }],
      ["consentServiceId", "String", "Dienst-ID (Consent)"],
    ]),
  }),
  field("footerText", "String", "Fußzeilentext", { ...L, editor: "TextArea" }),
]);

const practitioners = schema(
  "gm-content-practitioners",
  "Default",
  "Behandelnde",
  "Verzeichnis der Behandelnden. Felder mit Tag „private“ werden Besucher:innen nie gezeigt.",
  [
    field("name", "String", "Name", { isRequired: true, maxLength: 100, isIndexed: true }),
    field("photo", "Assets", "Foto", { maxItems: 1, tags: ["image"], hints: "Ein Porträt oder ein Bild der Praxis; erscheint auf der Profilseite." }),
    field("display", "Boolean", "Sichtbar", { tags: ["internal"], defaultValue: false }),
    field("websites", "Tags", "Websites", {
      tags: ["internal"],
      isIndexed: true,
      hints: "Websites in Großbuchstaben, auf denen der Eintrag erscheint, z. B. PRAXISNETZ.",
    }),
    field("coords", "Geolocation", "Praxisstandort"),
    field("coords2", "Geolocation", "Zweiter Standort", { hints: "Optional, für eine zweite Praxis." }),
    field("languages", "Tags", "Sprachen", { hints: "ISO-639-1-Codes, z. B. de, en, tr.", isIndexed: true }),
    field("country", "String", "Land", { hints: "ISO-3166-Code, z. B. DE.", isIndexed: true }),
    field("city", "String", "Ort", { isRequired: true, isIndexed: true }),
    field("street", "String", "Straße und Hausnummer"),
    field("zip", "String", "PLZ", { pattern: "^[0-9]{5}$" }),
    // "adress2" is the field name of the original model; keep the spelling.
    field("adress2", "String", "Adresszusatz"),
    field("finishedPractitioner", "Boolean", "Registrierung abgeschlossen", { tags: ["internal"] }),
    field("speciality", "String", "Fachgebiet", L),
    field("description", "String", "Beschreibung", { ...L, editor: "TextArea" }),
    field("website", "String", "Website", { tags: ["url"], hints: "Vollständige https-Adresse." }),
    field("email", "String", "E-Mail", { tags: ["email", "private"], hints: "Privat: wird nie öffentlich angezeigt." }),
    field("phone", "String", "Telefon", { tags: ["private"], hints: "Privat: wird nie öffentlich angezeigt." }),
  ],
  // Profile addresses: a slug stored per published practitioner, made from the name (field-index.ts).
  { slugField: "name" },
);

const appointments = schema("gm-appointments", "Default", "Termine", "Buchbare Termine. Zeiten in UTC.", [
  field("practitioner", "References", "Behandelnde:r", { schemaIds: ["gm-content-practitioners"], maxItems: 1, isRequired: true, isIndexed: true }),
  field("start", "DateTime", "Beginn", { isRequired: true, hints: "ISO-8601 in UTC; angezeigt in Europe/Berlin.", isIndexed: true }),
  field("durationMinutes", "Number", "Dauer (Minuten)", { minValue: 5, maxValue: 240, defaultValue: 30 }),
  field("booked", "Boolean", "Gebucht", { defaultValue: false }),
  // Who booked is private and lives beside the slot (the bookings table), never in its content.
]);

export const demoSchemas: SchemaInput[] = [
  componentSeo,
  ...blockSchemas,
  languages,
  colors,
  themeSettings,
  textStyles,
  fontStyles,
  icons,
  backendNavigation,
  pages,
  settingsBlocks,
  globalSettings,
  practitioners,
  appointments,
];
