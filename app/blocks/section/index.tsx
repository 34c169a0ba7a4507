import { HEX_COLOR_PATTERN } from "~/lib/hex-color";
import { useTextStyle } from "~/site/site-context";
import { text } from "../block-section";
// The registry lists this kind too (a cycle): Blocks and childBlocks are only called when rendering,
// by which time the registry module has finished loading.
import { Blocks, childBlocks } from "../registry";
import type { BlockDefinition, BlockProps } from "../types";

/** How the children sit side by side: one column on phones, the chosen number from tablet width on. */
const LAYOUTS: Record<string, string> = {
  "two-columns": "page-md:grid-cols-2",
  "three-columns": "page-md:grid-cols-3",
};

const HEX_COLOR = new RegExp(HEX_COLOR_PATTERN);

function SectionBlock({ block, data, index, slot }: BlockProps) {
  const h2 = useTextStyle("heading-2", "text-3xl font-semibold");
  const heading = text(block.heading);
  const background = text(block.background);
  const columns = Object.hasOwn(LAYOUTS, text(block.layout)) ? LAYOUTS[text(block.layout)] : undefined;
  const content = slot ?? <Blocks blocks={childBlocks(block)} data={data} within={index} />;
  return (
    // Only a hex code reaches the style: the field is free text to anything that skips validation.
    <section className="py-6" style={HEX_COLOR.test(background) ? { backgroundColor: background } : undefined}>
      {heading ? (
        <div className="mx-auto max-w-6xl px-4 pt-4">
          <h2 className={h2} data-edit-field="heading">{heading}</h2>
        </div>
      ) : null}
      {/* Stacked children keep the widths they have on the page; in columns each takes its cell
          (min-w-0, so wide content such as a map cannot stretch its column). */}
      {columns ? <div className={`mx-auto grid max-w-6xl items-start gap-x-4 *:min-w-0 ${columns}`}>{content}</div> : content}
    </section>
  );
}

export const definition: BlockDefinition = {
  name: "block-section",
  palette: { label: { de: "Abschnitt", en: "Section" }, icon: "layers", group: "content" },
  Component: SectionBlock,
  container: { field: "blocks" },
};
