/**
 * Generates CSS for class tokens that come from content (text styles, block settings), which the
 * build-time Tailwind scan of the source files cannot see.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { isValidClassToken } from "./classes";
import { SHADE_STEPS, THEME_ROLES } from "./shades";

export const FONT_ROLES = ["main", "support", "navbar", "flowingtext"] as const;
export type FontRole = (typeof FONT_ROLES)[number];

// `inline reference`: utilities use `var(--color-main)` etc. directly and Tailwind emits no
// variable of its own (it would be a self-reference); the values come from the theme bundle's :root.
const themeColors = THEME_ROLES.flatMap((role) =>
  [`--color-${role}`, ...SHADE_STEPS.map((step) => `--color-${role}-${step}`)].map((name) => `  ${name}: var(${name});`),
);
const fontRoles = FONT_ROLES.map((role) => `  --font-${role}: var(--font-${role});`);

const INPUT_CSS = `@import "tailwindcss/theme.css" layer(theme);
@import "tailwindcss/utilities.css" layer(utilities);
@theme {
  --font-sans: "Source Sans 3", ui-sans-serif, system-ui, sans-serif;
  --font-serif: "Literata", ui-serif, Georgia, serif;
}
@theme inline reference {
${[...themeColors, ...fontRoles].join("\n")}
}
`;

// Resolved from the installed package rather than process.cwd(), so the server may be started
// from any directory; the project root is where `@import "tailwindcss/..."` resolves.
const PROJECT_ROOT = path.resolve(path.dirname(createRequire(import.meta.url).resolve("tailwindcss/package.json")), "../..");

const CACHE_LIMIT = 100;
const cache = new Map<string, Promise<string>>();

async function generate(tokens: string[]): Promise<string> {
  // Loaded when CSS is first compiled, not at start (it and its CSS tools take ~0.3 s to load).
  const { compile, optimize } = await import("@tailwindcss/node");
  // A compiler accumulates every candidate it has built, so each token set gets a fresh one.
  const compiler = await compile(INPUT_CSS, { base: PROJECT_ROOT, onDependency: () => {} });
  // Lightning CSS un-nests the rules (e.g. @media inside a rule) for older browsers, as the Vite build does.
  return optimize(compiler.build(tokens)).code;
}

/** CSS for exactly the valid tokens among `tokens` (invalid ones are ignored), cached by the token set. */
export function compileContentCss(tokens: string[]): Promise<string> {
  const sorted = [...new Set(tokens.filter(isValidClassToken))].sort();
  const key = sorted.join(" ");
  let css = cache.get(key);
  if (css === undefined) {
    css = generate(sorted);
    css.catch(() => cache.delete(key));
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(key, css);
  }
  return css;
}
