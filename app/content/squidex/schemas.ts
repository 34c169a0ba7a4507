import { notFound, validationError, versionConflict } from "../errors";
import type { Principal } from "../policy";
import type { FieldProperties, FieldType, NestedField, Schema, SchemaInput, SchemaType } from "../types";
import { isPlainObject, patternProblem } from "../validate";
import { empty, expectedVersion, json, notImplemented, readJsonBody, type ApiAnswer, type ApiRequest, type SquidexHttpContext } from "./respond";

/**
 * Schemas as Squidex serves them: `GET api/apps/{app}/schemas` and `.../schemas/{nameOrId}`,
 * `POST api/apps/{app}/schemas` (a new schema with its fields), `PUT .../{name}/publish` and
 * `/unpublish`, and the schema's properties and fields (add, change, hide/show, delete: see
 * changeSchema). Writes go through the store's `upsertSchema` with the writer named, so the one
 * policy decides (policy.ts, "changeSchema") and every write is audited. A schema the site reads is
 * never deleted (ContentStore.deleteSchema).
 * Every resource carries `_links` (the SDK's parser requires the key on schemas, fields and the
 * nested fields of Array fields): the read ones Squidex gives a reader, `self` and, for content
 * schemas, `contents`.
 */

/** Squidex writes the discriminator first. */
const fieldProperties = ({ fieldType, ...properties }: NestedField["properties"]) => ({ fieldType, ...properties });

export function schemaDto(schema: Schema, appName: string) {
  const self = `/api/apps/${appName}/schemas/${schema.name}`;
  return {
    id: schema.id,
    name: schema.name,
    type: schema.type,
    isSingleton: false,
    isPublished: schema.isPublished,
    properties: schema.properties,
    scripts: {},
    previewUrls: {},
    fieldsInLists: [],
    fieldsInReferences: [],
    fieldRules: [],
    created: schema.created,
    createdBy: schema.createdBy,
    lastModified: schema.lastModified,
    lastModifiedBy: schema.lastModifiedBy,
    version: schema.version,
    fields: schema.fields.map((f) => ({
      fieldId: f.fieldId,
      name: f.name,
      isHidden: !!f.isHidden,
      isLocked: false,
      isDisabled: false,
      partitioning: f.partitioning,
      properties: fieldProperties(f.properties),
      ...(f.nested
        ? {
            nested: f.nested.map((n) => ({
              fieldId: n.fieldId,
              name: n.name,
              isHidden: !!n.isHidden,
              isLocked: false,
              isDisabled: false,
              properties: fieldProperties(n.properties),
              _links: {},
            })),
          }
        : {}),
      _links: {},
    })),
    _links: {
      self: { href: self, method: "GET" },
      ...(schema.type === "Component" ? {} : { contents: { href: `/api/content/${appName}/${schema.name}/`, method: "GET" } }),
    },
  };
}

/** `rest`: the path after `api/apps/{app}/schemas`. */
export async function schemas(request: ApiRequest, method: string, rest: string[], by: Principal, ctx: SquidexHttpContext): Promise<ApiAnswer> {
  const { store, appName } = ctx;
  const [id, ...more] = rest;
  if (method === "POST" && id === undefined) return await createSchema(request, by, ctx);
  const toggle = more[0]?.toLowerCase();
  if (method === "PUT" && id !== undefined && more.length === 1 && (toggle === "publish" || toggle === "unpublish")) return await publishSchema(request, id, toggle === "publish", by, ctx);
  if (id !== undefined && (method === "POST" || method === "PUT" || method === "DELETE")) {
    const changed = await changeSchema(request, method, id, more, by, ctx);
    if (changed) return changed;
  }
  if (method === "DELETE" && id !== undefined && more.length === 0) {
    await store.deleteSchema(id, { by, expectedVersion: expectedVersion(request) });
    return empty(204);
  }
  if (method !== "GET") throw notImplemented("Changing the entries of Array fields one by one is not supported by this service's Squidex API (creating, changing, publishing and deleting schemas and their fields are); send the whole Array field instead.");
  if (more.length) throw notFound(`No Squidex endpoint for GET apps/${appName}/schemas/${rest.join("/")}.`);
  if (id === undefined) {
    return json({
      items: (await store.listSchemas()).map((s) => schemaDto(s, appName)),
      _links: { self: { href: `/api/apps/${appName}/schemas`, method: "GET" } },
    });
  }
  const schema = await store.getSchema(id);
  if (!schema) throw notFound(`Schema "${id}" not found.`);
  return json(schemaDto(schema, appName));
}

/** The field types Squidex has and this service stores (FieldType). */
const FIELD_TYPES: ReadonlySet<FieldType> = new Set<FieldType>(["String", "Number", "Boolean", "DateTime", "Json", "Tags", "Assets", "References", "Geolocation", "Array", "Component", "Components", "RichText", "UI"]);
const SCHEMA_TYPES: ReadonlySet<SchemaType> = new Set<SchemaType>(["Default", "Singleton", "Component"]);

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

