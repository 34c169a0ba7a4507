import type { Route } from "./+types/sitemap";
import { LANGUAGES, localizedPath, type Language } from "~/i18n/languages";
import { profilePath } from "~/practitioners/paths";
import { allPractitioners, countPractitioners } from "~/practitioners/practitioners.server";
import { originOf } from "~/site/seo";
import { loadSite, pagePath } from "~/site/site.server";

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const XML = { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=300" };

type Entry = Partial<Record<Language, string>>;

/**
 * Every public page in both languages, each with its hreflang alternates; practitioners included.
 * A sitemap holds at most 50 000 URLs (SITEMAP_URLS_PER_FILE): past that, `/sitemap.xml` is an index
 * of `/sitemap.xml?part=pages` and `?part=1`, `?part=2`… with the practitioners in id order, each part
 * read page by page (never every practitioner at once).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const origin = originOf(request, context);
  const perFile = context.services.env.SITEMAP_URLS_PER_FILE;
  const part = new URL(request.url).searchParams.get("part");
  const site = await loadSite(context);
  // A page is listed in the languages where it has an address (see pagePath).
  const pages: Entry[] = [
    ...site.pages.map((p) => Object.fromEntries(LANGUAGES.map((l) => [l, pagePath(p, l)]).filter(([, path]) => path))),
    { de: localizedPath("de", "/practitioners"), en: localizedPath("en", "/practitioners") },
  ];
  const pageUrls = pages.reduce((n, alt) => n + LANGUAGES.filter((l) => alt[l]).length, 0);
  // Each practitioner has an address per language.
  const perPart = Math.max(1, Math.floor(perFile / LANGUAGES.length));
  const total = await countPractitioners(context);
  const split = pageUrls + total * LANGUAGES.length > perFile;

  if (part === null && !split) return urlset(origin, pages, allPractitioners(context, "de"));
  if (part === null) {
    const parts = Math.ceil(total / perPart);
    const locs = [`${origin}/sitemap.xml?part=pages`, ...Array.from({ length: parts }, (_, i) => `${origin}/sitemap.xml?part=${i + 1}`)];
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs.map((loc) => `  <sitemap><loc>${escape(loc)}</loc></sitemap>`).join("\n")}\n</sitemapindex>\n`;
    return new Response(xml, { headers: XML });
  }
  if (part === "pages") return urlset(origin, pages, undefined);
  const n = /^[1-9]\d{0,6}$/.test(part) ? Number(part) : NaN;
  if (!split || !(n <= Math.ceil(total / perPart))) return new Response("No such part of the sitemap.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return urlset(origin, [], allPractitioners(context, "de", { from: (n - 1) * perPart, limit: perPart }));
}

async function urlset(origin: string, pages: Entry[], practitioners: AsyncGenerator<Array<{ slug: string }>> | undefined): Promise<Response> {
  const entries: Entry[] = [...pages];
  if (practitioners) for await (const page of practitioners) for (const p of page) entries.push({ de: profilePath("de", p.slug), en: profilePath("en", p.slug) });
  const urls = entries.flatMap((alt) => {
    const langs = LANGUAGES.filter((l) => alt[l]);
    const links = langs.map((l) => `    <xhtml:link rel="alternate" hreflang="${l}" href="${escape(origin + alt[l])}"/>`).join("\n");
    return langs.map((lang) => `  <url>\n    <loc>${escape(origin + alt[lang])}</loc>\n${links}\n  </url>`);
  });
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join("\n")}\n</urlset>\n`;
  return new Response(xml, { headers: XML });
}
