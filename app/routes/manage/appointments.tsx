import { Form, Link, useActionData } from "react-router";
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
        <Form method="get" className="flex flex-wrap items-end gap-3" role="search">
          <div>
            <label htmlFor="practitioner-q" className="mb-1 block text-sm font-semibold">
              {t.search}
            </label>
            <input id="practitioner-q" name="q" type="search" defaultValue={search.q} className={inputClass} />
          </div>
          <button type="submit" className={buttonClass("secondary")}>
            {t.searchButton}
          </button>
        </Form>
        {search.results.items.length ? (
          <ul className="flex flex-wrap gap-2" data-practitioner-results>
            {search.results.items.map((p) => {
              const current = view?.practitioner.id === p.id;
              return (
                <li key={p.id}>
                  <Link
                    to={`${APPOINTMENTS_PATH}?${new URLSearchParams({ q: search.q, pp: String(search.results.page), practitioner: p.id })}`}
                    aria-current={current ? "true" : undefined}
                    className={`inline-block rounded border px-3 py-1.5 text-sm ${current ? "border-[#0f5e63] bg-[#0f5e63] text-white" : "border-slate-400 text-slate-900 hover:bg-slate-50"}`}
                    data-practitioner={p.id}
                  >
                    {p.name}
                    {current ? <span className="sr-only">{` (${t.chosen})`}</span> : null}
                  </Link>
                </li>
              );
            })}
          </ul>
        ) : (
          <EmptyState>{t.noPractitioners}</EmptyState>
        )}
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
