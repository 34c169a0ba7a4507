import type { Route } from "./+types/practitioners";
import { localizedPath, splitLanguage } from "~/i18n/languages";
import { messages } from "~/i18n/messages";
import { Directory } from "~/practitioners/components";
import { parseDirectoryQuery } from "~/practitioners/directory";
import { loadDirectory } from "~/practitioners/practitioners.server";
import { originOf, seoMeta } from "~/site/seo";

/** The practitioner directory: search by name and city, filter by language and country, pages. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const { language } = splitLanguage(url.pathname);
  const query = parseDirectoryQuery(url.searchParams);
  const { result, facets } = await loadDirectory(context, language, query);
  // The same search in the other language: the switcher keeps the query.
  const alternates = { de: localizedPath("de", "/practitioners") + url.search, en: localizedPath("en", "/practitioners") + url.search };
  const canonical = localizedPath(language, "/practitioners");
  return { language, result, facets, alternates, canonical, origin: originOf(request, context) };
}

export const meta: Route.MetaFunction = ({ loaderData: d }) =>
  d ? seoMeta({ title: messages(d.language).practitioners, description: messages(d.language).directoryDescription, language: d.language, origin: d.origin, canonical: d.canonical, alternates: d.alternates }) : [];

export default function Practitioners({ loaderData }: Route.ComponentProps) {
  const { language, result, facets, canonical } = loaderData;
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="mb-6 text-4xl font-bold tracking-tight">{messages(language).practitioners}</h1>
      <Directory result={result} facets={facets} action={canonical} />
    </div>
  );
}
