import { isKnownBlock, prepareBlock } from "~/blocks/registry.server";
import type { Block } from "~/blocks/types";
import type { Logger } from "~/lib/logger.server";

/**
 * A page ready to render: known blocks only (in containers too, one level deep), rich text
 * sanitised, theme and background resolved.
 */
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
  const unknown = (b: Block, container?: Block) => logger.error({ schemaId: b.schemaId, page: id, ...(container ? { container: container.id } : {}) }, "The variant does not exist");
  const blocks = (d.blocks ?? [])
    .filter((b) => {
      if (isKnownBlock(b)) return true;
      unknown(b);
      return false;
    })
    .map((b) =>
      prepareBlock(b, ({ block, reason }) => {
        if (reason === "unknown") unknown(block, b);
        else logger.error({ schemaId: block.schemaId, page: id, container: b.id }, "A container inside a container was left out");
      }),
    );
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
