import { notFound } from "../errors";
import type { NestedField, Schema } from "../types";
import { json, notImplemented, type ApiAnswer, type SquidexHttpContext } from "./respond";

/**
 * Schemas as Squidex serves them: `GET api/apps/{app}/schemas` and `.../schemas/{nameOrId}`.
 * Every resource carries `_links` (the SDK's parser requires the key on schemas, fields and the
 * nested fields of Array fields); this service offers no schema writes through the API, so the
 * links are the read ones Squidex gives a reader: `self` and, for content schemas, `contents`.
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
export async function schemas(method: string, rest: string[], ctx: SquidexHttpContext): Promise<ApiAnswer> {
  const { store, appName } = ctx;
  const [id, ...more] = rest;
  if (method !== "GET") throw notImplemented("Schema management through the Squidex API is not supported by this service; schemas change with the site's code (app/content/seed).");
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
