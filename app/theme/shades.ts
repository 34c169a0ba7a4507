/**
 * Theme colours and their shades. Shared by browser and server (no Node APIs).
 *
 * CSS variable naming (see `themeVariables`), for each role
 * main, support, accent, neutral, black, white:
 *
 *   --color-<role>       the colour itself, normalised to lowercase `#rrggbb`
 *   --color-<role>-<n>   n percentage points lighter (n = 6, 12, 18)
 *   --color-<role>--<n>  n percentage points darker (the second `-` is the minus sign of the step)
 *
 * i.e. `--color-<role>-<step>` for every step of SHADE_STEPS. The content CSS maps them to
 * Tailwind colours, so `bg-main`, `text-accent-12` and `border-main--6` work.
 */

export const BAD_HEX = "Bad Hex";

export const SHADE_STEPS = [-18, -12, -6, 6, 12, 18] as const;

export const THEME_ROLES = ["main", "support", "accent", "neutral", "black", "white"] as const;
export type ThemeRole = (typeof THEME_ROLES)[number];

export interface ThemeSettings {
  colorMain: string;
  colorSupport: string;
  colorAccent: string;
  colorNeutral: string;
  colorBlack: string;
  colorWhite: string;
}

/** Used for any colour that is missing or not a valid hex value (the demo "Standard" theme). */
export const DEFAULT_THEME_SETTINGS: Readonly<ThemeSettings> = {
  colorMain: "#0f5e63",
  colorSupport: "#8fb3a0",
  colorAccent: "#e9785d",
  colorNeutral: "#f3ede4",
  colorBlack: "#1f2328",
  colorWhite: "#ffffff",
};

/**
 * 3 or 6 hex digits after `#`, written so FormKit's `matches` rule can take the same pattern (it
 * takes no flags and splits at `,` and `|`): the admin's colour forms use this very string.
 */
export const HEX_PATTERN = "^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$";
const HEX = new RegExp(HEX_PATTERN);

// Typed `unknown` because content values arrive unchecked from the CMS.
export function isHexColor(v: unknown): v is string {
  return typeof v === "string" && HEX.test(v);
}

/** The spec's theme-colour rule: `null` when valid, else the error "Bad Hex". */
export function validateHex(v: unknown): string | null {
  return isHexColor(v) ? null : BAD_HEX;
}

function toRgb(hex: string): [number, number, number] {
  if (!isHexColor(hex)) throw new Error(`${BAD_HEX}: ${JSON.stringify(hex)}`);
  const digits = hex.length === 4 ? [...hex.slice(1)].map((d) => d + d).join("") : hex.slice(1);
  return [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16)) as [number, number, number];
}

function toHex(rgb: number[]): string {
  return "#" + rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("");
}

/** `#abc` / `#AABBCC` -> `#aabbcc`. Throws on bad hex. */
export function normalizeHex(hex: string): string {
  return toHex(toRgb(hex));
}

/** HSL with h in turns (0..1), s and l in 0..1. */
function rgbToHsl([r, g, b]: number[]): [number, number, number] {
  const [rn, gn, bn] = [r! / 255, g! / 255, b! / 255];
  const max = Math.max(rn, gn, bn);
  const min = Math.min(rn, gn, bn);
  const l = (max + min) / 2;
  const d = max - min;
  if (d === 0) return [0, 0, l];
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === rn ? (gn - bn) / d + (gn < bn ? 6 : 0) : max === gn ? (bn - rn) / d + 2 : (rn - gn) / d + 4;
  return [h / 6, s, l];
}

function hslToRgb(h: number, s: number, l: number): number[] {
  if (s === 0) return [l * 255, l * 255, l * 255];
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t: number): number => {
    const tt = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    if (tt < 1 / 6) return p + (q - p) * 6 * tt;
    if (tt < 1 / 2) return q;
    if (tt < 2 / 3) return p + (q - p) * (2 / 3 - tt) * 6;
    return p;
  };
  return [channel(h + 1 / 3), channel(h), channel(h - 1 / 3)].map((c) => c * 255);
}

/** Adds `percent` percentage points of HSL lightness (clamped to 0..100). Throws on bad hex. */
export function shade(hex: string, percent: number): string {
  const [h, s, l] = rgbToHsl(toRgb(hex));
  const lightness = Math.min(1, Math.max(0, l + percent / 100));
  return toHex(hslToRgb(h, s, lightness));
}

const SETTING_KEYS: Record<ThemeRole, keyof ThemeSettings> = {
  main: "colorMain",
  support: "colorSupport",
  accent: "colorAccent",
  neutral: "colorNeutral",
  black: "colorBlack",
  white: "colorWhite",
};

/** Custom properties for all roles and shades; bad colours fall back to the default palette and are reported. */
export function themeVariablesWithWarnings(settings: ThemeSettings): { variables: Record<string, string>; warnings: string[] } {
  const variables: Record<string, string> = {};
  const warnings: string[] = [];
  for (const role of THEME_ROLES) {
    const key = SETTING_KEYS[role];
    const value: unknown = settings[key];
    let base = DEFAULT_THEME_SETTINGS[key];
    if (isHexColor(value)) {
      base = normalizeHex(value);
    } else {
      warnings.push(`${BAD_HEX}: ${key} ${JSON.stringify(value ?? null)}, using ${base}`);
    }
    variables[`--color-${role}`] = base;
    for (const step of SHADE_STEPS) variables[`--color-${role}-${step}`] = shade(base, step);
  }
  return { variables, warnings };
}

export function themeVariables(settings: ThemeSettings): Record<string, string> {
  return themeVariablesWithWarnings(settings).variables;
}
