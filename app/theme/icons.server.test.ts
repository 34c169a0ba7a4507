import { describe, expect, it } from "vitest";
import { iconItems } from "~/content/seed/theme";
import { sanitizeSvg } from "./icons.server";

const OPEN = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2">';
const wrap = (body: string): string => `${OPEN}${body}</svg>`;
const PATH = '<path d="M5 12h14" />';

describe("sanitizeSvg", () => {
  it("passes a clean icon through unchanged in meaning, keeping SVG's camelCase", () => {
    const icon = wrap('<path d="M5 19C5 11 10 5 19 5c0 9-6 14-14 14z"/><circle cx="12" cy="10" r="2.2"/><rect x="4" y="5" width="16" height="15" rx="2"/>');
    expect(sanitizeSvg(icon)).toBe(
      wrap('<path d="M5 19C5 11 10 5 19 5c0 9-6 14-14 14z" /><circle cx="12" cy="10" r="2.2" /><rect x="4" y="5" width="16" height="15" rx="2" />'),
    );
  });

  it("keeps every demo icon, with all its drawing elements", () => {
    for (const item of iconItems) {
      const svg = (item.data.svg as { iv: string }).iv;
      const clean = sanitizeSvg(svg);
      expect(clean, item.id).not.toBeNull();
      const count = (s: string): number => (s.match(/<(path|circle|rect)\b/g) ?? []).length;
      expect(count(clean!), item.id).toBe(count(svg));
      expect(clean).toContain('viewBox="0 0 24 24"');
    }
  });

  it("keeps gradients, clip paths and local references", () => {
    const icon = wrap(
      '<defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#fff" /></linearGradient>' +
        '<clipPath id="c"><rect width="24" height="24" /></clipPath></defs>' +
        '<path id="p" d="M0 0h24" fill="url(#g)" clip-path="url(#c)" /><use href="#p" y="2" />',
    );
    expect(sanitizeSvg(icon)).toBe(icon);
  });

  it("removes scripts, styles and their content", () => {
    const clean = sanitizeSvg(wrap(`<script>alert(1)</script><style>*{display:none}</style><SCRIPT>alert(2)</SCRIPT>${PATH}`));
    expect(clean).toBe(wrap(PATH));
  });

  it("removes event handlers in any case", () => {
    const clean = sanitizeSvg(
      '<svg viewBox="0 0 24 24" onload="alert(1)" ONLOAD="alert(2)"><path d="M0 0" onclick="alert(3)" onMouseOver="alert(4)" /></svg>',
    );
    expect(clean).toBe('<svg viewBox="0 0 24 24"><path d="M0 0" /></svg>');
  });

  it("removes javascript: and external links, also entity-encoded", () => {
    const clean = sanitizeSvg(
      wrap(
        '<a href="javascript:alert(1)"><path d="M1 1" /></a>' +
          '<use href="javascript:alert(1)" /><use xlink:href="https://evil.example/sprite.svg#x" /><use href="//evil.example/s.svg#x" />' +
          '<use href="java&#115;cript:alert(1)" /><path d="M2 2" fill="url(https://evil.example/x.svg#g)" />' +
          '<path d="M3 3" fill="u&#114;l(https://evil.example/x)" />',
      ),
    );
    expect(clean).toBe(wrap('<path d="M1 1" /><path d="M2 2" /><path d="M3 3" />'));
  });

  it("removes foreignObject with the HTML inside it", () => {
    const clean = sanitizeSvg(
      wrap(`<foreignObject width="24" height="24"><div xmlns="http://www.w3.org/1999/xhtml">hi<img src="x" onerror="alert(1)"><iframe src="https://evil.example"></iframe></div></foreignObject>${PATH}`),
    );
    expect(clean).toBe(wrap(PATH));
  });

  it("drops style attributes, comments and XML prologs", () => {
    const clean = sanitizeSvg(`<?xml version="1.0"?><!-- x --><svg viewBox="0 0 24 24" style="background:url(https://evil.example)">${PATH}</svg>`);
    expect(clean).toBe(`<svg viewBox="0 0 24 24">${PATH}</svg>`);
  });

  it("returns null when nothing valid remains", () => {
    expect(sanitizeSvg("")).toBeNull();
    expect(sanitizeSvg("<script>alert(1)</script>")).toBeNull();
    expect(sanitizeSvg(wrap("<script>alert(1)</script>"))).toBeNull();
    expect(sanitizeSvg(wrap("<foreignObject><div>hi</div></foreignObject>"))).toBeNull();
    expect(sanitizeSvg(PATH)).toBeNull(); // no <svg> root
    expect(sanitizeSvg('<img src="x" onerror="alert(1)">')).toBeNull();
    expect(sanitizeSvg(wrap(PATH.repeat(10_000)))).toBeNull(); // over the size limit
  });
});
