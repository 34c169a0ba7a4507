import { data } from "react-router";
import { ContentError } from "~/content/errors";
import { searchWords } from "~/content/fold";
import { MAX_SEARCH_WORDS, MAX_SKIP } from "~/content/limits";
import type { ContentQuery, FilterNode, Schema } from "~/content/types";
import type { Language } from "~/i18n/languages";
import { fieldLabel } from "./field-words";

/**
 * Turns an admin list's URL (`?q=…&status=…&page=…`) into a store query. Everything runs in the
 * database (search, filter, paging), so a list of 100 000 items costs one page; input that cannot
 * be a list request is refused with a 400 here instead of failing deeper down.
 */

export const PAGE_SIZE = 25;
/** Longer than any sensible search; longer text is refused, not cut (the editor sees why). */
export const MAX_SEARCH_CHARS = 200;

export const LIST_STATUSES = ["Draft", "Published", "Changed"] as const;
export type ListStatus = (typeof LIST_STATUSES)[number];

export interface ListParams {
  page: number;
  search: string;
  status: ListStatus | "";
}

/** The texts of the refusals, per language (the admin's own language). */
export const listProblems = {
  de: {
    page: "Die Seitenzahl muss eine ganze Zahl ab 1 sein.",
    search: `Der Suchbegriff ist zu lang oder enthält unzulässige Zeichen (höchstens ${MAX_SEARCH_CHARS} Zeichen und ${MAX_SEARCH_WORDS} Wörter).`,
    status: "Unbekannter Status; erlaubt sind Draft, Published und Changed.",
  },
  en: {
    page: "The page number must be a whole number from 1.",
    search: `The search is too long or contains characters it cannot have (at most ${MAX_SEARCH_CHARS} characters and ${MAX_SEARCH_WORDS} words).`,
    status: "Unknown status; use Draft, Published or Changed.",
  },
};

/** A 1-based page number from the URL (1 when absent); a 400 for anything else or a page past the store's reach. */
export function parsePage(raw: string | null, language: "de" | "en" = "de", pageSize = PAGE_SIZE): number {
  if (raw === null || raw === "") return 1;
  const page = /^[0-9]{1,10}$/.test(raw) ? Number(raw) : 0;
  if (page < 1 || (page - 1) * pageSize > MAX_SKIP) throw new ContentError(400, listProblems[language].page);
  return page;
}

/** Search text from the URL, trimmed; a 400 for text no one types (too long, too many words, control characters). */
export function parseSearch(raw: string | null, language: "de" | "en" = "de"): string {
  const search = (raw ?? "").trim();
  // Control characters are never typed into a search box; NUL would also upset the database.
  if (search.length > MAX_SEARCH_CHARS || /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(search) || searchWords(search).length > MAX_SEARCH_WORDS)
    throw new ContentError(400, listProblems[language].search);
  return search;
}

/** Reads and checks a list's search parameters; throws a 400 ContentError naming the bad one. */
export function parseListParams(params: URLSearchParams, language: "de" | "en" = "de"): ListParams {
  const page = parsePage(params.get("page"), language);
  const search = parseSearch(params.get("q"), language);
  const status = params.get("status") ?? "";
  if (status !== "" && !(LIST_STATUSES as readonly string[]).includes(status)) throw new ContentError(400, listProblems[language].status);
  return { page, search, status: status as ListStatus | "" };
}

/**
 * Runs parameter checks in a loader of a screen without a place for the problem: their 400 becomes a
 * thrown response, which the admin error boundary shows with its message (never a 500).
 */
export function orBadRequest<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof ContentError && error.statusCode === 400) throw data({ message: error.message }, { status: 400 });
    throw error;
  }
}

/** The store filter of a list status: "Changed" is a published item with a pending draft. */
export function statusFilter(status: ListStatus | ""): FilterNode | undefined {
  switch (status) {
    case "Draft":
      return { path: "status", op: "eq", value: "Draft" };
    case "Published":
      return { and: [{ path: "status", op: "eq", value: "Published" }, { not: { path: "newStatus", op: "exists" } }] };
    case "Changed":
      return { and: [{ path: "status", op: "eq", value: "Published" }, { path: "newStatus", op: "exists" }] };
    default:
      return undefined;
  }
}

