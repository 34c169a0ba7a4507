/**
 * Site-wide demo data: languages, colours, themes, text and font styles, icons,
 * the admin navigation, the block palette and the global settings.
 */
import { type DemoItem, geo, iv, loc } from "./helpers";

function published(schema: string, id: string, data: DemoItem["data"]): DemoItem {
  return { schema, id, status: "Published", data };
}

/* Languages ---------------------------------------------------------------------------------- */

export const languageItems: DemoItem[] = [
  published("core-theme-languages", "lang-de", {
    code: iv("de"),
    name: loc("Deutsch", "German"),
    isDefault: iv(true),
    order: iv(1),
  }),
  published("core-theme-languages", "lang-en", {
    code: iv("en"),
    name: loc("Englisch", "English"),
    isDefault: iv(false),
    order: iv(2),
  }),
];

/* Colours and themes ------------------------------------------------------------------------- */

export const COLORS = {
  petrol: "#0F5E63",
  salbei: "#8FB3A0",
  koralle: "#E9785D",
  sand: "#F3EDE4",
  anthrazit: "#1F2328",
  weiss: "#fff",
  taubenblau: "#3D5A80",
  nebel: "#E8EEF2",
  ocker: "#D9A441",
} as const;

const COLOR_NAMES: Record<keyof typeof COLORS, string> = {
  petrol: "Petrol",
  salbei: "Salbei",
  koralle: "Koralle",
  sand: "Sand",
  anthrazit: "Anthrazit",
  weiss: "Weiß",
  taubenblau: "Taubenblau",
  nebel: "Nebel",
  ocker: "Ocker",
};

export const colorItems: DemoItem[] = (Object.keys(COLORS) as Array<keyof typeof COLORS>).map((key) =>
  published("core-theme-colors", `color-${key}`, { name: iv(COLOR_NAMES[key]), hexcode: iv(COLORS[key]) }),
);

export const themeSettingsItems: DemoItem[] = [
  published("core-theme-settings", "theme-standard", {
    name: iv("Standard"),
    colorMain: iv(COLORS.petrol),
    colorSupport: iv(COLORS.salbei),
    colorAccent: iv(COLORS.koralle),
    colorNeutral: iv(COLORS.sand),
    colorBlack: iv(COLORS.anthrazit),
    colorWhite: iv(COLORS.weiss),
  }),
  published("core-theme-settings", "theme-ruhig", {
    name: iv("Ruhig"),
    colorMain: iv(COLORS.taubenblau),
    colorSupport: iv(COLORS.salbei),
    colorAccent: iv(COLORS.ocker),
    colorNeutral: iv(COLORS.nebel),
    colorBlack: iv(COLORS.anthrazit),
    colorWhite: iv(COLORS.weiss),
  }),
];

/* Text and font styles ----------------------------------------------------------------------- */

const TEXT_STYLES: Array<[id: string, name: string, twclasses: string]> = [
  ["text-heading-1", "heading-1", "text-4xl md:text-5xl font-bold tracking-tight leading-tight"],
  ["text-heading-2", "heading-2", "text-3xl font-semibold tracking-tight"],
  ["text-heading-3", "heading-3", "text-xl font-semibold"],
  ["text-lead", "lead", "text-lg md:text-xl leading-relaxed"],
  ["text-body", "body", "text-base leading-relaxed"],
  ["text-small", "small", "text-sm leading-snug"],
  ["text-eyebrow", "eyebrow", "text-xs font-semibold uppercase tracking-widest"],
  ["text-quote", "quote", "text-xl italic font-serif leading-relaxed"],
  ["text-button", "button", "text-sm font-semibold tracking-wide"],
];

export const textStyleItems: DemoItem[] = TEXT_STYLES.map(([id, name, twclasses]) =>
  published("core-text-styles", id, { name: iv(name), twclasses: iv(twclasses) }),
);

function fontFiles(family: string, file: string, weights: number[]): Array<Record<string, unknown>> {
  return weights.map((weight) => ({ name: family, weight, url: `/fonts/${file}-${weight}.woff2`, type: "woff2" }));
}

