import { data, type AppLoadContext } from "react-router";
import { assetList, contentItem } from "~/content/public-api";
import { ContentError } from "~/content/errors";
import { BLOCK_COMPONENTS } from "~/blocks/registry";
import { PRACTITIONER_BLOCKS, type Block, type PageBlockData } from "~/blocks/types";
import { localizedPath, splitLanguage, type Language } from "~/i18n/languages";
import { apiContext } from "~/lib/api.server";
import { filterPractitioners, nextFreeSlots, paginate, parseDirectoryQuery } from "~/practitioners/directory";
import { loadAppointments, loadPractitioners } from "~/practitioners/practitioners.server";
import { markdownToSafeHtml, sanitizeRichText } from "./rich-text.server";
import { findPageBySlug, loadSite } from "./site.server";

export interface ContentPage {
  id: string;
  title: string;
  seotitle: string;
  description: string;
  blocks: Block[];
  themeClass: string;
  background: string | null;
}

/** Rich text leaves the server sanitised, whether it was written as HTML or Markdown. */
function safeBlock(block: Block): Block {
  if (block.schemaId !== "block-richtext") return block;
  const { html, markdown, ...rest } = block;
  const safe = typeof html === "string" && html.trim() ? sanitizeRichText(html) : typeof markdown === "string" ? markdownToSafeHtml(markdown) : "";
  return { ...rest, html: safe };
}

/** A page path a slug can have: lower-case words, digits and hyphens, separated by slashes. */
const PAGE_PATH = /^[a-z0-9]+(-[a-z0-9]+)*(\/[a-z0-9]+(-[a-z0-9]+)*)*$/;

export function notFound(message: string): never {
  throw data(message, { status: 404 });
}

/**
 * Everything a content page needs, in one pass: the page by slug in the URL's language, and the
 * data of the blocks on it (practitioners, appointments, images). The home page has the slug "home".
 */
export async function loadContentPage(request: Request, context: AppLoadContext) {
  const url = new URL(request.url);
  const { language, path } = splitLanguage(url.pathname);
  const wanted = path.replace(/^\/+|\/+$/g, "") || "home";
  if (!PAGE_PATH.test(wanted)) notFound(`Page not found: ${url.pathname}`);
  const site = await loadSite(context);
  const summary = findPageBySlug(site, language, wanted);
  if (!summary) notFound(`Page Not Found: ${url.pathname}`);

  let item;
  try {
    item = await contentItem({ url: "core-pages", id: summary.id, language }, apiContext(context));
  } catch (error) {
    if (error instanceof ContentError && error.statusCode === 404) notFound(`Page Not Found: ${url.pathname}`);
    throw error;
  }
  const d = item.data as {
    title?: string;
    seo?: { seotitle?: string; description?: string };
    blocks?: Block[];
    themesettings?: string[];
    backgroundColor?: string[];
  };
  const blocks = (d.blocks ?? [])
    .filter((b) => {
      if (b.schemaId in BLOCK_COMPONENTS) return true;
      context.services.logger.error({ schemaId: b.schemaId, page: summary.id, requestId: context.requestId }, "The variant does not exist");
      return false;
    })
    .map(safeBlock);
  const theme = d.themesettings?.[0];
  const page: ContentPage = {
    id: item.id,
    title: d.title ?? "",
    seotitle: d.seo?.seotitle || d.title || "",
    description: d.seo?.description ?? "",
    blocks,
    themeClass: theme && site.themeIds.includes(theme) ? `theme-${theme}` : "",
    background: d.backgroundColor?.[0] ? (site.colors[d.backgroundColor[0]] ?? null) : null,
  };
  const pathOf = (lang: Language) => (summary.slug[lang] === "home" ? localizedPath(lang, "/") : localizedPath(lang, `/${summary.slug[lang]}`));
  return {
    language,
    page,
    blockData: await loadBlockData(context, language, blocks, url),
    alternates: { de: pathOf("de"), en: pathOf("en") },
    canonical: pathOf(language),
  };
}

/** Loads only what the blocks on this page use: one read per kind, from the shared cache. */
export async function loadBlockData(context: AppLoadContext, language: Language, blocks: Block[], url: URL): Promise<PageBlockData> {
  const result: PageBlockData = { practitioners: [], appointments: [], assets: {}, directory: null };
  const kinds = new Set(blocks.map((b) => b.schemaId));
  if ([...kinds].some((k) => PRACTITIONER_BLOCKS.has(k)) || kinds.has("block-book-appointment")) {
    result.practitioners = await loadPractitioners(context, language);
  }
  const booking = context.services.env.SITE_VARIANT === "booking";
  if (booking && ["block-book-appointment", "block-practitioner-single", "block-practitioner-overview"].some((k) => kinds.has(k))) {
    result.appointments = await loadAppointments(context);
  }
  if (kinds.has("block-practitioner-overview")) {
    const query = parseDirectoryQuery(url.searchParams);
    const page = paginate(filterPractitioners(result.practitioners, query), query.page);
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
