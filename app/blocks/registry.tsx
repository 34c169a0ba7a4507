import { own } from "~/lib/input";
import type { Block, BlockDefinition, PageBlockData } from "./types";

const GROUPS = ["content", "practitioners"] as const;

/**
 * Every block kind: each folder with an index.tsx is one (app/blocks/<kind>/), found by the build, so
 * a new kind needs no list to be added to. Palette order: by group, then by German label.
 */
export const BLOCKS: readonly BlockDefinition[] = Object.values(import.meta.glob<{ definition: BlockDefinition }>("./*/index.tsx", { eager: true }))
  .map((m) => m.definition)
  .sort((a, b) => GROUPS.indexOf(a.palette.group) - GROUPS.indexOf(b.palette.group) || a.palette.label.de.localeCompare(b.palette.label.de, "de"));

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
