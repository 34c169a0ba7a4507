import type { FieldProperties, NestedField, Schema } from "./types";

/**
 * Which items an item's data references: the ids in its References fields, also inside Array
 * entries and Component(s) values, at any depth. The store keeps them in `content_references`
 * (migration 0013), one row per (item, live?, referenced id), written with every write of the item,
 * so "who references X" is one index lookup instead of reading every document (Squidex keeps the
 * same side table, EFContentReferenceEntity: FromKey → ToId).
 */

/** Finds component schemas by name or id. */
export type ComponentLookup = (nameOrId: string) => Pick<Schema, "fields"> | undefined;

/** The ids `data` references (each once), given its schema's fields. Values of the wrong shape are skipped. */
export function referencedIds(schema: Pick<Schema, "fields">, data: unknown, components: ComponentLookup): string[] {
  const out = new Set<string>();
  if (!isObject(data)) return [];
  for (const field of schema.fields) {
    const partitions = data[field.name];
    if (!isObject(partitions)) continue;
    for (const value of Object.values(partitions)) walk(field.properties, field.nested, value, out, components, 0);
  }
  return [...out];
}

/** Deep enough for any stored document (request bodies nest at most MAX_JSON_DEPTH); guards cycles of component schemas. */
const MAX_DEPTH = 64;

function walk(props: FieldProperties, nested: readonly NestedField[] | undefined, value: unknown, out: Set<string>, components: ComponentLookup, depth: number) {
  if (value === null || value === undefined || depth > MAX_DEPTH) return;
  switch (props.fieldType) {
    case "References":
      if (Array.isArray(value)) for (const id of value) if (typeof id === "string" && id) out.add(id);
      return;
    case "Array":
      if (!Array.isArray(value) || !nested?.length) return;
      for (const entry of value) {
        if (!isObject(entry)) continue;
        for (const f of nested) walk(f.properties, undefined, entry[f.name], out, components, depth + 1);
      }
      return;
    case "Component":
      component(value, out, components, depth);
      return;
    case "Components":
      if (Array.isArray(value)) for (const entry of value) component(entry, out, components, depth);
      return;
    default:
      return;
  }
}

function component(value: unknown, out: Set<string>, components: ComponentLookup, depth: number) {
  if (!isObject(value)) return;
  const ref = typeof value.schemaId === "string" ? value.schemaId : typeof value.schemaName === "string" ? value.schemaName : undefined;
  const schema = ref === undefined ? undefined : components(ref);
  if (!schema) return;
  // A component's fields are not partitioned: the value sits under the field's name.
  for (const f of schema.fields) walk(f.properties, f.nested, value[f.name], out, components, depth + 1);
}

/**
 * Whether items of the schema can reference anything: a References field, or an Array or
 * Component(s) field that may hold one. Writes of other schemas skip the reference rows.
 */
export function mayReference(schema: Pick<Schema, "fields">, components: ComponentLookup, seen = new Set<Pick<Schema, "fields">>()): boolean {
  if (seen.has(schema)) return false;
  seen.add(schema);
  for (const field of schema.fields) {
    const type = field.properties.fieldType;
    if (type === "References") return true;
    if (type === "Array" && field.nested?.some((n) => n.properties.fieldType === "References")) return true;
    if (type === "Component" || type === "Components") {
      const allowed = field.properties.schemaIds;
      // Without a list of allowed components any component schema may appear: assume it references.
      if (!allowed?.length) return true;
      for (const ref of allowed) {
        const target = components(ref);
        if (target && mayReference(target, components, seen)) return true;
      }
    }
  }
  return false;
}

/** What decides an item's reference rows besides its data: the schema's fields, as JSON. */
export function referenceSignature(schema: Pick<Schema, "fields">): string {
  return JSON.stringify(schema.fields.map((f) => [f.name, f.properties.fieldType, f.properties.schemaIds ?? null, f.nested?.map((n) => [n.name, n.properties.fieldType]) ?? null]));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
