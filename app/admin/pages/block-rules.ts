import type { FieldProperties, Schema, SchemaInput } from "~/content/types";

/** The palette's schema: which blocks editors may insert (listed beside the block schemas). */
export const PALETTE_SCHEMA = "core-settings-blocks";

/** Block schemas are the Component schemas named block-*; the palette is shown with them. */
export const isBlockSchemaName = (name: string) => name.startsWith("block-") || name === PALETTE_SCHEMA;

/**
 * Tags the editor knows how to fill a new block's field from, when the field has no default: an
 * image (the placeholder asset), an icon (the icon picker), a link (an internal path) and a
 * practitioner (the directory's picker). These are the tags the block schemas in app/blocks use.
 */
export const KNOWN_BLOCK_TAGS: ReadonlySet<string> = new Set(["image", "icon", "link", "practitioner"]);

/** Whether a new block can start with a value for this field (§5): a default or a known tag. */
export function fieldCanStart(properties: FieldProperties): boolean {
  if (properties.defaultValue !== undefined && properties.defaultValue !== null) return true;
  return (properties.tags ?? []).some((tag) => KNOWN_BLOCK_TAGS.has(tag));
}

/**
 * The fields that keep a block from being created (§5: neither a default nor a known tag). The rule
 * is for block schemas; the palette's entries are content items, not blocks.
 */
export function fieldsWithoutStart(schema: Pick<SchemaInput | Schema, "name" | "fields">): string[] {
  if (!schema.name.startsWith("block-")) return [];
  return schema.fields.filter((f) => !fieldCanStart(f.properties)).map((f) => f.name);
}
