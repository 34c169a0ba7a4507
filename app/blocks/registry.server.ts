import { own } from "~/lib/input";
import { server as hero } from "./hero/server";
import { server as image } from "./image/server";
import { server as practitioner_single } from "./practitioner-single/server";
import { server as practitioner_list } from "./practitioner-list/server";
import { server as practitioner_smalllist } from "./practitioner-smalllist/server";
import { server as practitioner_overview } from "./practitioner-overview/server";
import { server as book_appointment } from "./book-appointment/server";
import { server as richtext } from "./richtext/server";
import { BLOCK_DEFINITIONS } from "./registry";
import type { Block, BlockNeeds, BlockServer } from "./types";

/** The server side of the block kinds that have one (app/blocks/<kind>/server.ts). */
const SERVERS: Readonly<Record<string, BlockServer>> = Object.fromEntries([
  hero,
  image,
  practitioner_single,
  practitioner_list,
  practitioner_smalllist,
  practitioner_overview,
  book_appointment,
  richtext,
].map((s) => [s.name, s]));

/** Whether a block kind exists. */
export const isKnownBlock = (block: Block) => own(BLOCK_DEFINITIONS, block.schemaId) !== undefined;

/** A block ready to render (its kind's preparation, e.g. rich text sanitised). */
export function prepareBlock(block: Block): Block {
  return own(SERVERS, block.schemaId)?.prepare?.(block) ?? block;
}

/** What the blocks of a page need loaded, merged: the longest list, every id, any directory. */
export function blockNeeds(blocks: readonly Block[]): Required<BlockNeeds> {
  const merged: Required<BlockNeeds> = { firstPractitioners: 0, practitioners: { ids: [], slotsEach: 0 }, directory: false, soonestSlots: 0, assets: [] };
  for (const block of blocks) {
    const needs = own(SERVERS, block.schemaId)?.needs?.(block);
    if (!needs) continue;
    merged.firstPractitioners = Math.max(merged.firstPractitioners, needs.firstPractitioners ?? 0);
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
  return merged;
}
