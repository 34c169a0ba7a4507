import { Link } from "react-router";
import type { Route } from "./+types/home";
import { admin, mailDelivers } from "~/admin/admin.server";
import { loadDashboard, type Dashboard as DashboardData } from "~/admin/dashboard.server";
import { AdminPage, MailOffNotice } from "~/admin/ui";
import { routeAccess } from "~/auth/access";
import type { Language } from "~/i18n/languages";

/**
 * `/manage`: what needs attention, each with the screen that deals with it (registrations to
 * review, mails that could not be sent, pages with unpublished changes, today's bookings), and the
 * last few changes by whom. Counts and short lists only (admin/dashboard.server.ts).
 */
export const handle = routeAccess("auth");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

type Count = (n: string, raw: number) => string;

const texts = {
  de: {
    attention: "Zu erledigen",
    registrations: ((n, raw) => (raw === 1 ? "1 Registrierung zu prüfen" : `${n} Registrierungen zu prüfen`)) as Count,
    failedMails: ((n, raw) => (raw === 1 ? "1 E-Mail nicht zugestellt" : `${n} E-Mails nicht zugestellt`)) as Count,
    draftPages: ((n, raw) => (raw === 1 ? "1 Seite noch nicht veröffentlicht" : `${n} Seiten noch nicht veröffentlicht`)) as Count,
    changedPages: ((n, raw) => (raw === 1 ? "1 Seite mit unveröffentlichten Änderungen" : `${n} Seiten mit unveröffentlichten Änderungen`)) as Count,
    bookingsToday: ((n, raw) => (raw === 1 ? "1 Buchung heute" : `${n} Buchungen heute`)) as Count,
    recent: "Letzte Änderungen",
    noRecent: "Noch keine Änderungen.",
    untitled: "(ohne Titel)",
    gone: "(gelöscht)",
    allChanges: "Alle Änderungen",
    actions: {
      "create-content": "hat angelegt:",
      "create-page": "hat angelegt:",
      "update-content": "hat geändert:",
      "patch-content": "hat geändert:",
      update: "hat geändert:",
      "edit-page-blocks": "hat bearbeitet:",
      "rename-page": "hat umbenannt:",
      "create-draft": "hat einen Entwurf begonnen:",
      "discard-draft": "hat einen Entwurf verworfen:",
      "discard-page-draft": "hat einen Entwurf verworfen:",
      "restore-page-version": "hat eine ältere Fassung wiederhergestellt:",
      "publish-content": "hat veröffentlicht:",
      "publish-page": "hat veröffentlicht:",
      publish: "hat veröffentlicht:",
      "unpublish-content": "hat zurückgezogen:",
      unpublish: "hat zurückgezogen:",
      "archive-content": "hat archiviert:",
      "delete-content": "hat gelöscht:",
      "delete-page": "hat gelöscht:",
      "delete-appointment": "hat einen Termin gelöscht:",
      "create-appointment": "hat einen Termin angelegt:",
      "cancel-booking": "hat eine Buchung storniert:",
      "approve-registration": "hat die Registrierung freigegeben:",
      "reject-registration": "hat die Registrierung abgelehnt:",
    } as Record<string, string>,
    changed: "hat geändert:",
    times: (n: string) => `(${n}-mal)`,
  },
  en: {
    attention: "Needs attention",
    registrations: ((n, raw) => (raw === 1 ? "1 registration to review" : `${n} registrations to review`)) as Count,
    failedMails: ((n, raw) => (raw === 1 ? "1 email not delivered" : `${n} emails not delivered`)) as Count,
    draftPages: ((n, raw) => (raw === 1 ? "1 page not published yet" : `${n} pages not published yet`)) as Count,
    changedPages: ((n, raw) => (raw === 1 ? "1 page with unpublished changes" : `${n} pages with unpublished changes`)) as Count,
    bookingsToday: ((n, raw) => (raw === 1 ? "1 booking today" : `${n} bookings today`)) as Count,
    recent: "Recent changes",
    noRecent: "No changes yet.",
    untitled: "(untitled)",
    gone: "(deleted)",
    allChanges: "All changes",
    actions: {
      "create-content": "created",
      "create-page": "created",
      "update-content": "changed",
      "patch-content": "changed",
      update: "changed",
      "edit-page-blocks": "edited",
      "rename-page": "renamed",
      "create-draft": "started a draft of",
      "discard-draft": "discarded a draft of",
      "discard-page-draft": "discarded a draft of",
      "restore-page-version": "restored an older version of",
      "publish-content": "published",
      "publish-page": "published",
      publish: "published",
      "unpublish-content": "unpublished",
      unpublish: "unpublished",
      "archive-content": "archived",
      "delete-content": "deleted",
      "delete-page": "deleted",
      "delete-appointment": "deleted an appointment:",
      "create-appointment": "created an appointment:",
      "cancel-booking": "cancelled a booking:",
      "approve-registration": "approved the registration of",
      "reject-registration": "rejected the registration of",
    } as Record<string, string>,
    changed: "changed",
    times: (n: string) => `(${n} times)`,
  },
} satisfies Record<Language, unknown>;

