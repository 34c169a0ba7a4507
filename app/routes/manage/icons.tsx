import { useEffect, useId, useState } from "react";
import { Form, Link, useActionData, useFetcher } from "react-router";
import type { Route } from "./+types/icons";
import { admin, type AdminResult, type Confirmation, readAdminForm, refused } from "~/admin/admin.server";
import { deleteItem, saveChecked } from "~/admin/design/actions.server";
import { checkIcon, getDesignItem, ICONS, listDesignPage, pageParam, searchParam } from "~/admin/design/design.server";
import { GridLayout, GridSearch, matchesSearch, EmptyPanel, PanelHeading, screenHref, Tile, TileSection, useCarriedNotice, useOpenCreated } from "~/admin/design/grid";
import { DeleteForm, useCloseAfterDelete, LiveTextField } from "~/admin/design/ui";
import { AdminPage, buttonClass, ConfirmStep, inputClass, Pager, SaveNotice } from "~/admin/ui";
import { routeAccess } from "~/auth/access";
import type { Language } from "~/i18n/languages";
import { sanitizeSvg } from "~/theme/icons.server";

/**
 * `/manage/squidex/icons`: the site's SVG icons (core-theme-icons) as a searchable grid; a tile opens
 * the icon in the panel beside it (`?selected=id`, `?selected=new` for a new one), the only place
 * its SVG code is shown. An icon is uploaded as an .svg file (read in the browser) or pasted; the
 * server stores only what its sanitiser lets through and the preview shows exactly that.
 */
export const handle = routeAccess("auth");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

const texts = {
  de: {
    title: "Icons",
    intro: "SVG-Icons der Website. Beim Speichern wird jedes SVG bereinigt: Skripte, Stile, Links nach außen und alles, was nicht zeichnet, fallen weg.",
    name: "Name",
    svg: "SVG-Code",
    file: "SVG-Datei hochladen …",
    fileHelp: "Der Inhalt der Datei erscheint im Feld SVG-Code.",
    fileRead: (name: string) => `„${name}“ gelesen: ihr Inhalt steht im Feld SVG-Code.`,
    critical: "Kritisch (direkt ins HTML eingebettet)",
    loading: "Ladeanzeige (Spinner)",
    preview: "Vorschau (bereinigt)",
    newIcon: "Neues Icon",
    add: "Hinzufügen",
    save: "Speichern",
    remove: "Löschen",
    created: "Icon angelegt.",
    saved: "Gespeichert.",
    cleaned: "Das SVG wurde bereinigt; gespeichert ist die bereinigte Fassung.",
    deleted: "Gelöscht.",
    superuserOnly: "Nur Administrator:innen dürfen Inhalte löschen.",
    missing: "Welcher Eintrag? Es fehlt die ID.",
    empty: "Noch keine Icons angelegt.",
    invalidStored: "Dieses gespeicherte SVG ist ungültig und wird auf der Website nicht gezeigt.",
    unknownIntent: "Unbekannte Aktion.",
    search: "Icons durchsuchen",
    all: "Alle Icons",
    pick: "Wählen Sie ein Icon aus, um es zu bearbeiten, oder legen Sie ein neues an.",
    edit: "Icon bearbeiten",
    gone: "Dieses Icon gibt es nicht (mehr).",
    open: "Öffnen",
  },
  en: {
    title: "Icons",
    intro: "The site's SVG icons. Every SVG is cleaned when saved: scripts, styles, outside links and anything that does not draw are removed.",
    name: "Name",
    svg: "SVG code",
    file: "Upload an SVG file …",
    fileHelp: "The file's content appears in the SVG code field.",
    fileRead: (name: string) => `Read “${name}”: its content is in the SVG code field.`,
    critical: "Critical (embedded in the HTML)",
    loading: "Loading indicator (spinner)",
    preview: "Preview (cleaned)",
    newIcon: "New icon",
    add: "Add",
    save: "Save",
    remove: "Delete",
    created: "Icon created.",
    saved: "Saved.",
    cleaned: "The SVG was cleaned; the cleaned version is stored.",
    deleted: "Deleted.",
    superuserOnly: "Only administrators may delete content.",
    missing: "Which item? The id is missing.",
    empty: "No icons yet.",
    invalidStored: "This stored SVG is invalid and is not shown on the site.",
    unknownIntent: "Unknown action.",
    search: "Search icons",
    all: "All icons",
    pick: "Choose an icon to edit it, or add a new one.",
    edit: "Edit icon",
    gone: "This icon does not exist (any more).",
    open: "Open",
  },
} satisfies Record<Language, unknown>;
type Texts = (typeof texts)[Language];

