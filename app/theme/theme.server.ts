/**
 * Turns the CMS theme items (colours, text styles, font styles, icons) into one stylesheet plus
 * lookup tables for the renderer. Bad content never breaks the page: it is dropped or replaced by a
 * default and reported in `warnings`.
 *
 * Everything in `css` is built from validated values only (hex colours, plain family names,
 * same-origin font paths, allow-listed class tokens), so it is safe to inline in a <style> element.
 */
import { createHash } from "node:crypto";
import { validateClassTokens } from "./classes";
import { sanitizeSvg } from "./icons.server";
import { DEFAULT_THEME_SETTINGS, type ThemeSettings, themeVariablesWithWarnings } from "./shades";
import { FONT_ROLES, type FontRole, compileContentCss } from "./tailwind.server";
import { own } from "~/lib/input";

export interface FontFile {
  name?: string;
  weight?: number;
  url?: string;
  type?: string;
}

export interface ThemeInput {
  /** The page's or site's theme settings item data; null uses the default palette. */
  settings: ThemeSettings | null;
  textStyles: Array<{ name: string; twclasses: string }>;
  fontStyles: Array<{ name: string; mission?: string[]; font?: FontFile[] }>;
  icons: Array<{ id: string; name: string; svg: string; critical?: boolean; loading?: boolean }>;
  /** Class tokens found elsewhere in content (block settings etc.). */
  extraClassTokens?: string[];
  /**
   * Optional: every theme settings item, each emitted as `.theme-<id> { --color-*: ... }` so a page
   * can switch theme with a class instead of a second stylesheet.
   */
  themes?: Array<ThemeSettings & { id: string; name?: string }>;
}

export interface ThemeIcon {
  svg: string;
  critical: boolean;
  loading: boolean;
}

export interface ThemeBundle {
  /** :root variables (colours with shades, font roles), .theme-<id> colour overrides, @font-face rules, then the Tailwind utilities. */
  css: string;
  /** Short content hash of `css`, for cache-busting URLs. */
  hash: string;
  /** Text style name -> validated class string. */
  textStyles: Record<string, string>;
  /**
   * Font files to preload: the regular (400, woff2) face of the main and flowing-text fonts. Faces
   * use `font-display: optional` — a font that is not there at first paint is not swapped in later
   * (no layout shift) — so the ones every page shows should be on their way early.
   */
  fontPreloads: string[];
  /** Icon name -> sanitised icon; invalid icons are left out. */
  icons: Record<string, ThemeIcon>;
  warnings: string[];
}

/** Used after the role's family, and alone for a role no font style claims. */
const LAYER_ORDER = "@layer properties, theme, base, components, utilities;";

export const FALLBACK_FONT_STACK = "ui-sans-serif, system-ui, sans-serif";

const FAMILY = /^[\p{L}\p{N}][\p{L}\p{N} _-]{0,99}$/u;
// Same-origin paths only ("//host" is another origin); the character set also keeps url("...") intact.
const LOCAL_URL = /^\/(?!\/)[A-Za-z0-9._~/%-]+$/;
const FORMATS: Record<string, string> = { woff2: "woff2", woff: "woff", ttf: "truetype", truetype: "truetype", otf: "opentype", opentype: "opentype" };

const THEME_ID = /^[A-Za-z0-9_-]{1,100}$/;

const q = JSON.stringify;

function ruleSet(selector: string, variables: Array<[string, string]>): string {
  return `${selector} {\n${variables.map(([name, value]) => `  ${name}: ${value};`).join("\n")}\n}`;
}

