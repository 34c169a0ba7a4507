import { useTextStyle } from "~/site/site-context";
import { SmartLink } from "~/site/smart-link";
import { text } from "../block-section";
import type { BlockDefinition, BlockProps } from "../types";

function CtaBlock({ block }: BlockProps) {
  const heading = useTextStyle("heading-2", "text-3xl font-semibold");
  return (
    <section className="bg-[var(--color-main,#0f5e63)] text-white">
      <div className="mx-auto flex max-w-6xl flex-col items-start gap-4 px-4 py-12 page-md:flex-row page-md:items-center page-md:justify-between">
        <div>
          <h2 className={heading} data-edit-field="heading">{text(block.heading)}</h2>
          {block.text ? <p className="mt-2" data-edit-field="text">{text(block.text)}</p> : null}
        </div>
        <SmartLink href={text(block.link)} className="rounded bg-white px-5 py-3 font-semibold text-[var(--color-main,#0f5e63)]">
          {text(block.label)}
        </SmartLink>
      </div>
    </section>
  );
}

export const definition: BlockDefinition = {
  name: "block-cta",
  palette: { label: { de: "Handlungsaufforderung", en: "Call to action" }, icon: "megaphone", group: "content" },
  Component: CtaBlock,
};
