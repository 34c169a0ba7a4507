import { FreeAppointments, PractitionerCard } from "~/practitioners/components";
import { BlockSection } from "../block-section";
import { firstId } from "../needs";
import type { BlockDefinition, BlockProps } from "../types";

function PractitionerSingleBlock({ block, data }: BlockProps) {
  const id = firstId(block.practitioner);
  const p = data.practitioners.find((x) => x.id === id);
  if (!p) return null;
  return (
    <BlockSection width="wide">
      <div className="grid gap-6 page-md:grid-cols-2">
        <PractitionerCard p={p} level={2} />
        <FreeAppointments slots={data.appointments} practitioner={p.id} limit={6} heading="h2" />
      </div>
    </BlockSection>
  );
}

export const definition: BlockDefinition = {
  name: "block-practitioner-single",
  palette: { label: { de: "Behandelnde:r (einzeln)", en: "Practitioner" }, icon: "user", group: "practitioners" },
  Component: PractitionerSingleBlock,
};
