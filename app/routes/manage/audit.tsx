import { Form, Link } from "react-router";
import type { Route } from "./+types/audit";
import { admin } from "~/admin/admin.server";
import { AUDIT_ACTIONS, auditAction } from "~/admin/audit-words";
import { collectionName } from "~/admin/content/field-words";
import { titleOf } from "~/admin/content/schema-route.server";
import { adminHref } from "~/admin/dashboard.server";
import { AdminPage, buttonClass, EmptyState, inputClass } from "~/admin/ui";
import { routeAccess } from "~/auth/access";
import { AUDIT_PAGE_SIZE, type AuditQuery } from "~/auth/audit.server";
import { isValidId } from "~/content/ids";
import { berlinToUtc } from "~/booking/days";
import type { Language } from "~/i18n/languages";

/**
 * `/manage/audit` (superusers): who changed what and when, newest first, a page at a time, with
 * filters by person, action, collection and day. People by name, items by title and linked, actions
 * in words: no ids.
 */
export const handle = routeAccess("superuser");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

const texts = {
  de: {
    title: "Änderungsprotokoll",
    when: "Wann",
    who: "Wer",
    what: "Aktion",
    schema: "Sammlung",
    item: "Eintrag",
    version: "Fassung",
    detail: "Hinweis",
    older: "Ältere Einträge",
    newest: "Zu den neuesten",
    empty: "Keine Änderungen, die zu diesen Filtern passen.",
    filters: "Filter",
    anyone: "Alle",
    anything: "Alle Aktionen",
    anywhere: "Alle Sammlungen",
    from: "Ab Tag",
    to: "Bis Tag",
    apply: "Filtern",
    reset: "Filter zurücksetzen",
    gone: "(nicht mehr vorhanden)",
    system: "das System",
    program: "ein angebundenes Programm",
    table: "Änderungen",
  },
  en: {
    title: "Audit log",
    when: "When",
    who: "Who",
    what: "Action",
    schema: "Collection",
    item: "Item",
    version: "Version",
    detail: "Note",
    older: "Older entries",
    newest: "Back to the newest",
    empty: "No changes match these filters.",
    filters: "Filters",
    anyone: "Everyone",
    anything: "All actions",
    anywhere: "All collections",
    from: "From day",
    to: "Until day",
    apply: "Filter",
    reset: "Clear filters",
    gone: "(no longer there)",
    system: "the system",
    program: "a connected program",
    table: "Changes",
  },
} satisfies Record<Language, unknown>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 3600 * 1000;
/** Days since the epoch of a calendar date "2026-11-27", or undefined for anything else ("2024-02-30"). */
function dayNumber(day: string): number | undefined {
  if (!DAY.test(day)) return undefined;
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === day ? Math.round(ms / DAY_MS) : undefined;
}
/** The instant a Berlin calendar day starts (midnight always exists there). */
const berlinMidnight = (day: number) => new Date(berlinToUtc(day, 0)!).toISOString();

export async function loader(args: Route.LoaderArgs) {
  const { language, services } = admin(args, "superuser");
  const url = new URL(args.request.url);
  const param = (name: string, max = 100) => url.searchParams.get(name)?.slice(0, max) || "";
  const [people, schemas] = await Promise.all([services.auth.users.list(), services.store.listSchemas()]);
  const who = param("who");
  const action = param("action");
  const schema = param("schema");
  const from = param("from", 10);
  const to = param("to", 10);
  const filters = {
    who: people.some((p) => p.id === who) ? who : "",
    action: Object.hasOwn(AUDIT_ACTIONS, action) ? action : "",
    schema: schemas.some((s) => s.name === schema) ? schema : "",
    from: dayNumber(from) !== undefined ? from : "",
    to: dayNumber(to) !== undefined ? to : "",
  };
  const at = param("at", 40);
  const id = param("id");
  const before = at && id && !Number.isNaN(Date.parse(at)) ? { at, id } : undefined;
  const query: AuditQuery = {
    before,
    limit: AUDIT_PAGE_SIZE,
    ...(filters.who ? { userId: filters.who } : {}),
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.schema ? { schema: filters.schema } : {}),
    ...(filters.from ? { since: berlinMidnight(dayNumber(filters.from)!) } : {}),
    ...(filters.to ? { until: berlinMidnight(dayNumber(filters.to)! + 1) } : {}),
  };
  const entries = await services.auth.audit.list(query);

  // Items by title and link: one read per collection on this page of entries.
  const wanted = new Map<string, Set<string>>();
  for (const e of entries) if (e.schema && e.itemId && isValidId(e.itemId)) (wanted.get(e.schema) ?? wanted.set(e.schema, new Set()).get(e.schema)!).add(e.itemId);
  const titles = new Map<string, string>();
  for (const [name, ids] of wanted) {
    const s = schemas.find((x) => x.name === name);
    if (!s) continue;
    const found = await services.store.query(name, { ids: [...ids], take: ids.size }, { unpublished: true });
    for (const item of found.items) titles.set(`${name}/${item.id}`, titleOf(s, item));
  }
  const names = new Map(people.map((p) => [p.id, p.name || p.email]));
  const label = (name: string) => {
    const schema = schemas.find((s) => s.name === name);
    return schema ? collectionName(schema, language) : name;
  };
  const text = texts[language];
  const rows = entries.map((e) => {
    const title = e.schema && e.itemId ? titles.get(`${e.schema}/${e.itemId}`) : undefined;
    const href = title ? adminHref(e.schema!, e.itemId!) : null;
    return {
      id: e.id,
      at: new Date(e.at).toLocaleString(language === "de" ? "de-DE" : "en-GB", { timeZone: "Europe/Berlin", dateStyle: "medium", timeStyle: "short" }),
      who: (e.userId && names.get(e.userId)) || (e.userEmail === "system" ? text.system : e.userEmail.startsWith("client:") ? text.program : e.userEmail),
      action: auditAction(e.action, language),
      code: e.action,
      schema: e.schema ? label(e.schema) : "",
      item: e.itemId ? (title ?? text.gone) : "",
      href,
      version: e.version,
      detail: e.detail ?? "",
    };
  });
  const kept = Object.fromEntries(Object.entries(filters).filter(([, v]) => v));
  const last = entries.length === AUDIT_PAGE_SIZE ? entries.at(-1) : undefined;
  return {
    text,
    rows,
    filters,
    people: people.map((p) => ({ id: p.id, name: p.name || p.email })).sort((a, b) => (a.name < b.name ? -1 : 1)),
    actions: Object.entries(AUDIT_ACTIONS)
      .map(([value, words]) => ({ value, label: words[language] }))
      .sort((a, b) => (a.label < b.label ? -1 : 1)),
    collections: schemas.map((s) => ({ value: s.name, label: collectionName(s, language) })).sort((a, b) => (a.label < b.label ? -1 : 1)),
    next: last ? `?${new URLSearchParams({ ...kept, at: last.at, id: last.id })}` : null,
    first: before ? `?${new URLSearchParams(kept)}` : null,
    filtered: Object.keys(kept).length > 0,
  };
}