/** One page of the list, newest change first (id as tie-breaker, so pages never overlap). */
export function listQuery(params: ListParams, extra?: FilterNode): ContentQuery {
  const filters = [statusFilter(params.status), extra].filter((f): f is FilterNode => !!f);
  return {
    ...(filters.length === 1 ? { filter: filters[0] } : filters.length > 1 ? { filter: { and: filters } } : {}),
    ...(params.search ? { fullText: params.search } : {}),
    sort: [
      { path: "lastModified", order: "descending" },
      { path: "id", order: "ascending" },
    ],
    skip: (params.page - 1) * PAGE_SIZE,
    take: PAGE_SIZE,
  };
}

/** How many pages `total` items fill (at least one, so "page 1 of 1" reads right for an empty list). */
export const pageCount = (total: number) => Math.max(1, Math.ceil(total / PAGE_SIZE));

/** The list URL for another page, the other parameters kept. */
export function pageHref(params: ListParams, page: number): string {
  const q = new URLSearchParams();
  if (params.search) q.set("q", params.search);
  if (params.status) q.set("status", params.status);
  if (page > 1) q.set("page", String(page));
  const s = q.toString();
  return s ? `?${s}` : "?";
}

// ---- A collection's list: sorting, column filters and paging an editor can steer -------------------

/** Query names the list itself uses; a field of the same name gets no filter (it would clash). */
const RESERVED = new Set(["q", "status", "page", "sort"]);
/** The sort key of the change date, the list's default (newest first). */
export const MODIFIED_SORT = "modified";
/** Longer than any place name; a longer filter text is refused, not cut. */
export const MAX_FILTER_CHARS = 100;
/**
 * The furthest page a request can name: past it the skip would be beyond what the store accepts. A
 * bigger number is read as "past the end" (and sent to the last page), never as an error.
 */
export const MAX_PAGE = Math.floor(MAX_SKIP / PAGE_SIZE) + 1;

/** A column filter: yes/no for a Boolean field, "begins with" for a text field. */
export interface ListFilter {
  name: string;
  label: string;
  kind: "boolean" | "text";
}

/** A sortable column: its key in the URL and the store path it sorts by. */
export interface ListSortKey {
  key: string;
  path: string;
}

export interface CollectionListParams extends ListParams {
  /** A column's key or MODIFIED_SORT. */
  sort: string;
  descending: boolean;
  /** Filter values by field name, only the ones set ("yes"/"no" or text). */
  filters: Record<string, string>;
}

export const collectionProblems = {
  de: {
    sort: "Nach dieser Spalte lässt sich nicht sortieren.",
    yesNo: (label: string) => `Der Filter „${label}“ kennt nur Ja oder Nein.`,
    text: (label: string) => `Der Filter „${label}“ ist zu lang oder enthält unzulässige Zeichen (höchstens ${MAX_FILTER_CHARS} Zeichen).`,
  },
  en: {
    sort: "The list cannot be sorted by this column.",
    yesNo: (label: string) => `The filter “${label}” only knows yes or no.`,
    text: (label: string) => `The filter “${label}” is too long or contains characters it cannot have (at most ${MAX_FILTER_CHARS} characters).`,
  },
};

/**
 * The filters a collection's list offers: its yes/no fields (visible, registration finished…) and
 * its indexed single-language text fields past the first (the first is the title, which the search
 * finds already): place, country. Private fields are never offered.
 */
export function listFilters(schema: Schema, language: Language, max = 5): ListFilter[] {
  const usable = schema.fields.filter((f) => !f.isHidden && f.partitioning !== "language" && !f.properties.tags?.includes("private") && !RESERVED.has(f.name));
  const label = (f: Schema["fields"][number]) => fieldLabel(schema.name, f, language);
  const yesNo = usable.filter((f) => f.properties.fieldType === "Boolean").map((f) => ({ name: f.name, label: label(f), kind: "boolean" as const }));
  const strings = schema.fields.filter((f) => f.properties.fieldType === "String" && !f.isHidden);
  const text = usable
    .filter((f) => f.properties.fieldType === "String" && f.properties.isIndexed && f !== strings[0])
    .map((f) => ({ name: f.name, label: label(f), kind: "text" as const }));
  return [...text, ...yesNo].slice(0, max);
}

/** The sort keys of a list's columns (the store path of the value shown), in the UI language for localised ones. */
export function sortKeys(schema: Schema, columns: string[], language: Language): ListSortKey[] {
  return columns.flatMap((name) => {
    const field = schema.fields.find((f) => f.name === name);
    if (!field) return [];
    return [{ key: name, path: `data.${name}.${field.partitioning === "language" ? language : "iv"}` }];
  });
}

