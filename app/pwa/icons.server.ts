import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";

/** Made once per logo, size and background; a theme change makes new ones (the key has the colour). */
const made = new Map<string, Promise<Buffer>>();

/** The site's SVG logo (the favicon of the build, or of `public/` in development). */
async function logo(): Promise<Buffer> {
  const dirs = [path.join(process.env.BUILD_DIR || "build", "client"), "public"];
  for (const dir of dirs) {
    try {
      return await fs.readFile(path.resolve(dir, "favicon.svg"));
    } catch {}
  }
  throw new Error("favicon.svg not found");
}

/**
 * A PNG app icon from the logo. Maskable icons put the logo inside the safe zone (the middle 80 %)
 * on the theme colour, so a launcher's circle or squircle never cuts it.
 */
export function appIcon(size: number, maskable: boolean, background: string): Promise<Buffer> {
  const key = `${size}:${maskable}:${background}`;
  let icon = made.get(key);
  if (!icon) {
    icon = (async () => {
      const svg = await logo();
      if (!maskable) return sharp(svg, { density: 72 * (size / 32) }).resize(size, size).png().toBuffer();
      const inner = Math.round(size * 0.6);
      const mark = await sharp(svg, { density: 72 * (inner / 32) }).resize(inner, inner).png().toBuffer();
      return sharp({ create: { width: size, height: size, channels: 4, background } })
        .composite([{ input: mark, gravity: "centre" }])
        .png()
        .toBuffer();
    })();
    icon.catch(() => made.delete(key));
    made.set(key, icon);
  }
  return icon;
}
