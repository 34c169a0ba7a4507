import type { ContentStore } from "~/content/store";
import type { FilterNode } from "~/content/types";
import { PAGES_SCHEMA } from "./page-slug";

export const PAGE_LIST_SIZE = 20;
export const PAGE_STATES = ["Draft", "Published", "Changed"] as const;
export type PageStateFilter = (typeof PAGE_STATES)[number];

export interface PageListQuery {
  search: string;
  state: PageStateFilter | "";
  /** 1-based. */
  page: number;
}

/** The list's query from the URL; anything unknown is ignored (a bad link still shows a list). */
export function pageListQuery(params: URLSearchParams): PageListQuery {
  const state = params.get("state") ?? "";
  const page = Number(params.get("page"));
  return {
    search: (params.get("q") ?? "").trim().slice(0, 100),
    state: (PAGE_STATES as readonly string[]).includes(state) ? (state as PageStateFilter) : "",
    page: Number.isSafeInteger(page) && page >= 1 ? Math.min(page, 10_000) : 1,
  };
}

/** The state filter as a database condition: Changed is published with a pending draft. */
function stateFilter(state: PageListQuery["state"]): FilterNode | undefined {
  if (state === "Draft") return { path: "status", op: "eq", value: "Draft" };
  if (state === "") return undefined;
  return { and: [{ path: "status", op: "eq", value: "Published" }, { path: "newStatus", op: state === "Changed" ? "exists" : "empty" }] };
}

/**
 * One page of the pages (drafts included), searched in their titles and SEO texts and filtered by
 * state in the database, by German title.
 */
export async function listPages(store: ContentStore, query: PageListQuery) {
  const filter = stateFilter(query.state);
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
