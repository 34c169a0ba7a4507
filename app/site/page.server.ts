import { data, type AppLoadContext } from "react-router";
import { assetList } from "~/content/public-api";
import { PRACTITIONER_BLOCKS, type Block, type PageBlockData } from "~/blocks/types";
import { localizedPath, splitLanguage, type Language } from "~/i18n/languages";
import { apiContext } from "~/lib/api.server";
import { filterPractitioners, nextFreeSlots, paginate, parseDirectoryQuery } from "~/practitioners/directory";
import { loadFreeSlots, loadPractitioners } from "~/practitioners/practitioners.server";
import { findPageBySlug, loadSite, pagePath } from "./site.server";

/** A page path a slug can have: lower-case words, digits and hyphens, separated by slashes. */
const PAGE_PATH = /^[a-z0-9]+(-[a-z0-9]+)*(\/[a-z0-9]+(-[a-z0-9]+)*)*$/;

export function notFound(message: string): never {
  throw data(message, { status: 404 });
}

/**
 * Everything a content page needs: the page by slug in the URL's language (prepared with the site
 * data, once per content change), and the data of its blocks (practitioners, appointments, images).
 * The home page has the slug "home".
 */
export async function loadContentPage(request: Request, context: AppLoadContext) {
  const url = new URL(request.url);
  const { language, path } = splitLanguage(url.pathname);
  const wanted = path.replace(/^\/+|\/+$/g, "") || "home";
  if (!PAGE_PATH.test(wanted)) notFound(`Page not found: ${url.pathname}`);
  const site = await loadSite(context);
  const summary = findPageBySlug(site, language, wanted);
  if (!summary) notFound(`Page Not Found: ${url.pathname}`);

  const page = summary.content[language];
  // A language in which a route shadows the page links to that language's home page instead.
  const pathOf = (lang: Language) => pagePath(summary, lang) ?? localizedPath(lang, "/");
  return {
    language,
    page,
    blockData: await loadBlockData(context, language, page.blocks, url),
    alternates: { de: pathOf("de"), en: pathOf("en") },
    canonical: pathOf(language),
  };
}

function paginatedDirectory(practitioners: PageBlockData["practitioners"], url: URL) {
  const query = parseDirectoryQuery(url.searchParams);
  return { query, page: paginate(filterPractitioners(practitioners, query), query.page) };
}

/** Loads only what the blocks on this page use: one read per kind, from the shared cache. */
export async function loadBlockData(context: AppLoadContext, language: Language, blocks: Block[], url: URL): Promise<PageBlockData> {
  const result: PageBlockData = { practitioners: [], appointments: [], assets: {}, directory: null };
  const kinds = new Set(blocks.map((b) => b.schemaId));
  if ([...kinds].some((k) => PRACTITIONER_BLOCKS.has(k)) || kinds.has("block-book-appointment")) {
    result.practitioners = await loadPractitioners(context, language);
  }
  const booking = context.services.env.SITE_VARIANT === "booking";
  const directory = kinds.has("block-practitioner-overview") ? paginatedDirectory(result.practitioners, url) : null;
  if (booking) {
    // Only the slots the blocks show: the single practitioners' and the directory page's free
    // slots, and the soonest free ones for the booking block.
    const shown = [
      ...blocks.filter((b) => b.schemaId === "block-practitioner-single").flatMap((b) => (Array.isArray(b.practitioner) ? b.practitioner.map(String) : [])),
      ...(directory?.page.items.map((p) => p.id) ?? []),
    ];
    const lists = await Promise.all([
      shown.length ? loadFreeSlots(context, { practitioners: shown }) : [],
      kinds.has("block-book-appointment") ? loadFreeSlots(context, { limit: 12 }) : [],
    ]);
    const byId = new Map(lists.flat().map((slot) => [slot.id, slot]));
    result.appointments = [...byId.values()].sort((a, b) => a.start.localeCompare(b.start) || a.id.localeCompare(b.id));
  }
  if (directory) {
    const { query, page } = directory;
    result.directory = { query, ...page, ...(booking ? { nextSlots: nextFreeSlots(result.appointments, page.items.map((p) => p.id)) } : {}) };
  }
  const assetIds = new Set(blocks.flatMap((b) => [b.image, b.images].flat().filter((v): v is string => typeof v === "string")));
  if (assetIds.size) {
    const { items } = await assetList({ language }, apiContext(context));
    for (const a of items) {
      if (assetIds.has(a.id)) result.assets[a.id] = { url: a.url, width: a.pixelWidth, height: a.pixelHeight, mimeType: a.mimeType, fileName: a.fileName };
    }
  }
  return result;
}
