import type { Route } from "./+types/sitemap";
import { LANGUAGES, localizedPath, type Language } from "~/i18n/languages";
import { profilePath } from "~/practitioners/paths";
import { allPractitioners } from "~/practitioners/practitioners.server";
import { originOf } from "~/site/seo";
import { loadSite, pagePath } from "~/site/site.server";

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Every public page in both languages, each with its hreflang alternates; practitioners included. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const origin = originOf(request, context);
  const site = await loadSite(context);
  const practitioners = [];
  for await (const page of allPractitioners(context, "de")) practitioners.push(...page);
  // A page is listed in the languages where it has an address (see pagePath).
  const entries: Array<Partial<Record<Language, string>>> = [
    ...site.pages.map((p) => Object.fromEntries(LANGUAGES.map((l) => [l, pagePath(p, l)]).filter(([, path]) => path))),
    { de: localizedPath("de", "/practitioners"), en: localizedPath("en", "/practitioners") },
    ...practitioners.map((p) => ({ de: profilePath("de", p.slug), en: profilePath("en", p.slug) })),
  ];
  const urls = entries.flatMap((alt) => {
    const langs = LANGUAGES.filter((l) => alt[l]);
    const links = langs.map((l) => `    <xhtml:link rel="alternate" hreflang="${l}" href="${escape(origin + alt[l])}"/>`).join("\n");
    return langs.map((lang) => `  <url>\n    <loc>${escape(origin + alt[lang])}</loc>\n${links}\n  </url>`);
  });
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join("\n")}\n</urlset>\n`;
  return new Response(xml, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=300" } });
}
