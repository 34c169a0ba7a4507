import { data, Form, Link, redirect, useLocation, useNavigation } from "react-router";
import type { Route } from "./+types/collection";
import { can, SINGLETON_COLLECTIONS, userPrincipal } from "~/content/policy";
import { admin } from "~/admin/admin.server";
import { listColumns, requireCollection, clientProblem } from "~/admin/content/schema-route.server";
import {
  collectionHiddenFields,
  collectionHref,
  collectionQuery,
  LIST_STATUSES,
  listFilters,
  MODIFIED_SORT,
  pageCount,
  parseCollectionParams,
  requestedPage,
  sortKeys,
  type CollectionListParams,
} from "~/admin/content/list-query";
import { collectionName, fieldLabel } from "~/admin/content/field-words";
import { AdminPage, buttonClass, EmptyState, inputClass, Pager, StatusBadge, useAdmin } from "~/admin/ui";
import { formatSlot } from "~/booking/days";
import { routeAccess } from "~/auth/access";
import { flattenItem } from "~/content/flatten";
import type { Language } from "~/i18n/languages";
import { formatCount } from "~/i18n/numbers";

/**
 * `/manage/content/:schema`: one collection's items, 25 a page, newest change first unless the
 * editor sorts by a column. Search, status and column filters, order and paging run in the store's
 * query (a collection may hold 100 000 items), so the page is as big as one page whatever the
 * collection holds. A page number that is none, or lies past the end, sends the editor to the first
 * or last page (a redirect): "page 407 of 402" is never shown.
 */
export const handle = routeAccess("auth");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

const texts = {
  de: {
    back: "Alle Sammlungen",
    newItem: "Neuer Eintrag",
    search: "Suche in allen Feldern",
    status: "Status",
    anyStatus: "Alle",
    statuses: { Draft: "Entwurf", Published: "Veröffentlicht", Changed: "Geändert" },
    scheduledPublish: "Wird veröffentlicht am",
    scheduledUnpublish: "Wird zurückgezogen am",
    apply: "Anwenden",
    reset: "Zurücksetzen",
    modified: "Geändert am",
    id: "ID",
    open: "Bearbeiten",
    results: "Einträge",
    filterAny: "Alle",
    yes: "Ja",
    no: "Nein",
  },
  en: {
    back: "All collections",
    newItem: "New item",
    search: "Search all fields",
    status: "Status",
    anyStatus: "All",
    statuses: { Draft: "Draft", Published: "Published", Changed: "Changed" },
    scheduledPublish: "To be published on",
    scheduledUnpublish: "To be unpublished on",
    apply: "Apply",
    reset: "Reset",
    modified: "Last modified",
    id: "ID",
    open: "Edit",
    results: "Items",
    filterAny: "All",
    yes: "Yes",
    no: "No",
  },
} satisfies Record<Language, unknown>;

/** Apart from `texts`, which travel in loader data as plain strings. */
const notSearchedText: Record<Language, (names: string) => string> = {
  de: (names) => `Private Felder werden nicht durchsucht: ${names}.`,
  en: (names) => `Private fields are not searched: ${names}.`,
};

