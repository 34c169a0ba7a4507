import { localizedPath } from "~/i18n/languages";
import { Directory } from "~/practitioners/components";
import { useSite } from "~/site/site-context";
import { BlockSection, text } from "../block-section";
import type { BlockDefinition, BlockProps } from "../types";

function PractitionerOverviewBlock({ block, data }: BlockProps) {
  const { language } = useSite();
  if (!data.directory) return null;
  return (
    <BlockSection heading={text(block.heading)} width="wide">
      {block.intro ? <p className="mb-6 max-w-3xl">{text(block.intro)}</p> : null}
      <Directory result={data.directory} facets={data.facets} action={localizedPath(language, "/practitioners")} cardLevel={text(block.heading) ? 3 : 2} />
    </BlockSection>
  );
}

export const definition: BlockDefinition = {
  name: "block-practitioner-overview",
  palette: { label: { de: "Behandelnde (Übersicht)", en: "Practitioner directory" }, icon: "search", group: "practitioners" },
  Component: PractitionerOverviewBlock,
  live: true,
};
