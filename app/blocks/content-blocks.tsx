import { lazy, Suspense } from "react";
import { Icon } from "~/site/icon";
import { useSite, useTextStyle } from "~/site/site-context";
import { SmartLink } from "~/site/smart-link";
import { MapConsentPlaceholder } from "~/maps/map-consent";
import { BlockSection, text } from "./block-section";
import type { AssetInfo, BlockProps } from "./types";
import { own } from "~/lib/input";

const MapView = lazy(() => import("~/maps/map-view"));

/** A subset of the asset variant widths (app/content/assets.ts), enough steps for phones to desktops. */
const SRCSET_WIDTHS = [480, 960, 1440];


function AssetImage({ asset, alt, eager, className }: { asset: AssetInfo | undefined; alt: string; eager: boolean; className?: string }) {
  if (!asset) return null;
  const raster = !asset.mimeType.includes("svg") && asset.width;
  // Raster images get resized variants; SVGs scale by themselves.
  const srcSet = raster ? SRCSET_WIDTHS.filter((w) => w < asset.width!).map((w) => `${asset.url}?width=${w} ${w}w`).concat(`${asset.url} ${asset.width}w`).join(", ") : undefined;
  return (
    <img
      src={asset.url}
      srcSet={srcSet}
      sizes={srcSet ? "(min-width: 1024px) 1024px, 100vw" : undefined}
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

export function HeroBlock({ block, data, index }: BlockProps) {
  const heading = useTextStyle("heading-1", "text-4xl font-bold");
  const lead = useTextStyle("lead", "text-lg");
  const image = (block.image as string[] | undefined)?.[0];
  return (
    <section className="bg-[var(--color-neutral,#f3ede4)]">
      <div className="mx-auto grid max-w-6xl items-center gap-8 px-4 py-12 md:grid-cols-2">
        <div>
          {/* A hero that opens the page carries the page's one h1. */}
          {index === 0 ? <h1 className={`${heading} text-[var(--color-main,#0f5e63)]`}>{text(block.heading)}</h1> : <h2 className={heading}>{text(block.heading)}</h2>}
          {block.text ? <p className={`mt-4 ${lead}`}>{text(block.text)}</p> : null}
          {block.ctaLabel && block.ctaLink ? (
            <SmartLink href={text(block.ctaLink)} className="mt-6 inline-block rounded bg-[var(--color-main,#0f5e63)] px-5 py-3 font-semibold text-white hover:bg-[var(--color-main--12,#0a4548)]">
              {text(block.ctaLabel)}
            </SmartLink>
          ) : null}
        </div>
        {image ? <AssetImage asset={own(data.assets, image)} alt="" eager={index < 2} className="h-auto w-full rounded-lg" /> : null}
      </div>
    </section>
  );
}

export function RichTextBlock({ block }: BlockProps) {
  // Sanitised on the server before it reached this component.
  return (
    <section className="mx-auto max-w-3xl px-4 py-8">
      <div className="prose-content space-y-4 leading-relaxed [&_a]:underline [&_h2]:mt-8 [&_h2]:text-2xl [&_h2]:font-semibold [&_h3]:text-xl [&_h3]:font-semibold [&_ol]:list-decimal [&_ol]:pl-6 [&_ul]:list-disc [&_ul]:pl-6" dangerouslySetInnerHTML={{ __html: text(block.html) }} />
    </section>
  );
}

export function ImageBlock({ block, data, index }: BlockProps) {
  const image = (block.image as string[] | undefined)?.[0];
  return (
    <figure className="mx-auto max-w-5xl px-4 py-8">
      <AssetImage asset={image ? own(data.assets, image) : undefined} alt={text(block.alt)} eager={index < 2} className="h-auto w-full rounded-lg" />
      {block.caption ? <figcaption className="mt-2 text-sm text-black/80">{text(block.caption)}</figcaption> : null}
    </figure>
  );
}

export function ColumnsBlock({ block }: BlockProps) {
  const columns = (block.columns as Array<{ heading?: string; text?: string; icon?: string }> | undefined) ?? [];
  const heading = useTextStyle("heading-3", "text-xl font-semibold");
  return (
    <section className="mx-auto max-w-6xl px-4 py-10">
      <div className="grid gap-8 md:grid-cols-3">
        {columns.map((c, i) => (
          <div key={i} className="rounded-lg border border-black/10 p-6">
            {c.icon ? <Icon name={c.icon} className="size-8 text-[var(--color-accent,#e9785d)]" /> : null}
            <h3 className={`mt-3 ${heading}`}>{c.heading}</h3>
            <p className="mt-2">{c.text}</p>
          </div>
        ))}
      </div>
    </section>
  );
}

export function CtaBlock({ block }: BlockProps) {
  const heading = useTextStyle("heading-2", "text-3xl font-semibold");
  return (
    <section className="bg-[var(--color-main,#0f5e63)] text-white">
      <div className="mx-auto flex max-w-6xl flex-col items-start gap-4 px-4 py-12 md:flex-row md:items-center md:justify-between">
        <div>
          <h2 className={heading}>{text(block.heading)}</h2>
          {block.text ? <p className="mt-2">{text(block.text)}</p> : null}
        </div>
        <SmartLink href={text(block.link)} className="rounded bg-white px-5 py-3 font-semibold text-[var(--color-main,#0f5e63)]">
          {text(block.label)}
        </SmartLink>
      </div>
    </section>
  );
}

export function AccordionBlock({ block }: BlockProps) {
  const items = (block.items as Array<{ question: string; answer: string }> | undefined) ?? [];
  return (
    <BlockSection heading={text(block.heading)}>
      <div className="divide-y divide-black/10 rounded-lg border border-black/10">
        {items.map((item, i) => (
          <details key={i} className="group p-4">
            <summary className="cursor-pointer font-semibold">{item.question}</summary>
            <p className="mt-2 whitespace-pre-line">{item.answer}</p>
          </details>
        ))}
      </div>
    </BlockSection>
  );
}

export function IconListBlock({ block }: BlockProps) {
  const items = (block.items as Array<{ icon?: string; text?: string }> | undefined) ?? [];
  return (
    <BlockSection heading={text(block.heading)}>
      <ul className="space-y-3">
        {items.map((item, i) => (
          <li key={i} className="flex items-start gap-3">
            {item.icon ? <Icon name={item.icon} className="mt-0.5 size-6 text-[var(--color-main,#0f5e63)]" /> : null}
            <span>{item.text}</span>
          </li>
        ))}
      </ul>
    </BlockSection>
  );
}

export function MapBlock({ block }: BlockProps) {
  const { consent, mapDefault } = useSite();
  const location = (block.location as { latitude: number; longitude: number } | undefined) ?? mapDefault;
  const zoom = typeof block.zoom === "number" ? block.zoom : 12;
  return (
    <BlockSection heading={text(block.heading)} width="medium">
      {consent.functional ? (
        <Suspense fallback={<div className="h-80 rounded-lg bg-black/5" />}>
          <MapView center={location} zoom={zoom} markers={[{ id: "location", position: location, label: text(block.heading) }]} />
        </Suspense>
      ) : (
        <MapConsentPlaceholder />
      )}
    </BlockSection>
  );
}
