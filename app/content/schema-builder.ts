import type { FieldProperties, FieldType, NestedField, Partitioning, SchemaInput } from "./types";

/**
 * Writing schemas in code (the demo's collections, each block's fields): the Squidex field and
 * schema shapes with the editor Squidex would pick for a type, and field ids in order.
 */
export type FieldInput = SchemaInput["fields"][number];
export type ExtraProperties = Omit<FieldProperties, "fieldType" | "label">;
export type FieldOptions = ExtraProperties & {
  /** Localised field (`{ de, en }`) instead of invariant (`{ iv }`). */
  localized?: boolean;
  nested?: NestedField[];
};

/** Editor Squidex would pick for a type when none is given; types without an editor enum get none. */
const DEFAULT_EDITORS: Partial<Record<FieldType, string>> = {
  String: "Input",
  Number: "Input",
  Boolean: "Toggle",
  DateTime: "DateTime",
  Tags: "Tags",
  Geolocation: "Map",
  References: "List",
};

function properties(fieldType: FieldType, label: string, extra: ExtraProperties): FieldProperties {
  const editor = extra.editor ?? DEFAULT_EDITORS[fieldType];
  // fieldType must stay the first key, as in Squidex.
  return { fieldType, ...(editor === undefined ? {} : { editor }), label, ...extra };
}

export function field(name: string, fieldType: FieldType, label: string, options: FieldOptions = {}): FieldInput {
  const { localized, nested, ...extra } = options;
  const partitioning: Partitioning = localized === true ? "language" : "invariant";
  return {
    name,
    partitioning,
    properties: properties(fieldType, label, extra),
    ...(nested === undefined ? {} : { nested }),
  };
}

export type NestedSpec = [name: string, fieldType: FieldType, label: string, extra?: ExtraProperties];

export function nestedFields(specs: NestedSpec[]): NestedField[] {
  return specs.map(([name, fieldType, label, extra], index) => ({
    fieldId: index + 1,
    name,
    properties: properties(fieldType, label, extra ?? {}),
  }));
}

export function schema(
  name: string,
  type: "Default" | "Component",
  label: string,
  hints: string,
  fields: FieldInput[],
  more: { slugField?: string; tags?: string[] } = {},
): SchemaInput {
  return {
    name,
    type,
    isPublished: true,
    properties: { label, hints, ...more },
    fields: fields.map((f, index) => ({ ...f, fieldId: index + 1 })),
  };
}

export { HEX_COLOR_PATTERN } from "~/lib/hex-color";

/** Options of a localised field (`{ de, en }`). */
export const L = { localized: true } as const;
