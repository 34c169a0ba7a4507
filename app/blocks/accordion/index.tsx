import { BlockSection, text } from "../block-section";
import type { BlockDefinition, BlockProps } from "../types";

function AccordionBlock({ block }: BlockProps) {
  const items = (block.items as Array<{ question: string; answer: string }> | undefined) ?? [];
  return (
    <BlockSection heading={text(block.heading)}>
      <div className="divide-y divide-black/10 rounded-lg border border-black/10">
        {items.map((item, i) => (
          <details key={i} className="motion-details group p-4">
            <summary className="cursor-pointer font-semibold">{item.question}</summary>
            <p className="mt-2 whitespace-pre-line">{item.answer}</p>
          </details>
        ))}
      </div>
    </BlockSection>
  );
}

export const definition: BlockDefinition = {
  name: "block-accordion",
  palette: { label: { de: "Akkordeon", en: "Accordion" }, icon: "list", group: "content" },
  Component: AccordionBlock,
};
