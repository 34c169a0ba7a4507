/**
 * Server side of the design screens (colours, themes, text styles, icons): turns a posted form
 * into content data or a refusal with messages, and reads and writes the design collections page
 * by page. Everything stored here is checked first: hex colours with the shared form rules, class
 * tokens with the allow-list, SVG through the sanitiser.
 */
import type { AppLoadContext } from "react-router";
import { orBadRequest, parsePage, parseSearch } from "~/admin/content/list-query";
import type { ContentStore } from "~/content/store";
import { formVersion } from "~/admin/pages/page-edit";
import { flattenItem } from "~/content/flatten";
import { isValidId } from "~/content/ids";
import type { ContentData, ContentItem } from "~/content/types";
import type { Principal } from "~/content/policy";
import type { Language } from "~/i18n/languages";
import { loadSite } from "~/site/site.server";
import { validateClassTokens } from "~/theme/classes";
import { DEFAULT_THEME_SETTINGS, type ThemeSettings, themeVariables } from "~/theme/shades";
import { sanitizeSvg } from "~/theme/icons.server";
import { colorForm, formErrors, nameForm, THEME_COLOR_FIELDS, themeForm } from "./forms";

export const COLORS = "core-theme-colors";
export const THEMES = "core-theme-settings";
export const TEXT_STYLES = "core-text-styles";
export const ICONS = "core-theme-icons";

/** Tiles per page on the design screens (a grid of small tiles: a page fills about one screen). */
export const PAGE_SIZE = 48;

const texts = {
  de: {
    incomplete: "Entschuldigung, nicht alle Felder wurden korrekt ausgefüllt.",
    badTokens: (tokens: string[]) => `Nicht erlaubte Klassen: ${tokens.join(" ")}. Erlaubt sind nur einfache Tailwind-Klassen (ohne [ ], ( ), ! oder @).`,
    noTokens: "Bitte mindestens eine Klasse angeben.",
    badSvg: "Kein gültiges SVG-Icon: nach dem Bereinigen bleibt nichts Zeichenbares übrig (oder die Datei ist größer als 100 kB).",
  },
  en: {
    incomplete: "Sorry, not all fields are filled out correctly.",
    badTokens: (tokens: string[]) => `Classes not allowed: ${tokens.join(" ")}. Only plain Tailwind classes are allowed (no [ ], ( ), ! or @).`,
    noTokens: "Please enter at least one class.",
    badSvg: "Not a valid SVG icon: nothing drawable is left after cleaning (or the file is larger than 100 kB).",
  },
} satisfies Record<Language, unknown>;

/** A checked form: the content data to store, or why it is refused (a message and messages per field). */
export type Checked<T extends object = object> = ({ ok: true; data: ContentData } & T) | { ok: false; message: string; errors: Record<string, string[]> };

const iv = (value: unknown) => ({ iv: value });
const text = (fields: Record<string, string>, name: string) => (fields[name] ?? "").trim();

function refusal(errors: Record<string, string[]>, language: Language): Checked<never> {
  const messages = [...new Set(Object.values(errors).flat())];
  return { ok: false, message: messages.length ? messages.join(" ") : texts[language].incomplete, errors };
}

/** A palette colour: a name and a hex code (§5: else "Bad Hex"). */
export async function checkColor(fields: Record<string, string>, language: Language): Promise<Checked> {
  const errors = await formErrors(colorForm(language), fields, language);
  if (Object.keys(errors).length) return refusal(errors, language);
  return { ok: true, data: { name: iv(text(fields, "name")), hexcode: iv(text(fields, "hexcode")) } };
}

/** A theme: a name and six role colours, each a valid hex code. */
export async function checkTheme(fields: Record<string, string>, language: Language): Promise<Checked> {
  const errors = await formErrors(themeForm(language), fields, language);
  if (Object.keys(errors).length) return refusal(errors, language);
  const data: ContentData = { name: iv(text(fields, "name")) };
  for (const field of THEME_COLOR_FIELDS) data[field] = iv(text(fields, field));
  return { ok: true, data };
}

/** A text style: a name and class tokens, all of them on the allow-list; refused tokens are named. */
export async function checkTextStyle(fields: Record<string, string>, language: Language): Promise<Checked> {
  const errors = await formErrors(nameForm(language), fields, language);
  const { valid, invalid } = validateClassTokens(fields.twclasses ?? "");
  if (invalid.length) errors.twclasses = [texts[language].badTokens(invalid)];
  else if (!valid.length) errors.twclasses = [texts[language].noTokens];
  if (Object.keys(errors).length) return refusal(errors, language);
  return { ok: true, data: { name: iv(text(fields, "name")), twclasses: iv(valid.join(" ")) } };
}

/**
 * An icon: the SVG is stored only as it leaves the sanitiser. `cleaned` says whether the sanitiser
 * removed anything, so the editor can be told.
 */
