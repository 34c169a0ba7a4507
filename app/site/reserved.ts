/**
 * First path segments that belong to routes or files, with every path below them, so a page with
 * such a slug could never be reached: the store refuses such slugs (content/slug.ts), the site
 * data leaves older pages with them out.
 */
export const RESERVED_FIRST_SEGMENTS: ReadonlySet<string> = new Set(["practitioners", "login", "manage", "api", "theme", "assets", "en", "de", "__test", "sitemap.xml", "robots.txt"]);

/**
 * First segments whose sub-paths routes own (`/newsletter/{email}`, `/present/{email}`,
 * `/appointments/cancel`, `/appointments/book/{id}`), while the segment itself is a page's
 * (the demo's newsletter and appointments pages live at `/newsletter` and `/en/appointments`).
 */
export const RESERVED_SUB_PATHS: ReadonlySet<string> = new Set(["newsletter", "present", "appointments"]);

/** Whether a route owns the path of this page slug (segments separated by "/"), so the page could not be reached. */
export function routeOwnsSlug(slug: string): boolean {
  const segments = slug.split("/");
  return RESERVED_FIRST_SEGMENTS.has(segments[0]!) || (segments.length > 1 && RESERVED_SUB_PATHS.has(segments[0]!));
}
