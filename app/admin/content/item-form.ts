import type { ContentData, Schema, SchemaField } from "~/content/types";
import type { FormDefinition, FormField, FormValues } from "~/forms/definition";
import { formFieldsFromSchema } from "~/forms/from-schema";
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "~/i18n/languages";

/**
 * The admin editor's form of a content item, made from its schema with the same mapping as the
 * visitors' forms (forms/from-schema.ts), so browser and server check the same rules. Localised
 * fields get one input per language (`<field>__de`, `<field>__en`); only the master language keeps
 * the required rule, as the store requires only that one. Fields the mapping skips (references,
 * components, geolocations, internal fields) are listed separately for a read-only view.
 */

const SEPARATOR = "__";
export const inputName = (field: string, language?: Language) => (language ? `${field}${SEPARATOR}${language}` : field);

export interface AdminItemForm {
  definition: FormDefinition;
  /** Schema fields that are not in the form (shown read-only, kept as they are on save). */
  skipped: string[];
}

/** Fields editors set by hand that the visitor mapping hides with the "internal" tag. */
const unhideInternal = (field: SchemaField): SchemaField =>
  field.properties.tags?.includes("internal") && !field.isHidden ? { ...field, properties: { ...field.properties, tags: field.properties.tags.filter((t) => t !== "internal") } } : field;

const made = new WeakMap<Schema, AdminItemForm>();

/**
 * The form of `schema`: one object per schema version (the store keeps a schema's object until it
 * changes), so the server's checking trees are reused (forms/engine.ts finds them by identity).
 */
export function adminItemForm(schema: Schema): AdminItemForm {
  let form = made.get(schema);
  if (!form) made.set(schema, (form = makeForm(schema)));
  return form;
}

function makeForm(schema: Schema): AdminItemForm {
  const fields: FormField[] = [];
  const inForm = new Set<string>();
  for (const schemaField of schema.fields) {
    const [mapped] = formFieldsFromSchema([unhideInternal(schemaField)]);
    if (!mapped) continue;
    inForm.add(schemaField.name);
    // Editors see the schema's hints (visitors never do).
    const help = schemaField.properties.hints;
    const base: FormField = { ...mapped, ...(help ? { help } : {}) };
    if (schemaField.partitioning !== "language") {
      fields.push(base);
      continue;
    }
    for (const lang of LANGUAGES) {
      const validation = lang === DEFAULT_LANGUAGE ? base.validation : withoutRequired(base.validation ?? "");
      fields.push({ ...base, name: inputName(schemaField.name, lang), label: `${base.label} (${lang.toUpperCase()})`, validation });
    }
  }
  return { definition: { id: `content-${schema.name}`, fields }, skipped: schema.fields.filter((f) => !inForm.has(f.name)).map((f) => f.name) };
}

/** A rule string without its required rule (other languages of a localised field may stay empty). */
export const withoutRequired = (validation: string) =>
  validation
    .split("|")
    .filter((rule) => !/^[*+?]*required(:|$)/.test(rule))
    .join("|");

/** Text an input shows for a stored value. */
function asInput(field: SchemaField, value: unknown): string | boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (field.properties.fieldType === "Boolean") return value === true;
  if (Array.isArray(value)) return value.join(", ");
  if (field.properties.fieldType === "DateTime" && typeof value === "string") return value.slice(0, 10);
  if (typeof value === "string" || typeof value === "number") return String(value);
  return undefined;
}

/** The form's starting values from an item's data. */
export function valuesFromData(schema: Schema, data: ContentData): Record<string, string | boolean> {
  const { definition } = adminItemForm(schema);
  const names = new Set(definition.fields.map((f) => f.name));
  const values: Record<string, string | boolean> = {};
  for (const field of schema.fields) {
    const cell = data[field.name];
    if (!cell) continue;
    if (field.partitioning === "language") {
      for (const lang of LANGUAGES) {
        const v = asInput(field, cell[lang]);
        if (v !== undefined && names.has(inputName(field.name, lang))) values[inputName(field.name, lang)] = v;
      }
    } else if (names.has(field.name)) {
      const v = asInput(field, cell.iv);
      if (v !== undefined) values[field.name] = v;
    }
  }
  return values;
}

/** A stored value from checked form text; `undefined` removes the value. `previous` keeps a DateTime's time. */
function fromInput(field: SchemaField, raw: string | boolean | undefined, previous: unknown): unknown {
  const type = field.properties.fieldType;
  if (type === "Boolean") return raw === true;
  if (typeof raw !== "string" || raw === "") return undefined;
  if (type === "Number") return Number(raw);
  if (type === "Tags")
    return raw
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  if (type === "DateTime") return typeof previous === "string" && previous.startsWith(raw) ? previous : `${raw}T00:00:00Z`;
  return raw;
}

/**
 * The item's new data: the stored data (fields not in the form stay as they are) with the form's
 * fields written over it. An emptied input removes the value.
 */
export function dataFromValues(schema: Schema, values: FormValues, stored: ContentData = {}): ContentData {
  const { definition } = adminItemForm(schema);
  const names = new Set(definition.fields.map((f) => f.name));
  const data: ContentData = { ...stored };
  for (const field of schema.fields) {
    if (field.partitioning === "language") {
      if (!names.has(inputName(field.name, DEFAULT_LANGUAGE))) continue;
      const cell: Record<string, unknown> = { ...(stored[field.name] ?? {}) };
      for (const lang of LANGUAGES) {
        const value = fromInput(field, values[inputName(field.name, lang)], cell[lang]);
        if (value === undefined) delete cell[lang];
        else cell[lang] = value;
      }
      if (Object.keys(cell).length) data[field.name] = cell;
      else delete data[field.name];
    } else if (names.has(field.name)) {
      const value = fromInput(field, values[field.name], stored[field.name]?.iv);
      if (value === undefined) delete data[field.name];
      else data[field.name] = { iv: value };
    }
  }
  return data;
}

/**
 * The store's validation messages (`name.iv: Field is required.`) as messages per form input, so
 * they show beside the field; messages for fields outside the form stay in `rest`.
 */
export function storeErrorsByField(schema: Schema, details: readonly string[]): { errors: Record<string, string[]>; rest: string[] } {
  const { definition } = adminItemForm(schema);
  const names = new Set(definition.fields.map((f) => f.name));
  const errors: Record<string, string[]> = {};
  const rest: string[] = [];
  for (const detail of details) {
    const match = /^([A-Za-z0-9_-]+)(?:\.([A-Za-z-]+))?[^:]*:\s*(.*)$/.exec(detail);
    const field = match?.[1];
    const partition = match?.[2];
    const name = field && partition && partition !== "iv" ? inputName(field, partition as Language) : field;
    if (name && names.has(name)) (errors[name] ??= []).push(match![3] || detail);
    else rest.push(detail);
  }
  return { errors, rest };
}
