import { RESERVED_FIRST_SEGMENTS, RESERVED_SUB_PATHS, routeOwnsSlug } from "../site/reserved";

/**
 * The slug of a name: lower-case; ä→ae, ö→oe, ü→ue, ß→ss; spaces become hyphens; every other
 * character that is not a-z, 0-9 or a hyphen is dropped. Stored slugs (field-index.ts) use it.
 */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/ä/g, "ae")
    .replace(/ö/g, "oe")
    .replace(/ü/g, "ue")
    .replace(/ß/g, "ss")
    .replace(/\s+/g, "-")
    .replace(/[^a-z0-9-]/g, "")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "");
}

/** A well-formed slug; anything else fails route validation. */
export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** The collection pages live in: their addresses are the slugs of their `seo` component, per language. */
export const PAGES_SCHEMA = "core-pages";

/** Long enough for a nested guide path, short enough for a readable address. */
export const PAGE_SLUG_MAX = 120;

export type PageSlugProblem = "empty" | "tooLong" | "format" | "reserved";

/**
 * Whether a slug can address a page: path segments of the slug rules (lower-case words, digits,
 * hyphens), separated by slashes, and a path no route owns. "home" is the home page. No
 * dot segments, no empty segments, nothing that reads as a route (`api/rest`, `manage`).
 */
export function pageSlugProblem(slug: string): PageSlugProblem | null {
  if (!slug) return "empty";
  if (slug.length > PAGE_SLUG_MAX) return "tooLong";
  const segments = slug.split("/");
  if (!segments.every((s) => SLUG_PATTERN.test(s))) return "format";
  if (routeOwnsSlug(slug)) return "reserved";
  return null;
}

const PAGE_SLUG_RULES: Record<PageSlugProblem, string> = {
  empty: "a page needs a slug",
  tooLong: `at most ${PAGE_SLUG_MAX} characters`,
  format: 'only lower-case letters, digits and hyphens, sections separated by "/" (no dots, no empty sections)',
  reserved: `a fixed route of the site owns this path (${[...RESERVED_FIRST_SEGMENTS].join(", ")} and what is under them; what is under ${[...RESERVED_SUB_PATHS].join(", ")})`,
};

/**
 * The store's rule for every writer of pages (Squidex API, bulk, admin, seed): each language's
 * `seo.slug` that is given must be an address the site can serve. Validation messages, one per bad
 * slug; the admin checks first and says the same in the editor's language (admin/pages/page-slug.ts).
 */
export function pageSlugErrors(data: unknown): string[] {
  const seo = isObject(data) ? data.seo : undefined;
  if (!isObject(seo)) return [];
  const errors: string[] = [];
  for (const [language, value] of Object.entries(seo)) {
    const slug = isObject(value) ? value.slug : undefined;
    if (typeof slug !== "string") continue;
    const problem = pageSlugProblem(slug);
    if (problem) errors.push(`seo.${language}.slug: ${JSON.stringify(slug.slice(0, PAGE_SLUG_MAX + 1))} is not a page address: ${PAGE_SLUG_RULES[problem]}.`);
  }
  return errors;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
