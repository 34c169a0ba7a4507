import { own } from "~/lib/input";
import { definition as hero } from "./hero";
import { definition as richtext } from "./richtext";
import { definition as image } from "./image";
import { definition as columns } from "./columns";
import { definition as cta } from "./cta";
import { definition as accordion } from "./accordion";
import { definition as iconlist } from "./iconlist";
import { definition as map } from "./map";
import { definition as practitioner_single } from "./practitioner-single";
import { definition as practitioner_list } from "./practitioner-list";
import { definition as practitioner_smalllist } from "./practitioner-smalllist";
import { definition as practitioner_overview } from "./practitioner-overview";
import { definition as book_appointment } from "./book-appointment";
import { definition as practitioner_registration } from "./practitioner-registration";
import type { Block, BlockDefinition, PageBlockData } from "./types";

/** Every block kind, in palette order: one folder each (app/blocks/<kind>/). */
export const BLOCKS: readonly BlockDefinition[] = [
  hero,
  richtext,
  image,
  columns,
  cta,
  accordion,
  iconlist,
  map,
  practitioner_single,
  practitioner_list,
  practitioner_smalllist,
  practitioner_overview,
  book_appointment,
  practitioner_registration,
];

/** Block schema name → definition. */
export const BLOCK_DEFINITIONS: Readonly<Record<string, BlockDefinition>> = Object.fromEntries(BLOCKS.map((b) => [b.name, b]));

export function Blocks({ blocks, data }: { blocks: Block[]; data: PageBlockData }) {
  return (
    <>
      {blocks.map((block, index) => {
        const Component = own(BLOCK_DEFINITIONS, block.schemaId)?.Component;
        // Unknown names were logged ("The variant does not exist") and dropped by the loader.
        if (!Component) return null;
        return (
          <div key={block.id ?? index} data-block={block.schemaId}>
            <Component block={block} data={data} index={index} />
          </div>
        );
      })}
    </>
  );
}
