import { createHash } from "node:crypto";
import type { AppLoadContext } from "react-router";
import { badRequest } from "~/content/errors";
import { fromMercator, mercator } from "~/content/field-index";
import type { Language } from "~/i18n/languages";
import { parseDirectoryQuery, type DirectoryQuery, type PractitionerSummary } from "./directory";
import { profilePath } from "./paths";
import { directoryFilter, practitionersById, PRACTITIONERS, visitor } from "./practitioners.server";

/**
 * The directory's map markers: practitioners' places counted per square of a grid over the visible
 * area, in the database, so a map over 100 000 practitioners gets what one over 100 gets: at most a
 * marker per square. The grid is fixed to the world (a square is 64 px of a 256 px map tile at the
 * zoom asked for), so panning keeps the clusters where they were and the same area asks the same
 * question (cached until the practitioners change).
 */
export const CELL_PX = 64;
/** 256 px tiles of 64 px squares: the grid at zoom z has 2^(z + 2) squares a side. */
const LEVELS_PER_ZOOM = 2;
export const MAX_ZOOM = 20;
/** At most this many squares per question: 64 × 64, a 4 096 px square screen. */
export const MAX_CELLS = 4096;
const GEO_FIELDS = ["coords", "coords2"] as const;

export interface MapQuery {
  zoom: number;
  /** The area as grid squares: x0, y0 inclusive, x1, y1 exclusive. */
  cells: { x0: number; y0: number; x1: number; y1: number };
  filter: DirectoryQuery;
}

export interface MapFeatureProperties {
  count: number;
  /** One practitioner: whose place it is. */
  name?: string;
  city?: string;
  href?: string;
}

export interface MapFeatureCollection {
  type: "FeatureCollection";
  /** How many places the area holds (the sum of the counts). */
  total: number;
  features: Array<{ type: "Feature"; geometry: { type: "Point"; coordinates: [number, number] }; properties: MapFeatureProperties }>;
}

function number(params: URLSearchParams, name: string): number {
  const raw = params.get(name);
  const value = raw === null || raw.trim() === "" ? NaN : Number(raw);
  if (!Number.isFinite(value)) throw badRequest(`${name} must be a number.`);
  return value;
}

/**
 * `?zoom=&west=&south=&east=&north=` (degrees; the map's visible bounds) plus the directory's own
 * `q`, `language` and `country`. Longitudes beyond ±180 (a map showing the world more than once) are
 * clamped; an area crossing the antimeridian is not asked (the map is of one region).
 */
export function parseMapQuery(params: URLSearchParams): MapQuery {
  const zoom = number(params, "zoom");
  if (!Number.isInteger(zoom) || zoom < 0 || zoom > MAX_ZOOM) throw badRequest(`zoom must be a whole number from 0 to ${MAX_ZOOM}.`);
  const [west, south, east, north] = (["west", "south", "east", "north"] as const).map((n) => number(params, n)) as [number, number, number, number];
  if (south < -90 || north > 90 || south > north) throw badRequest("south and north must be latitudes from -90 to 90, south not above north.");
  if (west > east) throw badRequest("west must not be east of east.");
  const n = 2 ** (zoom + LEVELS_PER_ZOOM);
  const nw = mercator(north, Math.max(-180, west));
  const se = mercator(south, Math.min(180, east));
  const cells = {
    x0: Math.max(0, Math.floor(nw.x * n)),
    y0: Math.max(0, Math.floor(nw.y * n)),
    x1: Math.min(n, Math.floor(se.x * n) + 1),
    y1: Math.min(n, Math.floor(se.y * n) + 1),
  };
  const count = (cells.x1 - cells.x0) * (cells.y1 - cells.y0);
  if (count > MAX_CELLS) throw badRequest(`The area is ${count} squares of the grid at zoom ${zoom}; at most ${MAX_CELLS}: zoom in or ask for less.`);
  const { q, language, country } = parseDirectoryQuery(params);
  return { zoom, cells, filter: { q, language, country } };
}

const round = (v: number) => Math.round(v * 1e6) / 1e6;

type Marker = { coordinates: [number, number]; count: number; name?: string; city?: string; slug?: string };

/**
 * The markers of the practitioners the directory query finds, in the area asked for, as the
 * endpoint's body with its ETag: made once per area, query and language until practitioners change.
 */
export function loadMapMarkers(context: AppLoadContext, language: Language, query: MapQuery): Promise<{ body: string; etag: string }> {
  const key = `practitioner-map:${query.zoom}:${query.cells.x0}:${query.cells.y0}:${query.cells.x1}:${query.cells.y1}:${JSON.stringify(query.filter)}`;
  return context.services.cache.getOrLoad(`${key}:${language}`, async () => {
    // Counting does not depend on the language (names, cities and slugs are invariant): one count for both.
    const markers = await context.services.cache.getOrLoad(key, () => countMarkers(context, query));
    const collection: MapFeatureCollection = {
      type: "FeatureCollection",
      total: markers.reduce((sum, m) => sum + m.count, 0),
      features: markers.map(({ coordinates, count, name, city, slug }) => ({
        type: "Feature",
        geometry: { type: "Point", coordinates },
        properties: slug ? { count, name, city, href: profilePath(language, slug) } : { count },
      })),
    };
    const body = JSON.stringify(collection);
    return { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"` };
  });
}

async function countMarkers(context: AppLoadContext, { zoom, cells, filter }: MapQuery): Promise<Marker[]> {
  const grid = { fields: GEO_FIELDS, level: zoom + LEVELS_PER_ZOOM, cells };
  const found = await context.services.content.geoCells(PRACTITIONERS, directoryFilter(filter), visitor("de"), grid);
  const singles = found.flatMap((c) => (c.id ? [c.id] : []));
  const byId = new Map<string, PractitionerSummary>();
  // Lookups by id take at most 500 ids; a view has at most MAX_CELLS squares.
  for (let i = 0; i < singles.length; i += 500) for (const p of await practitionersById(context, "de", singles.slice(i, i + 500))) byId.set(p.id, p);
  return found
    .sort((a, b) => a.cy - b.cy || a.cx - b.cx)
    .map((c) => {
      const { latitude, longitude } = fromMercator(c.x, c.y);
      const p = c.id ? byId.get(c.id) : undefined;
      const coordinates: [number, number] = [round(longitude), round(latitude)];
      return p ? { coordinates, count: 1, name: p.name, city: p.city, slug: p.slug } : { coordinates, count: c.count };
    });
}
