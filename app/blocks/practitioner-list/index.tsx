import { PractitionerCard } from "~/practitioners/components";
import { BlockSection, text } from "../block-section";
import { listLimit } from "../needs";
import type { BlockDefinition, BlockProps } from "../types";
import { blockSchema } from "./schema";

function PractitionerListBlock({ block, data }: BlockProps) {
  const limit = listLimit(block.limit, blockSchema);
  return (
    <BlockSection heading={text(block.heading)} width="wide">
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {data.practitioners.slice(0, limit).map((p) => (
          <li key={p.id}>
            <PractitionerCard p={p} level={text(block.heading) ? 3 : 2} />
          </li>
        ))}
      </ul>
    </BlockSection>
  );
}

export const definition: BlockDefinition = {
  name: "block-practitioner-list",
  palette: { label: { de: "Behandelnde (Liste)", en: "Practitioner list" }, icon: "users", group: "practitioners" },
  Component: PractitionerListBlock,
};
