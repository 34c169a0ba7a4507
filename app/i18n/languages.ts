/** The site's languages: the first path segment selects one; anything else means the default, de. */
export const LANGUAGES = ["de", "en"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "de";

export function isLanguage(value: unknown): value is Language {
  return (LANGUAGES as readonly unknown[]).includes(value);
}

/** The language of a path and the path without its language prefix: `/en/about` → en, `/about`. */
export function splitLanguage(pathname: string): { language: Language; path: string; prefixed: boolean } {
  const [, first = "", ...rest] = pathname.split("/");
  if (isLanguage(first)) return { language: first, path: `/${rest.join("/")}`, prefixed: true };
  return { language: DEFAULT_LANGUAGE, path: pathname || "/", prefixed: false };
}

/**
 * A site path in a language. German, the default, is canonical without a prefix (`/ueber-uns`);
 * English keeps its prefix (`/en/about-us`).
 */
export function localizedPath(language: Language, path: string): string {
  const clean = path === "" || path === "/" ? "" : path.startsWith("/") ? path : `/${path}`;
  if (language === DEFAULT_LANGUAGE) return clean || "/";
  return `/${language}${clean}`;
}
