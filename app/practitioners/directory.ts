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
}

export interface DirectoryQuery {
  q?: string;
  language?: string;
  country?: string;
  page?: number;
}

export const PAGE_SIZE = 12;

export function parseDirectoryQuery(params: URLSearchParams): DirectoryQuery {
  const clean = (v: string | null, max = 80) => (v ?? "").trim().slice(0, max) || undefined;
  const page = Number(params.get("page") ?? 1);
  return {
    q: clean(params.get("q")),
    language: clean(params.get("language"), 5),
    country: clean(params.get("country"), 5),
    page: Number.isFinite(page) && page >= 1 ? Math.floor(page) : 1,
  };
}