export const fontStyleItems: DemoItem[] = [
  published("core-font-styles", "font-sans", {
    name: iv("Source Sans 3"),
    mission: iv(["main", "navbar", "flowingtext"]),
    font: iv(fontFiles("Source Sans 3", "source-sans-3", [400, 600, 700])),
  }),
  published("core-font-styles", "font-serif", {
    name: iv("Literata"),
    mission: iv(["support"]),
    font: iv(fontFiles("Literata", "literata", [400, 700])),
  }),
];

/* Icons -------------------------------------------------------------------------------------- */

function icon(body: string): string {
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="currentColor" ' +
    `stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">${body}</svg>`
  );
}

const ICONS: Array<[name: string, body: string, critical: boolean]> = [
  ["heart", '<path d="M12 20s-7-4.4-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.6-7 10-7 10z"/>', true],
  ["leaf", '<path d="M5 19C5 11 10 5 19 5c0 9-6 14-14 14z"/><path d="M5 19l8-8"/>', false],
  ["calendar", '<rect x="4" y="5" width="16" height="15" rx="2"/><path d="M4 10h16M9 3v4M15 3v4"/>', false],
  ["phone", '<path d="M6 3h3l2 5-2 1.5a11 11 0 0 0 5.5 5.5L16 13l5 2v3a2 2 0 0 1-2 2A16 16 0 0 1 4 5a2 2 0 0 1 2-2z"/>', false],
  ["mail", '<rect x="3" y="5" width="18" height="14" rx="2"/><path d="M3 7l9 6 9-6"/>', false],
  ["map-pin", '<path d="M12 21s-6-5.3-6-11a6 6 0 0 1 12 0c0 5.7-6 11-6 11z"/><circle cx="12" cy="10" r="2.2"/>', true],
  ["user", '<circle cx="12" cy="8" r="4"/><path d="M4 20c1.5-4 4.5-6 8-6s6.5 2 8 6"/>', false],
  ["search", '<circle cx="11" cy="11" r="6"/><path d="M20 20l-4.5-4.5"/>', true],
  ["globe", '<circle cx="12" cy="12" r="9"/><path d="M3 12h18M12 3c3 3.2 3 14.8 0 18M12 3c-3 3.2-3 14.8 0 18"/>', false],
  ["check", '<path d="M5 12.5l4.5 4.5L19 7"/>', false],
  ["menu", '<path d="M4 7h16M4 12h16M4 17h16"/>', true],
  ["arrow-right", '<path d="M5 12h14M13 6l6 6-6 6"/>', false],
  ["layers", '<path d="M12 4l9 5-9 5-9-5 9-5z"/><path d="M3 14l9 5 9-5"/>', false],
  ["palette", '<path d="M12 3a9 9 0 0 0 0 18c1.5 0 2-1 2-2s-1-1.5-1-2.5 1-1.5 2-1.5h2a4 4 0 0 0 4-4c0-4.4-4-8-9-8z"/><circle cx="8" cy="10" r="1"/><circle cx="12" cy="7.5" r="1"/><circle cx="16" cy="10" r="1"/>', false],
  ["image", '<rect x="3" y="5" width="18" height="14" rx="2"/><circle cx="9" cy="10" r="1.5"/><path d="M21 16l-5-5-9 8"/>', false],
  ["chart", '<path d="M4 20V4M4 20h16"/><path d="M8 16v-4M12 16V8M16 16v-6"/>', false],
];

const LOADER_ICON = icon('<path d="M12 3a9 9 0 1 0 9 9" opacity=".9"/><path d="M21 12a9 9 0 0 0-9-9" opacity=".25"/>');

export const iconItems: DemoItem[] = [
  ...ICONS.map(([name, body, critical]) =>
    published("core-theme-icons", `icon-${name}`, {
      name: iv(name),
      svg: iv(icon(body)),
      critical: iv(critical),
      loading: iv(false),
    }),
  ),
  published("core-theme-icons", "icon-loader", {
    name: iv("loader"),
    svg: iv(LOADER_ICON),
    critical: iv(true),
    loading: iv(true),
  }),
];

