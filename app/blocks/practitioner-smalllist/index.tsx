import { Link } from "react-router";
import { localizedPath } from "~/i18n/languages";
import { profilePath } from "~/practitioners/paths";
import { useSite } from "~/site/site-context";
import { BlockSection, text } from "../block-section";
import { listLimit } from "../needs";
import type { BlockDefinition, BlockProps } from "../types";
import { DEFAULT_LIMIT } from "./limit";

function PractitionerSmallListBlock({ block, data }: BlockProps) {
  const { language, t } = useSite();
  const limit = listLimit(block.limit, DEFAULT_LIMIT);
  return (
    <BlockSection heading={text(block.heading)} width="wide">
      <ul className="divide-y divide-black/10 rounded-lg border border-black/10">
        {data.practitioners.slice(0, limit).map((p) => (
          <li key={p.id} className="flex items-center justify-between gap-4 px-4 py-3">
            <Link to={profilePath(language, p.slug)} prefetch="intent" className="font-medium hover:underline">
              {p.name}
            </Link>
            <span className="text-sm text-black/80">{p.city}</span>
          </li>
        ))}
      </ul>
      <Link to={localizedPath(language, "/practitioners")} prefetch="intent" className="mt-4 inline-block font-semibold underline">
        {t.allPractitioners}
      </Link>
    </BlockSection>
  );
}

export const definition: BlockDefinition = {
  name: "block-practitioner-smalllist",
  palette: { label: { de: "Behandelnde (kompakt)", en: "Practitioners (compact)" }, icon: "users", group: "practitioners" },
  Component: PractitionerSmallListBlock,
};
