import type { ContentStore } from "~/content/store";
import { PAGE_SLUG_MAX, PAGES_SCHEMA, pageSlugProblem, type PageSlugProblem } from "~/content/slug";
import { LANGUAGES, type Language } from "~/i18n/languages";

// The rule itself is the store's (every writer is held to it); the admin names it in the editor's language.
export { PAGE_SLUG_MAX, PAGES_SCHEMA };

export type SlugProblem = PageSlugProblem | "taken";

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

/** Whether a slug can address a page (the store's rule, content/slug.ts). */
export const slugProblem: (slug: string) => PageSlugProblem | null = pageSlugProblem;

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
