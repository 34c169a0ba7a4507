import { badRequest, notFound, validationError } from "../errors";
import type { FieldProperties, FieldType, Schema, SchemaInput, SchemaProperties } from "../types";
import { isPlainObject, patternProblem } from "../validate";

/**
 * The fields of a schema as Squidex's API reads and changes them (schemas.ts runs the changes):
 * the request's `FieldDto`s read into ours, every value checked, and the field changes of
 * `…/schemas/{name}/fields…`, at the top and among the entries of an Array field
 * (`…/fields/{parentId}/nested…`): add, change properties, hide/show, lock, enable/disable, delete,
 * and a new order. Each change answers the schema's new fields (and properties); it writes nothing.
 * As in Squidex (GuardSchemaField, GuardHelper), a locked field, and every entry of a locked Array
 * field, is refused every change but another lock, and a UI field cannot be hidden or disabled.
 * Unlike Squidex, a locked entry of an unlocked Array field is refused too: its lock means the same.
 */

/** The field types Squidex has and this service stores (FieldType). */
const FIELD_TYPES: ReadonlySet<FieldType> = new Set<FieldType>(["String", "Number", "Boolean", "DateTime", "Json", "Tags", "Assets", "References", "Geolocation", "Array", "Component", "Components", "RichText", "UI"]);

/** The field properties this service keeps, by the kind of value each takes; Squidex's others are dropped. */
const TEXT_PROPERTIES = ["editor", "label", "hints", "placeholder", "pattern"] as const;
const COUNT_PROPERTIES = ["minLength", "maxLength", "minItems", "maxItems"] as const;
const NUMBER_PROPERTIES = ["minValue", "maxValue"] as const;
const CONTENT_TYPES = new Set(["Unspecified", "Html", "Markdown"]);

/** The default values each field type takes (Squidex's per-type `defaultValue`). */
const DEFAULT_KINDS: Partial<Record<FieldType, { ok: (v: unknown) => boolean; what: string }>> = {
  String: { ok: (v) => typeof v === "string", what: "text" },
  RichText: { ok: (v) => typeof v === "string", what: "text" },
  Number: { ok: (v) => typeof v === "number" && Number.isFinite(v), what: "a number" },
  Boolean: { ok: (v) => typeof v === "boolean", what: "true or false" },
  DateTime: { ok: (v) => typeof v === "string" && !Number.isNaN(Date.parse(v)), what: "a date and time" },
  Tags: { ok: (v) => Array.isArray(v) && v.every((t) => typeof t === "string"), what: "a list of texts" },
};

/** Squidex's `FieldPropertiesDto` read into ours, every value checked; `at` names it in the errors. */
function readFieldProperties(raw: unknown, at: string, errors: string[]): FieldProperties | undefined {
  if (!isPlainObject(raw)) return void errors.push(`${at}: Field is required.`);
  const fieldType = raw.fieldType;
  if (typeof fieldType !== "string" || !FIELD_TYPES.has(fieldType as FieldType)) {
    errors.push(`${at}.fieldType: Must be one of ${[...FIELD_TYPES].join(", ")}.`);
    return undefined;
  }
  const out: FieldProperties = { fieldType: fieldType as FieldType };
  const given = (key: string) => raw[key] !== undefined && raw[key] !== null;
  for (const key of TEXT_PROPERTIES) {
    if (!given(key)) continue;
    if (typeof raw[key] !== "string") errors.push(`${at}.${key}: Must be text.`);
    else out[key] = raw[key];
  }
  if (out.pattern !== undefined) {
    const problem = patternProblem(out.pattern);
    if (problem) errors.push(`${at}.pattern: ${problem}`);
  }
  for (const key of COUNT_PROPERTIES) {
    if (!given(key)) continue;
    if (!Number.isSafeInteger(raw[key]) || (raw[key] as number) < 0) errors.push(`${at}.${key}: Must be a whole number from 0.`);
    else out[key] = raw[key] as number;
  }
  for (const key of NUMBER_PROPERTIES) {
    if (!given(key)) continue;
    if (typeof raw[key] !== "number" || !Number.isFinite(raw[key])) errors.push(`${at}.${key}: Must be a number.`);
    else out[key] = raw[key];
  }
  if (given("isRequired")) {
    if (typeof raw.isRequired !== "boolean") errors.push(`${at}.isRequired: Must be true or false.`);
    else out.isRequired = raw.isRequired;
  }
  if (given("defaultValue")) {
    // Only values of the field's own kind: a default is written into items as it is.
    const check = DEFAULT_KINDS[out.fieldType];
    if (!check) errors.push(`${at}.defaultValue: ${out.fieldType} fields take no default value here.`);
    else if (!check.ok(raw.defaultValue)) errors.push(`${at}.defaultValue: Must be ${check.what}.`);
    else out.defaultValue = structuredClone(raw.defaultValue);
  }
  const list = (key: "allowedValues" | "tags" | "schemaIds", ok: (v: unknown) => boolean, what: string) => {
    if (!given(key)) return;
    const value = raw[key];
    if (!Array.isArray(value) || !value.every(ok)) errors.push(`${at}.${key}: Must be a list of ${what}.`);
    else (out as unknown as Record<string, unknown>)[key] = [...value];
  };
  list("allowedValues", (v) => typeof v === "string" || (typeof v === "number" && Number.isFinite(v)), "texts or numbers");
  list("tags", (v) => typeof v === "string", "texts");
  list("schemaIds", (v) => typeof v === "string", "schema names or ids");
  if (given("contentType")) {
    if (typeof raw.contentType !== "string" || !CONTENT_TYPES.has(raw.contentType)) errors.push(`${at}.contentType: Must be one of ${[...CONTENT_TYPES].join(", ")}.`);
    else out.contentType = raw.contentType as FieldProperties["contentType"];
  }
  return out;
}

