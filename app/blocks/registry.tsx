import { own } from "~/lib/input";
import type { Block, BlockDefinition, PageBlockData } from "./types";

const GROUPS = ["content", "practitioners"] as const;

/**
 * Every block kind: each folder with an index.tsx is one (app/blocks/<kind>/), found by the build, so
 * a new kind needs no list to be added to. Palette order: by group, then by German label.
 */
export const BLOCKS: readonly BlockDefinition[] = Object.values(import.meta.glob<{ definition: BlockDefinition }>("./*/index.tsx", { eager: true }))
  .map((m) => m.definition)
  .sort((a, b) => GROUPS.indexOf(a.palette.group) - GROUPS.indexOf(b.palette.group) || byLetters(a.palette.label.de, b.palette.label.de));

/** Block schema name → definition. */
export const BLOCK_DEFINITIONS: Readonly<Record<string, BlockDefinition>> = Object.fromEntries(BLOCKS.map((b) => [b.name, b]));

/** Whether blocks of this kind hold other blocks (a section): the editor lets blocks be dropped into them. */
export function isContainerKind(schemaId: string): boolean {
  return own(BLOCK_DEFINITIONS, schemaId)?.container !== undefined;
}

/**
 * A container's children as stored: the entries of its container field that look like blocks (an
 * object naming its kind). Anything else (hand-edited or hostile data) is no child. Blocks of other
 * kinds have none.
 */
export function childBlocks(block: Block): Block[] {
  const container = own(BLOCK_DEFINITIONS, block.schemaId)?.container;
  const value = container ? block[container.field] : undefined;
  if (!Array.isArray(value)) return [];
  return value.filter((child): child is Block => typeof child === "object" && child !== null && typeof (child as Block).schemaId === "string");
}

/**
 * Renders blocks, each in a wrapper naming its kind. `within` is the position of the container the
 * blocks are children of: then no child is a container (one nesting level, whatever the data says),
 * and each child counts from the container's position but never as the page's first block, so a
 * hero inside a section never takes the page's h1 while images near the top still load eagerly.
 */
export function Blocks({ blocks, data, within }: { blocks: Block[]; data: PageBlockData; within?: number }) {
  return (
    <>
      {blocks.map((block, index) => {
        const Component = own(BLOCK_DEFINITIONS, block.schemaId)?.Component;
        // Unknown names were logged ("The variant does not exist") and dropped by the loader.
        if (!Component || (within !== undefined && isContainerKind(block.schemaId))) return null;
        return (
          <div key={block.id ?? index} data-block={block.schemaId}>
            <Component block={block} data={data} index={within === undefined ? index : Math.max(1, within + index)} />
          </div>
        );
      })}
    </>
  );
}

/**
 * German alphabetical order (an umlaut sorts with its vowel) without `localeCompare`: its first call
 * loads the browser's collation data, about 10 ms of every page's start for a list of a dozen labels.
 */
function byLetters(a: string, b: string): number {
  const key = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  const x = key(a);
  const y = key(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
