/**
 * What rich text may hold, one list for both sanitisers: the page's (rich-text.server.ts,
 * sanitize-html) and the editor canvas's (app/editor/sanitize.ts, DOMPurify in the browser).
 */
export const RICH_TEXT_TAGS: readonly string[] = ["p", "br", "h2", "h3", "h4", "ul", "ol", "li", "a", "strong", "em", "b", "i", "u", "s", "blockquote", "code", "pre", "hr", "small", "sub", "sup", "table", "thead", "tbody", "tr", "th", "td"];

/** Attributes per tag (`rel` on links is set by the sanitiser, never taken from content). */
export const RICH_TEXT_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = { a: ["href", "title", "hreflang", "rel"], th: ["scope"], td: ["colspan", "rowspan"] };

/** Link schemes (relative addresses are allowed too, protocol-relative ones are not). */
export const RICH_TEXT_SCHEMES: readonly string[] = ["http", "https", "mailto", "tel"];
