import { useEffect, useRef, useState } from "react";
import { Form, Link, useActionData, useSubmit } from "react-router";
import type { Route } from "./+types/appointments";
import { admin } from "~/admin/admin.server";
import { SlotManager } from "~/admin/appointments/manager";
import { handleAction, loadScreen } from "~/admin/appointments/screen.server";
import { appointmentTexts } from "~/admin/appointments/texts";
import { APPOINTMENTS_PATH } from "~/admin/appointments/view";
import { AdminPage, buttonClass, EmptyState, inputClass } from "~/admin/ui";
import { routeAccess } from "~/auth/access";

/**
 * `/manage/appointments`: an editor picks a practitioner (searched by name, paged: there are
 * thousands) and a Berlin date range, sees the slots by day with who booked, cancels bookings
 * (the booker is mailed), deletes free slots and creates single slots or weekly series.
 */
export const handle = routeAccess("auth");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

export async function loader(args: Route.LoaderArgs) {
  const { language, services } = admin(args);
  return loadScreen(services, language, new URL(args.request.url));
}

export async function action(args: Route.ActionArgs) {
  const { user } = admin(args);
  return handleAction(args, user);
}

export default function Appointments({ loaderData }: Route.ComponentProps) {
  const { language, search, view, notice } = loaderData;
  const t = appointmentTexts[language];
  const fallback = useActionData<typeof action>();
  const searchHref = (page: number) => `${APPOINTMENTS_PATH}?${new URLSearchParams({ q: search.q, pp: String(page) })}`;
  return (
    <AdminPage title={t.title} intro={<p>{t.intro}</p>}>
      {notice ? (
        <p role="alert" className="rounded border-l-4 border-amber-600 bg-amber-50 p-3 text-amber-950">
          {notice}
        </p>
      ) : null}
      <section aria-labelledby="practitioner-search" className="space-y-3 rounded border border-slate-300 bg-white p-4">
        <h2 id="practitioner-search" className="text-xl font-bold">
          {t.practitioner}
        </h2>
        <PractitionerSearch q={search.q} label={t.search} hint={t.searchHint} button={t.searchButton} />
        <p role="status" aria-live="polite" className="text-sm text-slate-800" data-practitioner-count>
          {search.q ? (search.results.total ? t.found(search.results.total) : "") : t.searchFirst}
        </p>
        {search.results.items.length ? (
          <ul className="divide-y divide-slate-200 rounded border border-slate-300" data-practitioner-results>
            {search.results.items.map((p) => {
              const current = view?.practitioner.id === p.id;
              return (
                <li key={p.id}>
                  <Link
                    to={`${APPOINTMENTS_PATH}?${new URLSearchParams({ q: search.q, pp: String(search.results.page), practitioner: p.id })}`}
                    aria-current={current ? "true" : undefined}
                    className={`flex flex-wrap items-baseline gap-x-3 px-3 py-2 ${current ? "bg-[#0f5e63] text-white" : "text-slate-900 hover:bg-slate-50"}`}
                    data-practitioner={p.id}
                  >
                    <span className="font-semibold underline">{p.name}</span>
                    {p.city ? <span className={current ? "text-white" : "text-slate-700"}>{p.city}</span> : null}
                    {current ? <span className="sr-only">{` (${t.chosen})`}</span> : null}
                  </Link>
                </li>
              );
            })}
          </ul>
        ) : search.q ? (
          <EmptyState>{t.noPractitioners}</EmptyState>
        ) : null}
        {search.results.pages > 1 ? (
          <nav aria-label={`${t.practitioner}: ${t.page} ${search.results.page} / ${search.results.pages}`} className="flex items-center gap-3">
            {search.results.page > 1 ? (
              <Link className={buttonClass("secondary")} to={searchHref(search.results.page - 1)} rel="prev">
                ← <span className="sr-only">{`${t.page} ${search.results.page - 1}`}</span>
              </Link>
            ) : null}
            <span>
              {t.page} {search.results.page} / {search.results.pages}
            </span>
            {search.results.page < search.results.pages ? (
              <Link className={buttonClass("secondary")} to={searchHref(search.results.page + 1)} rel="next">
                → <span className="sr-only">{`${t.page} ${search.results.page + 1}`}</span>
              </Link>
            ) : null}
          </nav>
        ) : null}
      </section>
      {view ? <SlotManager view={view} GetForm={Form} hidden={{ q: search.q, pp: String(search.results.page) }} fallback={fallback} /> : <EmptyState>{t.pickFirst}</EmptyState>}
    </AdminPage>
  );
}

/**
 * The search for a practitioner by name or city: a GET form (`?q=`) that works without JavaScript;
 * with it, the results follow the typing (a pause of 300 ms submits, replacing the history entry).
 */
function PractitionerSearch({ q, label, hint, button }: { q: string; label: string; hint: string; button: string }) {
  const submit = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  const [text, setText] = useState(q);
  const sent = useRef(q);
  // A search from elsewhere (back button, a link) shows in the box; one this box sent does not
  // overwrite what was typed meanwhile.
  useEffect(() => {
    if (q.trim() !== sent.current.trim()) setText(q);
    sent.current = q;
  }, [q]);
  useEffect(() => {
    if (text.trim() === sent.current.trim()) return;
    const timer = setTimeout(() => {
      // Sent meanwhile by the button (or Enter): nothing more to do.
      if (text.trim() === sent.current.trim()) return;
      sent.current = text;
      if (form.current) void submit(form.current, { replace: true, preventScrollReset: true });
    }, 300);
    return () => clearTimeout(timer);
  }, [text, submit]);
  return (
    <Form
      ref={form}
      method="get"
      className="space-y-1"
      role="search"
      onSubmit={() => {
        sent.current = text;
      }}
    >
      <label htmlFor="practitioner-q" className="block text-sm font-semibold">
        {label}
      </label>
      <div className="flex flex-wrap items-center gap-3">
        <input id="practitioner-q" name="q" type="search" value={text} onChange={(e) => setText(e.target.value)} aria-describedby="practitioner-q-hint" className={`${inputClass} min-w-0 grow`} />
        <button type="submit" className={buttonClass("secondary")}>
          {button}
        </button>
      </div>
      <p id="practitioner-q-hint" className="text-sm text-slate-700">
        {hint}
      </p>
    </Form>
  );
}
