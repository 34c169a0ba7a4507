/**
 * Icons are SVG markup typed into the CMS and inlined into every page, so they go through an
 * allow-list sanitiser: only drawing elements and presentation attributes survive.
 */
import sanitizeHtml from "sanitize-html";

const SHAPES = ["path", "circle", "rect", "line", "polyline", "polygon", "ellipse", "stop", "use"];
const ELEMENTS = ["svg", "g", "title", "desc", "defs", "linearGradient", "radialGradient", "clipPath", ...SHAPES];

const COMMON = [
  "id", "class", "fill", "fill-rule", "fill-opacity", "clip-rule", "clip-path", "opacity", "transform",
  "stroke", "stroke-*", "aria-hidden", "aria-label", "role", "focusable",
];

const ATTRIBUTES: Record<string, string[]> = {
  "*": COMMON,
  svg: ["xmlns", "xmlns:xlink", "viewBox", "width", "height", "preserveAspectRatio"],
  path: ["d"],
  circle: ["cx", "cy", "r"],
  ellipse: ["cx", "cy", "rx", "ry"],
  rect: ["x", "y", "width", "height", "rx", "ry"],
  line: ["x1", "y1", "x2", "y2"],
  polyline: ["points"],
  polygon: ["points"],
  use: ["href", "xlink:href", "x", "y", "width", "height"],
  linearGradient: ["x1", "y1", "x2", "y2", "gradientUnits", "gradientTransform", "spreadMethod", "href", "xlink:href"],
  radialGradient: ["cx", "cy", "r", "fx", "fy", "gradientUnits", "gradientTransform", "spreadMethod", "href", "xlink:href"],
  stop: ["offset", "stop-color", "stop-opacity"],
  clipPath: ["clipPathUnits"],
};

const LOCAL_REF = /^#[A-Za-z][\w.-]*$/;
const LOCAL_URL = /^url\(\s*#[A-Za-z][\w.-]*\s*\)$/;

/** Links may only point inside the icon itself: `href="#id"`, `fill="url(#id)"`. */
function keepLocalReferences(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const kept: sanitizeHtml.Attributes = {};
  for (const [name, value] of Object.entries(attribs)) {
    if (/^(?:xlink:)?href$/i.test(name) && !LOCAL_REF.test(value.trim())) continue;
    if (/url\s*\(/i.test(value) && !LOCAL_URL.test(value.trim())) continue;
    kept[name] = value;
  }
  return { tagName, attribs: kept };
}

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ELEMENTS,
  allowedAttributes: ATTRIBUTES,
  // Drops the text inside refused elements too (script, style, foreignObject ...).
  disallowedTagsMode: "completelyDiscard",
  transformTags: { "*": keepLocalReferences },
  exclusiveFilter: (frame) => frame.tag === "use" && !frame.attribs.href && !frame.attribs["xlink:href"],
  selfClosing: SHAPES,
  // SVG is case-sensitive (viewBox, linearGradient); self-closing shapes must not swallow their siblings.
  parser: { lowerCaseTags: false, lowerCaseAttributeNames: false, recognizeSelfClosing: true },
};

export const MAX_SVG_LENGTH = 100_000;

/** The sanitised `<svg>`, or null when the input is not an SVG icon or nothing drawable remains. */
export function sanitizeSvg(svg: string): string | null {
  if (svg.length > MAX_SVG_LENGTH) return null;
  const clean = sanitizeHtml(svg, OPTIONS).trim();
  const drawable = new RegExp(`<(?:${SHAPES.filter((s) => s !== "stop").join("|")})[\\s/>]`);
  if (!/^<svg[\s>][\s\S]*<\/svg>$/.test(clean) || !drawable.test(clean)) return null;
  return clean;
}
