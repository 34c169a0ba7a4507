import { Link } from "react-router";
import type { Route } from "./+types/blocks";
import { admin } from "~/admin/admin.server";
import { fieldsWithoutStart, isBlockSchemaName, PALETTE_SCHEMA } from "~/admin/pages/block-rules";
import { AdminPage, EmptyState } from "~/admin/ui";
import { routeAccess } from "~/auth/access";
import type { Language } from "~/i18n/languages";

/**
 * `/manage/blocks`: the block schemas (block-*) and the palette's schema (core-settings-blocks),
 * with their fields; a block whose fields break the §5 rule (no default, no known tag) is marked,
 * since the editor cannot create it.
 */
export const handle = routeAccess("auth");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

const texts = {
  de: {
    title: "Blöcke",
    intro: "Die Felder jedes Blocks brauchen einen Standardwert oder ein bekanntes Tag, sonst lässt sich der Block nicht anlegen.",
    name: "Schema",
    label: "Bezeichnung",
    fields: "Felder",
    check: "Prüfung",
    ok: "in Ordnung",
    broken: (names: string[]) => `ohne Standardwert/Tag: ${names.join(", ")}`,
    palette: "Palette",
    empty: "Keine Block-Schemas vorhanden.",
  },
  en: {
    title: "Blocks",
    intro: "Each block's fields need a default value or a known tag, else the block cannot be created.",
    name: "Schema",
    label: "Label",
    fields: "Fields",
    check: "Check",
    ok: "fine",
    broken: (names: string[]) => `without default/tag: ${names.join(", ")}`,
    palette: "Palette",
    empty: "No block schemas yet.",
  },
} satisfies Record<Language, unknown>;

export async function loader(args: Route.LoaderArgs) {
  const { language, services } = admin(args);
  const schemas = (await services.store.listSchemas()).filter((s) => isBlockSchemaName(s.name)).sort((a, b) => Number(b.name === PALETTE_SCHEMA) - Number(a.name === PALETTE_SCHEMA) || a.name.localeCompare(b.name));
  return {
    language,
    schemas: schemas.map((s) => ({ name: s.name, label: s.properties.label ?? "", fields: s.fields.length, broken: fieldsWithoutStart(s) })),
  };
}

export default function Blocks({ loaderData }: Route.ComponentProps) {
  const { language, schemas } = loaderData;
  const text = texts[language];
  return (
    <AdminPage title={text.title} intro={<p>{text.intro}</p>}>
      {schemas.length === 0 ? (
        <EmptyState>{text.empty}</EmptyState>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full border-collapse bg-white text-left text-sm">
            <thead>
              <tr className="border-b border-slate-400">
                <th scope="col" className="p-2">{text.name}</th>
                <th scope="col" className="p-2">{text.label}</th>
                <th scope="col" className="p-2">{text.fields}</th>
                <th scope="col" className="p-2">{text.check}</th>
              </tr>
            </thead>
            <tbody>
              {schemas.map((s) => (
                <tr key={s.name} className="border-b border-slate-200" data-block-schema={s.name}>
                  <td className="p-2">
                    <Link className="font-semibold text-[#0f5e63] underline" to={`/manage/blocks/${encodeURIComponent(s.name)}`}>
                      {s.name}
                    </Link>
                    {s.name === PALETTE_SCHEMA ? <span className="ml-2 rounded bg-slate-200 px-1.5 py-0.5 text-xs">{text.palette}</span> : null}
                  </td>
                  <td className="p-2">{s.label}</td>
                  <td className="p-2">{s.fields}</td>
                  <td className={`p-2 ${s.broken.length ? "font-semibold text-red-800" : ""}`}>{s.broken.length ? text.broken(s.broken) : text.ok}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </AdminPage>
  );
}