/** Squidex's partitioning, "invariant" when left out (as in Squidex), whatever its case. */
function partitioning(raw: unknown, at: string, errors: string[]): "invariant" | "language" {
  if (raw === undefined || raw === null) return "invariant";
  const value = typeof raw === "string" ? raw.toLowerCase() : "";
  if (value === "invariant" || value === "language") return value;
  errors.push(`${at}.partitioning: Must be invariant or language.`);
  return "invariant";
}

export const flag = (raw: Record<string, unknown>, key: string, at: string, errors: string[]): boolean | undefined => {
  const value = raw[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") errors.push(`${at}.${key}: Must be true or false.`);
  return value === true;
};

export type FieldInput = SchemaInput["fields"][number];
type EntryInput = NonNullable<FieldInput["nested"]>[number];
type FieldFlags = Pick<EntryInput, "isHidden" | "isLocked" | "isDisabled">;

/** A field's flags as a request sets them (only those set); a UI field holds no value to hide or disable. */
function readFlags(raw: Record<string, unknown>, at: string, fieldType: FieldType | undefined, errors: string[]): FieldFlags {
  const out: FieldFlags = {};
  for (const key of ["isHidden", "isLocked", "isDisabled"] as const) {
    if (!flag(raw, key, at, errors)) continue;
    if (fieldType === "UI" && key !== "isLocked") errors.push(`${at}.${key}: A UI field holds no value: it cannot be ${key === "isHidden" ? "hidden" : "disabled"}.`);
    else out[key] = true;
  }
  return out;
}

/** One entry field of an Array field in a request (`at` names it): name, properties, flags; never an Array. */
function readEntryField(raw: unknown, at: string, errors: string[]): EntryInput {
  if (!isPlainObject(raw)) {
    errors.push(`${at}: Must be a field.`);
    return { name: "", properties: { fieldType: "String" } };
  }
  if (typeof raw.name !== "string") errors.push(`${at}.name: Field is required.`);
  const props = readFieldProperties(raw.properties, `${at}.properties`, errors);
  if (props?.fieldType === "Array") errors.push(`${at}.properties.fieldType: Entry fields cannot be Array fields.`);
  if (raw.nested !== undefined && raw.nested !== null) errors.push(`${at}.nested: Entry fields have no entry fields.`);
  return { name: String(raw.name ?? ""), properties: props ?? { fieldType: "String" }, ...readFlags(raw, at, props?.fieldType, errors) };
}

/** One FieldDto of a request (`at` names it in messages): name, partitioning, properties, flags, entries. */
export function readField(raw: unknown, at: string, errors: string[]): FieldInput {
  if (!isPlainObject(raw)) {
    errors.push(`${at}: Must be a field.`);
    return { name: "", partitioning: "invariant", properties: { fieldType: "String" } };
  }
  if (typeof raw.name !== "string") errors.push(`${at}.name: Field is required.`);
  const props = readFieldProperties(raw.properties, `${at}.properties`, errors);
  const field: FieldInput = { name: String(raw.name ?? ""), partitioning: partitioning(raw.partitioning, at, errors), properties: props ?? { fieldType: "String" }, ...readFlags(raw, at, props?.fieldType, errors) };
  if (raw.nested !== undefined && raw.nested !== null) {
    if (!Array.isArray(raw.nested)) errors.push(`${at}.nested: Must be a list of fields.`);
    else if (props?.fieldType !== "Array") {
      if (raw.nested.length) errors.push(`${at}.nested: Only Array fields have nested fields.`);
    } else field.nested = raw.nested.map((n, j) => readEntryField(n, `${at}.nested[${j + 1}]`, errors));
  }
  return field;
}

/** The flag each of Squidex's field toggles sets. */
const TOGGLES = {
  hide: ["isHidden", true],
  show: ["isHidden", false],
  lock: ["isLocked", true],
  disable: ["isDisabled", true],
  enable: ["isDisabled", false],
} as const;
type Toggle = keyof typeof TOGGLES;
const isToggle = (action: string | undefined): action is Toggle => action !== undefined && Object.hasOwn(TOGGLES, action);

/** A field change a request's path names. `parentId`: the Array field whose entries change. */
export type FieldChange =
  | { op: "add"; parentId?: number }
  | { op: "order"; parentId?: number }
  | { op: "update" | "delete" | Toggle; parentId?: number; fieldId: number };

/** A field's number in a path; anything else names no field (404, as Squidex). */
function fieldNumber(ref: string): number {
  if (!/^\d{1,9}$/.test(ref)) throw notFound(`Field "${ref.slice(0, 40)}" not found: fields are named by their number (fieldId).`);
  return Number(ref);
}

/**
 * The field change `method` and `parts` (the path after `schemas/{name}/fields`, lower case) name:
 * `POST` (add), `PUT ordering`, `PUT {id}` (properties), `PUT {id}/{hide|show|lock|enable|disable}`,
 * `DELETE {id}`; each also after `{parentId}/nested/` for an Array field's entries. Undefined for
 * any other path (`fields/ui` is the schema's, see schemas.ts).
 */
export function fieldChange(method: string, parts: readonly string[]): FieldChange | undefined {
  const nested = parts.length >= 2 && parts[1] === "nested";
  const [ref, action, ...extra] = nested ? parts.slice(2) : parts;
  if (extra.length) return undefined;
  let op: FieldChange["op"] | undefined;
  if (ref === undefined) op = method === "POST" ? "add" : undefined;
  else if (ref === "ordering" && action === undefined) op = method === "PUT" ? "order" : undefined;
  else if (action === undefined) op = method === "PUT" ? "update" : method === "DELETE" ? "delete" : undefined;
  else op = method === "PUT" && isToggle(action) ? action : undefined;
  if (!op) return undefined;
  const where = nested ? { parentId: fieldNumber(parts[0]!) } : {};
  if (op === "add") return { op, ...where };
  if (op === "order") return { op, ...where };
  return { op, fieldId: fieldNumber(ref!), ...where };
}

const named = (f: EntryInput) => `Field ${f.fieldId} ("${f.name}")`;

/** A locked Array field's entries stay as they are: none added, changed, moved or deleted. */
function refuseLockedParent(parent: FieldInput | undefined) {
  if (parent?.isLocked) throw badRequest(`${named(parent)} is locked: its entry fields cannot be added, changed, moved or deleted. A lock cannot be undone.`);
}

function refuseLocked(field: EntryInput, parent?: FieldInput) {
  refuseLockedParent(parent);
  if (field.isLocked) throw badRequest(`${named(field)} is locked: it cannot be changed or deleted. A lock cannot be undone.`);
}

/**
 * The fields (top level, or an Array field's entries) in the order `body.fieldIds` gives: each of
 * them exactly once (Squidex's "Field ids do not cover all fields"), else a 400 that says which
 * are missing, unknown or named twice.
 */
function reorder<F extends EntryInput>(list: readonly F[], body: unknown, what: string): F[] {
  const ids = isPlainObject(body) ? body.fieldIds : undefined;
  if (!Array.isArray(ids)) throw validationError([`fieldIds: Send the ids of ${what}, each once, in their new order: { "fieldIds": [ … ] }.`]);
  const bad = ids.findIndex((id) => !Number.isSafeInteger(id));
  if (bad >= 0) throw validationError([`fieldIds[${bad + 1}]: Must be a field id (a whole number).`]);
  const byId = new Map(list.map((f) => [f.fieldId!, f]));
  const seen = new Set<number>();
  const twice = new Set<number>();
  for (const id of ids as number[]) (seen.has(id) ? twice : seen).add(id);
  const unknown = [...seen].filter((id) => !byId.has(id));
  const missing = [...byId.keys()].filter((id) => !seen.has(id));
  if (unknown.length || missing.length || twice.size) {
    const some = (ids: Iterable<number>) => [...ids].slice(0, 20).join(", ");
    throw validationError([
      `fieldIds: Must name every one of ${what} exactly once.`,
      ...(missing.length ? [`fieldIds: Missing ${some(missing)}.`] : []),
      ...(unknown.length ? [`fieldIds: No such field: ${some(unknown)}.`] : []),
      ...(twice.size ? [`fieldIds: Named twice: ${some(twice)}.`] : []),
    ]);
  }
  return (ids as number[]).map((id) => byId.get(id)!);
}

/** A change of one field (or entry field) that `fieldId` names in `list`: properties, a toggle, deletion. */
function changeOne<F extends EntryInput>(list: readonly F[], change: Extract<FieldChange, { fieldId: number }>, body: unknown, missing: string, parent?: FieldInput): F[] {
  const index = list.findIndex((f) => f.fieldId === change.fieldId);
  if (index < 0) throw notFound(missing);
  const field = list[index]!;
  // A lock is the one change a locked field takes (and changes nothing then).
  if (change.op !== "lock") refuseLocked(field, parent);
  if (change.op === "delete") return list.filter((_, i) => i !== index);
  let next: F;
  if (change.op === "update") {
    const errors: string[] = [];
    const props = readFieldProperties(isPlainObject(body) ? body.properties : undefined, "properties", errors);
    if (props && props.fieldType !== field.properties.fieldType) errors.push(`properties.fieldType: A field keeps its kind (${field.properties.fieldType}); add a new field instead.`);
    if (errors.length || !props) throw validationError(errors.length ? errors : ["properties: Field is required."]);
    // Ours, not Squidex's: a Squidex client does not send it, and the field's side-table index stays.
    if (field.properties.isIndexed) props.isIndexed = true;
    next = { ...field, properties: props };
  } else {
    const [key, value] = TOGGLES[change.op];
    if (field.properties.fieldType === "UI" && key !== "isLocked") throw badRequest(`${named(field)} is a UI field: it holds no value, so it cannot be ${change.op === "hide" || change.op === "show" ? "hidden or shown" : "disabled or enabled"}.`);
    next = { ...field, [key]: value };
  }
  return list.map((f, i) => (i === index ? next : f));
}

/** The schema's lists of fields shown in Squidex's editor, without a field that went. */
function withoutListed(properties: SchemaProperties, name: string): SchemaProperties {
  const drop = (list: string[] | undefined) => list?.filter((n) => n !== name);
  const { fieldsInLists, fieldsInReferences } = properties;
  if (!fieldsInLists?.includes(name) && !fieldsInReferences?.includes(name)) return properties;
  return { ...properties, ...(fieldsInLists ? { fieldsInLists: drop(fieldsInLists) } : {}), ...(fieldsInReferences ? { fieldsInReferences: drop(fieldsInReferences) } : {}) };
}

/**
 * The schema's fields (and properties) after `change`, with `body` (the request's, checked here).
 * Fields keep their ids; a new field gets its id from the store. 404 for a field or parent the
 * schema does not have, 400 with the reason for a refused change.
 */
export function applyFieldChange(schema: Schema, change: FieldChange, body: unknown): { fields: FieldInput[]; properties: SchemaProperties } {
  const fields: FieldInput[] = schema.fields.map((f) => ({ ...f }));
  const properties = schema.properties;
  const missing = (id: number, where = `schema "${schema.name}"`) => `Field ${id} not found in ${where}.`;
  const errors: string[] = [];
  if (change.parentId === undefined) {
    if (change.op === "add") {
      const field = readField(body, "field", errors);
      if (fields.some((f) => f.name === field.name)) errors.push(`field.name: The schema has a field "${field.name}" already.`);
      if (errors.length) throw validationError(errors);
      return { fields: [...fields, field], properties };
    }
    if (change.op === "order") return { fields: reorder(fields, body, `the fields of schema "${schema.name}"`), properties };
    const gone = change.op === "delete" ? fields.find((f) => f.fieldId === change.fieldId) : undefined;
    const changed = changeOne(fields, change, body, missing(change.fieldId));
    return { fields: changed, properties: gone ? withoutListed(properties, gone.name) : properties };
  }
  const at = fields.findIndex((f) => f.fieldId === change.parentId);
  if (at < 0) throw notFound(missing(change.parentId));
  const parent = fields[at]!;
  if (parent.properties.fieldType !== "Array") throw notFound(`${named(parent)} of schema "${schema.name}" is a ${parent.properties.fieldType} field: only Array fields have nested fields.`);
  const entries = parent.nested ?? [];
  let next: EntryInput[];
  if (change.op === "add") {
    refuseLockedParent(parent);
    const entry = readEntryField(body, "field", errors);
    if (entries.some((n) => n.name === entry.name)) errors.push(`field.name: ${named(parent)} has an entry field "${entry.name}" already.`);
    if (errors.length) throw validationError(errors);
    next = [...entries, entry];
  } else if (change.op === "order") {
    refuseLockedParent(parent);
    next = reorder(entries, body, `the entry fields of ${named(parent)}`);
  } else next = changeOne(entries, change, body, missing(change.fieldId, `the entry fields of ${named(parent)}`), parent);
  fields[at] = { ...parent, nested: next };
  return { fields, properties };
}
