import { useEffect, useId, useRef, useState, type ComponentType, type ReactNode } from "react";
import { Form, Link, useNavigation, useRouteLoaderData } from "react-router";
import type { Language } from "~/i18n/languages";
import { adminTexts, type AdminTexts } from "./texts";
import { log } from "~/lib/log";

/** The admin layout's loader data (routes/manage/layout.tsx), for any screen below it. */
export interface AdminShell {
  user: { id: string; email: string; name: string; superuser: boolean; language: Language };
  language: Language;
}

export function useAdmin(): { language: Language; t: AdminTexts; user: AdminShell["user"] | undefined } {
  const shell = useRouteLoaderData("routes/manage/layout") as AdminShell | undefined;
  const language = shell?.language ?? "de";
  return { language, t: adminTexts[language], user: shell?.user };
}

/** `title` may be content (an item's title): the screen marks it `data-content`, as every place that shows what editors wrote. */
export function AdminPage({ title, intro, actions, children }: { title: ReactNode; intro?: ReactNode; actions?: ReactNode; children: ReactNode }) {
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
          {intro ? <div className="mt-1 max-w-3xl text-slate-700">{intro}</div> : null}
        </div>
        {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
      </div>
      {children}
    </div>
  );
}

type Tone = "primary" | "secondary" | "danger";
const TONES: Record<Tone, string> = {
  primary: "bg-[#0f5e63] text-white hover:bg-[#0b4a4e]",
  secondary: "border border-slate-400 bg-white text-slate-900 hover:bg-slate-50",
  // 8.6:1 against white (red-700 was 6.4): every admin control meets WCAG AAA (issue 22).
  danger: "bg-red-800 text-white hover:bg-red-900",
};
export const buttonClass = (tone: Tone = "primary") =>
  `inline-flex min-h-10 items-center gap-2 rounded px-4 py-2 text-sm font-semibold focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-[#0f5e63] disabled:opacity-60 ${TONES[tone]}`;
export const inputClass = "block w-full rounded border border-slate-500 bg-white px-3 py-2 text-base focus-visible:outline-3 focus-visible:outline-[#0f5e63]";

/** Draft / Published / Changed (published with a pending draft) / Archived. */
export function StatusBadge({ status, newStatus }: { status: string; newStatus?: string | null }) {
  const { t } = useAdmin();
  const changed = status === "Published" && !!newStatus;
  const label = changed ? t.statusChanged : status === "Published" ? t.statusPublished : status === "Archived" ? t.statusArchived : t.statusDraft;
  const tone = changed ? "bg-amber-100 text-amber-900" : status === "Published" ? "bg-green-100 text-green-900" : "bg-slate-200 text-slate-900";
  return (
    <span className={`inline-block rounded px-2 py-0.5 text-xs font-semibold ${tone}`} data-status={changed ? "Changed" : status}>
      {label}
    </span>
  );
}

/**
 * The answer to a save (§8): 200/201 is success, anything else is shown to the editor and logged
 * in the browser console as an error. `result` is an action's data (AdminResult).
 */
export function SaveNotice({ result: answer }: { result: { ok: boolean; message: string; confirm?: unknown } | undefined | null }) {
  // A question before a destructive action is no result: ConfirmStep shows it.
  const result = answer?.confirm ? null : answer;
  useEffect(() => {
    if (result && !result.ok) log.error("save failed:", result.message);
  }, [result]);
  if (!result) return <div role="status" aria-live="polite" className="sr-only" />;
  return (
    <div
      role={result.ok ? "status" : "alert"}
      aria-live={result.ok ? "polite" : "assertive"}
      data-save-result={result.ok ? "ok" : "error"}
      className={`rounded border-l-4 p-3 ${result.ok ? "border-green-700 bg-green-50 text-green-900" : "border-red-700 bg-red-50 text-red-900"}`}
    >
      {result.message}
    </div>
  );
}

