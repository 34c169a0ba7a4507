import { data } from "react-router";
import { ContentError } from "~/content/errors";
import { searchWords } from "~/content/fold";
import { MAX_SEARCH_WORDS, MAX_SKIP } from "~/content/limits";
import type { ContentQuery, FilterNode } from "~/content/types";

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
