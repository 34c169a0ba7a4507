import { Link } from "react-router";
import type { Route } from "./+types/content";
import { admin } from "~/admin/admin.server";
import { collectionAbout, collectionName } from "~/admin/content/field-words";
import { AdminPage, EmptyState } from "~/admin/ui";
import { routeAccess } from "~/auth/access";
import type { Language } from "~/i18n/languages";
import { formatCount } from "~/i18n/numbers";

/**
 * `/manage/content`: every content collection (component schemas are parts of others, not lists)
 * with its label and number of items, and the work lists that hang off the content.
 */
export const handle = routeAccess("auth");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

const texts = {
  de: {
    title: "Inhalte",
    intro: "Alle Sammlungen mit der Zahl ihrer Einträge (Entwürfe eingeschlossen).",
    collections: "Sammlungen",
    collection: "Sammlung",
    items: "Einträge",
    work: "Arbeitslisten",
    registrations: "Neue Registrierungen",
    registrationsHint: "Noch nicht sichtbare Behandelnde prüfen und freigeben.",
    appointments: "Termine",
    appointmentsHint: "Buchbare Termine und Buchungen.",
    outbox: "Postausgang",
    outboxHint: "Versendete, wartende und fehlgeschlagene E-Mails.",
    empty: "Es gibt noch keine Sammlungen.",
  },
  en: {
    title: "Content",
    intro: "Every collection with its number of items (drafts included).",
    collections: "Collections",
    collection: "Collection",
    items: "Items",
    work: "Work lists",
    registrations: "New registrations",
    registrationsHint: "Review and approve practitioners who are not visible yet.",
    appointments: "Appointments",
    appointmentsHint: "Bookable appointments and bookings.",
    outbox: "Outbox",
    outboxHint: "Sent, waiting and failed emails.",
    empty: "There are no collections yet.",
  },
} satisfies Record<Language, unknown>;

export async function loader(args: Route.LoaderArgs) {
  const { language, services } = admin(args);
  const schemas = (await services.store.listSchemas()).filter((s) => s.type !== "Component");
  // One count per collection, in the database (take 0 reads no items).
  const collections = await Promise.all(
    schemas.map(async (s) => ({
      name: s.name,
      label: collectionName(s, language),
      about: collectionAbout(s, language),
      count: (await services.store.query(s.name, { take: 0 }, { unpublished: true })).total,
    })),
  );
  collections.sort((a, b) => a.label.localeCompare(b.label, language));
  return { text: texts[language], language, collections };
}

export default function Content({ loaderData }: Route.ComponentProps) {
  const { text, collections, language } = loaderData;
  const links = [
    ["/manage/registrations", text.registrations, text.registrationsHint],
    ["/manage/appointments", text.appointments, text.appointmentsHint],
    ["/manage/outbox", text.outbox, text.outboxHint],
  ] as const;
  return (
    <AdminPage title={text.title} intro={<p>{text.intro}</p>}>
      <section aria-labelledby="work-lists" className="space-y-2">
        <h2 id="work-lists" className="text-lg font-bold">
          {text.work}
        </h2>
        <ul className="grid gap-3 sm:grid-cols-3">
          {links.map(([href, label, hint]) => (
            <li key={href} className="rounded border border-slate-300 bg-white p-4">
              <Link to={href} className="font-semibold text-[#0f5e63] underline">
                {label}
              </Link>
              <p className="mt-1 text-sm text-slate-700">{hint}</p>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="collections" className="space-y-2">
        <h2 id="collections" className="text-lg font-bold">
          {text.collections}
        </h2>
        {collections.length === 0 ? (
          <EmptyState>{text.empty}</EmptyState>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full border-collapse bg-white text-left text-sm" data-collections>
              <thead>
                <tr className="border-b border-slate-400">
                  <th scope="col" className="p-2">
                    {text.collection}
                  </th>
                  <th scope="col" className="p-2 text-right">
                    {text.items}
                  </th>
                </tr>
              </thead>
              <tbody>
                {collections.map((c) => (
                  <tr key={c.name} className="border-b border-slate-200" data-collection={c.name}>
                    <td className="p-2">
                      <Link to={`/manage/content/${encodeURIComponent(c.name)}`} className="font-semibold text-[#0f5e63] underline">
                        {c.label}
                      </Link>
                      <p className="text-xs text-slate-700">{c.about}</p>
                    </td>
                    <td className="p-2 text-right tabular-nums">{formatCount(c.count, language)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </AdminPage>
  );
}
