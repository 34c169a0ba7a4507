import { isKnownBlock, prepareBlock } from "~/blocks/registry.server";
import type { Block } from "~/blocks/types";
import type { Logger } from "~/lib/logger.server";

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
      if (isKnownBlock(b)) return true;
      logger.error({ schemaId: b.schemaId, page: id }, "The variant does not exist");
      return false;
    })
    .map(prepareBlock);
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