export const ICON_NAMES: string[] = [...ICONS.map(([name]) => name), "loader"];

/* Admin navigation --------------------------------------------------------------------------- */

interface NavSpec {
  id: string;
  label: [de: string, en: string];
  slug: string;
  icon?: string;
  component?: string;
  type: "link" | "group" | "divider";
  children?: Array<{ label: [de: string, en: string]; slug: string }>;
}

const NAVIGATION: NavSpec[] = [
  { id: "nav-pages", label: ["Seiten", "Pages"], slug: "/manage/pages", icon: "layers", component: "ManagePages", type: "link" },
  { id: "nav-blocks", label: ["Blöcke", "Blocks"], slug: "/manage/blocks", icon: "layers", component: "ManageBlocks", type: "link" },
  {
    id: "nav-content",
    label: ["Inhalte", "Content"],
    slug: "/manage/content",
    icon: "user",
    component: "ManageContent",
    type: "group",
    children: [
      { label: ["Behandelnde", "Practitioners"], slug: "/manage/content/gm-content-practitioners" },
      { label: ["Neue Registrierungen", "New registrations"], slug: "/manage/registrations" },
      { label: ["Termine", "Appointments"], slug: "/manage/appointments" },
      { label: ["Postausgang", "Outbox"], slug: "/manage/outbox" },
      { label: ["Globale Einstellungen", "Global settings"], slug: "/manage/content/core-global-settings" },
    ],
  },
  { id: "nav-divider-design", label: ["Gestaltung", "Design"], slug: "#design", type: "divider" },
  { id: "nav-colors", label: ["Farben", "Colours"], slug: "/manage/colors", icon: "palette", component: "ManageColors", type: "link" },
  { id: "nav-text-styles", label: ["Textstile", "Text styles"], slug: "/manage/text-styles", icon: "menu", component: "ManageTextStyles", type: "link" },
  { id: "nav-icons", label: ["Icons", "Icons"], slug: "/manage/squidex/icons", icon: "heart", component: "ManageIcons", type: "link" },
  { id: "nav-assets", label: ["Medien", "Media"], slug: "/manage/squidex-assets", icon: "image", component: "ManageAssets", type: "link" },
  { id: "nav-divider-tools", label: ["Werkzeuge", "Tools"], slug: "#tools", type: "divider" },
  { id: "nav-analytics", label: ["Statistik", "Analytics"], slug: "/manage/plausible", icon: "chart", component: "ManageAnalytics", type: "link" },
  { id: "nav-tailwind", label: ["Tailwind-Klassen", "Tailwind classes"], slug: "/manage/tailwind", icon: "leaf", component: "ManageTailwind", type: "link" },
];

export const backendNavigationItems: DemoItem[] = NAVIGATION.map((nav, index) =>
  published("core-backend-navigation", nav.id, {
    label: loc(nav.label[0], nav.label[1]),
    slug: iv(nav.slug),
    ...(nav.icon === undefined ? {} : { icon: iv(nav.icon) }),
    children: loc(
      (nav.children ?? []).map((c) => ({ label: c.label[0], slug: c.slug })),
      (nav.children ?? []).map((c) => ({ label: c.label[1], slug: c.slug })),
    ),
    ...(nav.component === undefined ? {} : { component: iv(nav.component) }),
    type: iv(nav.type),
    order: iv((index + 1) * 10),
  }),
);

/* Block palette ------------------------------------------------------------------------------ */

interface PaletteSpec {
  name: string;
  label: [de: string, en: string];
  description: [de: string, en: string];
  icon: string;
  category: "layout" | "content" | "practitioners" | "forms";
}