type IconData = { name?: string; svg?: string; critical?: boolean; loading?: boolean };

type Icon = { id: string; version: number; data: IconData; preview: string | null };

// Sanitised again for the preview: items may have been stored through the API or before these rules.
const withPreview = <T extends { data: IconData }>(item: T) => ({ ...item, preview: typeof item.data.svg === "string" ? sanitizeSvg(item.data.svg) : null });

export async function loader(args: Route.LoaderArgs) {
  const { user, language, services } = admin(args);
  const url = new URL(args.request.url);
  const q = searchParam(url, language);
  const selectedId = url.searchParams.get("selected");
  const [icons, selected] = await Promise.all([
    listDesignPage<IconData>(services.store, ICONS, pageParam(url, "page", language), language, undefined, q),
    getDesignItem<IconData>(services.store, ICONS, selectedId === "new" ? null : selectedId, language),
  ]);
  // The tiles need no SVG source: only the cleaned drawing goes to the browser.
  const items = icons.items.map((item) => ({ id: item.id, name: item.data.name ?? item.id, preview: withPreview(item).preview }));
  return { language, superuser: user.superuser, icons: { ...icons, items }, q, selectedId, selected: selected ? withPreview(selected) : null, path: url.pathname };
}

export async function action(args: Route.ActionArgs) {
  const { user, language } = admin(args);
  const text = texts[language];
  const fields = await readAdminForm(args.request);
  if (fields.intent === "save-icon") {
    const checked = await checkIcon(fields, language);
    const cleaned = checked.ok && checked.cleaned;
    const message = (base: string) => (cleaned ? `${base} ${text.cleaned}` : base);
    return saveChecked(args, user, ICONS, fields, checked, { created: message(text.created), saved: message(text.saved) });
  }
  if (fields.intent === "delete-icon") return deleteItem(args, user, ICONS, fields, text);
  return refused(text.unknownIntent);
}

/** The form of one icon (or a new one): file or pasted code, flags; the server answers with what it stored. */
function IconEditor({ text, item, created }: { text: Texts; item?: Icon; created: (id: string) => string }) {
  const fetcher = useFetcher<AdminResult>();
  useOpenCreated(item ? undefined : fetcher.data, fetcher.state === "idle", created);
  const id = useId();
  const [name, setName] = useState(item?.data.name ?? "");
  const [svg, setSvg] = useState(item?.data.svg ?? "");
  // A save comes back with a new version and the SVG as the sanitiser left it: show that.
  useEffect(() => {
    if (item) (setName(item.data.name ?? ""), setSvg(item.data.svg ?? ""));
  }, [item?.version]);
  const errors = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.errors : undefined;
  const [fileName, setFileName] = useState("");
  async function readFile(file: File | undefined) {
    if (file) (setSvg(await file.text()), setFileName(file.name));
  }
  return (
    <fetcher.Form method="post" className="space-y-3">
      <input type="hidden" name="intent" value="save-icon" />
      {item ? <input type="hidden" name="id" value={item.id} /> : null}
      {item ? <input type="hidden" name="version" value={item.version} /> : null}
      <div className="max-w-sm">
        <LiveTextField label={text.name} name="name" value={name} onChange={setName} error={errors?.name?.[0]} />
      </div>
      <div>
        {/* The browser's own file button speaks the browser's language: this one speaks the admin's. */}
        <label className={`${buttonClass("secondary")} cursor-pointer focus-within:outline-3 focus-within:outline-offset-2 focus-within:outline-[#0f5e63]`}>
          {text.file}
          <input type="file" accept=".svg,image/svg+xml" aria-describedby={`${id}-file-help`} onChange={(e) => void readFile(e.target.files?.[0])} className="sr-only" data-svg-file />
        </label>
        <p id={`${id}-file-help`} className="mt-1 text-sm text-slate-700">
          {fileName ? text.fileRead(fileName) : text.fileHelp}
        </p>
      </div>
      <div>
        <label htmlFor={`${id}-svg`} className="mb-1 block font-semibold">
          {text.svg}
        </label>
        <textarea
          id={`${id}-svg`}
          name="svg"
          rows={8}
          value={svg}
          onChange={(e) => setSvg(e.target.value)}
          spellCheck={false}
          aria-invalid={errors?.svg ? true : undefined}
          aria-describedby={errors?.svg ? `${id}-svg-error` : undefined}
          className={`${inputClass} font-mono text-sm`}
        />
        {errors?.svg ? (
          <p id={`${id}-svg-error`} className="mt-1 text-sm font-semibold text-red-800">
            {errors.svg[0]}
          </p>
        ) : null}
      </div>
      <div className="flex flex-wrap gap-6">
        <label className="flex items-center gap-2">
          <input type="checkbox" name="critical" defaultChecked={item?.data.critical === true} className="h-5 w-5" /> {text.critical}
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" name="loading" defaultChecked={item?.data.loading === true} className="h-5 w-5" /> {text.loading}
        </label>
      </div>
      <button type="submit" className={buttonClass(item ? "secondary" : "primary")} disabled={fetcher.state !== "idle"}>
        {item ? text.save : text.add}
      </button>
      {fetcher.data && fetcher.state === "idle" ? <SaveNotice result={fetcher.data} /> : null}
    </fetcher.Form>
  );
}

