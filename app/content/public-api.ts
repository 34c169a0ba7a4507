import { z } from "zod";
import type { ContentCache } from "./cache";
import { badRequest, ContentError, notFound } from "./errors";
import { publicFieldNames } from "./field-index";
import { flattenItem } from "./flatten";
import { MAX_COLLECTION_URL_LENGTH, MAX_SORT_KEYS, MAX_VISITOR_SKIP, MAX_VISITOR_SORT_KEYS } from "./limits";
import { assertQueryUses, parseCollectionUrl } from "./query";
import type { ContentStore } from "./store";
import type { Asset, ContentItem, ContentQuery, FilterNode, FlatItem, Schema } from "./types";

/**
 * The internal content API (spec §7) as plain functions: the `/api/*` resource routes only parse
 * JSON and call these. Visitors only ever get public data: published items, practitioners shown on
 * this site, appointments without booker details. `unpublished` needs a signed-in editor.
 */
export const COLLECTIONS = [
  "core-theme-colors",
  "core-theme-settings",
  "core-theme-languages",
  "core-backend-navigation",
  "core-pages",
  "core-settings-blocks",
  "core-global-settings",
  "core-theme-icons",
  "core-text-styles",
  "core-font-styles",
  "gm-content-practitioners",
  "gm-appointments",
] as const;
export type Collection = (typeof COLLECTIONS)[number];

export interface ApiContext {
  store: ContentStore;
  cache: ContentCache;
  siteName: string;
  /** A signed-in editor may read drafts and editor-only collections. */
  isEditor: boolean;
}

const EDITOR_ONLY = new Set<Collection>(["core-backend-navigation"]);

/** Whether visitors may read a collection at all (the site's collections but the editor-only ones). */
export function visitorReadable(name: string): name is Collection {
  return (COLLECTIONS as readonly string[]).includes(name) && !EDITOR_ONLY.has(name as Collection);
}
/**
 * What visitors may see of a collection, and so all they may filter, search and sort on: the fields
 * listed here, or else every field of the schema not tagged "private" (nor hidden).
 */
const VISITOR_FIELDS: ReadonlyMap<Collection, readonly string[]> = new Map([["gm-appointments", ["practitioner", "start", "durationMinutes", "booked"]]]);

export function visitorFields(collection: Collection, schema: Schema | undefined): ReadonlySet<string> {
  const listed = VISITOR_FIELDS.get(collection);
  const fields = schema ? publicFieldNames(schema) : [];
  return new Set(listed ? fields.filter((f) => listed.includes(f)) : fields);
}

const pick = (data: Record<string, unknown>, fields: ReadonlySet<string>) => Object.fromEntries(Object.entries(data).filter(([k]) => fields.has(k)));

const language = z.enum(["de", "en"], { message: 'language must be "de" or "en"' }).default("de");
const flag = (name: string) => z.boolean({ message: `${name} must be true or false` }).optional();

export const restBody = z.object({
  url: z
    .string({ message: "url must name a collection" })
    .min(1, "url must name a collection")
    .max(MAX_COLLECTION_URL_LENGTH, `url must be at most ${MAX_COLLECTION_URL_LENGTH} characters`),
  language,
  cache: flag("cache"),
  unpublished: flag("unpublished"),
});
export const itemBody = z.object({
  url: z.string({ message: "url must name a collection" }).min(1, "url must name a collection").max(200, "url must name a collection"),
  id: z.string({ message: "id must be a string" }).min(1, "id must not be empty").max(200, "id must be at most 200 characters"),
  language,
  cache: flag("cache"),
  unpublished: flag("unpublished"),
});
export const assetsBody = z.object({ dummy: z.unknown().optional(), language, cache: flag("cache") });
export const schemasBody = z.object({}).passthrough();
export const scriptsBody = z.object({
  url: z.string({ message: "url must be a string" }).optional(),
  language,
  cache: flag("cache"),
});

