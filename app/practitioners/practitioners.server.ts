import type { AppLoadContext } from "react-router";
import type { ReadScope } from "~/content/client";
import { assetUrl } from "~/content/public-api";
import type { ContentQuery, FilterNode, FlatItem } from "~/content/types";
import type { Language } from "~/i18n/languages";
import { PAGE_SIZE, type DirectoryQuery, type DirectoryResult, type Facets, type PractitionerSummary } from "./directory";

/**
 * Practitioners as visitors see them, read per page from the content service: the visibility rules
 * (shown, on this site) and the search run in the database, so every read costs the same at 35 or
 * 100 000 practitioners. Names sort by their folded text (Ärztin next to Arzt), then the id.
 */
export const PRACTITIONERS = "gm-content-practitioners";
const BY_NAME: ContentQuery["sort"] = [{ path: "data.name.iv" }];
export const visitor = (language: string): ReadScope => ({ audience: "visitor", language });

function toSummary(i: FlatItem): PractitionerSummary {
  const d = i.data as Record<string, unknown>;
  const str = (k: string) => (typeof d[k] === "string" && d[k] ? (d[k] as string) : undefined);
  return {
    id: i.id,
    slug: i.slug ?? i.id,
    name: String(d.name ?? ""),
    city: String(d.city ?? ""),
    country: String(d.country ?? ""),
    street: str("street"),
    zip: str("zip"),
    adress2: str("adress2"),
    speciality: str("speciality"),
    description: str("description"),
    languages: Array.isArray(d.languages) ? (d.languages as string[]) : [],
    websites: Array.isArray(d.websites) ? (d.websites as string[]) : [],
    website: str("website"),
    coords: (d.coords as PractitionerSummary["coords"]) ?? undefined,
    coords2: (d.coords2 as PractitionerSummary["coords2"]) ?? undefined,
    finishedPractitioner: d.finishedPractitioner === true,
    ...(Array.isArray(d.photo) && typeof d.photo[0] === "string" ? { photo: d.photo[0] } : {}),
  };
}

async function practitioners(context: AppLoadContext, language: Language, query: ContentQuery, noTotal = false) {
  const { total, items } = await context.services.content.query(PRACTITIONERS, query, visitor(language), { noTotal });
  return { total, items: items.map(toSummary) };
}

type DirectoryPage = Omit<DirectoryResult, "query" | "nextSlots">;

/** The directory the URL asks for: its page, the booking variant's next free slots, its facets. */
export async function loadDirectory(context: AppLoadContext, language: Language, query: DirectoryQuery): Promise<{ result: DirectoryResult; facets: Facets }> {
  const [page, facets] = await Promise.all([directoryPage(context, language, query), directoryFacets(context)]);
  const booking = context.services.env.SITE_VARIANT === "booking";
  const nextSlots = booking ? await nextFreeSlotOf(context, page.items.map((p) => p.id)) : undefined;
  return { result: { query, ...page, ...(nextSlots ? { nextSlots } : {}) }, facets };
}

/**
 * One page of the directory: every word of `q` in the practitioner's visible text (umlaut and
 * accent insensitive, ae/oe/ue spellings alike), filtered by language and country, by name. A page
 * beyond the last shows the last.
 */
export async function directoryPage(context: AppLoadContext, language: Language, query: DirectoryQuery, size = PAGE_SIZE): Promise<DirectoryPage> {
  const base: ContentQuery = { sort: BY_NAME, take: size, ...directoryFilter(query) };
  const wanted = Math.max(1, query.page ?? 1);
  let result = await practitioners(context, language, { ...base, skip: (wanted - 1) * size });
  const pages = Math.max(1, Math.ceil(result.total / size));
  const page = Math.min(wanted, pages);
  if (page !== wanted) result = await practitioners(context, language, { ...base, skip: (page - 1) * size });
  return { items: result.items, page, pages, total: result.total };
}

/** What a directory query asks of the content service: its words and its filters. */
export function directoryFilter(query: DirectoryQuery): Pick<ContentQuery, "fullText" | "filter"> {
  const filters: FilterNode[] = [];
  if (query.language) filters.push({ path: "data.languages.iv", op: "eq", value: query.language });
  if (query.country) filters.push({ path: "data.country.iv", op: "eq", value: query.country });
  return { ...(query.q ? { fullText: query.q } : {}), ...(filters.length ? { filter: { and: filters } } : {}) };
}

/** The languages and countries visitors can filter by: those of the practitioners shown. */
function directoryFacets(context: AppLoadContext): Promise<Facets> {
  return context.services.cache.getOrLoad("practitioner-facets", async () => {
    const { content } = context.services;
    const [languages, countries] = await Promise.all([content.distinct(PRACTITIONERS, "languages", visitor("de")), content.distinct(PRACTITIONERS, "country", visitor("de"))]);
    const strings = (values: unknown[]) => values.filter((v): v is string => typeof v === "string" && v !== "").sort();
    return { languages: strings(languages), countries: strings(countries) };
  });
}

/** The first `limit` practitioners by name. */
export async function firstPractitioners(context: AppLoadContext, language: Language, limit: number): Promise<PractitionerSummary[]> {
  if (limit <= 0) return [];
  return (await practitioners(context, language, { sort: BY_NAME, take: limit }, true)).items;
}

