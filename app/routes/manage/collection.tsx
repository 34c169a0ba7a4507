import { data, Form, Link, useLocation, useNavigation } from "react-router";
import type { Route } from "./+types/collection";
import { can, userPrincipal } from "~/content/policy";
import { admin } from "~/admin/admin.server";
import { listColumns, requireCollection, clientProblem } from "~/admin/content/schema-route.server";
import { LIST_STATUSES, listQuery, pageCount, pageHref, parseListParams, type ListParams } from "~/admin/content/list-query";
import { AdminPage, buttonClass, EmptyState, inputClass, Pager, StatusBadge, useAdmin } from "~/admin/ui";
import { routeAccess } from "~/auth/access";
import { flattenItem } from "~/content/flatten";
import type { Language } from "~/i18n/languages";

/**
 * `/manage/content/:schema`: one collection's items, 25 a page, newest change first. Search, status
 * filter and paging run in the store's query (a collection may hold 100 000 items), so the page is
 * as big as one page whatever the collection holds.
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
    apply: "Anwenden",
    reset: "Zurücksetzen",
    modified: "Geändert am",
    id: "ID",
    open: "Bearbeiten",
    results: "Einträge",
  },
  en: {
    back: "All collections",
    newItem: "New item",
    search: "Search all fields",
    status: "Status",
    anyStatus: "All",
    statuses: { Draft: "Draft", Published: "Published", Changed: "Changed" },
    apply: "Apply",
    reset: "Reset",
    modified: "Last modified",
    id: "ID",
    open: "Edit",
    results: "Items",
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
  // A collection with a side table is searched through its search text (every field but private
  // ones), drafts as JSON: fast at 100 000 items. Others are searched in every field.
  const searchFields = await services.store.indexedSearchFields(schema.name);
  const notSearched = searchFields ? schema.fields.filter((f) => !searchFields.has(f.name)).map((f) => f.properties.label || f.name) : [];
  const base = {
    text: texts[language],
    notSearched,
    language,
    schema: { name: schema.name, label: schema.properties.label || schema.name },
    // System collections are superusers' (the policy): no "new" button for an editor who may not.
    mayCreate: can(userPrincipal(user), "create", schema.name),
    columns: columns.map((name) => ({ name, label: schema.fields.find((f) => f.name === name)?.properties.label || name })),
  };
  const empty = { ...base, params: { page: 1, search: "", status: "" } as ListParams, total: 0, items: [] as Row[], problem: null as string | null };
  let params: ListParams;
  try {
    params = parseListParams(new URL(args.request.url).searchParams, language);
  } catch (error) {
    const problem = clientProblem(error);
    if (!problem) throw error;
    return data({ ...empty, problem: problem.message }, { status: problem.status });
  }
  try {
    const { total, items } = await services.store.query(schema.name, listQuery(params), { unpublished: true, language, ...(searchFields ? { searchFields } : {}) });
    const rows: Row[] = items.map((item) => {
      const flat = flattenItem(item, language, schema);
      return {
        id: item.id,
        status: item.status,
        newStatus: item.newStatus ?? null,
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
  lastModified: string;
  cells: string[];
}

/** A cell shows text; long values are cut so a row stays one glance. */
function cellText(value: unknown): string {
  const text = typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : "";
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

export default function Collection({ loaderData }: Route.ComponentProps) {
  const { text, schema, columns, params, total, items, problem, language, notSearched } = loaderData;
  const { t } = useAdmin();
  const navigation = useNavigation();
  const location = useLocation();
  const loading = navigation.state === "loading" && navigation.location.pathname === location.pathname;
  const base = `/manage/content/${encodeURIComponent(schema.name)}`;
  const filtered = !!(params.search || params.status);
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
        {loading ? t.loading : `${text.results}: ${total.toLocaleString(language === "de" ? "de-DE" : "en-GB")}`}
      </p>
      {items.length === 0 && !problem ? (
        <EmptyState>{filtered ? t.noMatches : t.empty}</EmptyState>
      ) : items.length ? (
        <div className={`overflow-x-auto transition-opacity ${loading ? "opacity-50" : ""}`} aria-busy={loading || undefined}>
          <table className="w-full border-collapse bg-white text-left text-sm" data-content-list={schema.name}>
            <thead>
              <tr className="border-b border-slate-400">
                {columns.length ? (
                  columns.map((c) => (
                    <th key={c.name} scope="col" className="p-2">
                      {c.label}
                    </th>
                  ))
                ) : (
                  <th scope="col" className="p-2">
                    {text.id}
                  </th>
                )}
                <th scope="col" className="p-2">
                  {text.status}
                </th>
                <th scope="col" className="p-2">
                  {text.modified}
                </th>
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
                  </td>
                  <td className="p-2 whitespace-nowrap">{new Date(item.lastModified).toLocaleString(language === "de" ? "de-DE" : "en-GB", { timeZone: "Europe/Berlin" })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager page={params.page} pages={pageCount(total)} href={(page) => pageHref(params, page)} />
    </AdminPage>
  );
}

