import type { Language } from "~/i18n/languages";

/** The icon sizes of the manifest (any purpose), and the maskable one. */
export const ICON_SIZES = [192, 512] as const;
export const MASKABLE_SIZE = 512;

export interface ManifestInput {
  language: Language;
  siteName: string;
  description: string;
  themeColor: string;
  backgroundColor: string;
}

/** The web app manifest in one language: the site opens at that language's home, in its own window. */
export function webManifest(input: ManifestInput) {
  const start = input.language === "de" ? "/" : `/${input.language}`;
  return {
    id: start,
    name: input.siteName,
    short_name: input.siteName.length > 12 ? input.siteName.slice(0, 12).trim() : input.siteName,
    description: input.description,
    lang: input.language,
    dir: "ltr",
    start_url: start,
    scope: "/",
    display: "standalone",
    theme_color: input.themeColor,
    background_color: input.backgroundColor,
    icons: [
      ...ICON_SIZES.map((size) => ({ src: `/pwa/icons/icon-${size}.png`, sizes: `${size}x${size}`, type: "image/png", purpose: "any" })),
      { src: `/pwa/icons/maskable-${MASKABLE_SIZE}.png`, sizes: `${MASKABLE_SIZE}x${MASKABLE_SIZE}`, type: "image/png", purpose: "maskable" },
    ],
  };
}

/** The main and white colours of a theme stylesheet's `:root` (the site's default theme); fallbacks when missing. */
export function themeColors(css: string): { main: string; white: string } {
  const root = /:root\s*\{([^}]*)\}/.exec(css)?.[1] ?? "";
  const pick = (name: string, fallback: string) => new RegExp(`--color-${name}\\s*:\\s*(#[0-9a-fA-F]{3,8})\\s*[;}]?`).exec(root)?.[1] ?? fallback;
  return { main: pick("main", "#0f5e63"), white: pick("white", "#ffffff") };
}

/** Which icon a file name asks for, or null (a 404). */
export function parseIconName(file: string): { size: number; maskable: boolean } | null {
  const m = /^(icon|maskable)-(\d{2,4})\.png$/.exec(file);
  if (!m) return null;
  const size = Number(m[2]);
  const maskable = m[1] === "maskable";
  if (maskable ? size !== MASKABLE_SIZE : !(ICON_SIZES as readonly number[]).includes(size)) return null;
  return { size, maskable };
}