export async function checkIcon(fields: Record<string, string>, language: Language): Promise<Checked<{ svg: string; cleaned: boolean }>> {
  const errors = await formErrors(nameForm(language), fields, language);
  const given = (fields.svg ?? "").trim();
  const svg = sanitizeSvg(given);
  if (svg === null) errors.svg = [texts[language].badSvg];
  if (Object.keys(errors).length || svg === null) return refusal(errors, language);
  return {
    ok: true,
    svg,
    cleaned: svg !== given,
    data: { name: iv(text(fields, "name")), svg: iv(svg), critical: iv(fields.critical === "on"), loading: iv(fields.loading === "on") },
  };
}

/** The version a form says it edited (optimistic concurrency), if it says one (a whole number). */
export function expectedVersion(fields: Record<string, string>): number | undefined {
  return formVersion(fields.version);
}

/**
 * Stores checked design data: a new item is published at once (the site reads published theme
 * items only); an existing one is replaced, refused when someone else changed it meanwhile.
 */
export async function writeDesignItem(
  store: ContentStore,
  schema: string,
  id: string | undefined,
  data: ContentData,
  opts: { by: Principal; expectedVersion?: number },
): Promise<ContentItem> {
  // The design screens check every value they write: the policy lets editors change themes here only.
  if (!id) return store.create(schema, data, { by: opts.by, via: "design-screen", publish: true });
  return store.update(schema, id, data, { by: opts.by, via: "design-screen", ...(opts.expectedVersion === undefined ? {} : { expectedVersion: opts.expectedVersion }) });
}

/** The 1-based page number in a query parameter (1 when missing); a 400 with a message for one that cannot be a page. */
export function pageParam(url: URL, name = "page", language: Language = "de"): number {
  return orBadRequest(() => parsePage(url.searchParams.get(name), language, PAGE_SIZE));
}

/** The search text of a design screen (`q`); a 400 with a message for text no one types. */
export function searchParam(url: URL, language: Language = "de"): string {
  return orBadRequest(() => parseSearch(url.searchParams.get("q"), language));
}

/**
 * One page of a design collection (drafts included), sorted by name, flattened for the screen.
 * `search` keeps the items whose `searchIn` fields (the name by default) contain it, ignoring case
 * and accents, the same test the screen's live filter makes in the browser (grid.tsx, matchesSearch).
 */
export async function listDesignPage<T>(store: ContentStore, schema: string, page: number, language: Language, size = PAGE_SIZE, search = "", searchIn: readonly string[] = ["name"]) {
  const filter = search ? { or: searchIn.map((field) => ({ path: `data.${field}.iv`, op: "contains" as const, value: search })) } : undefined;
  const { total, items } = await store.query(schema, { ...(filter ? { filter } : {}), sort: [{ path: "data.name.iv", order: "ascending" }, { path: "id" }], skip: (page - 1) * size, take: size }, { unpublished: true });
  return {
    page,
    pages: Math.max(1, Math.ceil(total / size)),
    total,
    items: items.map((item) => designEntry<T>(item, language)),
  };
}

const designEntry = <T>(item: ContentItem, language: Language) => {
  const flat = flattenItem<T>(item, language);
  return { id: flat.id, version: flat.version, status: flat.status, newStatus: flat.newStatus ?? null, data: flat.data };
};

/** One item of a design collection for the detail panel (whatever page it is on), or null when there is none. */
export async function getDesignItem<T>(store: ContentStore, schema: string, id: string | null, language: Language) {
  if (!id || !isValidId(id)) return null;
  const item = await store.get(schema, id, { unpublished: true });
  return item ? designEntry<T>(item, language) : null;
}

/** A class token as it appears in a CSS selector (`md:p-0.5` -> `md\:p-0\.5`, `2xl:x` -> `\32 xl\:x`). */
export function classSelector(token: string): string {
  const escaped = token.replace(/[^a-zA-Z0-9_-]/g, (c) => `\\${c}`);
  return `.${/^[0-9]/.test(escaped) ? `\\3${escaped[0]} ${escaped.slice(1)}` : escaped}`;
}

/**
 * Which tokens the compiled CSS has a rule for. A preview can only show these: a class the site's
 * stylesheet was not built with (or that Tailwind does not know) has no effect anywhere.
 */
export function tokensWithCss(css: string, tokens: readonly string[]): string[] {
  return tokens.filter((token) => {
    const selector = classSelector(token);
    const at = css.indexOf(selector);
    // The selector must end there (`.p-4` is not `.p-40`).
    return at >= 0 && new RegExp(`${selector.replace(/[\\.^$*+?()[\]{}|/]/g, "\\$&")}(?![a-zA-Z0-9_\\\\-])`).test(css);
  });
}

/**
 * The colours of the site's default theme as CSS variables (the default palette when the site names
 * no theme), so previews of classes such as `text-main` show the real colours. The site data is the
 * site's cached copy.
 */
export async function defaultThemeVariables(context: AppLoadContext): Promise<Record<string, string>> {
  const site = await loadSite(context);
  const item = site.defaultThemeId ? await context.services.store.get(THEMES, site.defaultThemeId) : undefined;
  return themeVariables(item ? (flattenItem<ThemeSettings>(item, "de").data as ThemeSettings) : DEFAULT_THEME_SETTINGS);
}
