import { $createLinkNode, LinkNode } from "@lexical/link";
import { $createListItemNode, $createListNode, ListItemNode, ListNode } from "@lexical/list";
import { $createHeadingNode, HeadingNode } from "@lexical/rich-text";
import { $createLineBreakNode, $createParagraphNode, $createTextNode, $getRoot, createEditor, type LexicalNode } from "lexical";
import { describe, expect, it } from "vitest";
import { $richTextHtml } from "./rich-text-html";

/**
 * The field's HTML export, on a real Lexical editor without a DOM (Lexical runs headless): each
 * case builds a document the way the editor's commands would, and checks the exact string.
 */
function htmlOf(build: () => LexicalNode[]): string {
  const editor = createEditor({
    namespace: "test",
    nodes: [HeadingNode, ListNode, ListItemNode, LinkNode],
    onError: (error) => {
      throw error;
    },
  });
  editor.update(
    () => {
      $getRoot().clear().append(...build());
    },
    { discrete: true },
  );
  return editor.getEditorState().read($richTextHtml);
}

const text = (t: string, ...formats: Array<"bold" | "italic" | "underline" | "code">) => {
  const node = $createTextNode(t);
  for (const f of formats) node.toggleFormat(f);
  return node;
};
const p = (...children: LexicalNode[]) => $createParagraphNode().append(...children);
const li = (...children: LexicalNode[]) => $createListItemNode().append(...children);

describe("$richTextHtml", () => {
  it("is empty for an empty document, and for empty paragraphs", () => {
    expect(htmlOf(() => [p()])).toBe("");
    expect(htmlOf(() => [p(), p($createLineBreakNode()), p(text(""))])).toBe("");
  });

  it("writes paragraphs, headings, bold and italic", () => {
    expect(htmlOf(() => [$createHeadingNode("h2").append(text("Titel")), p(text("a "), text("fett", "bold"), text(" "), text("schräg", "italic"), text(" "), text("beides", "bold", "italic")), $createHeadingNode("h3").append(text("Unter"))])).toBe(
      "<h2>Titel</h2><p>a <strong>fett</strong> <em>schräg</em> <strong><em>beides</em></strong></p><h3>Unter</h3>",
    );
  });

  it("makes h1 an h2 and smaller headings h3", () => {
    expect(htmlOf(() => [$createHeadingNode("h1").append(text("a")), $createHeadingNode("h4").append(text("b")), $createHeadingNode("h6").append(text("c"))])).toBe("<h2>a</h2><h3>b</h3><h3>c</h3>");
  });

  it("drops formats the pages do not keep", () => {
    expect(htmlOf(() => [p(text("u", "underline"), text("c", "code"), text("b", "bold", "underline"))])).toBe("<p>uc<strong>b</strong></p>");
  });

  it("escapes text and addresses", () => {
    expect(htmlOf(() => [p(text(`<script>alert("x")</script> & more`))])).toBe(`<p>&lt;script&gt;alert("x")&lt;/script&gt; &amp; more</p>`);
    expect(htmlOf(() => [p($createLinkNode(`/suche?a=1&b="2"`).append(text("x")))])).toBe(`<p><a href="/suche?a=1&amp;b=&quot;2&quot;">x</a></p>`);
  });

  it("writes line breaks as <br>", () => {
    expect(htmlOf(() => [p(text("eins"), $createLineBreakNode(), text("zwei"))])).toBe("<p>eins<br>zwei</p>");
  });

  it("writes links with allowed addresses and unwraps the others", () => {
    expect(
      htmlOf(() => [
        p(
          $createLinkNode("https://example.org").append(text("web")),
          text(" "),
          $createLinkNode("mailto:a@example.org").append(text("mail", "bold")),
          text(" "),
          $createLinkNode("javascript:alert(1)").append(text("böse")),
          text(" "),
          $createLinkNode("//evil.example").append(text("fremd")),
        ),
      ]),
    ).toBe(`<p><a href="https://example.org">web</a> <a href="mailto:a@example.org"><strong>mail</strong></a> böse fremd</p>`);
  });

  it("writes bulleted and numbered lists, a nested list inside its item, without empty items", () => {
    expect(
      htmlOf(() => {
        const nested = $createListNode("bullet").append(li(text("a.1")));
        return [$createListNode("bullet").append(li(text("a")), li(nested), li(), li(text("b"))), $createListNode("number").append(li(text("eins")))];
      }),
    ).toBe("<ul><li>a<ul><li>a.1</li></ul></li><li>b</li></ul><ol><li>eins</li></ol>");
    expect(htmlOf(() => [$createListNode("bullet").append(li())])).toBe("");
  });
});
