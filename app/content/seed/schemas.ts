/**
 * Demo content model: the component (block) schemas and the collections the site reads.
 * Field names are read by the rest of the app; rename nothing here without searching for it.
 */
import type { FieldProperties, FieldType, NestedField, Partitioning, SchemaInput } from "../types";

type FieldInput = SchemaInput["fields"][number];
type ExtraProperties = Omit<FieldProperties, "fieldType" | "label">;
type FieldOptions = ExtraProperties & {
  /** Localised field (`{ de, en }`) instead of invariant (`{ iv }`). */
  localized?: boolean;
  nested?: NestedField[];
};

export const HEX_COLOR_PATTERN = "^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$";

/** Editor Squidex would pick for a type when none is given; types without an editor enum get none. */
const DEFAULT_EDITORS: Partial<Record<FieldType, string>> = {
  String: "Input",
  Number: "Input",
  Boolean: "Toggle",
  DateTime: "DateTime",
  Tags: "Tags",
  Geolocation: "Map",
  References: "List",
};

function properties(fieldType: FieldType, label: string, extra: ExtraProperties): FieldProperties {
  const editor = extra.editor ?? DEFAULT_EDITORS[fieldType];
  // fieldType must stay the first key, as in Squidex.
  return { fieldType, ...(editor === undefined ? {} : { editor }), label, ...extra };
}

function field(name: string, fieldType: FieldType, label: string, options: FieldOptions = {}): FieldInput {
  const { localized, nested, ...extra } = options;
  const partitioning: Partitioning = localized === true ? "language" : "invariant";
  return {
    name,
    partitioning,
    properties: properties(fieldType, label, extra),
    ...(nested === undefined ? {} : { nested }),
  };
}

type NestedSpec = [name: string, fieldType: FieldType, label: string, extra?: ExtraProperties];

function nestedFields(specs: NestedSpec[]): NestedField[] {
  return specs.map(([name, fieldType, label, extra], index) => ({
    fieldId: index + 1,
    name,
    properties: properties(fieldType, label, extra ?? {}),
  }));
}

function schema(
  name: string,
  type: "Default" | "Component",
  label: string,
  hints: string,
  fields: FieldInput[],
  more: { slugField?: string } = {},
): SchemaInput {
  return {
    name,
    type,
    isPublished: true,
    properties: { label, hints, ...more },
    fields: fields.map((f, index) => ({ ...f, fieldId: index + 1 })),
  };
}

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

/*
 * Every block field has a default or a known tag: the editor builds a new block from them
 * and refuses fields that have neither.
 */

const blockHero = schema("block-hero", "Component", "Hero", "Großer Einstieg mit Bild und Handlungsaufforderung.", [
  field("heading", "String", "Überschrift", { isRequired: true, defaultValue: "Neue Überschrift" }),
  field("text", "String", "Text", { editor: "TextArea", defaultValue: "" }),
  field("image", "Assets", "Bild", { maxItems: 1, tags: ["image"], defaultValue: ["asset-placeholder"] }),
  field("ctaLabel", "String", "Button-Beschriftung", { defaultValue: "" }),
  field("ctaLink", "String", "Button-Link", { defaultValue: "", tags: ["link"], hints: "Interner Pfad oder https-Adresse." }),
]);

