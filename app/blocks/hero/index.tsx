import { own } from "~/lib/input";
import { useTextStyle } from "~/site/site-context";
import { SmartLink } from "~/site/smart-link";
import { AssetImage } from "../asset-image";
import { text } from "../block-section";
import { firstId } from "../needs";
import type { BlockDefinition, BlockProps } from "../types";

function HeroBlock({ block, data, index }: BlockProps) {
  const heading = useTextStyle("heading-1", "text-4xl font-bold");
  const lead = useTextStyle("lead", "text-lg");
  const image = firstId(block.image);
  return (
    <section className="bg-[var(--color-neutral,#f3ede4)]">
      <div className="mx-auto grid max-w-6xl items-center gap-8 px-4 py-12 page-md:grid-cols-2">
        <div>
          {/* A hero that opens the page carries the page's one h1. */}
          {index === 0 ? <h1 className={`${heading} text-[var(--color-main,#0f5e63)]`} data-edit-field="heading">{text(block.heading)}</h1> : <h2 className={heading} data-edit-field="heading">{text(block.heading)}</h2>}
          {block.text ? <p className={`mt-4 ${lead}`} data-edit-field="text">{text(block.text)}</p> : null}
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

export const definition: BlockDefinition = {
  name: "block-hero",
  palette: { label: { de: "Hero", en: "Hero" }, icon: "image", group: "content" },
  Component: HeroBlock,
  ownsPageHeading: true,
};
