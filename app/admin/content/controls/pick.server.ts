import { sql } from "kysely";
import { likePattern, thumbnailUrl } from "~/admin/assets/query";
import { parseSearch, sortKeys } from "~/admin/content/list-query";
import { listColumns, titleOf } from "~/admin/content/schema-route.server";
import { ContentError } from "~/content/errors";
import { searchFold, searchWords } from "~/content/fold";
import { MAX_SKIP } from "~/content/limits";
import { can, type Principal } from "~/content/policy";
import type { ContentStore } from "~/content/store";
import type { ContentItem, Schema } from "~/content/types";
import type { Language } from "~/i18n/languages";
import { http } from "~/lib/http";

/**
 * The server side of the admin's pickers (controls/reference.tsx, assets.tsx, geo.tsx): items of a
 * collection by title, files of the library by name, and places by address. Each takes the raw query
 * string and refuses what no search box sends (a 400 ContentError with a message in the editor's
 * language); everything runs in the database, paged, so it answers the same at 100 000 items.
 */

/** Items per page of a reference search. */
export const ITEM_PAGE_SIZE = 20;
/** Files per page of the library grid. */
export const ASSET_PAGE_SIZE = 24;
/** Places an address search offers. */
export const PLACE_LIMIT = 8;

const PRACTITIONERS = "gm-content-practitioners";

export const pickProblems = {
  de: {
    skip: "Die Position in der Liste muss eine ganze Zahl ab 0 sein.",
    schema: "Diese Sammlung gibt es nicht.",
    forbidden: "Diese Sammlung dürfen Sie nicht lesen.",
    address: "Bitte geben Sie eine Adresse mit 2 bis 200 Zeichen ein.",
  },
  en: {
    skip: "The position in the list must be a whole number from 0.",
    schema: "There is no such collection.",
    forbidden: "You may not read this collection.",
    address: "Please enter an address of 2 to 200 characters.",
  },
} satisfies Record<Language, unknown>;

/** `skip` from the query string: a whole number from 0 to MAX_SKIP (0 when absent). */
export function parseSkip(raw: string | null, language: Language): number {
  if (raw === null || raw === "") return 0;
  const skip = /^[0-9]{1,9}$/.test(raw) ? Number(raw) : -1;
  if (skip < 0 || skip > MAX_SKIP) throw new ContentError(400, pickProblems[language].skip);
  return skip;
}

/** One item as a picker shows it. */
export interface PickItem {
  id: string;
  title: string;
  /** What tells equal titles apart: a practitioner's city. */
  detail?: string;
  status: string;
}

/** Tells items with the same title apart: the city where a collection has one. */
export function detailOf(schema: Schema, item: ContentItem): string | undefined {
  if (!schema.fields.some((f) => f.name === "city")) return undefined;
  const cell = item.data.city;
  const value = cell?.iv ?? cell?.de ?? cell?.en;
  return typeof value === "string" && value.trim() ? value.trim().slice(0, 120) : undefined;
}

export const pickItem = (schema: Schema, item: ContentItem): PickItem => {
  const detail = detailOf(schema, item);
  return { id: item.id, title: titleOf(schema, item), ...(detail ? { detail } : {}), status: item.newStatus ?? item.status };
};

/** The collection a picker asks for: one that exists, has items, and the policy lets `principal` read (drafts too). */
export async function pickableSchema(store: ContentStore, principal: Principal, name: string | undefined, language: Language): Promise<Schema> {
  const schema = name && /^[a-z0-9][a-z0-9-]{0,99}$/i.test(name) ? await store.getSchema(name) : undefined;
  if (!schema || schema.type === "Component" || schema.name !== name) throw new ContentError(404, pickProblems[language].schema);
  if (!can(principal, "readDraft", schema.name)) throw new ContentError(403, pickProblems[language].forbidden);
  return schema;
}

/**
 * Items of `schemaName` whose searchable text holds every word of `?q=` (drafts included), by
 * title, from `?skip=`; `{ items, total }`. Collections with a side table are searched through its
 * indexed search text, as the collection screen does.
 */
export async function searchItems(
  store: ContentStore,
  principal: Principal,
  schemaName: string | undefined,
  params: URLSearchParams,
  language: Language,
  pageSize = ITEM_PAGE_SIZE,
): Promise<{ items: PickItem[]; total: number }> {
  const schema = await pickableSchema(store, principal, schemaName, language);
  const q = parseSearch(params.get("q"), language);
  const skip = parseSkip(params.get("skip"), language);
  const searchFields = await store.indexedSearchFields(schema.name);
  const [title] = sortKeys(schema, listColumns(schema, 1), language);
  const { items, total } = await store.query(
    schema.name,
    {
      ...(q ? { fullText: q } : {}),
      sort: [{ path: title?.path ?? "lastModified", order: "ascending" }, { path: "id", order: "ascending" }],
      skip,
      take: pageSize,
    },
    { unpublished: true, language, ...(searchFields ? { searchFields } : {}) },
  );
  return { items: items.map((i) => pickItem(schema, i)), total };
}

/** One file as the library grid shows it. */
export interface PickAsset {
  id: string;
  fileName: string;
  /** A preview (a 320 px variant of raster images). */
  url: string;
  mimeType: string;
  isImage: boolean;
}

