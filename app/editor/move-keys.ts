import { useRef } from "react";
import { longestIncreasing } from "~/lib/longest-increasing";

/**
 * React keeps keyed children in place from the start of a list and moves every child that came
 * before the last one it kept: a block dropped from place 150 to place 10 makes React take out and
 * put back the 140 blocks between, each restyled and laid out again (the cost of a drop would grow
 * with the page). Such a move costs less as a remount of the moved blocks under a new key: one
 * block out, one block in, and the others stay where they are.
 */

/** How many children React's keyed reconciliation moves to turn `prev` into `next`. */
export function reactMoves(prev: readonly string[], next: readonly string[]): number {
  const at = new Map(prev.map((id, i) => [id, i]));
  let lastPlaced = -1;
  let moves = 0;
  for (const id of next) {
    const old = at.get(id);
    if (old === undefined) continue;
    if (old < lastPlaced) moves++;
    else lastPlaced = old;
  }
  return moves;
}

/**
 * The fewest children of `next` that, taken out and put back, give `next` from `prev`: those off
 * the longest run that keeps its old order (a longest increasing subsequence, O(n log n)).
 */
export function fewestToMove(prev: readonly string[], next: readonly string[]): string[] {
  const at = new Map(prev.map((id, i) => [id, i]));
  const kept = next.filter((id) => at.has(id));
  const stay = longestIncreasing(kept.map((id) => at.get(id)!));
  return kept.filter((_, i) => !stay.has(i));
}

/** Below this many moves React's own moving is as cheap as a remount. */
const WORTH_REMOUNTING = 4;

/** The blocks to remount (give a new key) for the change from `prev` to `next`; none when moving is cheaper. */
export function remountToMove(prev: readonly string[], next: readonly string[]): string[] {
  if (prev === next) return [];
  const moves = reactMoves(prev, next);
  if (moves < WORTH_REMOUNTING) return [];
  const fewest = fewestToMove(prev, next);
  return fewest.length < moves ? fewest : [];
}

/**
 * Blocks whose element had the focus when they were remounted to move: the new element takes it
 * (see `takeFocusAfterMove`), as React gives it back to an element it moved.
 */
const focusAfterMove = new Set<string>();

/** Whether the block `id`'s new element should take the focus its old one had (once). */
export function takeFocusAfterMove(id: string): boolean {
  return focusAfterMove.delete(id);
}

/**
 * Keys for a list of blocks: the id, with a generation once a move remounted the block. Kept per
 * list; a render that React discards only costs a remount more.
 */
export function useMoveKeys(ids: readonly string[], focusOf?: (id: string) => boolean): (id: string) => string {
  const memo = useRef<{ ids: readonly string[]; generations: Map<string, number> } | null>(null);
  if (memo.current === null) memo.current = { ids, generations: new Map() };
  const m = memo.current;
  if (m.ids !== ids) {
    for (const id of remountToMove(m.ids, ids)) {
      m.generations.set(id, (m.generations.get(id) ?? 0) + 1);
      if (focusOf?.(id)) focusAfterMove.add(id);
    }
    m.ids = ids;
  }
  const generations = m.generations;
  return (id) => {
    const g = generations.get(id);
    return g ? `${id}~${g}` : id;
  };
}
