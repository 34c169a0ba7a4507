import { marked } from "marked";
import sanitizeHtml from "sanitize-html";

/**
 * Rich text from content, made safe to put into a page: an allow-list of text elements, links only
 * to http(s), mail, phone or our own paths, no scripts, styles, event handlers or embedded content.
 * External links open with rel="noopener noreferrer".
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ["p", "br", "h2", "h3", "h4", "ul", "ol", "li", "a", "strong", "em", "b", "i", "u", "s", "blockquote", "code", "pre", "hr", "small", "sub", "sup", "table", "thead", "tbody", "tr", "th", "td"],
  // rel is set by the transform below, never taken from content.
  allowedAttributes: { a: ["href", "title", "hreflang", "rel"], th: ["scope"], td: ["colspan", "rowspan"] },
  allowedSchemes: ["http", "https", "mailto", "tel"],
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
