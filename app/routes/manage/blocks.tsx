import { Link } from "react-router";
import type { Route } from "./+types/blocks";
import { admin } from "~/admin/admin.server";
import { can, userPrincipal } from "~/content/policy";
import { collectionName } from "~/admin/content/field-words";
import { fieldsWithoutStart, isBlockSchemaName, PALETTE_SCHEMA } from "~/admin/pages/block-rules";
import { AdminPage, DataTable, EmptyState, StatusBadge, useAdmin } from "~/admin/ui";
import { routeAccess } from "~/auth/access";
import { ContentError } from "~/content/errors";
import { flattenItem } from "~/content/flatten";
import type { Language } from "~/i18n/languages";
import { formatCount } from "~/i18n/numbers";

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
    notInPalette: "nicht in der Palette",
    paletteTitle: "Einträge der Palette",
    paletteIntro: "Welche Blöcke Redakteur:innen im Bearbeitungsmodus einfügen können; ein Eintrag nennt ein Block-Schema.",
    entry: "Eintrag",
    schema: "Block-Schema",
    active: "Aktiv",
    yes: "ja",
    no: "nein",
    unknownSchema: "unbekanntes Schema",
    paletteEmpty: "Die Palette ist leer.",
    newEntry: "Neuer Eintrag",
    allEntries: (n: number) => `Alle ${formatCount(n, "de")} Einträge`,
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
    notInPalette: "not in the palette",
    paletteTitle: "Palette entries",
    paletteIntro: "Which blocks editors can insert in edit mode; an entry names a block schema.",
    entry: "Entry",
    schema: "Block schema",
    active: "Active",
    yes: "yes",
    no: "no",
    unknownSchema: "unknown schema",
    paletteEmpty: "The palette is empty.",
    newEntry: "New entry",
    allEntries: (n: number) => `All ${formatCount(n, "en")} entries`,
  },
} satisfies Record<Language, unknown>;

const PALETTE_LIST = `/manage/content/${PALETTE_SCHEMA}`;

/** Palette entries shown here; a longer palette is paged in its collection's list (linked). */
const PALETTE_SHOWN = 100;

export async function loader(args: Route.LoaderArgs) {
  const { user, language, services } = admin(args);
  const [all, palette] = await Promise.all([
    services.store.listSchemas(),
    services.store.query(PALETTE_SCHEMA, { sort: [{ path: "data.name.iv" }, { path: "id" }], take: PALETTE_SHOWN }, { unpublished: true }).catch((error: unknown) => {
      // A site without a palette schema: no entries, not an error page.
      if (error instanceof ContentError && error.statusCode === 404) return { total: 0, items: [] };
      throw error;
    }),
  ]);
  const schemas = all.filter((s) => isBlockSchemaName(s.name)).sort((a, b) => Number(b.name === PALETTE_SCHEMA) - Number(a.name === PALETTE_SCHEMA) || a.name.localeCompare(b.name));
  const paletteSchema = all.find((s) => s.name === PALETTE_SCHEMA);
  const entries = palette.items.map((item) => {
    // The editor's language with the master language as fallback, as every admin list reads items.
    const { data } = flattenItem<{ name?: unknown; label?: unknown; active?: unknown }>(item, language, paletteSchema);
    const text = (v: unknown) => (typeof v === "string" ? v : "");
    return { id: item.id, name: text(data.name), label: text(data.label), active: data.active !== false, status: item.status, newStatus: item.newStatus ?? null };
  });
  const named = new Set(entries.map((e) => e.name));
  const blockNames = new Set(schemas.map((s) => s.name));
  return {
    language,
    // The palette is a system collection: superusers change it (the policy); editors see it.
    mayEditPalette: can(userPrincipal(user), "create", PALETTE_SCHEMA),
    schemas: schemas.map((s) => ({ name: s.name, label: collectionName(s, language), fields: s.fields.length, broken: fieldsWithoutStart(s), inPalette: s.name === PALETTE_SCHEMA ? null : palette.total > PALETTE_SHOWN ? null : named.has(s.name) })),
    palette: { total: palette.total, entries: entries.map((e) => ({ ...e, known: blockNames.has(e.name) })) },
  };
}

export default function Blocks({ loaderData }: Route.ComponentProps) {
  const { language, schemas, palette } = loaderData;
  const { t } = useAdmin();
  const text = texts[language];
  return (
    <AdminPage title={text.title} intro={<p>{text.intro}</p>}>
      {schemas.length === 0 ? (
        <EmptyState>{text.empty}</EmptyState>
      ) : (
        <DataTable headings={[text.name, text.label, text.fields, text.check]}>
          {schemas.map((s) => (
            <tr key={s.name} className="border-b border-slate-200" data-block-schema={s.name}>
              <td className="p-2">
                <Link className="font-semibold text-[#0f5e63] underline" to={`/manage/blocks/${encodeURIComponent(s.name)}`}>
                  {s.name}
                </Link>
                {s.name === PALETTE_SCHEMA ? <span className="ml-2 rounded bg-slate-200 px-1.5 py-0.5 text-xs">{text.palette}</span> : null}
                {s.inPalette === false ? (
                  <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900" data-not-in-palette>
                    {text.notInPalette}
                  </span>
                ) : null}
              </td>
              <td className="p-2">{s.label}</td>
              <td className="p-2">{s.fields}</td>
              <td className={`p-2 ${s.broken.length ? "font-semibold text-red-800" : ""}`}>{s.broken.length ? text.broken(s.broken) : text.ok}</td>
            </tr>
          ))}
        </DataTable>
      )}
      <section aria-labelledby="palette-entries" className="space-y-2" data-palette>
        <h2 id="palette-entries" className="text-lg font-bold">
          {text.paletteTitle}
        </h2>
        <p className="text-sm text-slate-700">{text.paletteIntro}</p>
        {palette.entries.length === 0 ? (
          <EmptyState>{text.paletteEmpty}</EmptyState>
        ) : (
          <DataTable headings={[text.entry, text.schema, text.active, t.status]}>
            {palette.entries.map((e) => (
              <tr key={e.id} className="border-b border-slate-200" data-palette-entry={e.name}>
                <td className="p-2">
                  <Link className="font-semibold text-[#0f5e63] underline" to={`${PALETTE_LIST}/${encodeURIComponent(e.id)}`}>
                    {e.label || e.id}
                  </Link>
                </td>
                <td className="p-2">
                  {e.known ? (
                    <Link className="underline" to={`/manage/blocks/${encodeURIComponent(e.name)}`}>
                      {e.name}
                    </Link>
                  ) : (
                    <span className="font-semibold text-red-800" data-unknown-schema>
                      {e.name} ({text.unknownSchema})
                    </span>
                  )}
                </td>
                <td className="p-2">{e.active ? text.yes : text.no}</td>
                <td className="p-2">
                  <StatusBadge status={e.status} newStatus={e.newStatus} />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
        <p className="flex flex-wrap gap-4 text-sm">
          {loaderData.mayEditPalette ? (
            <Link className="underline" to={`${PALETTE_LIST}/new`}>
              {text.newEntry}
            </Link>
          ) : null}
          {palette.total > palette.entries.length ? (
            <Link className="underline" to={PALETTE_LIST}>
              {text.allEntries(palette.total)}
            </Link>
          ) : null}
        </p>
      </section>
    </AdminPage>
  );
}
