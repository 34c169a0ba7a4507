import type { AppLoadContext } from "react-router";
import { routeOwnsSlug } from "./reserved";
import type { Collection, ThirdPartyScript } from "~/content/public-api";
import type { FlatItem } from "~/content/types";
import { LANGUAGES, localizedPath, type Language } from "~/i18n/languages";
import type { ThemeSettings } from "~/theme/shades";
import { buildTheme, type ThemeBundle } from "~/theme/theme.server";
import { prepareContentPage, type ContentPage, type RawPageData } from "./content-pages.server";

/**
 * What every public page needs besides its own content: menus, page slugs in both languages (for
 * links, the language switcher and hreflang), global settings and the theme. Built once per content
 * change (the content cache is cleared on every write) and shared by all requests.
 */
export interface PageSummary {
  id: string;
  title: Record<Language, string>;
  slug: Record<Language, string>;
  navigation: "none" | "header" | "footer";
  navigationOrder: number;
  critical: boolean;
  /** False where a route owns the slug's first segment (e.g. "practitioners"): no link may point there. */
  reachable: Record<Language, boolean>;
  /** The page in each language, ready to render. */
  content: Record<Language, ContentPage>;
}

export interface GlobalSettings {
  siteName: string;
  tagline: string;
  footerText: string;
  mapDefault: { latitude: number; longitude: number };
  mapZoom: number;
  thirdPartyScripts: ThirdPartyScript[];
}

export interface SiteData {
  pages: PageSummary[];
  settings: Record<Language, GlobalSettings>;
  theme: ThemeBundle;
  defaultThemeId: string | null;
  languageNames: Partial<Record<Language, string>>;
}

type Flat = FlatItem<Record<string, unknown>>;


export const DEFAULT_SETTINGS: GlobalSettings = {
  siteName: "Praxisnetz",
  tagline: "",
  footerText: "",
  // The centre of Germany: a sensible view of a nationwide directory.
  mapDefault: { latitude: 51.3127, longitude: 9.4797 },
  mapZoom: 6,
  thirdPartyScripts: [],
};

/**
 * Reads one collection through the content client. A failure is logged with the spec's message and
 * the page goes on with the fallback, so a broken collection never takes the site down.
 */
export async function fetchCollection(context: AppLoadContext, collection: Collection, language: Language, failure: string): Promise<Flat[]> {
  try {
    return (await context.services.content.query(collection, {}, { audience: "visitor", language }, { all: true, noTotal: true })).items;
  } catch (error) {
    context.services.logger.error({ err: error, collection, requestId: context.requestId }, failure);
    return [];
  }
}