export async function loader(args: Route.LoaderArgs) {
  const { user, language, services } = admin(args);
  const schema = await requireCollection(services.store, args.params.schema);
  const columns = listColumns(schema);
  const sortable = sortKeys(schema, columns, language);
  const filters = listFilters(schema, language);
  // A collection with a side table is searched through its search text (every field but private
  // ones), drafts as JSON: fast at 100 000 items. Others are searched in every field.
  const searchFields = await services.store.indexedSearchFields(schema.name);
  const notSearched = searchFields ? schema.fields.filter((f) => !searchFields.has(f.name)).map((f) => fieldLabel(schema.name, f, language)) : [];
  const base = {
    text: texts[language],
    notSearched,
    language,
    schema: { name: schema.name, label: collectionName(schema, language) },
    // System collections are superusers' (the policy): no "new" button for an editor who may not.
    // The site's one settings item stays one (the store refuses a second): no "new" button either.
    mayCreate: can(userPrincipal(user), "create", schema.name) && !(SINGLETON_COLLECTIONS.has(schema.name) && (await services.store.query(schema.name, { take: 0 }, { unpublished: true })).total > 0),
    columns: columns.map((name) => ({ name, label: fieldLabel(schema.name, schema.fields.find((f) => f.name === name) ?? { name, properties: {} }, language), sortable: sortable.some((s) => s.key === name) })),
    filters,
  };
  const url = new URL(args.request.url);
  const empty = {
    ...base,
    params: { page: 1, search: "", status: "", sort: MODIFIED_SORT, descending: true, filters: {} } as CollectionListParams,
    total: 0,
    items: [] as Row[],
    problem: null as string | null,
  };
  let params: CollectionListParams;
  try {
    params = parseCollectionParams(url.searchParams, language, sortable, filters);
  } catch (error) {
    const problem = clientProblem(error);
    if (!problem) throw error;
    return data({ ...empty, problem: problem.message }, { status: problem.status });
  }
  // Not a page number at all (`abc`, `-1`, `1e308`): the first page, the rest of the request kept.
  if (requestedPage(url.searchParams.get("page")) === undefined) throw redirect(`${url.pathname}${collectionHref(params, 1)}`);
  try {
    const { total, items } = await services.store.query(schema.name, collectionQuery(params, sortable, filters), {
      unpublished: true,
      language,
      ...(searchFields ? { searchFields } : {}),
    });
    // Past the end (the list shrank, or a typed number was too big): its last page. The count came
    // with this query, so the redirect costs no extra count.
    const last = pageCount(total);
    if (params.page > last) throw redirect(`${url.pathname}${collectionHref(params, last)}`);
    // A page's scheduled status changes: one lookup for its 25 items.
    const rows: Row[] = (await services.store.withSchedules(items)).map((item) => {
      const flat = flattenItem(item, language, schema);
      return {
        id: item.id,
        status: item.status,
        newStatus: item.newStatus ?? null,
        scheduled: item.scheduleJob ? { status: item.scheduleJob.status, dueTime: item.scheduleJob.dueTime } : null,
        lastModified: item.lastModified,
        cells: columns.map((c) => cellText(flat.data[c])),
      };
    });
    return { ...empty, params, total, items: rows };
  } catch (error) {
    const problem = clientProblem(error);
    if (!problem) throw error;
    return data({ ...empty, params, problem: [problem.message, ...problem.details].join(" ") }, { status: problem.status });
  }
}

interface Row {
  id: string;
  status: string;
  newStatus: string | null;
  scheduled: { status: string; dueTime: string } | null;
  lastModified: string;
  cells: string[];
}

