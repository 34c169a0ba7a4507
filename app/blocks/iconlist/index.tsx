import { Icon } from "~/site/icon";
import { BlockSection, text } from "../block-section";
import type { BlockDefinition, BlockProps } from "../types";

function IconListBlock({ block }: BlockProps) {
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

export const definition: BlockDefinition = {
  name: "block-iconlist",
  palette: { label: { de: "Icon-Liste", en: "Icon list" }, icon: "list", group: "content" },
  Component: IconListBlock,
};
