import { searchFold } from "~/content/fold";

/**
 * The practitioner directory as pure functions: what a visitor sees of a practitioner, searching
 * and filtering, paging, and browsing that wraps around. Shared by the server and the browser.
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

/**
 * Matches every word of `q` (as a prefix or anywhere) against name, city and speciality, ignoring
 * case, accents and the ae/oe/ue spellings (Müller ~ Mueller ~ Muller, Köln ~ Koeln ~ Koln).
 */
export function filterPractitioners(list: readonly PractitionerSummary[], query: DirectoryQuery): PractitionerSummary[] {
  const words = searchFold(query.q ?? "").split(/\s+/).filter(Boolean);
  return list.filter((p) => {
    const haystack = searchFold(`${p.name} ${p.city} ${p.speciality ?? ""}`);
    if (!words.every((w) => haystack.includes(w))) return false;
    if (query.language && !p.languages.includes(query.language)) return false;
    if (query.country && p.country !== query.country) return false;
    return true;
  });
}

export function paginate<T>(items: readonly T[], page: number | undefined, size = PAGE_SIZE) {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const current = Math.min(Math.max(1, Math.floor(page ?? 1) || 1), pages);
  return { items: items.slice((current - 1) * size, current * size), page: current, pages, total: items.length };
}

/** Previous and next in list order, wrapping around: next of the last is the first. */
export function neighbours<T extends { id: string }>(list: readonly T[], id: string): { previous: T; next: T } | null {
  const i = list.findIndex((p) => p.id === id);
  if (i < 0 || list.length === 0) return null;
  return { previous: list[(i - 1 + list.length) % list.length]!, next: list[(i + 1) % list.length]! };
}

export function facetValues(list: readonly PractitionerSummary[]) {
  const languages = [...new Set(list.flatMap((p) => p.languages))].sort();
  const countries = [...new Set(list.map((p) => p.country).filter(Boolean))].sort();
  return { languages, countries };
}

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

/** The first free slot of each practitioner, from slots sorted by start. */
export function nextFreeSlots(slots: ReadonlyArray<{ practitioner: string; start: string; booked: boolean }>, ids: Iterable<string>): Record<string, string> {
  const wanted = new Set(ids);
  const next: Record<string, string> = {};
  for (const s of slots) {
    if (!s.booked && wanted.has(s.practitioner) && !Object.hasOwn(next, s.practitioner)) next[s.practitioner] = s.start;
  }
  return next;
}
