import type { AppLoadContext, MetaDescriptor } from "react-router";
import { LANGUAGES, type Language } from "~/i18n/languages";
import { messages } from "~/i18n/messages";

export interface SeoInput {
  title: string;
  description?: string;
  origin: string;
  canonical: string;
  alternates: Record<Language, string>;
  noindex?: boolean;
  /** The page's language: for the fallback description, when the page has none of its own. */
  language: Language;
}

/** Title, description (the page's own, else the site's), canonical URL and hreflang alternates for every page. */
export function seoMeta(input: SeoInput): MetaDescriptor[] {
  const s = { ...input, description: input.description?.trim() || messages(input.language).siteDescription };
  return [
    { title: s.title },
    ...(s.description ? [{ name: "description", content: s.description }] : []),
    ...(s.noindex ? [{ name: "robots", content: "noindex" }] : []),
    { tagName: "link", rel: "canonical", href: `${s.origin}${s.canonical}` },
    ...LANGUAGES.map((lang) => ({ tagName: "link", rel: "alternate", hrefLang: lang, href: `${s.origin}${s.alternates[lang]}` })),
    { tagName: "link", rel: "alternate", hrefLang: "x-default", href: `${s.origin}${s.alternates.de}` },
    { property: "og:title", content: s.title },
    ...(s.description ? [{ property: "og:description", content: s.description }] : []),
    { property: "og:url", content: `${s.origin}${s.canonical}` },
  ];
}

/**
 * The origin absolute URLs (canonical, hreflang, sitemap) are built from: PUBLIC_ORIGIN when set,
 * otherwise the origin the request came to.
 */
export const originOf = (request: Request, context: AppLoadContext) => context.services.env.PUBLIC_ORIGIN ?? new URL(request.url).origin;
