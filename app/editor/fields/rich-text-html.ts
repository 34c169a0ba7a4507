import { $generateNodesFromDOM } from "@lexical/html";
import { $isLinkNode } from "@lexical/link";
import { $isListItemNode, $isListNode } from "@lexical/list";
import { $isHeadingNode } from "@lexical/rich-text";
import { $createParagraphNode, $getRoot, $isDecoratorNode, $isElementNode, $isLineBreakNode, $isTextNode, type ElementNode, type LexicalEditor, type LexicalNode, type ParagraphNode } from "lexical";
import { sanitizeRichTextClient } from "../sanitize";
import { isAllowedLinkAddress } from "./link-address";

/**
 * Between the editor's document and the HTML a block stores. The export is ours rather than
 * Lexical's $generateHtmlFromNodes: that one writes classes, spans, `dir` and `white-space` styles,
 * which we would only have to strip again. Walking the tree ourselves writes exactly the field's
 * allow-list — p, br, h2, h3, ul, ol, li, a[href], strong, em — escapes every text and attribute,
 * and costs one pass over a block's few kilobytes per change.
 */

function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function escapeAttribute(value: string): string {
  return escapeText(value).replace(/"/g, "&quot;");
}

/** Inline content: text with bold/italic, line breaks, links. Anything else contributes its children. */
function inlineHtml(node: LexicalNode): string {
  if ($isLineBreakNode(node)) return "<br>";
  if ($isTextNode(node)) {
    let html = escapeText(node.getTextContent());
    if (html === "") return "";
    if (node.hasFormat("italic")) html = `<em>${html}</em>`;
    if (node.hasFormat("bold")) html = `<strong>${html}</strong>`;
    return html;
  }
  if (!$isElementNode(node)) return ""; // decorators (nothing of ours renders one)
  const inner = childrenInline(node);
  if ($isLinkNode(node)) {
    const href = node.getURL().trim();
    // A link to an address the field would not accept (pasted, or from older content) keeps its
    // text and loses the link.
    return inner !== "" && isAllowedLinkAddress(href) ? `<a href="${escapeAttribute(href)}">${inner}</a>` : inner;
  }
  return inner;
}

function childrenInline(node: ElementNode): string {
  let html = "";
  for (const child of node.getChildren()) html += inlineHtml(child);
  return html;
}

/** Nothing a reader would see: no text, or only line breaks. */
function blank(inner: string): boolean {
  return /^(<br>)*$/.test(inner);
}

function listHtml(list: ElementNode & { getListType(): string }): string {
  const tag = list.getListType() === "number" ? "ol" : "ul";
  // Lexical keeps a nested list in an item of its own right after the item it belongs to; HTML
  // puts it inside that item.
  const items: string[] = [];
  for (const item of list.getChildren()) {
    if (!$isListItemNode(item)) continue;
    let inner = "";
    let nestedOnly = true;
    for (const child of item.getChildren()) {
      if ($isListNode(child)) inner += listHtml(child);
      else {
        nestedOnly = false;
        inner += inlineHtml(child);
      }
    }
    if (blank(inner)) continue;
    if (nestedOnly && items.length > 0) items[items.length - 1] += inner;
    else items.push(inner);
  }
  return items.length === 0 ? "" : `<${tag}>${items.map((i) => `<li>${i}</li>`).join("")}</${tag}>`;
}

function blockHtml(node: LexicalNode): string {
  if ($isListNode(node)) return listHtml(node);
  if (!$isElementNode(node)) {
    const inline = inlineHtml(node);
    return blank(inline) ? "" : `<p>${inline}</p>`;
  }
  const inner = childrenInline(node);
  // Empty blocks are the empty lines an author leaves while writing; they show as nothing.
  if (blank(inner)) return "";
  if ($isHeadingNode(node)) {
    // h1 and h2 are h2 (a page's h1 is its title); smaller headings from older content are h3.
    const tag = node.getTag() === "h1" || node.getTag() === "h2" ? "h2" : "h3";
    return `<${tag}>${inner}</${tag}>`;
  }
  return `<p>${inner}</p>`;
}

/** The document as the field's HTML; "" when it holds nothing. Call inside a read or update. */
export function $richTextHtml(): string {
  let html = "";
  for (const block of $getRoot().getChildren()) html += blockHtml(block);
  return html;
}

/**
 * Replaces the document with `html`. It goes through the canvas sanitiser first, so the DOM parse
 * only ever sees allowed markup, and h1 arrives as h2. Call inside an update, in the browser.
 */
export function $setRichTextHtml(editor: LexicalEditor, html: string): void {
  const root = $getRoot();
  root.clear();
  const clean = html === "" ? "" : sanitizeRichTextClient(html);
  if (clean !== "") {
    const dom = new DOMParser().parseFromString(clean, "text/html");
    let paragraph: ParagraphNode | null = null;
    for (const node of $generateNodesFromDOM(editor, dom)) {
      const block = ($isElementNode(node) || $isDecoratorNode(node)) && !node.isInline();
      if (block) {
        paragraph = null;
        root.append(node);
        continue;
      }
      // Text outside any block (markup without <p>) goes into a paragraph; the line breaks
      // between blocks of the source markup do not.
      if (paragraph === null) {
        if ($isTextNode(node) && node.getTextContent().trim() === "") continue;
        paragraph = $createParagraphNode();
        root.append(paragraph);
      }
      paragraph.append(node);
    }
  }
  if (root.getChildrenSize() === 0) root.append($createParagraphNode());
}
