import { notFound, validationError, versionConflict } from "../errors";
import { authorize, type Principal } from "../policy";
import type { NestedField, Schema, SchemaInput, SchemaProperties, SchemaType } from "../types";
import { isPlainObject } from "../validate";
import { empty, expectedVersion, json, notImplemented, readJsonBody, type ApiAnswer, type ApiRequest, type SquidexHttpContext } from "./respond";
import { applyFieldChange, fieldChange, flag, readField, type FieldChange } from "./schema-fields";

/**
 * Schemas as Squidex serves them: `GET api/apps/{app}/schemas` and `.../schemas/{nameOrId}`,
 * `POST api/apps/{app}/schemas` (a new schema with its fields), `PUT .../{name}/publish` and
 * `/unpublish`, the schema's properties, category, preview URLs and editor lists, and its fields
 * and the entries of its Array fields (schema-fields.ts; see changeSchema). Writes go through the
 * store's `upsertSchema` with the writer named, so the one policy decides (policy.ts,
 * "changeSchema") and every write is audited. A schema the site reads is never deleted
 * (ContentStore.deleteSchema). A whole schema is synchronized (`…/sync`); scripts and field rules answer 501.
 * Every resource carries `_links` (the SDK's parser requires the key on schemas, fields and the
 * nested fields of Array fields): the read ones Squidex gives a reader, `self` and, for content
 * schemas, `contents`.
 */

/** Squidex writes the discriminator first. */
const fieldProperties = ({ fieldType, ...properties }: NestedField["properties"]) => ({ fieldType, ...properties });

/** A stored field (or entry field) as Squidex's `NestedFieldDto`; a field adds partitioning and entries. */
const fieldFlags = (f: NestedField) => ({ fieldId: f.fieldId, name: f.name, isHidden: !!f.isHidden, isLocked: !!f.isLocked, isDisabled: !!f.isDisabled });

export function schemaDto(schema: Schema, appName: string) {
  const self = `/api/apps/${appName}/schemas/${schema.name}`;
  // Squidex keeps these beside the properties; we keep them in them (SchemaProperties).
  const { category, previewUrls, fieldsInLists, fieldsInReferences, ...properties } = schema.properties;
  return {
    id: schema.id,
    name: schema.name,
    type: schema.type,
    ...(category ? { category } : {}),
    isSingleton: false,
    isPublished: schema.isPublished,
    properties,
    scripts: {},
    previewUrls: previewUrls ?? {},
    fieldsInLists: fieldsInLists ?? [],
    fieldsInReferences: fieldsInReferences ?? [],
    fieldRules: [],
    created: schema.created,
    createdBy: schema.createdBy,
    lastModified: schema.lastModified,
    lastModifiedBy: schema.lastModifiedBy,
    version: schema.version,
    fields: schema.fields.map((f) => ({
      ...fieldFlags(f),
      partitioning: f.partitioning,
      properties: fieldProperties(f.properties),
      ...(f.nested ? { nested: f.nested.map((n) => ({ ...fieldFlags(n), properties: fieldProperties(n.properties), _links: {} })) } : {}),
      _links: {},
    })),
    _links: {
      self: { href: self, method: "GET" },
      ...(schema.type === "Component" ? {} : { contents: { href: `/api/content/${appName}/${schema.name}/`, method: "GET" } }),
    },
  };
}

/** Squidex's schema endpoints this service does not offer, by the last part of their path (all `PUT`). */
const NOT_OFFERED: Record<string, string> = {
  scripts: "Schema scripts are not supported by this service's Squidex API: it runs no scripts, so it keeps none.",
  rules: "Field rules (Squidex's editor rules that hide or disable fields) are not supported by this service's Squidex API.",
};