/** The visible practitioners among `ids` (any order). */
export async function practitionersById(context: AppLoadContext, language: Language, ids: readonly string[]): Promise<PractitionerSummary[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  return (await practitioners(context, language, { ids: unique }, true)).items;
}

/** A visible practitioner by the slug of their profile address: one indexed lookup. */
export async function practitionerBySlug(context: AppLoadContext, language: Language, slug: string): Promise<PractitionerSummary | undefined> {
  return (await practitioners(context, language, { filter: { path: "slug", op: "eq", value: slug }, take: 1 }, true)).items[0];
}

/** Previous and next practitioner by name, wrapping around (the next of the last is the first). */
export async function practitionerNeighbours(context: AppLoadContext, language: Language, id: string) {
  const around = await context.services.content.adjacent(PRACTITIONERS, id, "name", visitor(language));
  return around ? { previous: toSummary(around.previous), next: toSummary(around.next) } : undefined;
}

/**
 * Visible practitioners in id order, 200 at a time (the sitemap): from the `from`-th (0-based), at
 * most `limit`. Pages follow on from the last id (keyset), so the thousandth page costs what the first does.
 */
export async function* allPractitioners(context: AppLoadContext, language: Language, opts: { from?: number; limit?: number } = {}): AsyncGenerator<PractitionerSummary[]> {
  const byId = [{ path: "id" }];
  let left = opts.limit ?? Infinity;
  let after: string | undefined;
  if (opts.from) {
    // The id just before the first wanted: one index step, not a page of documents per skipped 200.
    const { items } = await context.services.content.query(PRACTITIONERS, { sort: byId, skip: opts.from - 1, take: 1 }, visitor(language), { noTotal: true });
    if (!items[0]) return;
    after = items[0].id;
  }
  while (left > 0) {
    const take = Math.min(200, left);
    const query: ContentQuery = { sort: byId, take, ...(after === undefined ? {} : { filter: { path: "id", op: "gt", value: after } }) };
    const { items } = await context.services.content.query(PRACTITIONERS, query, visitor(language), { noTotal: true });
    if (items.length) yield items.map(toSummary);
    if (items.length < take) return;
    after = items[items.length - 1]!.id;
    left -= items.length;
  }
}

/** How many practitioners visitors see. */
export async function countPractitioners(context: AppLoadContext): Promise<number> {
  return (await context.services.content.query(PRACTITIONERS, { take: 0 }, visitor("de"))).total;
}

export interface AppointmentSlot {
  id: string;
  practitioner: string;
  start: string;
  booked: boolean;
}

/** Slots still to come that nobody has booked. */
const freeSlotFilter = (): FilterNode[] => [
  { path: "data.start.iv", op: "gt", value: new Date().toISOString() },
  { path: "data.booked.iv", op: "ne", value: true },
];

const toSlot = (i: FlatItem): AppointmentSlot => ({
  id: i.id,
  practitioner: String((i.data.practitioner as string[] | undefined)?.[0] ?? ""),
  start: String(i.data.start ?? ""),
  booked: false,
});

/**
 * Upcoming free slots, soonest first: of the given practitioners only (when given), at most `limit`.
 * One query on the slots' indexed practitioner and start.
 */
export async function loadFreeSlots(context: AppLoadContext, opts: { practitioners?: string[]; limit: number }): Promise<AppointmentSlot[]> {
  const and = freeSlotFilter();
  if (opts.practitioners) {
    const ids = [...new Set(opts.practitioners)];
    if (!ids.length) return [];
    and.push({ path: "data.practitioner.iv", op: "in", value: ids });
  }
  const query: ContentQuery = { filter: { and }, sort: [{ path: "data.start.iv" }], take: opts.limit };
  try {
    const { items } = await context.services.content.query("gm-appointments", query, visitor("de"), { noTotal: true });
    return items.map(toSlot);
  } catch (error) {
    context.services.logger.error({ err: error, requestId: context.requestId }, "Error Fetching Appointments");
    return [];
  }
}

/** The next free slot of each practitioner: one query for all of them. */
async function nextFreeSlotOf(context: AppLoadContext, ids: readonly string[]): Promise<Record<string, string>> {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return {};
  const query: ContentQuery = { filter: { and: [...freeSlotFilter(), { path: "data.practitioner.iv", op: "in", value: wanted }] }, sort: [{ path: "data.start.iv" }], take: wanted.length };
  const next: Record<string, string> = {};
  try {
    const { items } = await context.services.content.query("gm-appointments", query, visitor("de"), { firstPer: "practitioner" });
    for (const slot of items.map(toSlot)) next[slot.practitioner] = slot.start;
  } catch (error) {
    context.services.logger.error({ err: error, requestId: context.requestId }, "Error Fetching Appointments");
  }
  return next;
}

/** A profile photo's file as the page shows it (dimensions for width/height), or null for none or a missing file. */
export async function practitionerPhoto(context: AppLoadContext, photo: string | undefined): Promise<{ url: string; width?: number; height?: number; mimeType: string } | null> {
  if (!photo) return null;
  const a = (await context.services.content.assets([photo])).items[0];
  return a ? { url: assetUrl(a), width: a.pixelWidth ?? undefined, height: a.pixelHeight ?? undefined, mimeType: a.mimeType } : null;
}
