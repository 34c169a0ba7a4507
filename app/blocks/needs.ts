/** Asset ids in a block field (a list of ids, or one). */
export function assetIds(value: unknown): string[] {
  return [value].flat().filter((v): v is string => typeof v === "string");
}

/** A list block's length: its `limit` when it is a positive number (at most 200), else the default. */
export function listLimit(value: unknown, fallback: number): number {
  return typeof value === "number" && value > 0 ? Math.min(Math.floor(value), 200) : fallback;
}
