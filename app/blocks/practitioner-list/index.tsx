import { useLocation } from "react-router";
import { Paging, PractitionerCard } from "~/practitioners/components";
import { LIST_PAGE_PARAM, withParams } from "~/practitioners/directory";
import { useSite } from "~/site/site-context";
import { BlockSection, text } from "../block-section";
import { listLimit } from "../needs";
import type { BlockDefinition, BlockProps } from "../types";
import { DEFAULT_LIMIT } from "./limit";

/**
 * Every visible practitioner by name, a page of `limit` at a time: the page the URL's `list`
 * parameter names, with links to the pages around it (they work without JavaScript). The HTML holds
 * one page, however many practitioners there are.
 */
function PractitionerListBlock({ block, data }: BlockProps) {
  const { t } = useSite();
  const location = useLocation();
  const limit = listLimit(block.limit, DEFAULT_LIMIT);
  const list = data.lists[String(limit)];
  if (!list) return null;
  const href = (page: number) => {
    const params = new URLSearchParams(location.search);
    if (page > 1) params.set(LIST_PAGE_PARAM, String(page));
    else params.delete(LIST_PAGE_PARAM);
    return withParams(location.pathname, params);
  };
  return (
    <BlockSection heading={text(block.heading)} width="wide">
      <div className="space-y-4" data-practitioner-list>
        {list.pages > 1 ? <p className="text-sm">{t.resultsCount(list.total)}</p> : null}
        <ul className="grid gap-4 page-sm:grid-cols-2 page-lg:grid-cols-3">
          {list.items.map((p) => (
            <li key={p.id}>
              <PractitionerCard p={p} level={text(block.heading) ? 3 : 2} />
            </li>
          ))}
        </ul>
        <Paging page={list.page} pages={list.pages} href={href} />
      </div>
    </BlockSection>
  );
}

export const definition: BlockDefinition = {
  name: "block-practitioner-list",
  palette: { label: { de: "Behandelnde (Liste)", en: "Practitioner list" }, icon: "users", group: "practitioners" },
  Component: PractitionerListBlock,
};