const blockRichtext = schema("block-richtext", "Component", "Fließtext", "Formatierter Text (HTML oder Markdown).", [
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

const blockImage = schema("block-image", "Component", "Bild", "Einzelnes Bild mit Alternativtext.", [
  field("image", "Assets", "Bild", { isRequired: true, maxItems: 1, tags: ["image"], defaultValue: ["asset-placeholder"] }),
  field("alt", "String", "Alternativtext", { isRequired: true, defaultValue: "Bildbeschreibung", hints: "Für Screenreader." }),
  field("caption", "String", "Bildunterschrift", { defaultValue: "" }),
]);

const blockColumns = schema("block-columns", "Component", "Spalten", "Zwei bis vier Spalten mit Icon, Überschrift und Text.", [
  field("columns", "Array", "Spalten", {
    minItems: 1,
    maxItems: 4,
    defaultValue: [{ heading: "Spalte", text: "", icon: "check" }],
    nested: nestedFields([
      ["heading", "String", "Überschrift"],
      ["text", "String", "Text", { editor: "TextArea" }],
      ["icon", "String", "Icon", { tags: ["icon"], hints: "Name aus core-theme-icons." }],
    ]),
  }),
]);

const blockCta = schema("block-cta", "Component", "Handlungsaufforderung", "Hervorgehobener Kasten mit Button.", [
  field("heading", "String", "Überschrift", { isRequired: true, defaultValue: "Neue Überschrift" }),
  field("text", "String", "Text", { defaultValue: "" }),
  field("label", "String", "Button-Beschriftung", { isRequired: true, defaultValue: "Mehr erfahren" }),
  field("link", "String", "Button-Link", { isRequired: true, defaultValue: "/", tags: ["link"] }),
]);

const blockAccordion = schema("block-accordion", "Component", "Akkordeon", "Fragen und Antworten zum Aufklappen.", [
  field("heading", "String", "Überschrift", { defaultValue: "" }),
  field("items", "Array", "Einträge", {
    defaultValue: [],
    nested: nestedFields([
      ["question", "String", "Frage", { isRequired: true }],
      ["answer", "String", "Antwort", { editor: "TextArea", isRequired: true }],
    ]),
  }),
]);

const blockIconlist = schema("block-iconlist", "Component", "Icon-Liste", "Aufzählung mit Icons.", [
  field("heading", "String", "Überschrift", { defaultValue: "" }),
  field("items", "Array", "Einträge", {
    defaultValue: [],
    nested: nestedFields([
      ["icon", "String", "Icon", { tags: ["icon"], hints: "Name aus core-theme-icons." }],
      ["text", "String", "Text"],
    ]),
  }),
]);

const blockMap = schema("block-map", "Component", "Karte", "Kartenausschnitt mit Markierung.", [
  field("heading", "String", "Überschrift", { defaultValue: "" }),
  field("location", "Geolocation", "Ort", { defaultValue: { latitude: 51.3127, longitude: 9.4797 } }),
  field("zoom", "Number", "Zoomstufe", { minValue: 1, maxValue: 18, defaultValue: 12 }),
]);

const blockPractitionerSingle = schema(
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

const blockPractitionerList = schema("block-practitioner-list", "Component", "Behandelnde (Liste)", "Liste sichtbarer Behandelnder.", [
  field("heading", "String", "Überschrift", { defaultValue: "" }),
  field("limit", "Number", "Anzahl", { minValue: 1, defaultValue: 10 }),
]);

const blockPractitionerSmalllist = schema(
  "block-practitioner-smalllist",
  "Component",
  "Behandelnde (kompakt)",
  "Kompakte Liste, z. B. für die Startseite.",
  [
    field("heading", "String", "Überschrift", { defaultValue: "" }),
    field("limit", "Number", "Anzahl", { minValue: 1, defaultValue: 5 }),
  ],
);

const blockPractitionerOverview = schema(
  "block-practitioner-overview",
  "Component",
  "Behandelnde (Übersicht)",
  "Durchblätterbare Übersicht mit Karte und Suche.",
  [
    field("heading", "String", "Überschrift", { defaultValue: "" }),
    field("intro", "String", "Einleitung", { editor: "TextArea", defaultValue: "" }),
  ],
);

const blockBookAppointment = schema("block-book-appointment", "Component", "Termin buchen", "Freie Termine anzeigen und buchen.", [
  field("heading", "String", "Überschrift", { defaultValue: "" }),
  field("variant", "String", "Variante", {
    editor: "Dropdown",
    allowedValues: ["standard", "edit"],
    defaultValue: "standard",
    hints: "„edit“ ist die Ansicht für Behandelnde zum Pflegen der eigenen Termine.",
  }),
]);

const blockPractitionerRegistration = schema(
  "block-practitioner-registration",
  "Component",
  "Registrierung Behandelnde",
  "Formular, mit dem sich Behandelnde eintragen.",
  [
    field("heading", "String", "Überschrift", { defaultValue: "" }),
    field("intro", "String", "Einleitung", { editor: "TextArea", defaultValue: "" }),
  ],
);

export const blockSchemas: SchemaInput[] = [
  blockHero,
  blockRichtext,
  blockImage,
  blockColumns,
  blockCta,
  blockAccordion,
  blockIconlist,
  blockMap,
  blockPractitionerSingle,
  blockPractitionerList,
  blockPractitionerSmalllist,
  blockPractitionerOverview,
  blockBookAppointment,
  blockPractitionerRegistration,
];

export const BLOCK_SCHEMA_NAMES: string[] = blockSchemas.map((s) => s.name);

/* -------------------------------------------------------------------------------------------- */
/* Collections                                                                                   */
/* -------------------------------------------------------------------------------------------- */

const L = { localized: true } as const;

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
    field("finishedPractitioner", "Boolean", "Ausbildung abgeschlossen", { tags: ["internal"] }),
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
