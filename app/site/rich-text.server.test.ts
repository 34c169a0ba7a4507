import { describe, expect, it } from "vitest";
import { markdownToSafeHtml, sanitizeRichText } from "./rich-text.server";

describe("sanitizeRichText", () => {
  it("keeps text formatting and safe links", () => {
    const html = '<h2>Titel</h2><p>Ein <strong>fetter</strong> und <em>kursiver</em> Text mit <a href="/ueber-uns">Link</a>.</p><ul><li>eins</li></ul>';
    expect(sanitizeRichText(html)).toBe(html);
  });

  it("removes scripts, handlers, styles, iframes and dangerous URLs", () => {
    const out = sanitizeRichText(
      '<p onclick="x()" style="color:red">a<script>alert(1)</script></p><img src=x onerror=alert(1)><iframe src="https://evil.example"></iframe>' +
        '<a href="javascript:alert(1)">j</a><a href="//evil.example/x">p</a><svg><script>1</script></svg><style>body{}</style>',
    );
    expect(out).toBe('<p>a</p><a>j</a><a>p</a>');
  });

  it("marks external links noopener and ignores rel from content", () => {
    expect(sanitizeRichText('<a href="https://example.org" rel="opener" target="_blank">x</a>')).toBe('<a href="https://example.org" rel="noopener noreferrer">x</a>');
    expect(sanitizeRichText('<a href="mailto:info@example.org">m</a>')).toBe('<a href="mailto:info@example.org">m</a>');
  });

  it("turns an h1 into an h2: the page title is the only h1", () => {
    expect(sanitizeRichText("<h1>Groß</h1>")).toBe("<h2>Groß</h2>");
  });
});

describe("markdownToSafeHtml", () => {
  it("renders Markdown and sanitises what it produces", () => {
    expect(markdownToSafeHtml("## Hallo\n\n**fett** [Link](https://example.org)")).toBe(
      '<h2>Hallo</h2>\n<p><strong>fett</strong> <a href="https://example.org" rel="noopener noreferrer">Link</a></p>\n',
    );
    expect(markdownToSafeHtml("<script>alert(1)</script>\n\n[x](javascript:alert(1))")).not.toMatch(/script|javascript/);
  });
});
