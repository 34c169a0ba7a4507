import { Link } from "react-router";
import type { Route } from "./+types/audit";
import { admin } from "~/admin/admin.server";
import { AdminPage, buttonClass, EmptyState } from "~/admin/ui";
import { routeAccess } from "~/auth/access";
import { AUDIT_PAGE_SIZE } from "~/auth/audit.server";
import type { Language } from "~/i18n/languages";

/** `/manage/audit` (superusers): who changed what and when, newest first, a page at a time. */
export const handle = routeAccess("superuser");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

const texts = {
  de: { title: "Änderungsprotokoll", when: "Wann", who: "Wer", what: "Aktion", schema: "Sammlung", item: "Eintrag", version: "Version", detail: "Details", older: "Ältere Einträge", empty: "Noch keine Änderungen." },
  en: { title: "Audit log", when: "When", who: "Who", what: "Action", schema: "Collection", item: "Item", version: "Version", detail: "Details", older: "Older entries", empty: "No changes yet." },
} satisfies Record<Language, unknown>;

export async function loader(args: Route.LoaderArgs) {
  const { language, services } = admin(args, "superuser");
  const url = new URL(args.request.url);
  const at = url.searchParams.get("at");
  const id = url.searchParams.get("id");
  const schema = url.searchParams.get("schema")?.slice(0, 100) || undefined;
  const before = at && id && !Number.isNaN(Date.parse(at)) ? { at: at.slice(0, 40), id: id.slice(0, 100) } : undefined;
  const entries = await services.auth.audit.list({ before, schema, limit: AUDIT_PAGE_SIZE });
  const last = entries.length === AUDIT_PAGE_SIZE ? entries.at(-1) : undefined;
  return { text: texts[language], entries, next: last ? `?${new URLSearchParams({ at: last.at, id: last.id, ...(schema ? { schema } : {}) })}` : null };
}

export default function Audit({ loaderData }: Route.ComponentProps) {
  const { text, entries, next } = loaderData;
  return (
    <AdminPage title={text.title}>
      {entries.length === 0 ? (
        <EmptyState>{text.empty}</EmptyState>
      ) : (
        <div className="overflow-x-auto">
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
              {entries.map((e) => (
                <tr key={e.id} className="border-b border-slate-200" data-audit-action={e.action}>
                  <td className="p-2 whitespace-nowrap">{new Date(e.at).toLocaleString("de-DE", { timeZone: "Europe/Berlin" })}</td>
                  <td className="p-2">{e.userEmail}</td>
                  <td className="p-2">{e.action}</td>
                  <td className="p-2">{e.schema ?? ""}</td>
                  <td className="p-2 break-all">{e.itemId ?? ""}</td>
                  <td className="p-2">{e.version ?? ""}</td>
                  <td className="p-2 break-all">{e.detail ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {next ? (
        <Link to={next} className={buttonClass("secondary")}>
          {text.older}
        </Link>
      ) : null}
    </AdminPage>
  );
}
