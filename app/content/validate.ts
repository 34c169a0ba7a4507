import type { FieldProperties, NestedField, Schema, SchemaField } from "./types";

/**
 * Validates content data against its schema, the way Squidex reports it: one `"path: message"` entry
 * per problem, so an editor sees every bad field at once. An empty list means the data may be stored.
 */
export interface ValidationContext {
  languages: readonly string[];
  masterLanguage: string;
  /** Looks up component schemas by name or id (for Component/Components fields). */
  componentSchema: (nameOrId: string) => Schema | undefined;
}

const RESERVED_COMPONENT_KEYS = new Set(["schemaId", "schemaName", "id", "active"]);

export function validateData(schema: Schema, data: unknown, ctx: ValidationContext): string[] {
  const errors: string[] = [];
  if (!isPlainObject(data)) return ["Request body has an invalid format: data must be an object."];
  const fields = new Map(schema.fields.map((f) => [f.name, f]));
  for (const key of Object.keys(data)) {
    if (!fields.has(key)) errors.push(`${key}: Not a known field.`);
  }
  for (const field of schema.fields) {
    const partitions = data[field.name];
    if (partitions === undefined || partitions === null) {
      if (field.properties.isRequired) {
        const key = field.partitioning === "language" ? ctx.masterLanguage : "iv";
        errors.push(`${field.name}.${key}: Field is required.`);
      }
      continue;
    }
    if (!isPlainObject(partitions)) {
      errors.push(`${field.name}: Must be an object with ${field.partitioning === "language" ? "language keys" : "the key iv"}.`);
      continue;
    }
    validatePartitions(field, partitions, ctx, errors);
  }
  return errors;
}

function validatePartitions(field: SchemaField, partitions: Record<string, unknown>, ctx: ValidationContext, errors: string[]) {
  if (field.partitioning === "invariant") {
    for (const key of Object.keys(partitions)) {
      if (key !== "iv") errors.push(`${field.name}.${key}: Not a known invariant value.`);
    }
    validateValue(field.properties, field.nested, partitions.iv, `${field.name}.iv`, ctx, errors);
    return;
  }
  for (const key of Object.keys(partitions)) {
    if (!ctx.languages.includes(key)) errors.push(`${field.name}.${key}: Not a known language.`);
  }
  for (const language of ctx.languages) {
    const required = language === ctx.masterLanguage;
    validateValue(
      { ...field.properties, isRequired: field.properties.isRequired && required },
      field.nested,
      partitions[language],
      `${field.name}.${language}`,
      ctx,
      errors,
    );
  }
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);
}

export function validateValue(
  props: FieldProperties,
  nested: NestedField[] | undefined,
  value: unknown,
  path: string,
  ctx: ValidationContext,
  errors: string[],
): void {
  if (props.fieldType === "UI") {
    if (value !== undefined && value !== null) errors.push(`${path}: UI fields hold no value.`);
    return;
  }
  if (isEmpty(value)) {
    if (props.isRequired) errors.push(`${path}: Field is required.`);
    if (value === undefined || value === null) return;
  }
  const fail = (message: string) => errors.push(`${path}: ${message}`);
  switch (props.fieldType) {
    case "String": {
      if (typeof value !== "string") return void fail("Invalid json type, expected string.");
      checkLength(value.length, props, fail, "character(s)");
      if (props.pattern && value !== "") {
        // A schema from before the check below, or written around it: not run at all (fail closed).
        if (patternProblem(props.pattern)) fail("The schema's pattern for this field cannot be checked safely; ask an administrator to simplify it.");
        else if (!new RegExp(props.pattern).test(value)) fail("Must follow the pattern.");
      }
      if (props.allowedValues?.length && value !== "" && !props.allowedValues.includes(value)) fail("Not an allowed value.");
      return;
    }
    case "Number": {
      if (typeof value !== "number" || !Number.isFinite(value)) return void fail("Invalid json type, expected number.");
      if (props.minValue !== undefined && value < props.minValue) fail(`Must be greater or equal to ${props.minValue}.`);
      if (props.maxValue !== undefined && value > props.maxValue) fail(`Must be less or equal to ${props.maxValue}.`);
      if (props.allowedValues?.length && !props.allowedValues.includes(value)) fail("Not an allowed value.");
      return;
    }
    case "Boolean":
      if (typeof value !== "boolean") fail("Invalid json type, expected boolean.");
      return;
    case "DateTime":
      if (typeof value !== "string" || !ISO_DATE.test(value) || !isRealDate(value))
        fail("Invalid json type, expected ISO-8601 date time string.");
      return;
    case "Json":
      return;
    case "RichText":
      if (typeof value !== "string" && !isPlainObject(value)) fail("Invalid json type, expected rich text.");
      return;
    case "Geolocation": {
      if (!isPlainObject(value)) return void fail("Invalid json type, expected latitude/longitude object.");
      const { latitude, longitude } = value;
      if (typeof latitude !== "number" || latitude < -90 || latitude > 90) fail("Latitude must be between -90 and 90.");
      if (typeof longitude !== "number" || longitude < -180 || longitude > 180) fail("Longitude must be between -180 and 180.");
      return;
    }
    case "Tags":
    case "Assets":
    case "References": {
      if (!Array.isArray(value) || value.some((v) => typeof v !== "string"))
        return void fail("Invalid json type, expected array of strings.");
      checkItems(value.length, props, fail);
      if (props.fieldType === "Tags" && props.allowedValues?.length) {
        for (const v of value) if (!props.allowedValues.includes(v)) fail(`"${v}" is not an allowed value.`);
      }
      return;
    }
    case "Array": {
      if (!Array.isArray(value) || value.some((v) => !isPlainObject(v)))
        return void fail("Invalid json type, expected array of objects.");
      checkItems(value.length, props, fail);
      value.forEach((entry, i) => validateObject(nested ?? [], entry as Record<string, unknown>, `${path}[${i + 1}]`, ctx, errors));
      return;
    }
    case "Component":
      validateComponent(props, value, path, ctx, errors);
      return;
    case "Components": {
      if (!Array.isArray(value)) return void fail("Invalid json type, expected array of components.");
      checkItems(value.length, props, fail);
      value.forEach((entry, i) => validateComponent(props, entry, `${path}[${i + 1}]`, ctx, errors));
      return;
    }
  }
}