export default function Audit({ loaderData }: Route.ComponentProps) {
  const { text, rows, filters, people, actions, collections, next, first, filtered } = loaderData;
  const select = (name: string, label: string, all: string, value: string, options: { value: string; label: string }[]) => (
    <label className="block text-sm font-semibold">
      {label}
      <select name={name} defaultValue={value} className={`${inputClass} mt-1 font-normal`}>
        <option value="">{all}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <AdminPage title={text.title}>
      <Form method="get" className="grid gap-3 rounded border border-slate-300 bg-white p-4 sm:grid-cols-2 lg:grid-cols-3" aria-label={text.filters} data-audit-filters>
        {select("who", text.who, text.anyone, filters.who, people.map((p) => ({ value: p.id, label: p.name })))}
        {select("action", text.what, text.anything, filters.action, actions)}
        {select("schema", text.schema, text.anywhere, filters.schema, collections)}
        <label className="block text-sm font-semibold">
          {text.from}
          <input type="date" name="from" defaultValue={filters.from} className={`${inputClass} mt-1 font-normal`} />
        </label>
        <label className="block text-sm font-semibold">
          {text.to}
          <input type="date" name="to" defaultValue={filters.to} className={`${inputClass} mt-1 font-normal`} />
        </label>
        <div className="flex flex-wrap items-end gap-2">
          <button type="submit" className={buttonClass()}>
            {text.apply}
          </button>
          {filtered ? (
            <Link to="?" className={buttonClass("secondary")}>
              {text.reset}
            </Link>
          ) : null}
        </div>
      </Form>
      {rows.length === 0 ? (
        <EmptyState>{text.empty}</EmptyState>
      ) : (
        // Scrolls sideways on a narrow screen: reachable by keyboard, named for screen readers.
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={text.table}>
          <table className="w-full border-collapse bg-white text-left text-sm" data-audit-log>
            <thead>
              <tr className="border-b border-slate-400">
                {[text.when, text.who, text.what, text.schema, text.item, text.version, text.detail].map((h) => (
                  <th key={h} scope="col" className="p-2">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} className="border-b border-slate-200" data-audit-action={r.code}>
                  <td className="whitespace-nowrap p-2">{r.at}</td>
                  <td className="p-2" data-content>
                    {r.who}
                  </td>
                  <td className="p-2">{r.action}</td>
                  <td className="p-2">{r.schema}</td>
                  {/* Titles and notes are what editors wrote (content), in whatever language they wrote it. */}
                  <td className="p-2" data-content>
                    {r.href ? (
                      <Link to={r.href} className="underline">
                        {r.item}
                      </Link>
                    ) : (
                      r.item
                    )}
                  </td>
                  <td className="p-2">{r.version ?? ""}</td>
                  <td className="p-2 [overflow-wrap:anywhere]" data-content>
                    {r.detail}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="flex flex-wrap gap-2">
        {first ? (
          <Link to={first} className={buttonClass("secondary")}>
            {text.newest}
          </Link>
        ) : null}
        {next ? (
          <Link to={next} className={buttonClass("secondary")}>
            {text.older}
          </Link>
        ) : null}
      </div>
    </AdminPage>
  );
}
