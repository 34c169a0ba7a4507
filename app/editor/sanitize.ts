import DOMPurify, { type DOMPurify as Purifier } from "dompurify";
import { RICH_TEXT_ATTRIBUTES, RICH_TEXT_SCHEMES, RICH_TEXT_TAGS } from "~/site/rich-text-rules";

/**
 * Rich text made safe in the browser, for the editor's canvas: it shows text a colleague wrote, and
 * a script in it must not run in an editor's signed-in session. The rules are the page
 * sanitiser's (app/site/rich-text.server.ts, sanitize-html), so the canvas shows what visitors will
 * see: the same tags, the same attributes per tag, links only to http(s), mail, phone or relative
 * addresses (no protocol-relative ones), h1 made h2, external links with rel="noopener noreferrer".
 * Both read their lists from ~/site/rich-text-rules; tests/e2e/rich-text.spec.ts compares them on the same inputs. The one
 * difference: what is inside svg, math, template and the like goes here, text included.
 *
 * The server still sanitises every page it prepares: this is for the canvas, not a replacement.
 */

const ALLOWED_TAGS = RICH_TEXT_TAGS;

/** Attributes per tag: DOMPurify's allow-list is one for all tags, the per-tag rule is a hook below. */
const ALLOWED_ATTRIBUTES = RICH_TEXT_ATTRIBUTES;

const ALLOWED_SCHEMES = new Set(RICH_TEXT_SCHEMES);

/**
 * Whether an href may stay, by sanitize-html's reading of it: spaces and control characters (which
 * browsers skip inside a scheme) and HTML comments removed first, then a scheme from the list, or
 * none at all — but not "//" or "\\" at the start, which is another host.
 */
function hrefAllowed(href: string): boolean {
  // eslint-disable-next-line no-control-regex
  let value = href.replace(/[\x00-\x20]+/g, "");
  for (;;) {
    const start = value.indexOf("<!--");
    if (start === -1) break;
    const end = value.indexOf("-->", start + 4);
    if (end === -1) break;
    value = value.slice(0, start) + value.slice(end + 3);
  }
  const scheme = /^([a-zA-Z][a-zA-Z0-9.\-+]*):/.exec(value)?.[1];
  if (scheme === undefined) return !/^[/\\]{2}/.test(value);
  return ALLOWED_SCHEMES.has(scheme.toLowerCase());
}

let purifier: Purifier | undefined;

/** One DOMPurify instance of our own, so these hooks never touch another user of the library. */
function ourPurifier(): Purifier {
  if (purifier) return purifier;
  const p = DOMPurify(window);
  p.addHook("uponSanitizeAttribute", (node, data) => {
    const tag = node.nodeName.toLowerCase();
    // rel is never taken from content: it is set below for external links only.
    if (!ALLOWED_ATTRIBUTES[tag]?.includes(data.attrName) || data.attrName === "rel") data.keepAttr = false;
    else if (data.attrName === "href" && !hrefAllowed(data.attrValue)) data.keepAttr = false;
  });
  p.addHook("afterSanitizeAttributes", (node) => {
    if (node.nodeName !== "A") return;
    if (/^https?:\/\//i.test(node.getAttribute("href") ?? "")) node.setAttribute("rel", "noopener noreferrer");
  });
  purifier = p;
  return p;
}

/**
 * `html` with only the allowed markup left. On the server it returns "": DOMPurify needs a DOM,
 * and without one it hands back its input untouched (DOMPurify.isSupported is false), which would
 * put unsanitised markup into the server-rendered page. The canvas renders rich text once it runs
 * in the browser; what visitors get is sanitised by app/site/rich-text.server.ts.
 */
export function sanitizeRichTextClient(html: string): string {
  if (typeof window === "undefined" || !DOMPurify.isSupported) return "";
  // RETURN_DOM gives the <body> that holds the result.
  const body = ourPurifier().sanitize(html, {
    // h1 is let through here only to become h2 below (a page has one h1, its title).
    ALLOWED_TAGS: [...ALLOWED_TAGS, "h1"],
    ALLOWED_ATTR: [...new Set(Object.values(ALLOWED_ATTRIBUTES).flat())],
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    // Disallowed elements go, their text stays (sanitize-html's "discard"), except where neither
    // keeps it: sanitize-html's nonTextTags (script, style, textarea, option) on top of DOMPurify's
    // own list (which adds svg, math, template, audio, video and the like: stricter, on purpose).
    KEEP_CONTENT: true,
    ADD_FORBID_CONTENTS: ["script", "style", "textarea", "option"],
    RETURN_DOM: true,
  }) as HTMLElement;
  for (const h1 of [...body.querySelectorAll("h1")]) {
    const h2 = (body.ownerDocument ?? document).createElement("h2");
    h2.append(...h1.childNodes);
    h1.replaceWith(h2);
  }
  return body.innerHTML;
}
