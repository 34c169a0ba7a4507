import type { FieldProperties, FieldType, Schema, SchemaInput } from "~/content/types";

/** The field types a schema field can have (Squidex's). */
export const FIELD_TYPES: readonly FieldType[] = ["String", "Number", "Boolean", "DateTime", "Json", "Tags", "Assets", "References", "Geolocation", "Array", "Component", "Components", "RichText", "UI"];

/** The properties the block screen edits, in the order it shows them. */
export const EDITED_PROPERTIES = ["fieldType", "label", "editor", "tags", "defaultValue", "allowedValues", "minItems", "minLength", "maxLength", "isRequired"] as const;

export type FieldProblem = "fieldType" | "json" | "count";
export interface FieldError {
  /** The form input: `field.<index>.<property>` or `new.<property>`. */
  input: string;
  problem: FieldProblem;
}

type Form = Record<string, string>;
type SchemaFieldInput = SchemaInput["fields"][number];

const list = (value: string) =>
  value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * The edited properties of one field from the form (`prefix.<property>`), over its current ones:
 * what the form leaves empty is removed, anything else the screen does not show stays.
 */
function readProperties(form: Form, prefix: string, current: FieldProperties, errors: FieldError[]): FieldProperties {
  const value = (name: string) => (form[`${prefix}.${name}`] ?? "").trim();
  const fieldType = value("fieldType") || current.fieldType;
  if (!(FIELD_TYPES as readonly string[]).includes(fieldType)) errors.push({ input: `${prefix}.fieldType`, problem: "fieldType" });
  // fieldType keeps its place, the first key (as in Squidex).
  const next: FieldProperties = { ...current, fieldType: fieldType as FieldType };
  const set = <K extends keyof FieldProperties>(key: K, v: FieldProperties[K] | undefined) => {
    if (v === undefined) delete next[key];
    else next[key] = v;
  };
  set("label", value("label") || undefined);
  set("editor", value("editor") || undefined);
  const tags = list(value("tags"));
  set("tags", tags.length ? tags : undefined);
  const allowed = list(value("allowedValues"));
  set("allowedValues", allowed.length ? (fieldType === "Number" && allowed.every((a) => Number.isFinite(Number(a))) ? allowed.map(Number) : allowed) : undefined);
  const json = value("defaultValue");
  if (!json) set("defaultValue", undefined);
  else {
    try {
      set("defaultValue", JSON.parse(json) as unknown);
    } catch {
      errors.push({ input: `${prefix}.defaultValue`, problem: "json" });
    }
  }
  for (const key of ["minItems", "minLength", "maxLength"] as const) {
    const raw = value(key);
    const n = Number(raw);
    if (!raw) set(key, undefined);
    else if (Number.isSafeInteger(n) && n >= 0) set(key, n);
    else errors.push({ input: `${prefix}.${key}`, problem: "count" });
  }
  set("isRequired", form[`${prefix}.isRequired`] === "on" ? true : undefined);
  return next;
}

/**
 * The schema the block form asks for: its fields with the edited properties, and a new field when
 * the form names one (`new.name`). Problems of the form come back per input; nothing is saved then.
 */
export function schemaFromForm(schema: Schema, form: Form): { input: SchemaInput; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const fields: SchemaFieldInput[] = schema.fields.map((f, i) => {
    const properties = readProperties(form, `field.${i}`, f.properties, errors);
    if (properties.fieldType !== "Array") return { ...f, properties };
    // An Array field's entries have fields of their own (`field.<i>.nested.<j>.<property>`), and a new one.
    const nested: NonNullable<SchemaFieldInput["nested"]> = (f.nested ?? []).map((n, j) => ({ ...n, properties: readProperties(form, `field.${i}.nested.${j}`, n.properties, errors) }));
    // A new entry field gets its id from the store (the next one free).
    const newNested = (form[`field.${i}.nested.new.name`] ?? "").trim();
    if (newNested) nested.push({ name: newNested, properties: readProperties(form, `field.${i}.nested.new`, { fieldType: "String" }, errors) });
    return { ...f, properties, nested };
  });
  const newName = (form["new.name"] ?? "").trim();
  if (newName) {
    fields.push({ name: newName, partitioning: "invariant", properties: readProperties(form, "new", { fieldType: "String" }, errors) });
  }
  return { input: { name: schema.name, type: schema.type, isPublished: schema.isPublished, properties: schema.properties, fields }, errors };
}