async function buildSite(context: AppLoadContext): Promise<SiteData> {
  const [pagesDe, pagesEn, settingsDe, settingsEn, themeSettings, colors, textStyles, fontStyles, icons, languagesDe, languagesEn] = await Promise.all([
    fetchCollection(context, "core-pages", "de", "Pages Preview"),
    fetchCollection(context, "core-pages", "en", "Pages Preview"),
    fetchCollection(context, "core-global-settings", "de", "Error Fetching Global Settings"),
    fetchCollection(context, "core-global-settings", "en", "Error Fetching Global Settings"),
    fetchCollection(context, "core-theme-settings", "de", "Theme Settings"),
    fetchCollection(context, "core-theme-colors", "de", "Error Fetching Colors"),
    fetchCollection(context, "core-text-styles", "de", "TextStyles"),
    fetchCollection(context, "core-font-styles", "de", "Font Styles"),
    fetchCollection(context, "core-theme-icons", "de", "IconsPreview"),
    fetchCollection(context, "core-theme-languages", "de", "Languages"),
    fetchCollection(context, "core-theme-languages", "en", "Languages"),
  ]);
  const languageNames: Partial<Record<Language, string>> = {};
  for (const [lang, items] of [["de", languagesDe], ["en", languagesEn]] as const) {
    const own = items.find((l) => l.data.code === lang);
    if (typeof own?.data.name === "string") languageNames[lang] = own.data.name;
  }
  const settingsFor = (items: Flat[]): GlobalSettings => {
    const d = (items[0]?.data ?? {}) as Partial<GlobalSettings>;
    return {
      siteName: d.siteName || DEFAULT_SETTINGS.siteName,
      tagline: d.tagline ?? "",
      footerText: d.footerText ?? "",
      mapDefault: d.mapDefault ?? DEFAULT_SETTINGS.mapDefault,
      mapZoom: d.mapZoom ?? DEFAULT_SETTINGS.mapZoom,
      thirdPartyScripts: Array.isArray(d.thirdPartyScripts) ? d.thirdPartyScripts : [],
    };
  };
  // The global settings name the site's default theme (first in the list); pages may pick another.
  const defaultThemeId = (settingsDe[0]?.data.defaultTheme as string[] | undefined)?.[0];
  const themes = [...themeSettings].sort((a, b) => Number(b.id === defaultThemeId) - Number(a.id === defaultThemeId)).map((t) => ({ id: t.id, ...(t.data as unknown as ThemeSettings & { name?: string }) }));
  const input = {
    settings: themes[0] ?? null,
    themes,
    textStyles: textStyles.map((t) => t.data as { name: string; twclasses: string }),
    fontStyles: fontStyles.map((f) => f.data as { name: string }),
    icons: icons.map((i) => ({ id: i.id, ...(i.data as { name: string; svg: string; critical?: boolean; loading?: boolean }) })),
  };
  let theme: ThemeBundle;
  try {
    theme = await buildTheme(input);
  } catch (error) {
    // The colours and the CSS built from them failed: the default palette keeps the site readable.
    context.services.logger.error({ err: error, requestId: context.requestId }, "Theme Colors");
    theme = await buildTheme({ settings: null, textStyles: [], fontStyles: input.fontStyles, icons: input.icons });
  }
  for (const warning of theme.warnings) context.services.logger.warn({ warning }, "theme");

  const themeIds = themes.map((t) => t.id);
  const colorsById = Object.fromEntries(colors.map((c) => [c.id, String((c.data as { hexcode?: string }).hexcode ?? "")]));
  const en = new Map(pagesEn.map((p) => [p.id, p.data as RawPageData]));
  const pages: PageSummary[] = pagesDe.map((p) => {
    const de = p.data as RawPageData;
    const other = en.get(p.id) ?? de;
    const slug = { de: de.seo?.slug ?? p.id, en: other.seo?.slug ?? de.seo?.slug ?? p.id };
    const reachable = { de: !shadowed(slug.de), en: !shadowed(slug.en) };
    for (const lang of LANGUAGES) {
      if (!reachable[lang]) context.services.logger.warn({ page: p.id, language: lang, slug: slug[lang] }, "page slug is shadowed by a route and cannot be reached");
    }
    const prepare = (data: RawPageData) => prepareContentPage(p.id, data, { themeIds, colors: colorsById }, context.services.logger);
    return {
      id: p.id,
      title: { de: de.title ?? "", en: other.title ?? de.title ?? "" },
      slug,
      navigation: de.navigation === "header" || de.navigation === "footer" ? de.navigation : "none",
      navigationOrder: Number(de.navigationOrder ?? 0),
      critical: de.critical === true,
      reachable,
      content: { de: prepare(de), en: prepare(other) },
    };
  });
  return {
    pages,
    settings: { de: settingsFor(settingsDe), en: settingsFor(settingsEn) },
    theme,
    defaultThemeId: themes[0]?.id ?? null,
    languageNames,
  };
}

export function loadSite(context: AppLoadContext): Promise<SiteData> {
  return context.services.cache.getOrLoad("site", () => buildSite(context));
}

export function findPageBySlug(site: SiteData, language: Language, slug: string): PageSummary | undefined {
  return site.pages.find((p) => p.reachable[language] && p.slug[language] === slug);
}

/** The privacy policy's page, as editors keep it (forms link it from their consent box). */
export const PRIVACY_PAGE_ID = "page-privacy";

/** The privacy policy's address in a language, from the site data (its slug may change), or `fallback`. */
export async function privacyPath(context: AppLoadContext, language: Language, fallback: string): Promise<string> {
  const page = (await loadSite(context)).pages.find((p) => p.id === PRIVACY_PAGE_ID);
  return (page && pagePath(page, language)) ?? fallback;
}

/** Where a page lives in a language: its slug, the home page at the root; a shadowed page has no address. */
export function pagePath(page: PageSummary, language: Language): string | null {
  if (!page.reachable[language]) return null;
  const slug = page.slug[language];
  return slug === "home" ? localizedPath(language, "/") : localizedPath(language, `/${slug}`);
}

const shadowed = routeOwnsSlug;

/** The URLs of pages marked critical, in every language (from the same site data pages render from). */
export async function criticalPaths(services: AppLoadContext["services"]): Promise<string[]> {
  const site = await loadSite({ services, requestId: "warm-up", clientIp: "127.0.0.1", user: null, secure: false });
  return site.pages.filter((p) => p.critical).flatMap((p) => LANGUAGES.map((l) => pagePath(p, l)).filter((path): path is string => !!path));
}
