import { data, Link, useFetcher, useNavigation } from "react-router";
import type { Route } from "./+types/registrations";
import { admin, done, mutate, readAdminForm, refused, writer, type AdminResult } from "~/admin/admin.server";
import { pageCount, parseListParams } from "~/admin/content/list-query";
import { approveRegistration, listRegistrations, type RegistrationRow } from "~/admin/content/registrations.server";
import { clientProblem } from "~/admin/content/schema-route.server";
import { AdminPage, buttonClass, EmptyState, Pager, SaveNotice, StatusBadge, useAdmin } from "~/admin/ui";
import { routeAccess } from "~/auth/access";
import { isValidId } from "~/content/ids";
import type { ContentItem } from "~/content/types";
import type { Language } from "~/i18n/languages";
import { PRACTITIONERS } from "~/registration/registration.server";

/**
 * `/manage/registrations`: practitioners who registered through the public form and are not shown
 * yet (display off). Approving turns display on and publishes the entry in one audited change; the
 * editor can open the entry first to correct it.
 */
export const handle = routeAccess("auth");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

const texts = {
  de: {
    title: "Neue Registrierungen",
    intro: "Behandelnde, die noch nicht im Verzeichnis erscheinen. „Freigeben“ macht den Eintrag sichtbar und veröffentlicht ihn.",
    name: "Name",
    city: "Ort",
    finished: "Abgeschlossen",
    yes: "ja",
    no: "nein",
    created: "Eingegangen",
    status: "Status",
    actions: "Aktionen",
    edit: "Bearbeiten",
    approve: "Freigeben",
    approveLabel: (name: string) => `${name} freigeben`,
    editLabel: (name: string) => `${name} bearbeiten`,
    approved: "Freigegeben: Der Eintrag ist jetzt im Verzeichnis sichtbar.",
    badId: "Unbekannter Eintrag.",
    badVersion: "Die Version fehlt oder ist ungültig. Bitte laden Sie die Seite neu.",
    unknownIntent: "Unbekannte Aktion.",
    empty: "Keine offenen Registrierungen.",
    unnamed: "(ohne Namen)",
  },
  en: {
    title: "New registrations",
    intro: "Practitioners not shown in the directory yet. “Approve” makes the entry visible and publishes it.",
    name: "Name",
    city: "City",
    finished: "Finished",
    yes: "yes",
    no: "no",
    created: "Received",
    status: "Status",
    actions: "Actions",
    edit: "Edit",
    approve: "Approve",
    approveLabel: (name: string) => `Approve ${name}`,
    editLabel: (name: string) => `Edit ${name}`,
    approved: "Approved: the entry now shows in the directory.",
    badId: "Unknown entry.",
    badVersion: "The version is missing or invalid. Please reload the page.",
    unknownIntent: "Unknown action.",
    empty: "No open registrations.",
    unnamed: "(no name)",
  },
} satisfies Record<Language, unknown>;

export async function loader(args: Route.LoaderArgs) {
  const { language, services } = admin(args);
  let page = 1;
  try {
    page = parseListParams(new URL(args.request.url).searchParams, language).page;
  } catch (error) {
    const problem = clientProblem(error);
    if (!problem) throw error;
    return data({ schema: PRACTITIONERS, language, page, total: 0, rows: [] as RegistrationRow[], problem: problem.message }, { status: problem.status });
  }
  const { total, rows } = await listRegistrations(services.store, page);
  return { schema: PRACTITIONERS, language, page, total, rows, problem: null as string | null };
}

export async function action(args: Route.ActionArgs) {
  const { user, language, services } = admin(args);
  const text = texts[language];
  const fields = await readAdminForm(args.request);
  if (fields.intent !== "approve") return refused(text.unknownIntent);
  if (!isValidId(fields.id)) return refused(text.badId, 400);
  if (!/^[0-9]{1,9}$/.test(fields.version ?? "")) return refused(text.badVersion, 400);
  const id = fields.id;
  return mutate(
    { ...args, user },
    null,
    () => approveRegistration(services.store, id, { ...writer(user), expectedVersion: Number(fields.version) }),
    () => done(text.approved, 200, { id }),
  );
}

export default function Registrations({ loaderData }: Route.ComponentProps) {
  const { schema, language, page, total, rows, problem } = loaderData;
  const text = texts[language];
  const { t } = useAdmin();
  const fetcher = useFetcher<AdminResult>();
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/manage/registrations";
  const locale = language === "de" ? "de-DE" : "en-GB";
  return (
    <AdminPage title={text.title} intro={<p>{text.intro}</p>}>
      <SaveNotice result={fetcher.data as AdminResult | undefined} />
      {problem ? (
        <p role="alert" className="rounded border-l-4 border-red-700 bg-red-50 p-3 text-red-900">
          {problem}
        </p>
      ) : null}
      <p role="status" aria-live="polite" className="text-sm text-slate-700">
        {loading ? t.loading : t.total(total)}
      </p>
      {rows.length === 0 ? (
        problem ? null : <EmptyState>{text.empty}</EmptyState>
      ) : (
        <div className={`overflow-x-auto ${loading ? "opacity-50" : ""}`} aria-busy={loading || undefined}>
          <table className="w-full border-collapse bg-white text-left text-sm" data-registrations>
            <thead>
              <tr className="border-b border-slate-400">
                {[text.name, text.city, text.finished, text.created, text.status, text.actions].map((h) => (
                  <th key={h} scope="col" className="p-2">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const name = r.name || text.unnamed;
                return (
                  <tr key={r.id} className="border-b border-slate-200 align-top" data-registration={r.id}>
                    <td className="p-2 font-semibold">{name}</td>
                    <td className="p-2">{r.city}</td>
                    <td className="p-2" data-finished={r.finished}>
                      {r.finished ? text.yes : text.no}
                    </td>
                    <td className="p-2 whitespace-nowrap">{new Date(r.created).toLocaleString(locale, { timeZone: "Europe/Berlin" })}</td>
                    <td className="p-2">
                      <StatusBadge status={r.status} />
                    </td>
                    <td className="flex flex-wrap gap-2 p-2">
                      <Link to={`/manage/content/${schema}/${encodeURIComponent(r.id)}`} className={buttonClass("secondary")} aria-label={text.editLabel(name)}>
                        {text.edit}
                      </Link>
                      <fetcher.Form method="post">
                        <input type="hidden" name="intent" value="approve" />
                        <input type="hidden" name="id" value={r.id} />
                        <input type="hidden" name="version" value={r.version} />
                        <button type="submit" className={buttonClass()} disabled={fetcher.state !== "idle"} aria-label={text.approveLabel(name)}>
                          {text.approve}
                        </button>
                      </fetcher.Form>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} pages={pageCount(total)} href={(p) => (p > 1 ? `?page=${p}` : "?")} />
    </AdminPage>
  );
}
