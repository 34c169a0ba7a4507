import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLInt,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  type GraphQLFieldConfigMap,
  type GraphQLOutputType,
} from "graphql";
import type { ContentClient, ReadScope } from "../client";
import { MAX_VISITOR_SKIP, MAX_VISITOR_SORT_KEYS } from "../limits";
import { parseCollectionUrl, MAX_TAKE } from "../query";
import { LANGUAGES } from "../store";
import { badRequest } from "../errors";
import { visitorFields, visitorReadable, type Collection } from "../public-api";
import { STATUS_COLORS } from "../squidex/contents";
import type { ContentQuery, FlatItem, Schema, SchemaField } from "../types";
import { Loaders } from "./loader";
import { fieldNames, findField, languageField, queryField, queryWithTotalField, referencingField, typeNames } from "./naming";

/**
 * The GraphQL schema of the content store, generated from its content schemas with Squidex's names
 * (naming.ts, shared/squidex-contract.md §5). Two variants: visitors see the collections and fields
 * the site shows them; editors (client tokens, sessions) every published content schema and field.
 * Every read goes through the ContentClient with the caller's audience, so visibility is decided
 * where it is for every other reader. See docs/decisions/0034-graphql.md.
 */

export type GraphQLAudience = "visitor" | "editor";

/** What resolvers get for one request. */
export interface GraphQLContext {
  client: ContentClient;
  audience: GraphQLAudience;
  /** Editors only: drafts instead of published data (X-Unpublished). */
  unpublished: boolean;
  /** flatData's language (German fallback). */
  language: string;
  loaders: Loaders;
}

/** One content item as resolvers pass it on: flattened to `language`. */
interface ContentSource {
  schema: string;
  language: string;
  item: FlatItem;
}

/** Default page of a list field when `top` is not given (the cost estimate uses the same). */
export const DEFAULT_TOP = MAX_TAKE;
export const DEFAULT_REFERENCING_TOP = 20;

const scopeOf = (ctx: GraphQLContext, language = ctx.language): ReadScope => ({ audience: ctx.audience, language, unpublished: ctx.unpublished });

export const JsonScalar = new GraphQLScalarType({
  name: "JsonScalar",
  description: "Any JSON value: components, arrays, geolocations, asset ids.",
  serialize: (value) => value,
});

export const Instant = new GraphQLScalarType({
  name: "Instant",
  description: "A point in time as an ISO 8601 UTC string, e.g. 2026-03-01T09:15:00Z.",
  serialize: (value) => {
    if (typeof value !== "string") throw new TypeError("An instant must be an ISO 8601 string.");
    return value;
  },
});

function scalarOf(field: SchemaField): GraphQLOutputType {
  switch (field.properties.fieldType) {
    case "String":
      return GraphQLString;
    case "Number":
      return GraphQLFloat;
    case "Boolean":
      return GraphQLBoolean;
    case "DateTime":
      return Instant;
    case "Tags":
      return new GraphQLList(new GraphQLNonNull(GraphQLString));
    default:
      return JsonScalar;
  }
}

/** A list field's arguments as the REST path's collection URL, parsed and checked by the same code. */
export function listQuery(schemaName: string, args: { top?: number | null; skip?: number | null; filter?: string | null; orderby?: string | null; search?: string | null }, audience: GraphQLAudience): ContentQuery {
  const params = new URLSearchParams();
  if (args.top !== undefined && args.top !== null) params.set("$top", String(args.top));
  if (args.skip !== undefined && args.skip !== null) params.set("$skip", String(args.skip));
  if (args.filter) params.set("$filter", args.filter);
  if (args.orderby) params.set("$orderby", args.orderby);
  if (args.search) params.set("$search", args.search);
  const { query } = parseCollectionUrl(`${schemaName}?${params.toString()}`);
  if (audience === "visitor") {
    // The same bounds the site's /api/rest puts on a visitor's query.
    if ((query.sort?.length ?? 0) > MAX_VISITOR_SORT_KEYS) throw badRequest(`Visitors sort by at most ${MAX_VISITOR_SORT_KEYS} key.`);
    if ((query.skip ?? 0) > MAX_VISITOR_SKIP) throw badRequest(`Visitors skip at most ${MAX_VISITOR_SKIP} items.`);
  }
  return query;
}

/** The batch loader of items of one schema in one language, by id. */
function itemLoader(ctx: GraphQLContext, schema: string, language: string) {
  return ctx.loaders.get<FlatItem>(`item:${schema}:${language}`, async (ids) => {
    const found = new Map<string, FlatItem>();
    for (let i = 0; i < ids.length; i += MAX_TAKE) {
      const { items } = await ctx.client.query(schema as Collection, { ids: ids.slice(i, i + MAX_TAKE) }, scopeOf(ctx, language), { noTotal: true });
      for (const item of items) found.set(item.id, item);
    }
    return found;
  });
}

