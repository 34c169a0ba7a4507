import { markdownToSafeHtml, sanitizeRichText } from "~/site/rich-text.server";
import type { BlockServer } from "../types";

export const server: BlockServer = {
  name: "block-richtext",
  /** Rich text leaves the server sanitised, whether it was written as HTML or Markdown. */
  prepare(block) {
    const { html, markdown, ...rest } = block;
    const safe = typeof html === "string" && html.trim() ? sanitizeRichText(html) : typeof markdown === "string" ? markdownToSafeHtml(markdown) : "";
    return { ...rest, html: safe };
  },
};