/** `rest`: the path after `api/apps/{app}/schemas`. */
export async function schemas(request: ApiRequest, method: string, rest: string[], by: Principal, ctx: SquidexHttpContext): Promise<ApiAnswer> {
  const { store, appName } = ctx;
  const [id, ...more] = rest;
  const nowhere = () => notFound(`No Squidex endpoint for ${method} apps/${appName}/schemas/${rest.join("/").slice(0, 200)}.`);
  if (method === "POST" && id === undefined) return await createSchema(request, by, ctx);
  if (id !== undefined && (method === "POST" || method === "PUT" || method === "DELETE")) {
    const toggle = more[0]?.toLowerCase();
    if (method === "PUT" && more.length === 1 && (toggle === "publish" || toggle === "unpublish")) return await publishSchema(request, id, toggle === "publish", by, ctx);
    if (method === "PUT" && more.length === 1 && toggle === "sync") return await syncSchema(request, id, by, ctx);
    const changed = await changeSchema(request, method, id, more, by, ctx);
    if (changed) return changed;
    if (method === "DELETE" && more.length === 0) {
      await store.deleteSchema(id, { by, expectedVersion: expectedVersion(request) });
      return empty(204);
    }
    if (method === "PUT" && more.length === 1 && toggle !== undefined && Object.hasOwn(NOT_OFFERED, toggle)) throw notImplemented(NOT_OFFERED[toggle]!);
  }
  if (method !== "GET" || more.length) throw nowhere();
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

const SCHEMA_TYPES: ReadonlySet<SchemaType> = new Set<SchemaType>(["Default", "Singleton", "Component"]);

/** Names the content API routes elsewhere (contents.ts, graphql.ts): a schema so named could not be reached. */
const RESERVED_NAMES: ReadonlySet<string> = new Set(["bulk", "graphql"]);

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
  // Squidex's settings beside the properties, when the new schema comes with them.
  Object.assign(properties, readCategory(body.category, "category", errors));
  if (body.previewUrls !== undefined && body.previewUrls !== null) Object.assign(properties, readPreviewUrls(body.previewUrls, "previewUrls", errors));
  Object.assign(properties, readEditorLists(body, fields, errors));
  if (errors.length) throw validationError(errors);
  return { name: body.name as string, type, isPublished, properties, fields };
}

/** A schema's category (Squidex's editor groups schemas by it), or none (null or empty). */
function readCategory(name: unknown, at: string, errors: string[]): Pick<SchemaProperties, "category"> {
  if (name !== undefined && name !== null && typeof name !== "string") errors.push(`${at}: Must be text, or null for none.`);
  return typeof name === "string" && name.trim() ? { category: name.trim() } : {};
}

/** Squidex's preview URLs: a name for each URL template (`{"web": "https://…/{{id}}"}`), both text. */
function readPreviewUrls(raw: unknown, at: string, errors: string[]): Pick<SchemaProperties, "previewUrls"> {
  if (!isPlainObject(raw)) {
    errors.push(`${at}: Send an object of names and URL templates: { "web": "https://…/{{id}}" }.`);
    return {};
  }
  const entries = Object.entries(raw);
  for (const [key, value] of entries) {
    if (!key.trim()) errors.push(`${at}: A preview URL needs a name.`);
    else if (typeof value !== "string") errors.push(`${at}.${key.slice(0, 40)}: Must be text (a URL template).`);
  }
  return entries.length ? { previewUrls: Object.fromEntries(entries) as Record<string, string> } : {};
}

/**
 * Squidex's `fieldsInLists` and `fieldsInReferences` (which fields its editor shows in lists and
 * in references) as Squidex checks them: names of the schema's fields, no UI field, each once; in
 * lists also Squidex's `meta.*` columns. Left out or null: none.
 */
function readEditorLists(raw: Record<string, unknown>, fields: ReadonlyArray<{ name: string; properties: { fieldType: string } }>, errors: string[]): Pick<SchemaProperties, "fieldsInLists" | "fieldsInReferences"> {
  const out: Pick<SchemaProperties, "fieldsInLists" | "fieldsInReferences"> = {};
  for (const key of ["fieldsInLists", "fieldsInReferences"] as const) {
    const list = raw[key];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) {
      errors.push(`${key}: Must be a list of field names.`);
      continue;
    }
    const seen = new Set<string>();
    list.forEach((name, i) => {
      const at = `${key}[${i + 1}]`;
      const field = typeof name === "string" ? fields.find((f) => f.name === name) : undefined;
      if (typeof name !== "string" || !name.trim()) errors.push(`${at}: Must be a field name.`);
      else if (seen.has(name)) errors.push(`${at}: "${name.slice(0, 60)}" is named twice.`);
      else if (!field && !(key === "fieldsInLists" && name.startsWith("meta."))) errors.push(`${at}: The schema has no field "${name.slice(0, 60)}".`);
      else if (field?.properties.fieldType === "UI") errors.push(`${at}: "${name}" is a UI field: it holds no value to show.`);
      if (typeof name === "string") seen.add(name);
    });
    if (list.length) out[key] = [...(list as string[])];
  }
  return out;
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
 * `PUT api/apps/{app}/schemas/{name}/sync` (Squidex's SynchronizeSchemaDto, what the Squidex CLI's
 * schema sync sends): the schema becomes the one described, in one new version. Fields are matched by
 * name and keep their ids; a field described with another kind is made anew under a new id (refused
 * with `noFieldRecreation`); a field not described goes (kept with `noFieldDeletion`); a locked field
 * is neither changed nor removed (400). Properties, category, preview URLs, editor lists and the
 * publish state are the ones described. Scripts and field rules are refused when given (this service
 * runs neither), never silently dropped.
 */
