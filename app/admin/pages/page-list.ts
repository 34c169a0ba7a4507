import type { ContentStore } from "~/content/store";
import { LIST_STATUSES as PAGE_STATES, parsePage, parseSearch, statusFilter, type ListStatus } from "~/admin/content/list-query";
import { PAGES_SCHEMA } from "./page-slug";

export const PAGE_LIST_SIZE = 20;
export { LIST_STATUSES as PAGE_STATES } from "~/admin/content/list-query";
export type PageStateFilter = ListStatus;

export interface PageListQuery {
  search: string;
  state: PageStateFilter | "";
  /** 1-based. */
  page: number;
}

/**
 * The list's query from the URL, checked like every admin list (list-query.ts): a page number or
 * search text that cannot be one is a 400 with a message; an unknown state shows every page.
 */
export function pageListQuery(params: URLSearchParams, language: "de" | "en" = "de"): PageListQuery {
  const state = params.get("state") ?? "";
  return {
    search: parseSearch(params.get("q"), language),
    state: (PAGE_STATES as readonly string[]).includes(state) ? (state as PageStateFilter) : "",
    page: parsePage(params.get("page"), language, PAGE_LIST_SIZE),
  };
}

/**
 * One page of the pages (drafts included), searched in their titles and SEO texts and filtered by
 * state in the database, by German title.
 */
export async function listPages(store: ContentStore, query: PageListQuery) {
  const filter = statusFilter(query.state);
  const { total, items } = await store.query(
    PAGES_SCHEMA,
    {
      ...(filter ? { filter } : {}),
      ...(query.search ? { fullText: query.search } : {}),
      sort: [{ path: "data.title.de" }],
      skip: (query.page - 1) * PAGE_LIST_SIZE,
      take: PAGE_LIST_SIZE,
    },
    { unpublished: true, searchFields: new Set(["title", "seo"]) },
  );
  return { total, pages: Math.max(1, Math.ceil(total / PAGE_LIST_SIZE)), items };
}
