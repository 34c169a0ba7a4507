/**
 * First path segments that belong to routes or files, so a page with such a slug could never be
 * reached: the site data leaves such pages out, the admin refuses such slugs.
 */
export const RESERVED_FIRST_SEGMENTS: ReadonlySet<string> = new Set(["practitioners", "login", "newsletter", "present", "manage", "api", "theme", "assets", "en", "de", "__test", "sitemap.xml", "robots.txt"]);
