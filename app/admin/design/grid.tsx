/**
 * The design screens' layout (issue 22, point 8): a searchable grid of tiles and, beside it, a
 * detail panel with the one selected entry's form. Tiles are links (`?selected=id`) and the search
 * is a GET form (`?q=`), so all of it works without JavaScript; with it, the grid filters while the
 * editor types and the server's answer follows.
 */
import { useEffect, type ReactNode } from "react";
import { Form, Link, useLocation, useNavigate, useSubmit } from "react-router";
import type { AdminResult } from "~/admin/admin.server";
import { buttonClass, EmptyState, inputClass, useAdmin } from "~/admin/ui";

/** Lower case without accents: "Grün" and "GRUN" are the same search, as the store's `contains` has it. */
export function normalizeSearch(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().trim();
}

/** Whether any of `texts` contains the search (an empty search keeps everything). */
export function matchesSearch(texts: readonly (string | undefined)[], search: string): boolean {
  const needle = normalizeSearch(search);
  return !needle || texts.some((text) => text !== undefined && normalizeSearch(text).includes(needle));
}

/** A design screen's address: empty values and page 1 are left out, `selected` jumps to the panel. */
export function screenHref(path: string, params: Record<string, string | number | null | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== null && value !== undefined && value !== "" && !(name !== "q" && value === 1)) query.set(name, String(value));
  const s = query.toString();
  return `${path}${s ? `?${s}` : ""}${params.selected ? "#detail" : ""}`;
}

/**
 * The search above the grid. `value` is what is typed now: the screen filters its tiles by that at
 * once, and the form is sent as the editor types so matches on other pages come too.
 */
export function GridSearch({ label, value, onChange, keep }: { label: string; value: string; onChange(value: string): void; keep: Record<string, string | null | undefined> }) {
  const { t } = useAdmin();
  const submit = useSubmit();
  return (
    <Form method="get" role="search" className="flex flex-wrap items-end gap-2" data-grid-search>
      {Object.entries(keep).map(([name, v]) => (v ? <input key={name} type="hidden" name={name} value={v} /> : null))}
      <div className="min-w-48 flex-1">
        <label htmlFor="grid-q" className="mb-1 block font-semibold">
          {label}
        </label>
        <input
          id="grid-q"
          name="q"
          type="search"
          value={value}
          autoComplete="off"
          onChange={(e) => {
            onChange(e.target.value);
            // Replaces the history entry: typing a word is one step back, not one per letter.
            void submit(e.currentTarget.form, { replace: true, preventScrollReset: true });
          }}
          className={inputClass}
        />
      </div>
      <button type="submit" className={buttonClass("secondary")}>
        {t.search}
      </button>
    </Form>
  );
}

/** Search on top, the panel beside the grid from `lg` on; below that the panel comes between search and grid. */
export function GridLayout({ search, panel, children }: { search: ReactNode; panel: ReactNode; children: ReactNode }) {
  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(20rem,24rem)] lg:grid-rows-[auto_1fr]">
      <div className="min-w-0 lg:col-start-1 lg:row-start-1">{search}</div>
      <aside id="detail" aria-labelledby="detail-heading" className="min-w-0 scroll-mt-4 rounded border border-slate-300 bg-white p-4 lg:col-start-2 lg:row-span-2 lg:row-start-1" data-detail-panel>
        {panel}
      </aside>
      <div className="min-w-0 space-y-6 lg:col-start-1 lg:row-start-2">{children}</div>
    </div>
  );
}

/** The panel's heading and, for an open entry, the link that closes it. */
export function PanelHeading({ title, closeHref, children }: { title: ReactNode; closeHref?: string; children?: ReactNode }) {
  const { t } = useAdmin();
  return (
    <div className="mb-4 flex flex-wrap items-start justify-between gap-2">
      <h2 id="detail-heading" className="flex flex-wrap items-center gap-2 text-lg font-bold break-all">
        {title}
      </h2>
      <div className="flex flex-wrap gap-2">
        {children}
        {closeHref ? (
          <Link to={closeHref} className={buttonClass("secondary")} preventScrollReset data-panel-close>
            {t.close}
          </Link>
        ) : null}
      </div>
    </div>
  );
}

/** A section of tiles with its heading, the number shown and a note when nothing matches. */
/** The panel with nothing open: what to do here (or that the asked entry is gone), and the way to a new one. */
export function EmptyPanel({ title, message, children }: { title: string; message: string; children: ReactNode }) {
  return (
    <div>
      <PanelHeading title={title} />
      <p className="mb-3 text-slate-700">{message}</p>
      {children}
    </div>
  );
}

export function TileSection({ id, title, shown, total, searching, action, children }: { id: string; title: string; shown: number; total: number; searching: boolean; action?: ReactNode; children: ReactNode }) {
  const { t } = useAdmin();
  return (
    <section aria-labelledby={id} className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="text-xl font-bold">
          {title}
        </h2>
        {action}
      </div>
      <p className="text-sm text-slate-700" data-grid-count>
        {shown === total ? t.total(total) : t.shown(shown, total)}
      </p>
      {shown === 0 ? (
        <EmptyState>{searching ? t.noMatches : t.empty}</EmptyState>
      ) : (
        <ul className="grid grid-cols-[repeat(auto-fill,minmax(8.5rem,1fr))] gap-3">{children}</ul>
      )}
    </section>
  );
}

/** One tile: a link that opens the entry in the panel; the open one is marked. */
export function Tile({ href, selected, label, data, children }: { href: string; selected: boolean; label: string; data: Record<string, string>; children: ReactNode }) {
  return (
    <li {...data}>
      <Link
        to={href}
        aria-current={selected ? "true" : undefined}
        className={`flex h-full flex-col items-center gap-2 rounded border bg-white p-3 text-center text-slate-900 hover:border-[#0f5e63] focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-[#0f5e63] ${selected ? "border-[#0f5e63] ring-2 ring-[#0f5e63]" : "border-slate-300"}`}
      >
        {children}
        <span className="w-full font-semibold break-words">{label}</span>
      </Link>
    </li>
  );
}

/**
 * A new entry, once stored, is opened in the panel; the save's answer goes along in the
 * navigation's state (the new-entry form that showed it is gone by then).
 */
export function useOpenCreated(result: AdminResult | undefined, idle: boolean, href: (id: string) => string) {
  const navigate = useNavigate();
  useEffect(() => {
    if (idle && result?.ok && result.id) void navigate(href(result.id), { state: { notice: result } });
  }, [idle, result]);
}

/** The answer carried by useOpenCreated, for the screen's notice. */
export function useCarriedNotice(): AdminResult | undefined {
  return (useLocation().state as { notice?: AdminResult } | null)?.notice;
}
