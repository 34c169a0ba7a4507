import { data, Link, redirect } from "react-router";
import { peopleNames, personName } from "~/editor/people.server";
import type { Route } from "./+types/stored-page";
import { admin } from "~/admin/admin.server";
import { pageByName } from "~/admin/pages/page-edit";
import { PAGES_SCHEMA } from "~/admin/pages/page-slug";
import { AdminPage, StatusBadge } from "~/admin/ui";
import { routeAccess } from "~/auth/access";
import type { Language } from "~/i18n/languages";

/**
 * `/manage/squidex/{pagename}`: a page exactly as the content service stores it (every language,
 * status, version, who created and changed it and when), as JSON for checking and support. The
 * live version is shown beside the draft when the page has pending changes.
 */
export const handle = routeAccess("auth");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

const texts = {
  de: {
    title: (name: string) => `Gespeicherte Daten: ${name}`,
    intro: "So speichert der Content-Dienst die Seite, mit allen Sprachen.",
    back: "Zu den Einstellungen der Seite",
    status: "Status",
    version: "Version",
    created: "Angelegt",
    modified: "Geändert",
    by: "von",
    draft: "Entwurf (wird bearbeitet)",
    live: "Veröffentlichte Fassung",
  },
  en: {
    title: (name: string) => `Stored data: ${name}`,
    intro: "How the content service stores the page, in every language.",
    back: "To the page's settings",
    status: "Status",
    version: "Version",
    created: "Created",
    modified: "Changed",
    by: "by",
    draft: "Draft (being edited)",
    live: "Published version",
  },
} satisfies Record<Language, unknown>;

export async function loader(args: Route.LoaderArgs) {
  const { language, services } = admin(args);
  const item = await pageByName(services.store, args.params.pagename);
  if (!item) throw data(null, { status: 404 });
  if (item.id !== args.params.pagename) throw redirect(`/manage/squidex/${encodeURIComponent(item.id)}`);
  const live = item.newStatus ? await services.store.get(PAGES_SCHEMA, item.id) : undefined;
  return {
    language,
    item,
    by: personName(await peopleNames(args.context), item.lastModifiedBy, language),
    json: JSON.stringify(item, null, 2),
    liveJson: live ? JSON.stringify(live.data, null, 2) : null,
  };
}

export default function StoredPage({ loaderData }: Route.ComponentProps) {
  const { language, item, by, json, liveJson } = loaderData;
  const text = texts[language];
  const when = (iso: string) => new Date(iso).toLocaleString(language === "de" ? "de-DE" : "en-GB", { timeZone: "Europe/Berlin" });
  const title = (item.data.title as Record<string, string> | undefined)?.[language] ?? item.id;
  return (
    <AdminPage
      title={text.title(title)}
      intro={
        <>
          <p>{text.intro}</p>
          <p>
            <Link className="underline" to={`/manage/pages/${encodeURIComponent(item.id)}`}>
              {text.back}
            </Link>
          </p>
        </>
      }
    >
      <dl className="grid max-w-3xl grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded border border-slate-300 bg-white p-4">
        <dt className="font-semibold">{text.status}</dt>
        <dd>
          <StatusBadge status={item.status} newStatus={item.newStatus} />
        </dd>
        <dt className="font-semibold">{text.version}</dt>
        <dd data-stored-version>{item.version}</dd>
        <dt className="font-semibold">{text.created}</dt>
        <dd>
          {when(item.created)} {text.by} <code>{item.createdBy}</code>
        </dd>
        <dt className="font-semibold">{text.modified}</dt>
        <dd>
          {when(item.lastModified)} {text.by} {by}
        </dd>
      </dl>
      <section aria-labelledby="stored-json">
        <h2 id="stored-json" className="mb-2 text-lg font-bold">
          {liveJson ? text.draft : "JSON"}
        </h2>
        {/* Text content: React escapes it, so stored HTML (rich text blocks) shows as text. */}
        <pre tabIndex={0} className="max-h-[70vh] overflow-auto rounded bg-slate-900 p-4 text-sm text-slate-50" data-stored-json>
          {json}
        </pre>
      </section>
      {liveJson ? (
        <section aria-labelledby="stored-live">
          <h2 id="stored-live" className="mb-2 text-lg font-bold">
            {text.live}
          </h2>
          <pre tabIndex={0} className="max-h-[70vh] overflow-auto rounded bg-slate-900 p-4 text-sm text-slate-50">
            {liveJson}
          </pre>
        </section>
      ) : null}
    </AdminPage>
  );
}