const idsIn = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

/**
 * The batch loader of the items of `from` whose reference `fields` point at given ids: one query per
 * chunk of ids (a filter `field eq id or …`); a chunk whose page comes back full is split and asked
 * again, so no item's list is cut short by its neighbours'.
 */
function referencingLoader(ctx: GraphQLContext, from: string, fields: readonly string[], language: string, want: number) {
  return ctx.loaders.get<FlatItem[]>(`referencing:${from}:${fields.join(",")}:${language}:${want}`, async (ids) => {
    const scope = scopeOf(ctx, language);
    const read = async (chunk: string[], take: number) => {
      const filter = { or: chunk.flatMap((id) => fields.map((f) => ({ path: `data.${f}.iv`, op: "eq" as const, value: id }))) };
      return (await ctx.client.query(from as Collection, { filter, take }, scope, { noTotal: true })).items;
    };
    const found = new Map<string, FlatItem[]>(ids.map((id) => [id, []]));
    const file = (items: FlatItem[], chunk: string[]) => {
      for (const item of items)
        for (const id of chunk) if (fields.some((f) => idsIn(item.data[f]).includes(id))) found.get(id)!.push(item);
    };
    // A full page may have cut some item's list short: ask again for each half of the chunk, down
    // to single ids (which need only `want`). Items with few referrers stay in one query.
    const load = async (chunk: string[]): Promise<void> => {
      if (chunk.length === 1) return file(await read(chunk, want), chunk);
      const items = await read(chunk, MAX_TAKE);
      if (items.length < MAX_TAKE) return file(items, chunk);
      const half = Math.ceil(chunk.length / 2);
      await load(chunk.slice(0, half));
      await load(chunk.slice(half));
    };
    const size = Math.max(1, Math.min(Math.floor(MAX_TAKE / want), Math.floor(200 / fields.length)));
    for (let i = 0; i < ids.length; i += size) await load(ids.slice(i, i + size));
    return found;
  });
}

const source = (schema: string, language: string) => (item: FlatItem): ContentSource => ({ schema, language, item });

