/**
 * The practitioner directory's shapes, shared by the server and the browser: what a visitor sees of
 * a practitioner and what the query string asks for. Searching, paging and browsing run in the
 * database (practitioners.server.ts).
 */
export interface Geo {
  latitude: number;
  longitude: number;
}

export interface PractitionerSummary {
  id: string;
  slug: string;
  name: string;
  city: string;
  country: string;
  street?: string;
  zip?: string;
  adress2?: string;
  speciality?: string;
  description?: string;
  languages: string[];
  websites: string[];
  website?: string;
  coords?: Geo;
  coords2?: Geo;
  finishedPractitioner: boolean;
  /** The asset id of the profile's photo. */
  photo?: string;
}

export interface DirectoryQuery {
  q?: string;
  language?: string;
  country?: string;
  page?: number;
}

export interface DirectoryResult {
  query: DirectoryQuery;
  items: PractitionerSummary[];
  page: number;
  pages: number;
  total: number;
  /** Booking variant: each listed practitioner's next free slot. */
  nextSlots?: Record<string, string>;
}

/** What the directory can be filtered by: the values the shown practitioners have. */
export interface Facets {
  languages: string[];
  countries: string[];
}

export const PAGE_SIZE = 12;
/** No directory has this many pages; a larger number shows the last page like any page past the end. */
export const MAX_PAGE = 1_000_000;

export function parseDirectoryQuery(params: URLSearchParams): DirectoryQuery {
  const clean = (v: string | null, max = 80) => (v ?? "").trim().slice(0, max) || undefined;
  return {
    q: clean(params.get("q")),
    language: clean(params.get("language"), 5),
    country: clean(params.get("country"), 5),
    page: parsePage(params.get("page")),
  };
}

/** The query string of a directory search, without the page: the same in its links and its map. */
export function directoryParams(query: DirectoryQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.language) params.set("language", query.language);
  if (query.country) params.set("country", query.country);
  return params;
}

/** `path` with `params` as its query string, or alone when there are none. */
export function withParams(path: string, params: URLSearchParams): string {
  const s = params.toString();
  return s ? `${path}?${s}` : path;
}

/** A page number from the query string: a whole number from 1; anything else is the first page. */
export function parsePage(value: string | null): number {
  const page = Number(value ?? 1);
  return Number.isFinite(page) && page >= 1 ? Math.min(Math.floor(page), MAX_PAGE) : 1;
}

/** The query parameter of the practitioner list blocks' page (the directory's is `page`). */
export const LIST_PAGE_PARAM = "list";