async function syncSchema(request: ApiRequest, nameOrId: string, by: Principal, ctx: SquidexHttpContext): Promise<ApiAnswer> {
  // Asked before the body is read (the store asks again when it writes).
  authorize(by, "changeSchema", (await ctx.store.getSchema(nameOrId))?.name ?? nameOrId);
  const body = await readJsonBody(request, ctx);
  if (!isPlainObject(body)) throw validationError(["Send the schema as it should be: { fields, properties, category, previewUrls, fieldsInLists, fieldsInReferences, isPublished }."]);
  const given = (v: unknown) => v !== undefined && v !== null && !(Array.isArray(v) && !v.length) && !(isPlainObject(v) && Object.values(v).every((x) => x === null || x === undefined || x === ""));
  const unsupported = [given(body.scripts) ? "scripts" : "", given(body.fieldRules) ? "fieldRules" : ""].filter(Boolean);
  if (unsupported.length) throw validationError([`${unsupported.join(", ")}: not supported by this service (it runs no schema scripts and keeps no editor field rules); leave ${unsupported.length > 1 ? "them" : "it"} out.`]);
  const errors: string[] = [];
  const noDeletion = flag(body, "noFieldDeletion", "schema", errors) ?? false;
  const noRecreation = flag(body, "noFieldRecreation", "schema", errors) ?? false;
  if (errors.length) throw validationError(errors);
  const expected = expectedVersion(request);
  const schema = await ctx.store.transaction(async (store) => {
    const current = await store.getSchema(nameOrId);
    if (!current) throw notFound(`Schema "${nameOrId}" not found.`);
    if (expected !== undefined && expected !== current.version) throw versionConflict(expected, current.version);
    const wanted = createSchemaInput({ ...body, name: current.name, type: current.type, isPublished: body.isPublished ?? current.isPublished });
    const problems: string[] = [];
    let nextId = Math.max(0, ...current.fields.map((f) => f.fieldId));
    const fields = wanted.fields.map((field) => {
      const before = current.fields.find((f) => f.name === field.name);
      if (!before) return field;
      const recreate = before.properties.fieldType !== field.properties.fieldType || (before.partitioning ?? "invariant") !== (field.partitioning ?? "invariant");
      if (before.isLocked && (recreate || JSON.stringify(before.properties) !== JSON.stringify({ ...before.properties, ...field.properties })))
        problems.push(`fields.${field.name}: The field is locked: it cannot be changed.`);
      if (!recreate) return { ...field, fieldId: before.fieldId, isLocked: field.isLocked || before.isLocked };
      if (noRecreation) problems.push(`fields.${field.name}: It would be made anew as ${field.properties.fieldType} (it is ${before.properties.fieldType}), and noFieldRecreation is set.`);
      return { ...field, fieldId: ++nextId };
    });
    for (const before of current.fields) {
      if (wanted.fields.some((f) => f.name === before.name)) continue;
      if (noDeletion) fields.push(before);
      else if (before.isLocked) problems.push(`fields.${before.name}: The field is locked: it cannot be deleted.`);
    }
    if (problems.length) throw validationError(problems);
    return store.upsertSchema({ name: current.name, type: current.type, isPublished: wanted.isPublished, properties: wanted.properties, fields }, { by, expectedVersion: current.version });
  });
  return json(schemaDto(schema, ctx.appName), 200, { ETag: `"${schema.version}"` });
}

