import { BLOCK_DEFINITIONS, Blocks } from "~/blocks/registry";
import { own } from "~/lib/input";
import type { PageBlockData } from "~/blocks/types";
import { useTextStyle } from "./site-context";
import type { ContentPage as Page } from "./content-pages.server";

/** A page built from blocks. The page title is the h1 unless a hero opens the page with its own. */
export function ContentPage({ page, blockData }: { page: Page; blockData: PageBlockData }) {
  const heading = useTextStyle("heading-1", "text-4xl font-bold");
  const first = page.blocks[0];
  const heroFirst = first ? own(BLOCK_DEFINITIONS, first.schemaId)?.ownsPageHeading === true : false;
  return (
    <div className={page.themeClass} style={page.background ? { backgroundColor: page.background } : undefined} data-page={page.id}>
      {heroFirst ? null : (
        <div className="mx-auto max-w-6xl px-4 pt-10">
          <h1 className={heading}>{page.title}</h1>
        </div>
      )}
      <Blocks blocks={page.blocks} data={blockData} />
    </div>
  );
}
