
/** The first id of a references/assets field (the blocks show one); anything else is none. */
export function firstId(value: unknown): string | undefined {
  return Array.isArray(value) && typeof value[0] === "string" ? value[0] : undefined;
}

/**
 * A list block's length, the same on the server (what to load) and in the component (what to show):
 * its `limit` when a positive number (at most 200), else the block's default (its `limit.ts`, which its schema uses too).
 */
export function listLimit(value: unknown, fallback: number): number {
  if (typeof value === "number" && value >= 1) return Math.min(Math.floor(value), 200);
  return fallback;
}
