import { marked } from "marked";
import sanitizeHtml from "sanitize-html";
import { RICH_TEXT_ATTRIBUTES, RICH_TEXT_SCHEMES, RICH_TEXT_TAGS } from "./rich-text-rules";

/**
 * Rich text from content, made safe to put into a page: an allow-list of text elements, links only
 * to http(s), mail, phone or our own paths, no scripts, styles, event handlers or embedded content.
 * External links open with rel="noopener noreferrer".
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...RICH_TEXT_TAGS],
  // rel is set by the transform below, never taken from content.
  allowedAttributes: Object.fromEntries(Object.entries(RICH_TEXT_ATTRIBUTES).map(([tag, attrs]) => [tag, [...attrs]])),
  allowedSchemes: [...RICH_TEXT_SCHEMES],
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: {
    // A page has one h1 (its title); content headings start at h2.
    h1: "h2",
    a: (tagName, { rel: _ignored, ...attribs }) => ({
      tagName,
      attribs: /^https?:\/\//i.test(attribs.href ?? "") ? { ...attribs, rel: "noopener noreferrer" } : attribs,
    }),
  },
};

export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

export function markdownToSafeHtml(markdown: string): string {
  return sanitizeRichText(marked.parse(markdown, { async: false, gfm: true }));
}