/** A list as a table: column headings, then the rows (scrolls sideways on a narrow screen). */
export function DataTable({ headings, children }: { headings: ReactNode[]; children: ReactNode }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full border-collapse bg-white text-left text-sm">
        <thead>
          <tr className="border-b border-slate-400">
            {headings.map((heading, i) => (
              <th key={i} scope="col" className="p-2">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** Said where mail would seem to go out (outbox, users, dashboard) while none can: mail delivery not set up. */
export function MailOffNotice({ mailOn }: { mailOn: boolean }) {
  const { t } = useAdmin();
  if (mailOn) return null;
  return (
    <p className="rounded border-l-4 border-amber-600 bg-amber-50 p-3 text-amber-950" data-mail-off>
      {t.mailOff}
    </p>
  );
}

/**
 * The second step of a destructive action (issue 22, point 4): the server's question naming what
 * goes, a button that posts the same action again confirmed, and a way back. Plain forms: it works
 * without JavaScript (the page is rendered with the question) and with it (a fetcher's `Form`).
 */
export function ConfirmStep({
  confirm,
  Form: PostForm,
  cancelHref,
  reloadDocument,
}: {
  confirm: { question: string; detail?: string; confirmLabel: string; fields: Record<string, string> } | undefined | null;
  Form: ComponentType<{ method: "post"; className?: string; reloadDocument?: boolean; children: ReactNode }>;
  cancelHref: string;
  reloadDocument?: boolean;
}) {
  const { t } = useAdmin();
  const id = useId();
  // With JavaScript a fetcher keeps its answer across the way back: the question is put away here.
  const [dismissed, setDismissed] = useState<unknown>(null);
  const shown = !!confirm && dismissed !== confirm;
  // The button that asked may be far down a list, the question is at the top: bring it into view.
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (shown) ref.current?.scrollIntoView({ block: "nearest" });
  }, [shown, confirm]);
  if (!confirm || !shown) return null;
  return (
    <section ref={ref} aria-labelledby={`${id}-q`} className="max-w-3xl space-y-3 rounded border-l-4 border-red-700 bg-red-50 p-4 text-red-950" data-confirm-step>
      {/* Announced when it appears (after a fetcher's post the page does not reload). */}
      <p id={`${id}-q`} role="alert" className="font-semibold">
        {confirm.question}
      </p>
      {confirm.detail ? <p>{confirm.detail}</p> : null}
      <div className="flex flex-wrap gap-2">
        <PostForm method="post" {...(reloadDocument ? { reloadDocument } : {})}>
          {Object.entries(confirm.fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <input type="hidden" name="confirmed" value="yes" />
          <button type="submit" className={buttonClass("danger")} data-confirm>
            {confirm.confirmLabel}
          </button>
        </PostForm>
        <Link to={cancelHref} className={buttonClass("secondary")} onClick={() => setDismissed(confirm)} data-confirm-cancel>
          {t.cancel}
        </Link>
      </div>
    </section>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <p className="rounded border border-dashed border-slate-400 p-6 text-center text-slate-700" data-empty-state>
      {children}
    </p>
  );
}

/** A thin bar at the top while a navigation or submission is under way (lists and saves show progress). */
export function NavigationProgress() {
  const navigation = useNavigation();
  const { t } = useAdmin();
  const busy = navigation.state !== "idle";
  return (
    <div aria-live="polite" className="pointer-events-none fixed inset-x-0 top-0 z-50 h-1" data-navigation-busy={busy || undefined}>
      {busy ? (
        <>
          <div className="h-1 w-1/3 animate-pulse bg-[#0f5e63]" />
          <span className="sr-only">{t.loading}</span>
        </>
      ) : null}
    </div>
  );
}

/**
 * Paging links for a list: first, previous, next and last page (the page in the query, the rest of
 * the query kept). With `jump`, also a small form to type a page number; it sends `jump.hidden`
 * (the list's other parameters) along, and the server sends a number past the end to the last page.
 */
/**
 * Paging links (first, previous, next, last) and, past two pages, a box to jump to a typed page.
 * The box posts the list's own query (read off `href`): the same filters and sort, another page,
 * under whichever parameter name the list pages with.
 */
export function Pager({ page, pages, href, jump }: { page: number; pages: number; href: (page: number) => string; jump?: { hidden: [string, string][] } }) {
  const { t, language } = useAdmin();
  const id = useId();
  if (pages <= 1) return null;
  const query = (n: number) => new URLSearchParams(href(n).split("?")[1] ?? "");
  const [second, third] = [query(2), query(3)];
  const param = [...second.keys()].find((key) => second.get(key) === "2" && third.get(key) === "3") ?? "page";
  const hidden = jump?.hidden ?? [...query(1)].filter(([key]) => key !== param);
  const link = (to: number, label: string, rel?: string) => (
    <Link className={buttonClass("secondary")} to={href(to)} rel={rel} data-pager-link={label}>
      {label}
    </Link>
  );
  return (
    <nav aria-label={t.pageOf(page, pages)} className="flex flex-wrap items-center gap-3" data-pager>
      {page > 1 ? (
        <>
          {page > 2 ? link(1, t.first) : null}
          {link(page - 1, t.previous, "prev")}
        </>
      ) : null}
      <span data-pager-position>{t.pageOf(page, pages)}</span>
      {page < pages ? (
        <>
          {link(page + 1, t.next, "next")}
          {page < pages - 1 ? link(pages, t.last) : null}
        </>
      ) : null}
      {pages > 2 ? (
        <Form method="get" className="flex items-end gap-2" data-pager-jump>
          {hidden.map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <label htmlFor={`${id}-page`} className="font-semibold">
            {t.jumpToPage}
          </label>
          <input
            id={`${id}-page`}
            name={param}
            type="number"
            inputMode="numeric"
            min={1}
            max={pages}
            step={1}
            required
            defaultValue={page}
            key={page}
            lang={language}
            className="w-24 rounded border border-slate-500 bg-white px-3 py-2 text-base focus-visible:outline-3 focus-visible:outline-[#0f5e63]"
          />
          <button type="submit" className={buttonClass("secondary")}>
            {t.go}
          </button>
        </Form>
      ) : null}
    </nav>
  );
}

/** A labelled input; the label is always visible (no placeholder-only inputs). */
export function TextField(props: { label: string; name: string; defaultValue?: string; type?: string; required?: boolean; help?: string; error?: string; pattern?: string; maxLength?: number; autoComplete?: string }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-1 block font-semibold">
        {props.label}
      </label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? "text"}
        defaultValue={props.defaultValue}
        required={props.required}
        pattern={props.pattern}
        maxLength={props.maxLength}
        autoComplete={props.autoComplete}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.help || props.error ? `${id}-help` : undefined}
        className={inputClass}
      />
      {props.help || props.error ? (
        <p id={`${id}-help`} className={`mt-1 text-sm ${props.error ? "text-red-800" : "text-slate-700"}`}>
          {props.error ?? props.help}
        </p>
      ) : null}
    </div>
  );
}
