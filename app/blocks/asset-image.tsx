import { preload } from "react-dom";
import type { AssetInfo } from "./types";

/** A subset of the asset variant widths (app/content/assets.ts), enough steps for phones to desktops. */
const SRCSET_WIDTHS = [480, 960, 1440];


export function AssetImage({ asset, alt, eager, className }: { asset: AssetInfo | undefined; alt: string; eager: boolean; className?: string }) {
  if (!asset) return null;
  const raster = !asset.mimeType.includes("svg") && asset.width;
  // Raster images get resized variants; SVGs scale by themselves.
  const srcSet = raster ? SRCSET_WIDTHS.filter((w) => w < asset.width!).map((w) => `${asset.url}?width=${w} ${w}w`).concat(`${asset.url} ${asset.width}w`).join(", ") : undefined;
  const sizes = srcSet ? "(min-width: 1024px) 1024px, 100vw" : undefined;
  // An image shown at first paint (a hero's: the likely LCP element) is asked for from <head> on.
  if (eager) preload(asset.url, { as: "image", imageSrcSet: srcSet, imageSizes: sizes, fetchPriority: "high" });
  return (
    <img
      src={asset.url}
      srcSet={srcSet}
      sizes={sizes}
      alt={alt}
      width={asset.width}
      height={asset.height}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
      fetchPriority={eager ? "high" : undefined}
      className={className}
    />
  );
}