/**
 * The page a URL asks for: a whole number from 1 (capped at MAX_PAGE, which is past any real list's
 * end), or undefined for anything that is no page number (`abc`, `-1`, `0`, `1e308`): the list then
 * sends the editor to its first page instead of refusing.
 */
export function requestedPage(raw: string | null): number | undefined {
  if (raw === null || raw === "") return 1;
  if (!/^[0-9]+$/.test(raw)) return undefined;
  const page = Number(raw);
  return page >= 1 ? Math.min(page, MAX_PAGE) : undefined;
}

/**
 * Reads a collection list's URL: search and status as parseListParams, `sort` (`name`, `-name`,
 * `modified`, `-modified`), one parameter per filter. Page numbers are not refused here (see
 * requestedPage); anything else that cannot be a list request is a 400 naming what is wrong.
 */
export function parseCollectionParams(params: URLSearchParams, language: Language, sortable: readonly ListSortKey[], filters: readonly ListFilter[]): CollectionListParams {
  const search = parseSearch(params.get("q"), language);
  const status = params.get("status") ?? "";
  if (status !== "" && !(LIST_STATUSES as readonly string[]).includes(status)) throw new ContentError(400, listProblems[language].status);
  const rawSort = params.get("sort") ?? "";
  const descending = rawSort === "" || rawSort.startsWith("-");
  const sort = rawSort.replace(/^-/, "") || MODIFIED_SORT;
  if (sort !== MODIFIED_SORT && !sortable.some((s) => s.key === sort)) throw new ContentError(400, collectionProblems[language].sort);
  const values: Record<string, string> = {};
  for (const filter of filters) {
    const value = (params.get(filter.name) ?? "").trim();
    if (!value) continue;
    if (filter.kind === "boolean" && value !== "yes" && value !== "no") throw new ContentError(400, collectionProblems[language].yesNo(filter.label));
    if (filter.kind === "text" && (value.length > MAX_FILTER_CHARS || /[\u0000-\u001f\u007f]/.test(value))) throw new ContentError(400, collectionProblems[language].text(filter.label));
    values[filter.name] = value;
  }
  const page = requestedPage(params.get("page")) ?? 1;
  return { page, search, status: status as ListStatus | "", sort, descending, filters: values };
}

/** The store filter of the column filters: "no" also finds items where the field was never set. */
export function columnFilter(params: CollectionListParams, filters: readonly ListFilter[]): FilterNode | undefined {
  const nodes: FilterNode[] = [];
  for (const filter of filters) {
    const value = params.filters[filter.name];
    if (!value) continue;
    const path = `data.${filter.name}.iv`;
    if (filter.kind === "boolean") {
      const yes: FilterNode = { path, op: "eq", value: true };
      nodes.push(value === "yes" ? yes : { not: yes });
    } else nodes.push({ path, op: "startsWith", value });
  }
  return nodes.length === 0 ? undefined : nodes.length === 1 ? nodes[0] : { and: nodes };
}

/** One page of a collection's list in the chosen order (id as the tie-breaker: pages never overlap). */
export function collectionQuery(params: CollectionListParams, sortable: readonly ListSortKey[], filters: readonly ListFilter[]): ContentQuery {
  const query = listQuery(params, columnFilter(params, filters));
  const order = params.descending ? "descending" : "ascending";
  const path = params.sort === MODIFIED_SORT ? "lastModified" : sortable.find((s) => s.key === params.sort)?.path;
  return { ...query, sort: [{ path: path ?? "lastModified", order }, { path: "id", order: "ascending" }] };
}

/** The list URL for a page (and optionally another order), search, status, order and filters kept. */
export function collectionHref(params: CollectionListParams, page: number, sort?: { key: string; descending: boolean }): string {
  const q = new URLSearchParams(collectionHiddenFields(params, sort));
  if (page > 1) q.set("page", String(page));
  const s = q.toString();
  return s ? `?${s}` : "?";
}

/** Every list parameter but the page, as name/value pairs (the jump-to-page form sends them along). */
export function collectionHiddenFields(params: CollectionListParams, sort?: { key: string; descending: boolean }): [string, string][] {
  const fields: [string, string][] = [];
  if (params.search) fields.push(["q", params.search]);
  if (params.status) fields.push(["status", params.status]);
  const key = sort?.key ?? params.sort;
  const descending = sort?.descending ?? params.descending;
  // The default order (newest change first) stays out of the URL.
  if (!(key === MODIFIED_SORT && descending)) fields.push(["sort", `${descending ? "-" : ""}${key}`]);
  for (const [name, value] of Object.entries(params.filters)) fields.push([name, value]);
  return fields;
}
