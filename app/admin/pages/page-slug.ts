import type { ContentStore } from "~/content/store";
import { RESERVED_FIRST_SEGMENTS } from "~/site/reserved";
import { SLUG_PATTERN } from "~/content/slug";
import { LANGUAGES, type Language } from "~/i18n/languages";

/** The collection pages live in. */
export const PAGES_SCHEMA = "core-pages";

/** Long enough for a nested guide path, short enough for a readable address. */
export const PAGE_SLUG_MAX = 120;

export type SlugProblem = "empty" | "tooLong" | "format" | "reserved" | "taken";

/** What each slug problem says, in both languages (the page list and the page settings share them). */
export const SLUG_PROBLEM_TEXTS: Record<"de" | "en", Record<SlugProblem, string>> = {
  de: {
    empty: "Bitte einen Slug angeben.",
    tooLong: `Der Slug ist zu lang (höchstens ${PAGE_SLUG_MAX} Zeichen).`,
    format: "Nur Kleinbuchstaben, Ziffern und Bindestriche, Abschnitte durch „/“ getrennt.",
    reserved: "Dieser Pfad gehört zu einer festen Seite der Website (z. B. /practitioners, /manage, /api, /login).",
    taken: "Eine andere Seite hat diesen Slug schon.",
  },
  en: {
    empty: "Please enter a slug.",
    tooLong: `The slug is too long (at most ${PAGE_SLUG_MAX} characters).`,
    format: "Only lower-case letters, digits and hyphens, sections separated by “/”.",
    reserved: "This path belongs to a fixed page of the site (e.g. /practitioners, /manage, /api, /login).",
    taken: "Another page already has this slug.",
  },
};

/** What an editor typed, as a slug: trimmed, lower-case, no leading or trailing slashes. */
export function normalizePageSlug(input: string): string {
  return input.trim().toLowerCase().replace(/^\/+|\/+$/g, "");
}

/**
 * Whether a slug can address a page: path segments of the slug rules (lower-case words, digits,
 * hyphens), separated by slashes, and a first segment no route owns. "home" is the home page.
 */
export function slugProblem(slug: string): Exclude<SlugProblem, "taken"> | null {
  if (!slug) return "empty";
  if (slug.length > PAGE_SLUG_MAX) return "tooLong";
  const segments = slug.split("/");
  if (!segments.every((s) => SLUG_PATTERN.test(s))) return "format";
  if (RESERVED_FIRST_SEGMENTS.has(segments[0]!)) return "reserved";
  return null;
}

/**
 * The id of another page that has `slug` in `language`, in its draft or in its live version (both
 * may become live), asked of the database: a page list of any size stays one indexed lookup each.
 */
export async function slugOwner(store: ContentStore, language: Language, slug: string, exceptId?: string): Promise<string | undefined> {
  const filter = {
    and: [{ path: `data.seo.${language}.slug`, op: "eq" as const, value: slug }, ...(exceptId ? [{ path: "id", op: "ne" as const, value: exceptId }] : [])],
  };
  for (const unpublished of [true, false]) {
    const { items } = await store.query(PAGES_SCHEMA, { filter, take: 1 }, { unpublished, noTotal: true });
    if (items[0]) return items[0].id;
  }
  return undefined;
}

/** Problems of the slugs given per language (format, reserved, taken by another page); empty when all are fine. */
export async function checkPageSlugs(store: ContentStore, slugs: Partial<Record<Language, string>>, exceptId?: string): Promise<Partial<Record<Language, SlugProblem>>> {
  const problems: Partial<Record<Language, SlugProblem>> = {};
  for (const language of LANGUAGES) {
    const slug = slugs[language];
    if (slug === undefined) continue;
    const problem = slugProblem(slug) ?? ((await slugOwner(store, language, slug, exceptId)) ? "taken" : null);
    if (problem) problems[language] = problem;
  }
  return problems;
}
