import type { Block } from "~/blocks/types";
import { longestIncreasing } from "~/lib/longest-increasing";

/**
 * Two versions of a page's blocks (one language), block by block: what the newer one added,
 * removed, moved and changed. Blocks are matched by their id, children of containers too (a block
 * moved into or out of a section is the same block, moved); a block without an id is matched by
 * its place (parent and position), as older content may lack ids.
 *
 * "Moved" is what an editor would call moved: a block whose section changed, or which changed its
 * order against the blocks that stayed beside it. Inserting one block at the top moves nothing
 * else (the others keep their order), so positions alone are not compared.
 */

export interface BlockRef {
  id: string;
  schemaId: string;
  /** The id of the section the block is in (in the newer version; the older for removed blocks), null at the top. */
  parentId: string | null;
}

export interface BlockComparison {
  added: BlockRef[];
  removed: BlockRef[];
  /** A block can be moved and changed; it is then in both lists. */
  moved: Array<BlockRef & { fromParentId: string | null }>;
  /** With the names of the fields that differ (`schemaId` when the block's kind changed). */
  changed: Array<BlockRef & { fields: string[] }>;
  /** In both, same place among its neighbours, same fields. */
  unchanged: BlockRef[];
}

interface Placed {
  key: string;
  block: Block;
  parentKey: string | null;
  /** Position among its siblings. */
  index: number;
}

/** Every block of a tree by key, in document order (a parent before its children). */
function flatten(blocks: readonly Block[]): Map<string, Placed> {
  const out = new Map<string, Placed>();
  const walk = (list: readonly unknown[], parentKey: string | null) => {
    list.forEach((raw, index) => {
      if (!raw || typeof raw !== "object" || Array.isArray(raw)) return;
      const block = raw as Block;
      let key = typeof block.id === "string" && block.id ? `id:${block.id}` : "";
      // No id, or an id seen before (a broken copy): matched by place instead.
      if (!key || out.has(key)) key = `at:${parentKey ?? ""}/${index}`;
      out.set(key, { key, block, parentKey, index });
      if (Array.isArray(block.blocks)) walk(block.blocks, key);
    });
  };
  walk(blocks, null);
  return out;
}

/** Equal as JSON values, whatever the order of object keys. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => same(v, bb[i]));
  }
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** The names of a block's own fields that differ; children (`blocks` of a container) are compared as blocks of their own. */
function changedFields(a: Block, b: Block): string[] {
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  names.delete("id");
  const fields: string[] = [];
  for (const name of names) {
    const va = a[name];
    const vb = b[name];
    if (name === "blocks" && (Array.isArray(va) || Array.isArray(vb))) continue;
    if (!same(va, vb)) fields.push(name);
  }
  return fields.sort();
}

const idOf = (key: string | null, placed: Map<string, Placed>): string | null => {
  if (key === null) return null;
  const id = placed.get(key)?.block.id;
  return typeof id === "string" ? id : key;
};

/** `a`: the older version, `b`: the newer one. */
export function compareBlocks(a: readonly Block[], b: readonly Block[]): BlockComparison {
  const before = flatten(a);
  const after = flatten(b);
  const ref = (p: Placed, placed: Map<string, Placed>): BlockRef => ({
    id: typeof p.block.id === "string" && p.block.id ? p.block.id : p.key,
    schemaId: String(p.block.schemaId ?? ""),
    parentId: idOf(p.parentKey, placed),
  });
  const result: BlockComparison = { added: [], removed: [], moved: [], changed: [], unchanged: [] };

  // Which kept blocks moved: a new section, or out of order among the kept blocks of the same section.
  const moved = new Set<string>();
  const kept = new Map<string | null, string[]>();
  for (const p of after.values()) {
    const old = before.get(p.key);
    if (!old) continue;
    if (old.parentKey !== p.parentKey) moved.add(p.key);
    else kept.set(p.parentKey, [...(kept.get(p.parentKey) ?? []), p.key]);
  }
  for (const keys of kept.values()) {
    const order = keys.map((k) => before.get(k)!.index);
    const inOrder = longestIncreasing(order);
    keys.forEach((k, i) => {
      if (!inOrder.has(i)) moved.add(k);
    });
  }

  for (const p of after.values()) {
    const old = before.get(p.key);
    if (!old) {
      result.added.push(ref(p, after));
      continue;
    }
    const fields = changedFields(old.block, p.block);
    if (moved.has(p.key)) result.moved.push({ ...ref(p, after), fromParentId: idOf(old.parentKey, before) });
    if (fields.length) result.changed.push({ ...ref(p, after), fields });
    if (!moved.has(p.key) && !fields.length) result.unchanged.push(ref(p, after));
  }
  for (const p of before.values()) if (!after.has(p.key)) result.removed.push(ref(p, before));
  return result;
}

/** True when the two versions have the same blocks in the same places with the same fields. */
export const sameBlocks = (c: BlockComparison) => !c.added.length && !c.removed.length && !c.moved.length && !c.changed.length;
