import type { Block } from "~/blocks/types";
import type { EditorField, EditorSchema } from "./types";

/** The asset a new image field shows until the editor picks one (§9: "a default placeholder image id"). */
export const PLACEHOLDER_IMAGE = "asset-placeholder";

/**
 * What a field starts with when its schema gives no default, by its tag (§5: "a known tag"). These
 * are the tags the block schemas use; the admin's block screen refuses a field with neither.
 */
const TAG_STARTS: Record<string, (field: EditorField) => unknown> = {
  image: (f) => copies(f, PLACEHOLDER_IMAGE),
  icon: () => "check",
  link: () => "",
  practitioner: () => [],
};

/** §9: image fields start with the placeholder, `minItems` copies of it (at least one). */
function copies(field: EditorField, value: string): string[] {
  return Array.from({ length: Math.max(1, field.minItems ?? 1) }, () => value);
}

/** A deep copy of a default (a schema's default must never be shared between blocks). */
const fresh = (value: unknown): unknown => (value === undefined ? undefined : structuredClone(value));

export type NewBlock = { ok: true; block: Block } | { ok: false; fields: string[] };

/**
 * A new block of a schema (§4, §5, §9): each field's default value; image fields the placeholder
 * image (`minItems` copies); list fields at least `minItems` entries (copies of their first
 * default entry); container fields an empty list. A field with neither a default nor a known tag
 * stops the creation: the caller logs it and tells the editor which fields.
 */
export function newBlock(schema: EditorSchema, id: string): NewBlock {
  const block: Block = { schemaId: schema.name, id };
  const missing: string[] = [];
  for (const field of schema.fields) {
    if (field.name === "blocks" && schema.container) {
      block.blocks = [];
      continue;
    }
    const start = startValue(field);
    if (start === undefined) missing.push(field.label || field.name);
    else block[field.name] = start;
  }
  return missing.length ? { ok: false, fields: missing } : { ok: true, block };
}

function startValue(field: EditorField): unknown {
  const tag = field.tags?.find((t) => Object.hasOwn(TAG_STARTS, t));
  if (field.defaultValue !== undefined && field.defaultValue !== null) {
    const value = fresh(field.defaultValue);
    // An image field's default is a list of asset ids: minItems copies of its first.
    if (field.fieldType === "Assets" && Array.isArray(value) && typeof value[0] === "string") return value.length >= (field.minItems ?? 0) ? value : copies(field, value[0]);
    if (field.fieldType === "Array" && Array.isArray(value) && value.length && (field.minItems ?? 0) > value.length) {
      return [...value, ...Array.from({ length: field.minItems! - value.length }, () => fresh(value[0]))];
    }
    return value;
  }
  if (tag) return TAG_STARTS[tag]!(field);
  return undefined;
}

/** One new entry of a list field: each nested field's default, else empty. */
export function newEntry(field: EditorField): Record<string, unknown> {
  const entry: Record<string, unknown> = {};
  for (const f of field.nested ?? []) entry[f.name] = f.defaultValue !== undefined && f.defaultValue !== null ? fresh(f.defaultValue) : f.fieldType === "Boolean" ? false : f.fieldType === "Number" ? null : "";
  return entry;
}
