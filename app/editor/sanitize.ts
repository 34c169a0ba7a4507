import DOMPurify from "dompurify";

/**
 * Rich text on the editor's canvas, made safe in the browser with the server's allow-list (a
 * colleague's text must not run scripts in an editor's session). On the server it is "": edit
 * mode renders the server-prepared (sanitised) blocks there.
 */
export function sanitizeRichTextClient(html: string): string {
  if (typeof window === "undefined") return "";
  return DOMPurify.sanitize(html, {
    ALLOWED_TAGS: ["p", "br", "h2", "h3", "h4", "ul", "ol", "li", "a", "strong", "em", "b", "i", "u", "s", "blockquote", "code", "pre", "hr", "small", "sub", "sup", "table", "thead", "tbody", "tr", "th", "td"],
    ALLOWED_ATTR: ["href", "title", "hreflang", "scope", "colspan", "rowspan"],
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|tel:|\/(?!\/)|#)/i,
  });
}
