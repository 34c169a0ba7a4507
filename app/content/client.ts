import type { ContentCache } from "./cache";
import { adjacentItems, distinctValues, geoCells, listItems, type ApiContext, type Collection } from "./public-api";
import type { ContentStore } from "./store";
import type { Asset, ContentItem, ContentQuery, CreateOptions, FlatItem, Schema, WriteOptions } from "./types";

/**
 * Who is reading. Visitors get published items only, and only what the site shows them
 * (practitioners on this site, appointments of those, no private fields); editors also get drafts
 * (when they ask) and every field; system code (site data, the theme) gets every field of published
 * items.
 */
export type Audience = "visitor" | "editor" | "system";

export interface ReadScope {
  audience: Audience;
  /** The language values are flattened to (German is the fallback). */
  language: string;
  /** Editors only: read the drafts instead of the published data. */
  unpublished?: boolean;
}

export interface ListOptions {
  /** Skip counting when the caller does not show a total (the total is then -1 unless the page tells it). */
  noTotal?: boolean;
  /** Internal readers that need every match (small collections: pages, settings); no page limit. */
  all?: boolean;
  /** Only the first match for each value of this field (one value per item, in the side table), e.g. each practitioner's next slot. */
  firstPer?: string;
}

/** A map's question: which fields, the grid (2^level cells a side), the cells asked for (x1, y1 exclusive). */
export interface GeoGrid {
  fields: readonly string[];
  level: number;
  cells: { x0: number; y0: number; x1: number; y1: number };
}

/** One occupied grid cell: its indices, its points' count and mean position (unit Mercator), the item when only one. */
export interface GeoCell {
  cx: number;
  cy: number;
  count: number;
  x: number;
  y: number;
  id?: string;
}

/**
 * The content service as domain code sees it: typed calls with an audience and a language, no HTTP
 * bodies, no SQL. The embedded store implements it (createEmbeddedClient); a remote Squidex can
 * implement the same.
 */
export interface ContentClient {
  query(schema: Collection, query: ContentQuery, scope: ReadScope, opts?: ListOptions): Promise<{ total: number; items: FlatItem[] }>;
  get(schema: Collection, id: string, scope: ReadScope): Promise<FlatItem | undefined>;
  /** Distinct values of a field among what the scope may see (facets). */
  distinct(schema: Collection, field: string, scope: ReadScope): Promise<unknown[]>;
  /** The items before and after `id` in the order of an indexed text field, wrapping around. */
  adjacent(schema: Collection, id: string, field: string, scope: ReadScope): Promise<{ previous: FlatItem; next: FlatItem } | undefined>;
  /** Points of Geolocation fields counted per cell of a Web Mercator grid, over what the scope may see (maps). */
  geoCells(schema: Collection, query: ContentQuery, scope: ReadScope, grid: GeoGrid): Promise<GeoCell[]>;
  create(schema: string, data: unknown, opts?: CreateOptions): Promise<ContentItem>;
  update(schema: string, id: string, data: unknown, opts?: WriteOptions): Promise<ContentItem>;
  patch(schema: string, id: string, data: unknown, opts?: WriteOptions): Promise<ContentItem>;
  changeStatus(schema: string, id: string, status: string, opts?: WriteOptions): Promise<ContentItem>;
  delete(schema: string, id: string, opts?: WriteOptions): Promise<void>;
  schemas(): Promise<Schema[]>;
  /** Assets: the given ones, or the most recently changed ones (at most 200; the Squidex API pages them). */
  assets(ids?: string[]): Promise<{ total: number; items: Asset[] }>;
}

/** The content client over the embedded store, with the read cache and this site's visibility rules. */
export function createEmbeddedClient(deps: { store: ContentStore; cache: ContentCache; siteName: string }): ContentClient {
  const { store } = deps;
  const ctx = (scope: ReadScope): ApiContext => ({ store, cache: deps.cache, siteName: deps.siteName, isEditor: scope.audience !== "visitor" });
  const unpublished = (scope: ReadScope) => scope.audience === "editor" && scope.unpublished === true;
  return {
    query: (schema, query, scope, opts = {}) =>
      listItems(schema, ctx(scope), { language: scope.language, query, unpublished: unpublished(scope), noTotal: opts.noTotal, all: opts.all, firstPer: opts.firstPer }),
    async get(schema, id, scope) {
      const { items } = await listItems(schema, ctx(scope), { language: scope.language, query: { ids: [id] }, unpublished: unpublished(scope), noTotal: true });
      return items[0];
    },
    distinct: (schema, field, scope) => distinctValues(schema, ctx(scope), { field, language: scope.language }),
    geoCells: (schema, query, scope, grid) => geoCells(schema, ctx(scope), { ...grid, query, language: scope.language }),
    adjacent: (schema, id, field, scope) => adjacentItems(schema, ctx(scope), { id, field, language: scope.language }),
    create: (schema, data, opts) => store.create(schema, data, opts),
    update: (schema, id, data, opts) => store.update(schema, id, data, opts),
    patch: (schema, id, data, opts) => store.patch(schema, id, data, opts),
    changeStatus: (schema, id, status, opts) => store.changeStatus(schema, id, status, opts),
    delete: (schema, id, opts) => store.delete(schema, id, opts),
    schemas: () => store.listSchemas(),
    assets: (ids) => store.assets.list(ids ? { ids: [...new Set(ids)] } : {}),
  };
}
