import { own } from "~/lib/input";
import { BLOCK_DEFINITIONS } from "./registry";
import type { Block, BlockNeeds, BlockServer } from "./types";

/** The server side of the block kinds that have one: each app/blocks/<kind>/server.ts, found by the build. */
const SERVERS: Readonly<Record<string, BlockServer>> = Object.fromEntries(
  Object.values(import.meta.glob<{ server: BlockServer }>("./*/server.ts", { eager: true })).map((m) => [m.server.name, m.server]),
);

/** Whether a block kind exists. */
export const isKnownBlock = (block: Block) => own(BLOCK_DEFINITIONS, block.schemaId) !== undefined;

/** A block ready to render (its kind's preparation, e.g. rich text sanitised). */
export function prepareBlock(block: Block): Block {
  return own(SERVERS, block.schemaId)?.prepare?.(block) ?? block;
}

/** What the blocks of a page need loaded, merged: the longest list, every id, any directory. */
type Merged = Required<Omit<BlockNeeds, "practitionerList">> & { practitionerLists: number[] };

export function blockNeeds(blocks: readonly Block[]): Merged {
  const merged: Merged = { firstPractitioners: 0, practitionerLists: [], practitioners: { ids: [], slotsEach: 0 }, directory: false, soonestSlots: 0, assets: [] };
  for (const block of blocks) {
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