export default function Icons({ loaderData }: Route.ComponentProps) {
  const { language, superuser, icons, q, selectedId, selected, path } = loaderData;
  const text = texts[language];
  const result = useActionData<typeof action>() as (AdminResult & { confirm?: Confirmation }) | undefined;
  const carried = useCarriedNotice();
  const [search, setSearch] = useState(q);
  const href = (params: Record<string, string | number | null>) => screenHref(path, { q, page: icons.page, ...params });
  useCloseAfterDelete(href({}));
  const visible = icons.items.filter((icon) => matchesSearch([icon.name], search));
  return (
    <AdminPage title={text.title} intro={<p>{text.intro}</p>}>
      <ConfirmStep confirm={result?.confirm} Form={Form} cancelHref={href({ selected: selectedId })} />
      <SaveNotice result={result ?? carried} />
      <GridLayout
        search={<GridSearch label={text.search} value={search} onChange={setSearch} keep={{ selected: selectedId }} />}
        panel={
          selectedId === "new" ? (
            <div data-new-icon>
              <PanelHeading title={text.newIcon} closeHref={href({})} />
              <IconEditor text={text} created={(id) => href({ selected: id })} />
              {result?.ok && result.id ? (
                <Link className="mt-3 inline-block font-semibold text-[#0f5e63] underline" to={href({ selected: result.id })}>
                  {text.open}
                </Link>
              ) : null}
            </div>
          ) : selected ? (
            <div className="space-y-4" data-icon-panel={selected.data.name ?? selected.id}>
              <PanelHeading title={selected.data.name || selected.id} closeHref={href({})} />
              <figure className="text-center">
                {selected.preview ? (
                  // Sanitised by sanitizeSvg (allow-listed drawing elements and attributes only).
                  <div className="mx-auto h-24 w-24 text-slate-900 [&>svg]:h-full [&>svg]:w-full" data-icon-preview dangerouslySetInnerHTML={{ __html: selected.preview }} />
                ) : (
                  <p className="text-sm text-red-800">{text.invalidStored}</p>
                )}
                <figcaption className="mt-1 text-xs text-slate-700">{text.preview}</figcaption>
              </figure>
              <IconEditor key={selected.id} text={text} item={selected} created={(id) => href({ selected: id })} />
              {superuser ? <DeleteForm id={selected.id} intent="delete-icon" label={text.remove} name={selected.data.name ?? selected.id} cancelHref={href({ selected: selected.id })} /> : null}
            </div>
          ) : (
            <EmptyPanel title={text.edit} message={selectedId ? text.gone : text.pick}>
              <Link to={href({ selected: "new" })} className={buttonClass()}>
                {text.newIcon}
              </Link>
            </EmptyPanel>
          )
        }
      >
        <TileSection
          id="icon-grid"
          title={text.all}
          shown={visible.length}
          total={icons.total}
          searching={!!search}
          action={
            <Link to={href({ selected: "new" })} className={buttonClass("secondary")}>
              {text.newIcon}
            </Link>
          }
        >
          {visible.map((icon) => (
            <Tile key={icon.id} href={href({ selected: icon.id })} selected={icon.id === selected?.id} label={icon.name} data={{ "data-icon": icon.name }}>
              {icon.preview ? (
                // Sanitised by sanitizeSvg, as in the panel.
                <span aria-hidden="true" className="block h-12 w-12 text-slate-900 [&>svg]:h-full [&>svg]:w-full" data-icon-preview dangerouslySetInnerHTML={{ __html: icon.preview }} />
              ) : (
                <span className="text-xs text-red-800">{text.invalidStored}</span>
              )}
            </Tile>
          ))}
        </TileSection>
        <Pager page={icons.page} pages={icons.pages} href={(page) => screenHref(path, { q, page })} />
      </GridLayout>
    </AdminPage>
  );
}