export async function loader(args: Route.LoaderArgs) {
  const { user, t, language, services } = admin(args);
  const dashboard: DashboardData = await loadDashboard({
    store: services.store,
    db: services.store.db,
    mail: services.mail,
    reader: { superuser: user.superuser },
    userName: async (id) => (await services.auth.users.get(id))?.name || undefined,
  });
  return { title: t.dashboard, welcome: t.welcome(user.name), language, superuser: user.superuser, dashboard, mailOn: mailDelivers(args.context) };
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { language, dashboard: d, superuser } = loaderData;
  const text = texts[language];
  const locale = language === "de" ? "de-DE" : "en-GB";
  const fmt = (n: number) => n.toLocaleString(locale);
  const items: Array<{ key: string; count: number; label: string; href: string; urgent: boolean }> = [
    { key: "registrations", count: d.registrations, label: text.registrations(fmt(d.registrations), d.registrations), href: "/manage/registrations", urgent: d.registrations > 0 },
    { key: "failed-mails", count: d.failedMails, label: text.failedMails(fmt(d.failedMails), d.failedMails), href: "/manage/outbox?status=failed", urgent: d.failedMails > 0 },
    { key: "draft-pages", count: d.draftPages, label: text.draftPages(fmt(d.draftPages), d.draftPages), href: "/manage/pages?state=Draft", urgent: false },
    { key: "changed-pages", count: d.changedPages, label: text.changedPages(fmt(d.changedPages), d.changedPages), href: "/manage/pages?state=Changed", urgent: false },
    { key: "bookings-today", count: d.bookingsToday, label: text.bookingsToday(fmt(d.bookingsToday), d.bookingsToday), href: "/manage/appointments", urgent: false },
  ];
  return (
    <AdminPage title={loaderData.title} intro={<p>{loaderData.welcome}</p>}>
      <MailOffNotice mailOn={loaderData.mailOn} />
      <section aria-labelledby="dashboard-attention" className="space-y-2">
        <h2 id="dashboard-attention" className="text-lg font-bold">
          {text.attention}
        </h2>
        <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
          {items.map((item) => (
            <li key={item.key}>
              <Link
                to={item.href}
                data-dashboard={item.key}
                data-count={item.count}
                className={`block rounded border-l-4 bg-white p-3 font-semibold underline-offset-2 hover:underline focus-visible:outline-3 focus-visible:outline-[#0f5e63] ${item.urgent ? "border-amber-600" : "border-slate-300"}`}
              >
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="dashboard-recent" className="space-y-2">
        <h2 id="dashboard-recent" className="text-lg font-bold">
          {text.recent}
        </h2>
        {d.recent.length === 0 ? (
          <p>{text.noRecent}</p>
        ) : (
          <ul className="divide-y divide-slate-200 rounded bg-white" data-recent-changes>
            {d.recent.map((change) => (
              <li key={change.id} className="flex flex-wrap gap-x-2 p-2 text-sm" data-recent-change={change.action}>
                <time dateTime={change.at} className="text-slate-700">
                  {new Date(change.at).toLocaleString(locale, { timeZone: "Europe/Berlin", dateStyle: "short", timeStyle: "short" })}
                </time>
                <span>
                  <span className="font-semibold">{change.who}</span> {text.actions[change.action] ?? text.changed} {change.count > 1 ? <>{text.times(fmt(change.count))} </> : null}
                  {change.href ? (
                    <Link to={change.href} className="text-[#0f5e63] underline" data-content={change.title ? "" : undefined}>
                      {change.title ?? text.untitled}
                      {change.when ? `, ${new Date(change.when).toLocaleString(locale, { timeZone: "Europe/Berlin", dateStyle: "short", timeStyle: "short" })}` : null}
                    </Link>
                  ) : (
                    <span data-content={change.title ? "" : undefined}>{change.title ?? text.gone}</span>
                  )}
                </span>
              </li>
            ))}
          </ul>
        )}
        {superuser ? (
          <Link to="/manage/audit" className="inline-block text-[#0f5e63] underline">
            {text.allChanges}
          </Link>
        ) : null}
      </section>
    </AdminPage>
  );
}