/** A cell shows text; long values are cut so a row stays one glance. */
function cellText(value: unknown): string {
  const text = typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : "";
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

export default function Collection({ loaderData }: Route.ComponentProps) {
  const { text, schema, columns, filters, params, total, items, problem, language, notSearched } = loaderData;
  const { t } = useAdmin();
  const navigation = useNavigation();
  const location = useLocation();
  const loading = navigation.state === "loading" && navigation.location.pathname === location.pathname;
  const base = `/manage/content/${encodeURIComponent(schema.name)}`;
  const filtered = !!(params.search || params.status || Object.keys(params.filters).length);
  // The order is kept when filtering: the form sends it along.
  const sortField = collectionHiddenFields(params).find(([name]) => name === "sort");
  return (
    <AdminPage
      title={schema.label}
      intro={
        <p>
          <Link to="/manage/content" className="underline">
            {text.back}
          </Link>
        </p>
      }
      actions={
        loaderData.mayCreate ? (
          <Link to={`${base}/new`} className={buttonClass()}>
            {text.newItem}
          </Link>
        ) : null
      }
    >
      <Form method="get" role="search" className="flex flex-wrap items-end gap-3 rounded border border-slate-300 bg-white p-4">
        <div className="min-w-60 flex-1">
          <label htmlFor="list-search" className="mb-1 block font-semibold">
            {text.search}
          </label>
          <input
            id="list-search"
            name="q"
            type="search"
            defaultValue={params.search}
            maxLength={200}
            className={inputClass}
            key={params.search}
            aria-describedby={notSearched.length ? "list-search-help" : undefined}
          />
          {notSearched.length ? (
            <p id="list-search-help" className="mt-1 text-sm text-slate-700">
              {notSearchedText[language](notSearched.join(", "))}
            </p>
          ) : null}
        </div>
        <div>
          <label htmlFor="list-status" className="mb-1 block font-semibold">
            {text.status}
          </label>
          <select id="list-status" name="status" defaultValue={params.status} className={inputClass} key={params.status}>
            <option value="">{text.anyStatus}</option>
            {LIST_STATUSES.map((s) => (
              <option key={s} value={s}>
                {text.statuses[s]}
              </option>
            ))}
          </select>
        </div>
        {filters.map((f) => (
          <div key={f.name}>
            <label htmlFor={`list-filter-${f.name}`} className="mb-1 block font-semibold">
              {f.label}
            </label>
            {f.kind === "boolean" ? (
              <select id={`list-filter-${f.name}`} name={f.name} defaultValue={params.filters[f.name] ?? ""} className={inputClass} key={params.filters[f.name] ?? ""}>
                <option value="">{text.filterAny}</option>
                <option value="yes">{text.yes}</option>
                <option value="no">{text.no}</option>
              </select>
            ) : (
              <input
                id={`list-filter-${f.name}`}
                name={f.name}
                type="text"
                defaultValue={params.filters[f.name] ?? ""}
                key={params.filters[f.name] ?? ""}
                maxLength={100}
                className={`${inputClass} w-44`}
              />
            )}
          </div>
        ))}
        {sortField ? <input type="hidden" name="sort" value={sortField[1]} /> : null}
        <button type="submit" className={buttonClass()}>
          {text.apply}
        </button>
        {filtered ? (
          <Link to={base} className={buttonClass("secondary")}>
            {text.reset}
          </Link>
        ) : null}
      </Form>
      {problem ? (
        <p role="alert" className="rounded border-l-4 border-red-700 bg-red-50 p-3 text-red-900" data-list-problem>
          {problem}
        </p>
      ) : null}
      <p role="status" aria-live="polite" className="text-sm text-slate-700" data-list-total={total}>
        {loading ? t.loading : `${text.results}: ${formatCount(total, language)}`}
      </p>
      {items.length === 0 && !problem ? (
        <EmptyState>{filtered ? t.noMatches : t.empty}</EmptyState>
      ) : items.length ? (
        <div className={`overflow-x-auto transition-opacity ${loading ? "opacity-50" : ""}`} aria-busy={loading || undefined}>
          <table className="w-full border-collapse bg-white text-left text-sm" data-content-list={schema.name}>
            <thead>
              <tr className="border-b border-slate-400">
                {columns.length ? (
                  columns.map((c) =>
                    c.sortable ? (
                      <SortHeader key={c.name} sortKey={c.name} label={c.label} params={params} />
                    ) : (
                      <th key={c.name} scope="col" className="p-2">
                        {c.label}
                      </th>
                    ),
                  )
                ) : (
                  <th scope="col" className="p-2">
                    {text.id}
                  </th>
                )}
                <th scope="col" className="p-2">
                  {text.status}
                </th>
                <SortHeader sortKey={MODIFIED_SORT} label={text.modified} params={params} />
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={item.id} className="border-b border-slate-200 align-top" data-item={item.id}>
                  {(columns.length ? item.cells : [item.id]).map((cell, i) => (
                    <td key={i} className="p-2">
                      {i === 0 ? (
                        <Link to={`${base}/${encodeURIComponent(item.id)}`} className="font-semibold text-[#0f5e63] underline">
                          {cell || item.id}
                        </Link>
                      ) : (
                        cell
                      )}
                    </td>
                  ))}
                  <td className="p-2">
                    <StatusBadge status={item.status} newStatus={item.newStatus} />
                    {item.scheduled ? (
                      <span className="mt-1 block text-xs text-slate-700" data-scheduled={item.scheduled.status}>
                        {item.scheduled.status === "Published" ? text.scheduledPublish : text.scheduledUnpublish} {formatSlot(language, item.scheduled.dueTime)}
                      </span>
                    ) : null}
                  </td>
                  <td className="p-2 whitespace-nowrap">{new Date(item.lastModified).toLocaleString(language === "de" ? "de-DE" : "en-GB", { timeZone: "Europe/Berlin" })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager page={params.page} pages={pageCount(total)} href={(page) => collectionHref(params, page)} jump={{ hidden: collectionHiddenFields(params) }} />
    </AdminPage>
  );
}


/**
 * A column heading that sorts: a link to the list's first page in this column's order (ascending
 * first, the change date newest first; the sorted column's link turns the order round), search and
 * filters kept. `aria-sort` tells screen readers which column orders the list.
 */
function SortHeader({ sortKey, label, params }: { sortKey: string; label: string; params: CollectionListParams }) {
  const active = params.sort === sortKey;
  const descending = active ? !params.descending : sortKey === MODIFIED_SORT;
  return (
    <th scope="col" className="p-2" aria-sort={active ? (params.descending ? "descending" : "ascending") : undefined} data-sort-key={sortKey}>
      <Link to={collectionHref(params, 1, { key: sortKey, descending })} className="inline-flex items-center gap-1 underline decoration-slate-400 underline-offset-2 hover:decoration-current">
        {label}
        <span aria-hidden="true" className={active ? "" : "text-slate-600"}>
          {active ? (params.descending ? "▼" : "▲") : "↕"}
        </span>
      </Link>
    </th>
  );
}