/** A change of the schema's own settings, by its path: properties, category, preview URLs, editor lists. */
type SettingChange = "properties" | "category" | "preview-urls" | "ui";

function settingChange(method: string, parts: readonly string[]): SettingChange | undefined {
  if (method !== "PUT") return undefined;
  if (parts.length === 0) return "properties";
  if (parts.length === 1 && (parts[0] === "category" || parts[0] === "preview-urls")) return parts[0];
  return parts.length === 2 && parts[0] === "fields" && parts[1] === "ui" ? "ui" : undefined;
}

const without = (properties: SchemaProperties, ...keys: Array<keyof SchemaProperties>): SchemaProperties =>
  Object.fromEntries(Object.entries(properties).filter(([key]) => !(keys as string[]).includes(key)));

/** The schema's properties after `change`, with `body` (the request's, checked here). */
function applySetting(current: Schema, change: SettingChange, body: unknown): SchemaProperties {
  const errors: string[] = [];
  let properties: SchemaProperties;
  if (change === "properties") {
    if (!isPlainObject(body)) throw validationError(["Send the schema's properties: { label, hints, tags }."]);
    properties = { ...current.properties, ...createSchemaInput({ name: current.name, fields: [], properties: body }).properties };
  } else if (change === "category") {
    if (!isPlainObject(body)) throw validationError(['Send the category: { "name": "…" }, or { "name": null } for none.']);
    properties = { ...without(current.properties, "category"), ...readCategory(body.name, "name", errors) };
  } else if (change === "preview-urls") {
    properties = { ...without(current.properties, "previewUrls"), ...readPreviewUrls(body, "previewUrls", errors) };
  } else {
    if (!isPlainObject(body)) throw validationError(['Send the lists: { "fieldsInLists": [ … ], "fieldsInReferences": [ … ] }.']);
    properties = { ...without(current.properties, "fieldsInLists", "fieldsInReferences"), ...readEditorLists(body, current.fields, errors) };
  }
  if (errors.length) throw validationError(errors);
  return properties;
}

/**
 * Squidex's schema changes, each a new version of the schema through the store's `upsertSchema`
 * (the one policy decides, every write audited, `If-Match` honoured):
 * - `PUT …/schemas/{name}`: the schema's properties (label, hints, tags);
 * - `PUT …/{name}/category`, `…/preview-urls`, `…/fields/ui` (fieldsInLists, fieldsInReferences):
 *   kept in the properties (SchemaProperties), served where Squidex has them;
 * - the fields, and the entries of Array fields (`…/fields/{parentId}/nested…`): add (201),
 *   properties (a field keeps its kind), hide/show, lock, enable/disable, delete, order
 *   (schema-fields.ts). A dropped field's values stay in the items until their next write, as in
 *   Squidex.
 * Answers the schema; undefined for any other path.
 */
async function changeSchema(request: ApiRequest, method: string, nameOrId: string, more: string[], by: Principal, ctx: SquidexHttpContext): Promise<ApiAnswer | undefined> {
  const parts = more.map((p) => p.toLowerCase());
  const setting = settingChange(method, parts);
  const field: FieldChange | undefined = setting || parts[0] !== "fields" ? undefined : fieldChange(method, parts.slice(1));
  if (!setting && !field) return undefined;
  const takesBody = setting !== undefined || field?.op === "add" || field?.op === "update" || field?.op === "order";
  const body = takesBody ? await readJsonBody(request, ctx) : undefined;
  const expected = expectedVersion(request);
  const schema = await ctx.store.transaction(async (store) => {
    const current = await store.getSchema(nameOrId);
    if (!current) throw notFound(`Schema "${nameOrId}" not found.`);
    // The store asks again as it writes; asked first, a refused writer learns nothing of the schema's fields.
    authorize(by, "changeSchema", current.name);
    if (expected !== undefined && expected !== current.version) throw versionConflict(expected, current.version);
    const { name, type, isPublished } = current;
    const next = setting ? { fields: current.fields, properties: applySetting(current, setting, body) } : applyFieldChange(current, field!, body);
    return store.upsertSchema({ name, type, isPublished, ...next }, { by, expectedVersion: expected });
  });
  return json(schemaDto(schema, ctx.appName), field?.op === "add" ? 201 : 200, { ETag: `"${schema.version}"` });
}