/** Files of the whole library whose name contains `?q=` (any case), newest first, from `?skip=`; `?images=1` only images. */
export async function searchAssets(store: ContentStore, params: URLSearchParams, language: Language, pageSize = ASSET_PAGE_SIZE): Promise<{ items: PickAsset[]; total: number }> {
  const q = parseSearch(params.get("q"), language);
  const skip = parseSkip(params.get("skip"), language);
  let base = store.db.selectFrom("assets");
  if (q) base = base.where(sql<boolean>`lower(file_name) like ${likePattern(q)} escape '\\'`);
  if (params.get("images") === "1") base = base.where("type", "=", "Image");
  const counted = await base.select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow();
  const rows = await base.select(["id", "file_name", "slug", "mime_type", "type"]).orderBy("last_modified", "desc").orderBy("id").limit(pageSize).offset(skip).execute();
  return {
    total: Number(counted.n),
    items: rows.map((r) => ({ id: r.id, fileName: r.file_name, url: thumbnailUrl({ id: r.id, slug: r.slug, mimeType: r.mime_type }), mimeType: r.mime_type, isImage: r.type === "Image" })),
  };
}

/** A place an address search found. */
export interface Place {
  label: string;
  latitude: number;
  longitude: number;
}

/** Who answered an address search: the configured geocoder, or our own directory's addresses. */
export type PlaceSource = "geocoder" | "directory";

/** `?q=` of an address search: 2 to 200 characters, no control characters. */
export function parseAddress(raw: string | null, language: Language): string {
  const q = (raw ?? "").trim();
  if (q.length < 2 || q.length > 200 || /[\u0000-\u001f\u007f]/.test(q)) throw new ContentError(400, pickProblems[language].address);
  return q;
}

const inRange = (lat: number, lon: number) => Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;

/**
 * Asks a Nominatim-compatible geocoder (`{url}?format=json&q=`); undefined when it cannot answer
 * (unreachable, slow, an error, no JSON array).
 */
export async function askGeocoder(url: string, q: string, options: { timeoutMs?: number; language?: Language } = {}): Promise<Place[] | undefined> {
  try {
    const target = new URL(url);
    target.searchParams.set("format", "json");
    target.searchParams.set("limit", String(PLACE_LIMIT));
    target.searchParams.set("q", q);
    // Once: an editor is waiting, and the directory's own addresses answer when this cannot.
    const res = await http(target.href, {
      headers: { "User-Agent": "Praxisnetz admin (address search)", ...(options.language ? { "Accept-Language": options.language } : {}) },
      timeoutMs: options.timeoutMs ?? 3000,
      retry: false,
      redirect: "error",
    });
    if (!res.ok) return undefined;
    const body = (await res.json()) as unknown;
    if (!Array.isArray(body)) return undefined;
    return body.slice(0, PLACE_LIMIT).flatMap((p: unknown) => {
      const r = (p ?? {}) as { display_name?: unknown; lat?: unknown; lon?: unknown };
      const latitude = Number(r.lat);
      const longitude = Number(r.lon);
      return typeof r.display_name === "string" && inRange(latitude, longitude) ? [{ label: r.display_name.slice(0, 300), latitude, longitude }] : [];
    });
  } catch {
    return undefined;
  }
}

const text = (item: ContentItem, field: string): string => {
  const v = item.data[field]?.iv;
  return typeof v === "string" ? v.trim() : "";
};

/**
 * Places from our own directory: practitioners (drafts too) whose street, zip and city hold every
 * word of `q` and who have a place set, one answer per address.
 */
export async function directoryPlaces(store: ContentStore, q: string): Promise<Place[]> {
  const words = searchWords(q);
  if (!words.length || !(await store.getSchema(PRACTITIONERS))) return [];
  const searchFields = await store.indexedSearchFields(PRACTITIONERS);
  const { items } = await store.query(PRACTITIONERS, { fullText: words.join(" "), take: 200 }, { unpublished: true, noTotal: true, ...(searchFields ? { searchFields } : {}) });
  const seen = new Set<string>();
  const places: Place[] = [];
  for (const item of items) {
    const street = text(item, "street");
    const zip = text(item, "zip");
    const city = text(item, "city");
    const address = searchFold([street, zip, city].join(" "));
    if (!words.every((w) => address.includes(w))) continue;
    for (const field of ["coords", "coords2"]) {
      const point = item.data[field]?.iv as { latitude?: unknown; longitude?: unknown } | undefined;
      const latitude = Number(point?.latitude);
      const longitude = Number(point?.longitude);
      if (!point || !inRange(latitude, longitude)) continue;
      const label = [street, [zip, city].filter(Boolean).join(" ")].filter(Boolean).join(", ");
      const key = `${label}|${latitude}|${longitude}`;
      if (seen.has(key)) continue;
      seen.add(key);
      places.push({ label, latitude, longitude });
      break;
    }
    if (places.length >= PLACE_LIMIT) break;
  }
  return places;
}

/** Places for an address: the geocoder's, or (when it cannot answer or knows none) the directory's. */
export async function geocode(store: ContentStore, geocoderUrl: string, q: string, language: Language, timeoutMs?: number): Promise<{ source: PlaceSource; places: Place[] }> {
  const found = await askGeocoder(geocoderUrl, q, { language, ...(timeoutMs ? { timeoutMs } : {}) });
  if (found?.length) return { source: "geocoder", places: found };
  return { source: "directory", places: await directoryPlaces(store, q) };
}
