import { own } from "~/lib/input";
import { BLOCK_DEFINITIONS, childBlocks, isContainerKind } from "./registry";
import type { Block, BlockNeeds, BlockServer } from "./types";

/** The server side of the block kinds that have one: each app/blocks/<kind>/server.ts, found by the build. */
const SERVERS: Readonly<Record<string, BlockServer>> = Object.fromEntries(
  Object.values(import.meta.glob<{ server: BlockServer }>("./*/server.ts", { eager: true })).map((m) => [m.server.name, m.server]),
);

/** Whether a block kind exists. */
export const isKnownBlock = (block: Block) => own(BLOCK_DEFINITIONS, block.schemaId) !== undefined;

/** Why a child of a container was left out when the page was prepared. */
export type DroppedChild = { block: Block; reason: "unknown" | "too-deep" };

/**
 * A block ready to render (its kind's preparation, e.g. rich text sanitised). A container's children
 * are prepared the same way, and only known kinds that are no containers stay: the store refuses
 * other children already, but data that skipped it (an import, a hand-edited row, an older schema)
 * must not nest deeper than the one level the renderer and the editor expect, nor smuggle in
 * unsanitised rich text. Each child left out is passed to `dropped` (the page logs it).
 */
export function prepareBlock(block: Block, dropped: (child: DroppedChild) => void = () => {}): Block {
  const prepared = own(SERVERS, block.schemaId)?.prepare?.(block) ?? block;
  const container = own(BLOCK_DEFINITIONS, block.schemaId)?.container;
  if (!container) return prepared;
  const children = childBlocks(prepared).filter((child) => {
    if (!isKnownBlock(child)) dropped({ block: child, reason: "unknown" });
    else if (isContainerKind(child.schemaId)) dropped({ block: child, reason: "too-deep" });
    else return true;
    return false;
  });
  return { ...prepared, [container.field]: children.map((child) => own(SERVERS, child.schemaId)?.prepare?.(child) ?? child) };
}

/** What the blocks of a page need loaded, merged: the longest list, every id, any directory. */
type Merged = Required<Omit<BlockNeeds, "practitionerList">> & { practitionerLists: number[] };

/**
 * What the blocks of a page need, with the needs of a container's children (one level: the page
 * was prepared, so children are no containers). A list or an image inside a section gets its data.
 */
export function blockNeeds(blocks: readonly Block[]): Merged {
  const merged: Merged = { firstPractitioners: 0, practitionerLists: [], practitioners: { ids: [], slotsEach: 0 }, directory: false, soonestSlots: 0, assets: [] };
  const withChildren = blocks.flatMap((block) => [block, ...childBlocks(block).filter((child) => !isContainerKind(child.schemaId))]);
  for (const block of withChildren) {
    const needs = own(SERVERS, block.schemaId)?.needs?.(block);
    if (!needs) continue;
    merged.firstPractitioners = Math.max(merged.firstPractitioners, needs.firstPractitioners ?? 0);
    if (needs.practitionerList) merged.practitionerLists.push(needs.practitionerList);
    if (needs.practitioners) {
      merged.practitioners.ids.push(...needs.practitioners.ids);
      merged.practitioners.slotsEach = Math.max(merged.practitioners.slotsEach, needs.practitioners.slotsEach);
    }
    merged.directory ||= needs.directory === true;
    merged.soonestSlots = Math.max(merged.soonestSlots, needs.soonestSlots ?? 0);
    merged.assets.push(...(needs.assets ?? []));
  }
  merged.practitioners.ids = [...new Set(merged.practitioners.ids)];
  merged.assets = [...new Set(merged.assets)];
  merged.practitionerLists = [...new Set(merged.practitionerLists)];
  return merged;
}