export function parseBody<T extends z.ZodTypeAny>(schema: T, body: unknown): z.infer<T> {
  if (body === null || typeof body !== "object" || Array.isArray(body)) throw badRequest("The request body must be a JSON object.");
  const result = schema.safeParse(body);
  if (!result.success) {
    throw badRequest(
      "Invalid request body.",
      result.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`),
    );
  }
  return result.data;
}

function requireCollection(name: string, ctx: ApiContext): Collection {
  if (!(COLLECTIONS as readonly string[]).includes(name))
    throw badRequest(`Unknown collection "${name}". Known collections: ${COLLECTIONS.join(", ")}.`);
  const collection = name as Collection;
  if (EDITOR_ONLY.has(collection) && !ctx.isEditor) throw new ContentError(403, `Sign in as an editor to read "${name}".`);
  return collection;
}

/**
 * What a visitor may see of a collection, as a filter the database applies before counting and
 * paging: practitioners shown on this site, appointments of those practitioners only.
 */
export function visibilityRule(collection: Collection, siteName: string): FilterNode | undefined {
  const practitioner: FilterNode = {
    and: [
      { path: "data.display", op: "eq", value: true },
      { path: "data.websites", op: "eq", value: siteName.toUpperCase() },
    ],
  };
  if (collection === "gm-content-practitioners") return practitioner;
  if (collection === "gm-appointments") return { refersTo: { path: "data.practitioner", schema: "gm-content-practitioners", filter: practitioner } };
  return undefined;
}

/** Turns stored items into what this caller may see, flattened to one language. */
async function present(collection: Collection, items: ContentItem[], lang: string, ctx: ApiContext): Promise<FlatItem[]> {
  const schema = await ctx.store.getSchema(collection);
  const flat = items.map((i) => flattenItem(i, lang, schema));
  if (ctx.isEditor) return flat;
  const fields = visitorFields(collection, schema);
  return flat.map((i) => {
    const data = pick(i.data, fields);
    if (collection === "gm-appointments") data.booked = data.booked === true;
    return { ...i, data };
  });
}

function cached<T>(ctx: ApiContext, useCache: boolean | undefined, key: string, load: () => Promise<T>): Promise<T> {
  return useCache === false ? load() : ctx.cache.getOrLoad(key, load);
}

/**
 * Items of a collection as this caller may see them: for visitors only published, visible items
 * and fields, with the visibility rules applied in the database before counting and paging. `all`
 * is for internal callers that need every match (no page limit); the HTTP edge never sets it.
 */
export async function listItems(
  collection: Collection,
  ctx: ApiContext,
  opts: {
    language: string;
    query?: ContentQuery;
    unpublished?: boolean;
    all?: boolean;
    noTotal?: boolean;
    firstPer?: string;
    /** The public API's bounds on a visitor's query (limits.ts), past what one request may cost; the site's own reads set none. */
    visitorBounds?: { sortKeys: number; skip: number };
  },
): Promise<{ total: number; items: FlatItem[] }> {
  const editor = ctx.isEditor;
  const query = opts.query ?? {};
  const searchFields = editor ? undefined : visitorFields(collection, await ctx.store.getSchema(collection));
  if (searchFields) assertQueryUses(query, searchFields, collection);
  const bounds = editor ? undefined : opts.visitorBounds;
  const sortKeys = query.sort?.length ?? 0;
  if (bounds && sortKeys > bounds.sortKeys) throw badRequest(`Visitors sort by at most ${bounds.sortKeys} key (got ${sortKeys}); signed in, by up to ${MAX_SORT_KEYS}.`);
  if (bounds && (query.skip ?? 0) > bounds.skip)
    throw badRequest(`Visitors skip at most ${bounds.skip} items (got ${query.skip}); page further with a filter on the sort field, e.g. $filter=data/name/iv gt '…'.`);
  if (searchFields && opts.firstPer !== undefined && !searchFields.has(opts.firstPer))
    throw badRequest(`"${opts.firstPer}" is not a field visitors can see in "${collection}".`);
  const result = await ctx.store.query(collection, query, {
    unpublished: editor && opts.unpublished === true,
    language: opts.language,
    searchFields,
    where: editor ? undefined : visibilityRule(collection, ctx.siteName),
    all: opts.all,
    noTotal: opts.noTotal,
    firstPer: opts.firstPer,
    // Every page of one search has the same total: count once per content change.
    countCache: (key, load) => ctx.cache.getOrLoad(`count:${key}`, load),
  });
  return { total: result.total, items: await present(collection, result.items, opts.language, ctx) };
}

/** Distinct values of a field among the items this caller may see (facets). */
export async function distinctValues(collection: Collection, ctx: ApiContext, opts: { field: string; language: string }): Promise<unknown[]> {
  if (!ctx.isEditor && !visitorFields(collection, await ctx.store.getSchema(collection)).has(opts.field))
    throw badRequest(`"${opts.field}" is not a field visitors can see in "${collection}".`);
  return ctx.store.distinctValues(collection, opts.field, { language: opts.language, where: ctx.isEditor ? undefined : visibilityRule(collection, ctx.siteName) });
}

/** Map points per grid cell among the items this caller may see (see ContentStore.geoCells). */
export async function geoCells(
  collection: Collection,
  ctx: ApiContext,
  opts: { fields: readonly string[]; level: number; cells: { x0: number; y0: number; x1: number; y1: number }; query?: ContentQuery; language: string },
) {
  const query = opts.query ?? {};
  const visible = ctx.isEditor ? undefined : visitorFields(collection, await ctx.store.getSchema(collection));
  if (visible) {
    assertQueryUses(query, visible, collection);
    for (const field of opts.fields) if (!visible.has(field)) throw badRequest(`"${field}" is not a field visitors can see in "${collection}".`);
  }
  return ctx.store.geoCells(collection, {
    fields: opts.fields,
    level: opts.level,
    cells: opts.cells,
    query,
    searchFields: visible,
    language: opts.language,
    where: ctx.isEditor ? undefined : visibilityRule(collection, ctx.siteName),
  });
}

/** The items before and after `id` (wrapping) in the order of `field`, among those this caller may see. */
export async function adjacentItems(
  collection: Collection,
  ctx: ApiContext,
  opts: { id: string; field: string; language: string },
): Promise<{ previous: FlatItem; next: FlatItem } | undefined> {
  if (!ctx.isEditor && !visitorFields(collection, await ctx.store.getSchema(collection)).has(opts.field))
    throw badRequest(`"${opts.field}" is not a field visitors can see in "${collection}".`);
  const around = await ctx.store.adjacent(collection, opts.id, {
    field: opts.field,
    language: opts.language,
    where: ctx.isEditor ? undefined : visibilityRule(collection, ctx.siteName),
  });
  if (!around) return undefined;
  const [previous, next] = await present(collection, [around.previous, around.next], opts.language, ctx);
  return { previous: previous!, next: next! };
}

export async function restItems(body: unknown, ctx: ApiContext): Promise<{ total: number; items: FlatItem[] }> {
  const input = parseBody(restBody, body);
  const { collection: name, query } = parseCollectionUrl(input.url);
  const collection = requireCollection(name, ctx);
  const unpublished = ctx.isEditor && input.unpublished === true;
  const key = `rest:${ctx.isEditor}:${unpublished}:${input.language}:${input.url}`;
  return cached(ctx, input.cache, key, () => listItems(collection, ctx, { language: input.language, query, unpublished, visitorBounds: { sortKeys: MAX_VISITOR_SORT_KEYS, skip: MAX_VISITOR_SKIP } }));
}

export async function contentItem(body: unknown, ctx: ApiContext): Promise<FlatItem> {
  const input = parseBody(itemBody, body);
  const collection = requireCollection(parseCollectionUrl(input.url).collection, ctx);
  const unpublished = ctx.isEditor && input.unpublished === true;
  const key = `item:${ctx.isEditor}:${unpublished}:${input.language}:${collection}:${input.id}`;
  const item = await cached(ctx, input.cache, key, async () => {
    const { items } = await listItems(collection, ctx, { language: input.language, query: { ids: [input.id] }, unpublished });
    return items[0] ?? null;
  });
  if (!item) throw notFound(`No item "${input.id}" in "${collection}".`);
  return item;
}

export type PublicAsset = Asset & { url: string };

export function assetUrl(asset: Pick<Asset, "id" | "slug">): string {
  return `/api/assets/${encodeURIComponent(asset.id)}/${encodeURIComponent(asset.slug)}`;
}

export async function assetList(body: unknown, ctx: ApiContext): Promise<{ total: number; items: PublicAsset[] }> {
  const input = parseBody(assetsBody, body);
  // Protected files are for signed-in people: visitors are not told of them.
  return cached(ctx, input.cache, ctx.isEditor ? "assets:editor" : "assets", async () => {
    const { total, items } = await ctx.store.assets.list({ publicOnly: !ctx.isEditor });
    return { total, items: items.map((a) => ({ ...a, url: assetUrl(a) })) };
  });
}

export async function schemaList(body: unknown, ctx: ApiContext) {
  parseBody(schemasBody, body ?? {});
  return cached(ctx, true, "schemas", async () => ({ items: await ctx.store.listSchemas() }));
}

export interface ThirdPartyScript {
  name: string;
  src: string;
  category: "necessary" | "functional" | "statistic" | "marketing" | "unclassified";
  consentServiceId?: string;
}

export async function thirdPartyScripts(body: unknown, ctx: ApiContext): Promise<{ items: ThirdPartyScript[] }> {
  const input = parseBody(scriptsBody, body);
  return cached(ctx, input.cache, `scripts:${input.language}`, async () => {
    const { items } = await ctx.store.query("core-global-settings", { take: 1 }, { language: input.language });
    const settings = items[0] ? flattenItem(items[0], input.language).data : {};
    const scripts = Array.isArray(settings.thirdPartyScripts) ? (settings.thirdPartyScripts as ThirdPartyScript[]) : [];
    return { items: scripts.map((s) => ({ name: s.name, src: s.src, category: s.category ?? "unclassified", ...(s.consentServiceId ? { consentServiceId: s.consentServiceId } : {}) })) };
  });
}
