import type { SchemaInput } from "~/content/types";

/**
 * Every block's schema (its fields with defaults and tags): each app/blocks/<kind>/schema.ts, found
 * by the build. The seed writes them; only schemas, no components, so the seed stays server data.
 */
export const BLOCK_SCHEMAS: SchemaInput[] = Object.values(import.meta.glob<{ blockSchema: SchemaInput }>("./*/schema.ts", { eager: true }))
  .map((m) => m.blockSchema)
  .sort((a, b) => a.name.localeCompare(b.name));
