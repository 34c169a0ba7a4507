import type { Route } from "./+types/sitemap";
import { LANGUAGES, localizedPath, type Language } from "~/i18n/languages";
import { profilePath } from "~/practitioners/components";
import { loadPractitioners } from "~/practitioners/practitioners.server";
import { originOf } from "~/site/seo";
import { loadSite } from "~/site/site.server";

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Every public page in both languages, each with its hreflang alternates; practitioners included. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const origin = originOf(request, context);
  const site = await loadSite(context);
  const practitioners = await loadPractitioners(context, "de");
  const entries: Array<Record<Language, string>> = [
    ...site.pages.map((p) => ({
      de: p.slug.de === "home" ? "/" : localizedPath("de", `/${p.slug.de}`),
      en: p.slug.en === "home" ? "/en" : localizedPath("en", `/${p.slug.en}`),
    })),
    { de: localizedPath("de", "/practitioners"), en: localizedPath("en", "/practitioners") },
    ...practitioners.map((p) => ({ de: profilePath("de", p.slug), en: profilePath("en", p.slug) })),
  ];
  // One <url> per address, even if content and a route ever claim the same one.
  const seen = new Set<string>();
  const unique = entries.filter((alt) => LANGUAGES.every((l) => !seen.has(alt[l])) && (LANGUAGES.forEach((l) => seen.add(alt[l])), true));
  const urls = unique.flatMap((alt) =>
    LANGUAGES.map(
      (lang) =>
        `  <url>\n    <loc>${escape(origin + alt[lang])}</loc>\n${LANGUAGES.map((l) => `    <xhtml:link rel="alternate" hreflang="${l}" href="${escape(origin + alt[l])}"/>`).join("\n")}\n  </url>`,
    ),
  );
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join("\n")}\n</urlset>\n`;
  return new Response(xml, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=300" } });
}