function validateComponent(props: FieldProperties, value: unknown, path: string, ctx: ValidationContext, errors: string[]) {
  if (!isPlainObject(value)) return void errors.push(`${path}: Invalid json type, expected component object.`);
  const ref = typeof value.schemaId === "string" ? value.schemaId : typeof value.schemaName === "string" ? value.schemaName : undefined;
  if (!ref) return void errors.push(`${path}: Component must name its schema (schemaId).`);
  const schema = ctx.componentSchema(ref);
  if (!schema || schema.type !== "Component") return void errors.push(`${path}: Unknown component schema "${ref}".`);
  if (props.schemaIds?.length && !props.schemaIds.includes(schema.name) && !props.schemaIds.includes(schema.id))
    return void errors.push(`${path}: Component schema "${schema.name}" is not allowed here.`);
  const entries = Object.fromEntries(Object.entries(value).filter(([k]) => !RESERVED_COMPONENT_KEYS.has(k)));
  validateObject(schema.fields, entries, path, ctx, errors);
}

function validateObject(fields: NestedField[], value: Record<string, unknown>, path: string, ctx: ValidationContext, errors: string[]) {
  const known = new Map(fields.map((f) => [f.name, f]));
  for (const key of Object.keys(value)) if (!known.has(key)) errors.push(`${path}.${key}: Not a known field.`);
  for (const f of fields) {
    validateValue(f.properties, (f as SchemaField).nested, value[f.name], `${path}.${f.name}`, ctx, errors);
  }
}

function checkLength(length: number, props: FieldProperties, fail: (m: string) => void, unit: string) {
  if (length === 0) return;
  const { minLength: min, maxLength: max } = props;
  if (min !== undefined && max !== undefined && (length < min || length > max)) fail(`Must have between ${min} and ${max} ${unit}.`);
  else if (min !== undefined && length < min) fail(`Must have at least ${min} ${unit}.`);
  else if (max !== undefined && length > max) fail(`Must not have more than ${max} ${unit}.`);
}

function checkItems(count: number, props: FieldProperties, fail: (m: string) => void) {
  if (props.minItems !== undefined && count < props.minItems) fail(`Must have at least ${props.minItems} item(s).`);
  if (props.maxItems !== undefined && count > props.maxItems) fail(`Must not have more than ${props.maxItems} item(s).`);
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** Rejects dates that `Date.parse` would roll over, such as 2024-02-30. */
function isRealDate(value: string): boolean {
  if (Number.isNaN(Date.parse(value))) return false;
  const [y, m, d] = value.slice(0, 10).split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Longest field pattern a schema may hold. */
export const PATTERN_MAX_LENGTH = 200;

/**
 * Why a field's pattern may not be run on every content write, or null when it may. The patterns
 * are JavaScript regular expressions run on the server, so one that backtracks catastrophically
 * (`(a+)+$`, `(a|aa)*$`) would stall the server on one crafted value: refused are patterns over
 * PATTERN_MAX_LENGTH characters, back-references, and a repeated group that holds an unbounded
 * repeat or an alternation. Squidex's own patterns (letters, digits, classes, anchors, simple repeats)
 * pass.
 */
export function patternProblem(pattern: string): string | null {
  if (pattern.length > PATTERN_MAX_LENGTH) return `Must be at most ${PATTERN_MAX_LENGTH} characters.`;
  try {
    new RegExp(pattern);
  } catch {
    return "Not a valid regular expression.";
  }
  if (/\\[1-9]|\\k</.test(pattern)) return "Back-references are not allowed (they make checking slow).";
  // Groups, innermost first: a group with a quantifier or an alternation inside, itself repeated.
  const stripped = pattern.replace(/\\./g, "_").replace(/\[(?:[^\]\\]|\\.)*\]/g, "_");
  const stack: number[] = [];
  for (let i = 0; i < stripped.length; i++) {
    const c = stripped[i];
    if (c === "(") stack.push(i);
    else if (c === ")" && stack.length) {
      const start = stack.pop()!;
      const inner = stripped.slice(start + 1, i);
      const after = stripped[i + 1];
      // Repeated (not just optional), holding an unbounded repeat (`*`, `+`, `{n,}`) or an alternative.
      if ((after === "*" || after === "+" || after === "{") && /[*+|]|\{\d*,\}/.test(inner))
        return "A repeated group may not hold a repeat or an alternative (it makes checking slow).";
    }
  }
  return null;
}
