import { data, type AppLoadContext } from "react-router";
import { assetUrl } from "~/content/public-api";
import { blockNeeds } from "~/blocks/registry.server";
import type { Block, PageBlockData } from "~/blocks/types";
import { localizedPath, splitLanguage, type Language } from "~/i18n/languages";
import { LIST_PAGE_PARAM, parseDirectoryQuery, parsePage } from "~/practitioners/directory";
import {
  directoryPage,
  firstPractitioners,
  loadDirectory,
  loadFreeSlots,
  practitionersById,
} from "~/practitioners/practitioners.server";
import { findPageBySlug, loadSite, pagePath } from "./site.server";

/** A page path a slug can have: lower-case words, digits and hyphens, separated by slashes. */
const PAGE_PATH = /^[a-z0-9]+(-[a-z0-9]+)*(\/[a-z0-9]+(-[a-z0-9]+)*)*$/;

/** A 404 for `path`; the error page says so in the page's language (root.tsx). */
export function notFound(path: string): never {
  throw data({ notFound: path }, { status: 404 });
}

/** The language and page slug a URL asks for ("home" for the home page); a 404 for what no slug can be. */
export function requestedPage(url: URL): { language: Language; slug: string } {
  const { language, path } = splitLanguage(url.pathname);
  const slug = path.replace(/^\/+|\/+$/g, "") || "home";
  if (!PAGE_PATH.test(slug)) notFound(url.pathname);
  return { language, slug };
}

/**
 * Everything a content page needs: the page by slug in the URL's language (prepared with the site
 * data, once per content change), and the data of its blocks (practitioners, appointments, images).
 * The home page has the slug "home".
 */
export async function loadContentPage(request: Request, context: AppLoadContext) {
  const url = new URL(request.url);
  const { language, slug: wanted } = requestedPage(url);
  const site = await loadSite(context);
  const summary = findPageBySlug(site, language, wanted);
  if (!summary) notFound(url.pathname);

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

/**
 * Loads what the blocks on this page show, as each block kind declares it (app/blocks/<kind>/server.ts),
 * each a query of its own size (never "all").
 */
export async function loadBlockData(context: AppLoadContext, language: Language, blocks: Block[], url: URL): Promise<PageBlockData> {
  const needs = blockNeeds(blocks);
  const booking = context.services.env.SITE_VARIANT === "booking";
  const directoryQuery = needs.directory ? parseDirectoryQuery(url.searchParams) : null;
  const { ids, slotsEach } = needs.practitioners;
  // One round for everything the blocks name; a second for the people the soonest slots belong to.
  const listPage = parsePage(url.searchParams.get(LIST_PAGE_PARAM));
  const [first, chosen, directory, soonest, slotsOfChosen, assets, lists] = await Promise.all([
    firstPractitioners(context, language, needs.firstPractitioners),
    practitionersById(context, language, ids),
    directoryQuery ? loadDirectory(context, language, directoryQuery) : null,
    booking && needs.soonestSlots ? loadFreeSlots(context, { limit: needs.soonestSlots }) : [],
    // Each chosen practitioner's own soonest slots (hidden practitioners' slots are not visible at all).
    booking && slotsEach ? Promise.all(ids.map((id) => loadFreeSlots(context, { practitioners: [id], limit: slotsEach }))) : [],
    needs.assets.length ? context.services.content.assets(needs.assets) : { items: [] },
    Promise.all(needs.practitionerLists.map(async (size) => [String(size), await directoryPage(context, language, { page: listPage }, size)] as const)),
  ]);
  const known = new Set([...first, ...chosen, ...(directory?.result.items ?? [])].map((p) => p.id));
  const slotOwners = await practitionersById(context, language, soonest.map((s) => s.practitioner).filter((id) => !known.has(id)));
  const byId = new Map([...first, ...chosen, ...slotOwners, ...(directory?.result.items ?? [])].map((p) => [p.id, p]));
  const firstIds = new Set(first.map((p) => p.id));
  const slotById = new Map([...slotsOfChosen.flat(), ...soonest].map((slot) => [slot.id, slot]));
  const result: PageBlockData = {
    practitioners: [...first, ...[...byId.values()].filter((p) => !firstIds.has(p.id))],
    appointments: [...slotById.values()].sort((a, b) => a.start.localeCompare(b.start) || a.id.localeCompare(b.id)),
    assets: {},
    directory: directory?.result ?? null,
    facets: directory?.facets ?? { languages: [], countries: [] },
    lists: Object.fromEntries(lists),
  };
  for (const a of assets.items) result.assets[a.id] = { url: assetUrl(a), width: a.pixelWidth, height: a.pixelHeight, mimeType: a.mimeType, fileName: a.fileName };
  return result;
}