/** Builds the GraphQL schema for an audience from the store's schemas. */
export function buildSchema(all: readonly Schema[], audience: GraphQLAudience): GraphQLSchema {
  const content = all.filter((s) => s.type !== "Component" && s.isPublished && (audience === "editor" || visitorReadable(s.name)));
  const names = typeNames(content.map((s) => s.name));
  const byNameOrId = new Map<string, Schema>();
  for (const s of content) byNameOrId.set(s.name, s).set(s.id, s);
  const visibleFields = (schema: Schema) => {
    if (audience === "editor") return schema.fields.filter((f) => !f.isHidden);
    const allowed = visitorFields(schema.name as Collection, schema);
    return schema.fields.filter((f) => allowed.has(f.name));
  };
  /** A References field's one target schema, when it names exactly one this schema serves. */
  const targetOf = (field: SchemaField) => {
    const ids = field.properties.schemaIds ?? [];
    return field.properties.fieldType === "References" && ids.length === 1 ? byNameOrId.get(ids[0]!) : undefined;
  };
  // Who references whom: for each target schema, the schemas (and their fields) pointing at it.
  const referrers = new Map<string, Map<string, string[]>>();
  for (const s of content)
    for (const f of visibleFields(s)) {
      const target = targetOf(f);
      if (!target || f.partitioning !== "invariant") continue;
      const from = referrers.get(target.name) ?? new Map<string, string[]>();
      from.set(s.name, [...(from.get(s.name) ?? []), f.name]);
      referrers.set(target.name, from);
    }

  // What every content type has, as Squidex's `Content` interface: a reference field that may point
  // into several schemas (or any) lists its items as this, each its own type (`... on XContent`).
  const common = (): GraphQLFieldConfigMap<ContentSource, GraphQLContext> => ({
    id: { type: new GraphQLNonNull(GraphQLString), resolve: (s) => s.item.id },
    version: { type: new GraphQLNonNull(GraphQLInt), resolve: (s) => s.item.version },
    created: { type: new GraphQLNonNull(Instant), resolve: (s) => s.item.created },
    lastModified: { type: new GraphQLNonNull(Instant), resolve: (s) => s.item.lastModified },
    status: { type: new GraphQLNonNull(GraphQLString), resolve: (s) => s.item.status },
    statusColor: { type: new GraphQLNonNull(GraphQLString), resolve: (s) => STATUS_COLORS[s.item.status] ?? "#8091a5" },
    newStatus: { type: GraphQLString, resolve: (s) => s.item.newStatus },
    newStatusColor: { type: GraphQLString, resolve: (s) => (s.item.newStatus ? STATUS_COLORS[s.item.newStatus] : undefined) },
  });
  const contentInterface = new GraphQLInterfaceType({
    name: "Content",
    description: "Any content item: what the content type of every schema has.",
    fields: common,
    resolveType: (src: ContentSource) => names.get(src.schema),
  });
  /** The schemas a reference field may point into that this schema serves: those it names, or all. */
  const candidatesOf = (field: SchemaField): Schema[] => {
    const named = field.properties.schemaIds ?? [];
    return named.length ? named.flatMap((id) => byNameOrId.get(id) ?? []) : [...content];
  };

  const types = new Map<string, GraphQLObjectType>();
  const typeOf = (schema: Schema): GraphQLObjectType => {
    const existing = types.get(schema.name);
    if (existing) return existing;
    const name = names.get(schema.name)!;
    const fields = visibleFields(schema);
    const gqlNames = fieldNames(fields.map((f) => f.name));

    const flatData = new GraphQLObjectType({
      name: `${name}FlatDataDto`,
      fields: () => {
        const out: GraphQLFieldConfigMap<ContentSource, GraphQLContext> = {};
        for (const f of fields) {
          const target = targetOf(f);
          if (target) {
            out[gqlNames.get(f.name)!] = {
              type: new GraphQLList(new GraphQLNonNull(typeOf(target))),
              description: f.properties.label,
              resolve: async (src, _args, ctx) => {
                const loader = itemLoader(ctx, target.name, src.language);
                const items = await Promise.all(idsIn(src.item.data[f.name]).map((id) => loader.load(id)));
                return items.filter((i): i is FlatItem => !!i).map(source(target.name, src.language));
              },
            };
          } else if (f.properties.fieldType === "References") {
            // Several schemas, or any: each id is looked for in them in turn (batched per schema), and
            // ids this audience cannot read are left out, as a single target's are.
            const candidates = candidatesOf(f);
            out[gqlNames.get(f.name)!] = {
              type: new GraphQLList(new GraphQLNonNull(contentInterface)),
              description: f.properties.label,
              resolve: async (src, _args, ctx) => {
                const found = await Promise.all(
                  idsIn(src.item.data[f.name]).map(async (id) => {
                    for (const candidate of candidates) {
                      const item = await itemLoader(ctx, candidate.name, src.language).load(id);
                      if (item) return source(candidate.name, src.language)(item);
                    }
                    return undefined;
                  }),
                );
                return found.filter((i): i is ContentSource => !!i);
              },
            };
          } else out[gqlNames.get(f.name)!] = { type: scalarOf(f), description: f.properties.label, resolve: (src) => src.item.data[f.name] };
        }
        return out;
      },
    });

    const dataFields: GraphQLFieldConfigMap<ContentSource, GraphQLContext> = {};
    for (const f of fields) {
      const value = f.properties.fieldType === "References" ? new GraphQLList(new GraphQLNonNull(GraphQLString)) : scalarOf(f);
      const keys = f.partitioning === "invariant" ? ["iv"] : [...LANGUAGES];
      const partition = new GraphQLObjectType<ContentSource, GraphQLContext>({
        name: `${name}Data${gqlNames.get(f.name)![0]!.toUpperCase()}${gqlNames.get(f.name)!.slice(1)}Dto`,
        fields: Object.fromEntries(
          keys.map((key) => [
            languageField(key),
            {
              type: value,
              resolve: async (src: ContentSource, _args: unknown, ctx: GraphQLContext) => {
                if (key === "iv" || key === src.language) return src.item.data[f.name];
                return (await itemLoader(ctx, src.schema, key).load(src.item.id))?.data[f.name];
              },
            },
          ]),
        ),
      });
      dataFields[gqlNames.get(f.name)!] = { type: partition, description: f.properties.label, resolve: (src) => src };
    }
    const data = Object.keys(dataFields).length ? new GraphQLObjectType({ name: `${name}DataDto`, fields: dataFields }) : undefined;

    const type: GraphQLObjectType = new GraphQLObjectType<ContentSource, GraphQLContext>({
      name,
      description: schema.properties.label ?? schema.name,
      interfaces: [contentInterface],
      fields: () => {
        const out: GraphQLFieldConfigMap<ContentSource, GraphQLContext> = {
          ...common(),
          flatData: { type: new GraphQLNonNull(flatData), resolve: (s) => s },
        };
        if (data) out.data = { type: new GraphQLNonNull(data), resolve: (s) => s };
        for (const [fromName, refFields] of referrers.get(schema.name) ?? []) {
          const from = byNameOrId.get(fromName)!;
          out[referencingField(names.get(fromName)!)] = {
            type: new GraphQLList(new GraphQLNonNull(typeOf(from))),
            description: `The ${fromName} items that reference this one (newest change first).`,
            args: { top: { type: GraphQLInt }, skip: { type: GraphQLInt } },
            resolve: async (src, args: { top?: number | null; skip?: number | null }, ctx) => {
              const top = args.top ?? DEFAULT_REFERENCING_TOP;
              const skip = args.skip ?? 0;
              if (!Number.isInteger(top) || top < 0 || top > MAX_TAKE) throw badRequest(`top must be between 0 and ${MAX_TAKE}.`);
              if (!Number.isInteger(skip) || skip < 0 || skip + top > MAX_TAKE) throw badRequest(`skip + top must be at most ${MAX_TAKE} here.`);
              const items = (await referencingLoader(ctx, fromName, refFields, src.language, skip + top).load(src.item.id)) ?? [];
              return items.slice(skip, skip + top).map(source(fromName, src.language));
            },
          };
        }
        return out;
      },
    });
    types.set(schema.name, type);
    return type;
  };

  const listArgs = {
    top: { type: GraphQLInt, description: `At most this many items (default and maximum ${MAX_TAKE}).` },
    skip: { type: GraphQLInt },
    filter: { type: GraphQLString, description: "An OData $filter, e.g. data/city/iv eq 'Berlin'." },
    orderby: { type: GraphQLString, description: "An OData $orderby, e.g. data/name/iv asc." },
    search: { type: GraphQLString, description: "Full-text search." },
  };
  type ListArgs = { top?: number | null; skip?: number | null; filter?: string | null; orderby?: string | null; search?: string | null };

  const query: GraphQLFieldConfigMap<unknown, GraphQLContext> = {};
  for (const schema of content) {
    const type = typeOf(schema);
    const name = names.get(schema.name)!;
    const list = async (args: ListArgs, ctx: GraphQLContext, withTotal: boolean) => {
      const result = await ctx.client.query(schema.name as Collection, listQuery(schema.name, args, ctx.audience), scopeOf(ctx), { noTotal: !withTotal });
      const loader = itemLoader(ctx, schema.name, ctx.language);
      for (const item of result.items) loader.prime(item.id, item);
      return { total: result.total, items: result.items.map(source(schema.name, ctx.language)) };
    };
    query[queryField(name)] = {
      type: new GraphQLList(new GraphQLNonNull(type)),
      args: listArgs,
      resolve: async (_root, args: ListArgs, ctx) => (await list(args, ctx, false)).items,
    };
    query[queryWithTotalField(name)] = {
      type: new GraphQLObjectType({
        name: `${name}ResultDto`,
        fields: { total: { type: new GraphQLNonNull(GraphQLInt) }, items: { type: new GraphQLList(new GraphQLNonNull(type)) } },
      }),
      args: listArgs,
      resolve: (_root, args: ListArgs, ctx) => list(args, ctx, true),
    };
    query[findField(name)] = {
      type,
      args: { id: { type: new GraphQLNonNull(GraphQLString) }, version: { type: GraphQLInt } },
      resolve: async (_root, args: { id: string; version?: number | null }, ctx) => {
        const item = await itemLoader(ctx, schema.name, ctx.language).load(args.id);
        if (!item) return null;
        if (args.version !== undefined && args.version !== null && args.version !== item.version)
          throw badRequest(`Version ${args.version} of "${args.id}" is not served here; its current version is ${item.version}.`);
        return source(schema.name, ctx.language)(item);
      },
    };
  }
  if (!Object.keys(query).length) query._empty = { type: GraphQLString, description: "No content schema is published yet.", resolve: () => null };
  return new GraphQLSchema({ query: new GraphQLObjectType({ name: "Query", fields: query }) });
}

/** The latest schema per audience, rebuilt when the store's schemas change (their ids, versions and publication). */
const built = new Map<GraphQLAudience, { stamp: string; schema: GraphQLSchema }>();

export function schemaFor(all: readonly Schema[], audience: GraphQLAudience): GraphQLSchema {
  const stamp = all.map((s) => `${s.id}:${s.name}:${s.version}:${s.isPublished}:${s.type}`).join("|");
  const cached = built.get(audience);
  if (cached?.stamp === stamp) return cached.schema;
  const schema = buildSchema(all, audience);
  built.set(audience, { stamp, schema });
  return schema;
}
