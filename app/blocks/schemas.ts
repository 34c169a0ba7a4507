import type { SchemaInput } from "~/content/types";

/**
 * Every block's schema (its fields with defaults and tags): each app/blocks/<kind>/schema.ts, found
 * by the build. The seed writes them; only schemas, no components, so the seed stays server data.
 */
export const BLOCK_SCHEMAS: SchemaInput[] = Object.values(import.meta.glob<{ blockSchema: SchemaInput }>("./*/schema.ts", { eager: true }))
  .map((m) => m.blockSchema)
  // Names are plain lower-case ASCII: compared as they are (localeCompare loads collation data).
  .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
