import { BLOCK_COMPONENTS } from "~/blocks/registry";
import type { Block } from "~/blocks/types";
import type { Logger } from "~/lib/logger.server";
import { markdownToSafeHtml, sanitizeRichText } from "./rich-text.server";
import { own } from "~/lib/input";

/** A page ready to render: known blocks only, rich text sanitised, theme and background resolved. */
export interface ContentPage {
  id: string;
  title: string;
  seotitle: string;
  description: string;
  blocks: Block[];
  themeClass: string;
  background: string | null;
}

export interface RawPageData {
  title?: string;
  seo?: { slug?: string; seotitle?: string; description?: string };
  blocks?: Block[];
  themesettings?: string[];
  backgroundColor?: string[];
  navigation?: string;
  navigationOrder?: number;
  critical?: boolean;
}

/** Rich text leaves the server sanitised, whether it was written as HTML or Markdown. */
function safeBlock(block: Block): Block {
  if (block.schemaId !== "block-richtext") return block;
  const { html, markdown, ...rest } = block;
  const safe = typeof html === "string" && html.trim() ? sanitizeRichText(html) : typeof markdown === "string" ? markdownToSafeHtml(markdown) : "";
  return { ...rest, html: safe };
}

/**
 * Turns a page item into what the renderer needs. Runs once per content change (with the site
 * data), so unknown blocks are logged once and sanitising never happens per request.
 */
export function prepareContentPage(
  id: string,
  d: RawPageData,
  site: { themeIds: string[]; colors: Record<string, string> },
  logger: Logger,
): ContentPage {
  const blocks = (d.blocks ?? [])
    .filter((b) => {
      if (own(BLOCK_COMPONENTS, b.schemaId)) return true;
      logger.error({ schemaId: b.schemaId, page: id }, "The variant does not exist");
      return false;
    })
    .map(safeBlock);
  const theme = d.themesettings?.[0];
  const background = d.backgroundColor?.[0];
  return {
    id,
    title: d.title ?? "",
    seotitle: d.seo?.seotitle || d.title || "",
    description: d.seo?.description ?? "",
    blocks,
    themeClass: theme && site.themeIds.includes(theme) ? `theme-${theme}` : "",
    background: background ? (site.colors[background] ?? null) : null,
  };
}