const flag = (raw: Record<string, unknown>, key: string, at: string, errors: string[]): boolean | undefined => {
  const value = raw[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") errors.push(`${at}.${key}: Must be true or false.`);
  return value === true;
};

/** Names the content API routes elsewhere (contents.ts, graphql.ts): a schema so named could not be reached. */
const RESERVED_NAMES: ReadonlySet<string> = new Set(["bulk", "graphql"]);

type FieldInput = SchemaInput["fields"][number];

/** One FieldDto of a request (`at` names it in messages): name, partitioning, properties, hidden, entries. */
function readField(raw: unknown, at: string, errors: string[]): FieldInput {
  if (!isPlainObject(raw)) {
    errors.push(`${at}: Must be a field.`);
    return { name: "", partitioning: "invariant", properties: { fieldType: "String" } };
  }
  if (typeof raw.name !== "string") errors.push(`${at}.name: Field is required.`);
  const props = readFieldProperties(raw.properties, `${at}.properties`, errors);
  const isHidden = flag(raw, "isHidden", at, errors);
  const field: FieldInput = { name: String(raw.name ?? ""), partitioning: partitioning(raw.partitioning, at, errors), properties: props ?? { fieldType: "String" }, ...(isHidden ? { isHidden } : {}) };
  if (raw.nested !== undefined && raw.nested !== null) {
    if (!Array.isArray(raw.nested)) errors.push(`${at}.nested: Must be a list of fields.`);
    else if (props?.fieldType !== "Array") {
      if (raw.nested.length) errors.push(`${at}.nested: Only Array fields have nested fields.`);
    } else
      field.nested = raw.nested.map((n, j) => {
        const nat = `${at}.nested[${j + 1}]`;
        if (!isPlainObject(n)) {
          errors.push(`${nat}: Must be a field.`);
          return { name: "", properties: { fieldType: "String" as const } };
        }
        if (typeof n.name !== "string") errors.push(`${nat}.name: Field is required.`);
        const nprops = readFieldProperties(n.properties, `${nat}.properties`, errors);
        if (nprops?.fieldType === "Array") errors.push(`${nat}.properties.fieldType: Entry fields cannot be Array fields.`);
        const nHidden = flag(n, "isHidden", nat, errors);
        return { name: String(n.name ?? ""), properties: nprops ?? { fieldType: "String" as const }, ...(nHidden ? { isHidden: nHidden } : {}) };
      });
  }
  return field;
}


/** Squidex's `CreateSchemaDto` read into a `SchemaInput`; names and field rules the store checks again. */
export function createSchemaInput(body: unknown): SchemaInput {
  if (!isPlainObject(body)) throw validationError(["Send a schema: { name, fields, isPublished }."]);
  const errors: string[] = [];
  if (typeof body.name !== "string" || !body.name) errors.push("name: Field is required.");
  else if (RESERVED_NAMES.has(body.name)) errors.push(`name: "${body.name}" is reserved: api/content/{app}/${body.name} is another endpoint.`);
  let type: SchemaType = "Default";
  if (body.type !== undefined && body.type !== null) {
    if (typeof body.type !== "string" || !SCHEMA_TYPES.has(body.type as SchemaType)) errors.push(`type: Must be one of ${[...SCHEMA_TYPES].join(", ")}.`);
    else type = body.type as SchemaType;
  }
  if (flag(body, "isSingleton", "schema", errors) && type === "Default") type = "Singleton";
  const isPublished = flag(body, "isPublished", "schema", errors) ?? false;
  const properties: SchemaInput["properties"] = {};
  if (body.properties !== undefined && body.properties !== null) {
    if (!isPlainObject(body.properties)) errors.push("properties: Must be an object.");
    else {
      for (const key of ["label", "hints"] as const) {
        const value = body.properties[key];
        if (value === undefined || value === null) continue;
        if (typeof value !== "string") errors.push(`properties.${key}: Must be text.`);
        else properties[key] = value;
      }
      const tags = body.properties.tags;
      if (tags !== undefined && tags !== null) {
        if (!Array.isArray(tags) || !tags.every((t) => typeof t === "string")) errors.push("properties.tags: Must be a list of texts.");
        else properties.tags = [...tags];
      }
    }
  }
  const fields: SchemaInput["fields"] = [];
  if (body.fields !== undefined && body.fields !== null && !Array.isArray(body.fields)) errors.push("fields: Must be a list of fields.");
  const rawFields = Array.isArray(body.fields) ? body.fields : [];
  rawFields.forEach((raw, i) => fields.push(readField(raw, `fields[${i + 1}]`, errors)));
  if (errors.length) throw validationError(errors);
  return { name: body.name as string, type, isPublished, properties, fields };
}

/** `POST api/apps/{app}/schemas`: a new schema; a taken name is a validation error, as in Squidex. */
async function createSchema(request: ApiRequest, by: Principal, ctx: SquidexHttpContext): Promise<ApiAnswer> {
  const input = createSchemaInput(await readJsonBody(request, ctx));
  const schema = await ctx.store.transaction(async (store) => {
    if (await store.getSchema(input.name)) throw validationError([`A schema with the name "${input.name}" already exists.`]);
    return store.upsertSchema(input, { by });
  });
  return json(schemaDto(schema, ctx.appName), 201, { ETag: `"${schema.version}"`, Location: `/api/apps/${ctx.appName}/schemas/${schema.name}` });
}

/** `PUT api/apps/{app}/schemas/{name}/publish` and `/unpublish`: the schema as it is, its flag changed. */
async function publishSchema(request: ApiRequest, nameOrId: string, isPublished: boolean, by: Principal, ctx: SquidexHttpContext): Promise<ApiAnswer> {
  const expected = expectedVersion(request);
  const schema = await ctx.store.transaction(async (store) => {
    const current = await store.getSchema(nameOrId);
    if (!current) throw notFound(`Schema "${nameOrId}" not found.`);
    if (expected !== undefined && expected !== current.version) throw versionConflict(expected, current.version);
    // Already so: nothing is written (Squidex answers the schema as it is).
    if (current.isPublished === isPublished) return current;
    const { name, type, properties, fields } = current;
    return store.upsertSchema({ name, type, properties, fields, isPublished }, { by, expectedVersion: expected });
  });
  return json(schemaDto(schema, ctx.appName), 200, { ETag: `"${schema.version}"` });
}

/**
 * Squidex's schema changes, each a new version of the schema through the store's `upsertSchema`
 * (the one policy decides, every write audited, `If-Match` honoured):
 * - `PUT …/schemas/{name}`: the schema's properties (label, hints, tags);
 * - `POST …/schemas/{name}/fields`: a new field (201);
 * - `PUT …/schemas/{name}/fields/{fieldId}`: the field's properties (its kind stays);
 * - `PUT …/fields/{fieldId}/hide` and `/show`;
 * - `DELETE …/schemas/{name}/fields/{fieldId}`: the field goes (items keep what they had until
 *   their next write, as in Squidex).
 * Answers the schema; undefined for any other path.
 */
async function changeSchema(request: ApiRequest, method: string, nameOrId: string, more: string[], by: Principal, ctx: SquidexHttpContext): Promise<ApiAnswer | undefined> {
  const [area, fieldRef, action, ...extra] = more.map((p) => p.toLowerCase());
  const kind =
    method === "PUT" && more.length === 0
      ? "properties"
      : method === "POST" && area === "fields" && fieldRef === undefined
        ? "add"
        : area === "fields" && fieldRef !== undefined && !extra.length
          ? method === "PUT" && action === undefined
            ? "update"
            : method === "PUT" && (action === "hide" || action === "show")
              ? action
              : method === "DELETE" && action === undefined
                ? "delete"
                : undefined
          : undefined;
  if (!kind) return undefined;
  const fieldId = fieldRef === undefined ? undefined : Number(fieldRef);
  if (fieldRef !== undefined && (!/^\d{1,9}$/.test(fieldRef) || !Number.isSafeInteger(fieldId))) throw notFound(`Field "${fieldRef.slice(0, 40)}" not found: fields are named by their number (fieldId).`);
  const body = kind === "properties" || kind === "add" || kind === "update" ? await readJsonBody(request, ctx) : undefined;
  const expected = expectedVersion(request);
  const schema = await ctx.store.transaction(async (store) => {
    const current = await store.getSchema(nameOrId);
    if (!current) throw notFound(`Schema "${nameOrId}" not found.`);
    if (expected !== undefined && expected !== current.version) throw versionConflict(expected, current.version);
    const { name, type, isPublished } = current;
    let properties = current.properties;
    let fields: FieldInput[] = current.fields.map((f) => ({ ...f }));
    const errors: string[] = [];
    if (kind === "properties") {
      if (!isPlainObject(body)) throw validationError(["Send the schema's properties: { label, hints, tags }."]);
      const input = createSchemaInput({ name, fields: [], properties: body });
      properties = { ...current.properties, ...input.properties };
    } else if (kind === "add") {
      const field = readField(body, "field", errors);
      if (fields.some((f) => f.name === field.name)) errors.push(`field.name: The schema has a field "${field.name}" already.`);
      if (errors.length) throw validationError(errors);
      fields = [...fields, field];
    } else {
      const index = fields.findIndex((f) => f.fieldId === fieldId);
      if (index < 0) throw notFound(`Field ${fieldId} not found in schema "${name}".`);
      const field = fields[index]!;
      if (kind === "delete") fields.splice(index, 1);
      else if (kind === "hide" || kind === "show") fields[index] = { ...field, isHidden: kind === "hide" };
      else {
        const raw = isPlainObject(body) ? body.properties : undefined;
        const props = readFieldProperties(raw, "properties", errors);
        if (props && props.fieldType !== field.properties.fieldType) errors.push(`properties.fieldType: A field keeps its kind (${field.properties.fieldType}); add a new field instead.`);
        if (errors.length || !props) throw validationError(errors.length ? errors : ["properties: Field is required."]);
        fields[index] = { ...field, properties: props };
      }
    }
    return store.upsertSchema({ name, type, isPublished, properties, fields }, { by, expectedVersion: expected });
  });
  return json(schemaDto(schema, ctx.appName), kind === "add" ? 201 : 200, { ETag: `"${schema.version}"` });
}