const PALETTE: PaletteSpec[] = [
  { name: "block-hero", label: ["Hero", "Hero"], description: ["Großer Einstieg mit Bild und Button.", "Large intro with image and button."], icon: "image", category: "layout" },
  { name: "block-richtext", label: ["Fließtext", "Rich text"], description: ["Formatierter Text mit Überschriften, Listen und Links.", "Formatted text with headings, lists and links."], icon: "menu", category: "content" },
  { name: "block-image", label: ["Bild", "Image"], description: ["Ein Bild mit Alternativtext und Bildunterschrift.", "One image with alt text and caption."], icon: "image", category: "content" },
  { name: "block-columns", label: ["Spalten", "Columns"], description: ["Bis zu vier Spalten mit Icon und Text.", "Up to four columns with icon and text."], icon: "layers", category: "layout" },
  { name: "block-section", label: ["Abschnitt", "Section"], description: ["Fasst Blöcke zusammen, untereinander oder in Spalten.", "Groups blocks, stacked or in columns."], icon: "layers", category: "layout" },
  { name: "block-cta", label: ["Handlungsaufforderung", "Call to action"], description: ["Hervorgehobener Kasten mit Button.", "Highlighted box with a button."], icon: "arrow-right", category: "layout" },
  { name: "block-accordion", label: ["Akkordeon", "Accordion"], description: ["Fragen und Antworten zum Aufklappen.", "Expandable questions and answers."], icon: "menu", category: "content" },
  { name: "block-iconlist", label: ["Icon-Liste", "Icon list"], description: ["Aufzählung mit Icons.", "Bullet list with icons."], icon: "check", category: "content" },
  { name: "block-map", label: ["Karte", "Map"], description: ["Kartenausschnitt mit Markierung.", "Map section with a marker."], icon: "map-pin", category: "content" },
  { name: "block-practitioner-single", label: ["Behandelnde:r", "Practitioner"], description: ["Stellt eine Person aus dem Verzeichnis vor.", "Features one person from the directory."], icon: "user", category: "practitioners" },
  { name: "block-practitioner-list", label: ["Behandelnde (Liste)", "Practitioner list"], description: ["Liste sichtbarer Einträge.", "List of visible entries."], icon: "user", category: "practitioners" },
  { name: "block-practitioner-smalllist", label: ["Behandelnde (kompakt)", "Practitioners (compact)"], description: ["Kurze Liste, z. B. für die Startseite.", "Short list, e.g. for the home page."], icon: "user", category: "practitioners" },
  { name: "block-practitioner-overview", label: ["Behandelnde (Übersicht)", "Practitioner overview"], description: ["Durchblätterbare Übersicht mit Karte.", "Browsable overview with map."], icon: "search", category: "practitioners" },
  { name: "block-book-appointment", label: ["Termin buchen", "Book an appointment"], description: ["Freie Termine anzeigen und buchen.", "Show and book free slots."], icon: "calendar", category: "forms" },
  { name: "block-practitioner-registration", label: ["Registrierung", "Registration"], description: ["Formular für neue Behandelnde.", "Form for new practitioners."], icon: "user", category: "forms" },
];

export const settingsBlockItems: DemoItem[] = PALETTE.map((p) =>
  published("core-settings-blocks", `palette-${p.name.replace(/^block-/, "")}`, {
    name: iv(p.name),
    label: loc(p.label[0], p.label[1]),
    description: loc(p.description[0], p.description[1]),
    icon: iv(p.icon),
    category: iv(p.category),
    active: iv(true),
  }),
);

/* Global settings ---------------------------------------------------------------------------- */

export const KASSEL = geo(51.3127, 9.4797);

export const globalSettingsItems: DemoItem[] = [
  published("core-global-settings", "global-settings", {
    siteName: iv("Praxisnetz"),
    tagline: loc("Gut behandelt in Ihrer Nähe", "Good care close to you"),
    contactEmail: iv("kontakt@example.org"),
    mapDefault: iv(KASSEL),
    mapZoom: iv(6),
    defaultTheme: iv(["theme-standard"]),
    thirdPartyScripts: iv([
      { name: "plausible", src: "/js/script.js", category: "statistic", consentServiceId: "plausible" },
      {
        name: "maplibre tiles",
        src: "https://tiles.openfreemap.org/styles/positron",
        category: "functional",
        consentServiceId: "maplibre",
      },
    ]),
    footerText: loc(
      "Praxisnetz ist ein Demo-Verzeichnis. Alle Personen, Praxen und Termine sind frei erfunden.",
      "Praxisnetz is a demo directory. All people, practices and appointments are fictional.",
    ),
  }),
];
