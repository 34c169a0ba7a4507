import { describe, expect, it } from "vitest";
import { fewestToMove, reactMoves, remountToMove } from "./move-keys";

const list = (n: number) => Array.from({ length: n }, (_, i) => `b${i}`);
/** `ids` with the block at `from` taken out and put in at `to`. */
function moved(ids: readonly string[], from: number, to: number): string[] {
  const next = [...ids];
  const [id] = next.splice(from, 1);
  next.splice(to, 0, id!);
  return next;
}

describe("moving keyed blocks", () => {
  it("counts what React moves: every block between, for a move toward the start", () => {
    const ids = list(200);
    expect(reactMoves(ids, moved(ids, 150, 9))).toBe(141);
    // Toward the end, one move only.
    expect(reactMoves(ids, moved(ids, 9, 150))).toBe(1);
    expect(reactMoves(ids, moved(ids, 10, 9))).toBe(1);
    expect(reactMoves(ids, ids)).toBe(0);
  });

  it("finds the fewest blocks to take out and put back", () => {
    const ids = list(200);
    expect(fewestToMove(ids, moved(ids, 150, 9))).toEqual(["b150"]);
    expect(fewestToMove(ids, moved(ids, 9, 150))).toEqual(["b9"]);
    // Several blocks moved together toward the start.
    const next = [...ids.slice(0, 5), "b100", "b101", "b102", ...ids.slice(5, 100), ...ids.slice(103)];
    expect(new Set(fewestToMove(ids, next))).toEqual(new Set(["b100", "b101", "b102"]));
    // New and removed blocks are not moves.
    expect(fewestToMove(["a", "b", "c"], ["x", "a", "c", "b"])).toHaveLength(1);
  });

  it("remounts only where it saves moves", () => {
    const ids = list(200);
    expect(remountToMove(ids, moved(ids, 150, 9))).toEqual(["b150"]);
    expect(remountToMove(ids, moved(ids, 9, 150))).toEqual([]);
    expect(remountToMove(ids, moved(ids, 11, 10))).toEqual([]);
    expect(remountToMove(ids, [...ids].reverse())).toEqual([]);
    expect(remountToMove(ids, ids)).toEqual([]);
  });

  it("gives the same order as the model after the remount (fuzz)", () => {
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let round = 0; round < 300; round++) {
      const ids = list(1 + rand(60));
      const next = [...ids];
      for (let k = rand(4); k >= 0; k--) next.splice(rand(next.length + 1), 0, next.splice(rand(next.length), 1)[0]!);
      const out = new Set(fewestToMove(ids, next));
      // What stays keeps its old order: React moves none of it once the others are new.
      const stay = next.filter((id) => !out.has(id));
      expect(reactMoves(ids.filter((id) => !out.has(id)), stay)).toBe(0);
      expect(out.size).toBeLessThanOrEqual(reactMoves(ids, next));
    }
  });
});