function fontFormat(file: FontFile, url: string): string | undefined {
  const type = (file.type ?? "").toLowerCase().replace(/^font\//, "");
  return own(FORMATS, type) ?? own(FORMATS, url.slice(url.lastIndexOf(".") + 1).toLowerCase());
}

/** Roles whose regular face shows on every page at first paint: their files are preloaded. */
const PRELOADED_ROLES: readonly string[] = ["main", "flowingtext"];

function buildFonts(fontStyles: ThemeInput["fontStyles"], warnings: string[]): { faces: string[]; roles: Map<FontRole, string>; preloads: string[] } {
  const faces = new Set<string>();
  const roles = new Map<FontRole, string>();
  const preloads = new Set<string>();
  for (const style of fontStyles) {
    const families = new Set<string>();
    let regular: string | undefined;
    for (const file of style.font ?? []) {
      const family = file.name || style.name;
      const weight = file.weight ?? 400;
      const url = file.url ?? "";
      if (!FAMILY.test(family)) {
        warnings.push(`Font style ${q(style.name)}: invalid family name ${q(family)} ignored`);
      } else if (!Number.isInteger(weight) || weight < 1 || weight > 1000) {
        warnings.push(`Font style ${q(style.name)}: invalid weight ${q(weight)} ignored`);
      } else if (!LOCAL_URL.test(url)) {
        warnings.push(`Font style ${q(style.name)}: font url ${q(url)} is not a same-origin path, ignored`);
      } else {
        const format = fontFormat(file, url);
        const src = `url(${q(url)})${format ? ` format(${q(format)})` : ""}`;
        faces.add(`@font-face {\n  font-family: ${q(family)};\n  font-style: normal;\n  font-weight: ${weight};\n  font-display: optional;\n  src: ${src};\n}`);
        families.add(family);
        if (weight === 400 && format === "woff2") regular ??= url;
      }
    }
    if (families.size === 0 && FAMILY.test(style.name)) families.add(style.name);
    if (families.size === 0) continue;
    if (regular && (style.mission ?? []).some((m) => PRELOADED_ROLES.includes(m))) preloads.add(regular);
    const stack = [...families].map((f) => q(f)).join(", ") + ", " + FALLBACK_FONT_STACK;
    for (const mission of style.mission ?? []) {
      if (!(FONT_ROLES as readonly string[]).includes(mission)) {
        warnings.push(`Font style ${q(style.name)}: unknown mission ${q(mission)} ignored`);
      } else if (roles.has(mission as FontRole)) {
        warnings.push(`Font style ${q(style.name)}: mission ${q(mission)} is already taken, ignored`);
      } else {
        roles.set(mission as FontRole, stack);
      }
    }
  }
  return { faces: [...faces], roles, preloads: [...preloads] };
}

export async function buildTheme(input: ThemeInput): Promise<ThemeBundle> {
  const colors = themeVariablesWithWarnings(input.settings ?? DEFAULT_THEME_SETTINGS);
  const warnings = [...colors.warnings];

  // Maps + Object.fromEntries: content names such as "__proto__" stay plain keys.
  const textStyles = new Map<string, string>();
  const tokens = new Set<string>();
  for (const style of input.textStyles) {
    if (textStyles.has(style.name)) {
      warnings.push(`Text style ${q(style.name)} is defined twice, the second one is ignored`);
      continue;
    }
    const { valid, invalid } = validateClassTokens(typeof style.twclasses === "string" ? style.twclasses : "");
    if (invalid.length) warnings.push(`Text style ${q(style.name)}: invalid class tokens ignored: ${invalid.map((t) => q(t)).join(" ")}`);
    textStyles.set(style.name, valid.join(" "));
    for (const token of valid) tokens.add(token);
  }
  const extra = validateClassTokens((input.extraClassTokens ?? []).join(" "));
  if (extra.invalid.length) warnings.push(`Invalid class tokens in content ignored: ${extra.invalid.map((t) => q(t)).join(" ")}`);
  for (const token of extra.valid) tokens.add(token);

  const fonts = buildFonts(input.fontStyles, warnings);

  const icons = new Map<string, ThemeIcon>();
  for (const icon of input.icons) {
    if (icons.has(icon.name)) {
      warnings.push(`Icon ${q(icon.name)} (${icon.id}) is defined twice, the second one is ignored`);
      continue;
    }
    const svg = typeof icon.svg === "string" ? sanitizeSvg(icon.svg) : null;
    if (svg === null) warnings.push(`Icon ${q(icon.name)} (${icon.id}) dropped: no valid SVG left after sanitising`);
    else icons.set(icon.name, { svg, critical: icon.critical === true, loading: icon.loading === true });
  }

  const themes: string[] = [];
  for (const theme of input.themes ?? []) {
    if (!THEME_ID.test(theme.id)) {
      warnings.push(`Theme ${q(theme.name ?? theme.id)}: invalid id ${q(theme.id)}, theme ignored`);
      continue;
    }
    const scoped = themeVariablesWithWarnings(theme);
    for (const warning of scoped.warnings) warnings.push(`Theme ${q(theme.name ?? theme.id)} (${theme.id}): ${warning}`);
    themes.push(ruleSet(`.theme-${theme.id}`, Object.entries(scoped.variables)));
  }

  const root = ruleSet(":root", [
    ...Object.entries(colors.variables),
    ...FONT_ROLES.map((role): [string, string] => [`--font-${role}`, fonts.roles.get(role) ?? FALLBACK_FONT_STACK]),
  ]);
  const utilities = await compileContentCss([...tokens]);
  // :root and .theme-* are unlayered, so they win over Tailwind's layered defaults (e.g. its own --color-black).
  // This sheet may load before the app's own Tailwind CSS: declare Tailwind's layer order first, or the
  // app's later `base` layer (preflight) would outrank these utilities.
  const css = [LAYER_ORDER, root, ...themes, ...fonts.faces, utilities].join("\n\n");

  return {
    css,
    hash: createHash("sha256").update(css).digest("hex").slice(0, 12),
    textStyles: Object.fromEntries(textStyles),
    fontPreloads: fonts.preloads,
    icons: Object.fromEntries(icons),
    warnings,
  };
}
