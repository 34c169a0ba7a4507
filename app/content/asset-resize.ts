import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { badRequest } from "./errors";
import type { Asset } from "./types";

/**
 * Squidex's image options on asset content (`api/assets/{app}/{id}?width=&height=&mode=&quality=&format=`),
 * checked, bounded and turned into one resized file per distinct choice, kept beside the original.
 *
 * Hostile input is bounded three ways: sizes up to MAX_SIDE and MAX_PIXELS, at most
 * MAX_VARIANTS kept files per asset (a new choice beyond them is made but not kept), and one resize
 * at a time on this node (the rest wait their turn instead of taking every core).
 */
export const MAX_SIDE = 4096;
const MAX_PIXELS = 16_000_000;
const MAX_VARIANTS = 64;
const RESIZABLE = new Set(["image/png", "image/jpeg", "image/webp", "image/avif", "image/gif"]);

/** Squidex's resize modes and what each is in sharp's words. */
const MODES = { crop: "cover", cropupsize: "cover", pad: "contain", boxpad: "contain", max: "inside", min: "outside", stretch: "fill" } as const;
type Mode = keyof typeof MODES;
const FORMATS = { jpeg: "image/jpeg", jpg: "image/jpeg", png: "image/png", webp: "image/webp", avif: "image/avif", gif: "image/gif" } as const;
type Format = keyof typeof FORMATS;

export interface ImageOptions {
  width?: number;
  height?: number;
  mode: Mode;
  quality?: number;
  format?: Format;
}

function whole(params: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const raw = params.get(name);
  if (raw === null || raw === "") return undefined;
  if (!/^\d{1,6}$/.test(raw) || Number(raw) < min || Number(raw) > max) throw badRequest(`${name} must be a whole number from ${min} to ${max}.`);
  return Number(raw);
}

/** The image options of a query string; null when it asks for none (the file as stored). */
export function imageOptions(params: URLSearchParams): ImageOptions | null {
  const width = whole(params, "width", 1, MAX_SIDE);
  const height = whole(params, "height", 1, MAX_SIDE);
  const quality = whole(params, "quality", 1, 100);
  const modeRaw = params.get("mode")?.toLowerCase();
  if (modeRaw && !(modeRaw in MODES)) throw badRequest(`mode must be one of Crop, CropUpsize, Pad, BoxPad, Max, Min, Stretch.`);
  const formatRaw = params.get("format")?.toLowerCase();
  if (formatRaw && !(formatRaw in FORMATS)) throw badRequest(`format must be one of JPEG, PNG, WEBP, AVIF, GIF.`);
  if (width === undefined && height === undefined && quality === undefined && !formatRaw) return null;
  if ((width ?? 1) * (height ?? 1) > MAX_PIXELS) throw badRequest(`width × height may be at most ${MAX_PIXELS.toLocaleString("en")} pixels.`);
  return { width, height, mode: (modeRaw as Mode | undefined) ?? "crop", quality, format: formatRaw as Format | undefined };
}

let queue: Promise<unknown> = Promise.resolve();
/** One resize at a time on this node. */
function inTurn<T>(job: () => Promise<T>): Promise<T> {
  const run = queue.then(job, job);
  queue = run.catch(() => {});
  return run;
}

/**
 * The file to send for these options: the original when the asset is no resizable image (an SVG,
 * a PDF: Squidex sends those as they are), else a resized copy, made once and kept (up to
 * MAX_VARIANTS per asset). Resolves to the file, its type and whether it is to be removed after
 * sending (a copy beyond the limit).
 */
export async function resizedFile(asset: Asset, original: string, opts: ImageOptions): Promise<{ file: string; mimeType: string; temporary: boolean }> {
  if (!RESIZABLE.has(asset.mimeType)) return { file: original, mimeType: asset.mimeType, temporary: false };
  const mimeType = opts.format ? FORMATS[opts.format] : asset.mimeType;
  const key = createHash("sha256").update(JSON.stringify([opts.width, opts.height, opts.mode, opts.quality, mimeType])).digest("hex").slice(0, 16);
  const kept = `${original}-r-${key}`;
  if (fs.existsSync(kept)) return { file: kept, mimeType, temporary: false };
  return inTurn(async () => {
    if (fs.existsSync(kept)) return { file: kept, mimeType, temporary: false };
    const siblings = (await fsp.readdir(path.dirname(original))).filter((f) => f.startsWith(`${path.basename(original)}-r-`) && !f.endsWith(".tmp")).length;
    const keep = siblings < MAX_VARIANTS;
    const target = keep ? kept : `${original}-t-${randomUUID()}`;
    const tmp = `${target}.${randomUUID()}.tmp`;
    const { default: sharp } = await import("sharp");
    let image = sharp(original, { limitInputPixels: 100_000_000, animated: false });
    if (opts.width !== undefined || opts.height !== undefined) {
      image = image.resize({
        width: opts.width,
        height: opts.height,
        fit: MODES[opts.mode],
        withoutEnlargement: opts.mode !== "cropupsize" && opts.mode !== "stretch",
        background: { r: 255, g: 255, b: 255, alpha: opts.mode === "boxpad" || opts.mode === "pad" ? 0 : 1 },
      });
    }
    const quality = opts.quality;
    const format = mimeType.slice("image/".length) as "jpeg" | "png" | "webp" | "avif" | "gif";
    image = image.toFormat(format, quality === undefined ? {} : { quality });
    await image.toFile(tmp);
    await fsp.chmod(tmp, 0o600);
    await fsp.rename(tmp, target);
    return { file: target, mimeType, temporary: !keep };
  });
}
