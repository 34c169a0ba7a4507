import { useEffect, useState, type ReactNode } from "react";
import { Form, Link, useActionData, useFetcher } from "react-router";
import type { Route } from "./+types/colors";
import { admin, type AdminResult, type Confirmation, readAdminForm, refused } from "~/admin/admin.server";
import { deleteItem, saveChecked } from "~/admin/design/actions.server";
import { checkColor, checkTheme, COLORS, getDesignItem, listDesignPage, pageParam, searchParam, THEMES } from "~/admin/design/design.server";
import { colorForm, designLabels, THEME_COLOR_FIELDS, themeForm } from "~/admin/design/forms";
import { GridLayout, GridSearch, matchesSearch, EmptyPanel, PanelHeading, screenHref, Tile, TileSection, useCarriedNotice, useOpenCreated } from "~/admin/design/grid";
import { DeleteForm, useCloseAfterDelete, HexField, LiveTextField, ShadeStrip, Swatch, useFormErrors } from "~/admin/design/ui";
import { AdminPage, buttonClass, ConfirmStep, Pager, SaveNotice, StatusBadge, useAdmin } from "~/admin/ui";
import { routeAccess } from "~/auth/access";
import type { Language } from "~/i18n/languages";
import { BAD_HEX, DEFAULT_THEME_SETTINGS } from "~/theme/shades";

/**
 * `/manage/colors` and `/manage/squidex/colors` (one module, two route ids): the colour palette
 * (core-theme-colors) and the themes (core-theme-settings), each a searchable grid of swatches; a
 * tile opens its colour or theme in the panel beside it (`?selected=id`, `?selected=new-color`,
 * `?selected=new-theme`), a theme with a live preview of each role colour's shades. Hex codes are checked as the editor types and again on the server, with the
 * same form rules (§5: "Bad Hex").
 */
export const handle = routeAccess("auth");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

const texts = {
  de: {
    title: "Farben",
    intro: "Die Farbpalette der Website und die Themes mit ihren Rollenfarben. Hex-Codes haben 3 oder 6 Stellen, z. B. #0f5e63.",
    palette: "Farbpalette",
    themes: "Themes",
    themesIntro: "Jede Rollenfarbe mit ihren Abstufungen (±6, 12 und 18 % Helligkeit); die Vorschau folgt der Eingabe.",
    newColor: "Neue Farbe",
    newTheme: "Neues Theme",
    themeCreated: "Theme angelegt.",
    add: "Hinzufügen",
    save: "Speichern",
    remove: "Löschen",
    created: "Farbe angelegt.",
    saved: "Gespeichert.",
    themeSaved: "Theme gespeichert.",
    deleted: "Gelöscht.",
    superuserOnly: "Nur Administrator:innen dürfen Inhalte löschen.",
    missing: "Welcher Eintrag? Es fehlt die ID.",
    noColors: "Noch keine Farben angelegt.",
    noThemes: "Noch keine Themes angelegt.",
    unknownIntent: "Unbekannte Aktion.",
    preview: "Vorschau",
    search: "Farben und Themes durchsuchen",
    pick: "Wählen Sie eine Farbe oder ein Theme aus, um es zu bearbeiten, oder legen Sie etwas Neues an.",
    edit: "Farbe bearbeiten",
    gone: "Diesen Eintrag gibt es nicht (mehr).",
    open: "Öffnen",
  },
  en: {
    title: "Colours",
    intro: "The site's colour palette and the themes with their role colours. Hex codes have 3 or 6 digits, e.g. #0f5e63.",
    palette: "Colour palette",
    themes: "Themes",
    themesIntro: "Each role colour with its shades (±6, 12 and 18 % lightness); the preview follows your typing.",
    newColor: "New colour",
    newTheme: "New theme",
    themeCreated: "Theme created.",
    add: "Add",
    save: "Save",
    remove: "Delete",
    created: "Colour created.",
    saved: "Saved.",
    themeSaved: "Theme saved.",
    deleted: "Deleted.",
    superuserOnly: "Only administrators may delete content.",
    missing: "Which item? The id is missing.",
    noColors: "No colours yet.",
    noThemes: "No themes yet.",
    unknownIntent: "Unknown action.",
    preview: "Preview",
    search: "Search colours and themes",
    pick: "Choose a colour or a theme to edit it, or add something new.",
    edit: "Edit colour",
    gone: "This item does not exist (any more).",
    open: "Open",
  },
} satisfies Record<Language, unknown>;
type Texts = (typeof texts)[Language];

type ColorData = { name?: string; hexcode?: string };
type ThemeData = Record<string, string | undefined>;

export async function loader(args: Route.LoaderArgs) {
  const { user, language, services } = admin(args);
  const url = new URL(args.request.url);
  const q = searchParam(url, language);
  const selectedId = url.searchParams.get("selected");
  const lookup = selectedId === "new-color" || selectedId === "new-theme" ? null : selectedId;
  const [colors, themes, color, theme] = await Promise.all([
    listDesignPage<ColorData>(services.store, COLORS, pageParam(url, "page", language), language, undefined, q, ["name", "hexcode"]),
    listDesignPage<ThemeData>(services.store, THEMES, pageParam(url, "themes", language), language, undefined, q),
    getDesignItem<ColorData>(services.store, COLORS, lookup, language),
    getDesignItem<ThemeData>(services.store, THEMES, lookup, language),
  ]);
  return { text: texts[language], language, superuser: user.superuser, colors, themes, q, selectedId, color, theme, path: url.pathname };
}

export async function action(args: Route.ActionArgs) {
  const { user, language } = admin(args);
  const text = texts[language];
  const fields = await readAdminForm(args.request);
  switch (fields.intent) {
    case "save-color":
      return saveChecked(args, user, COLORS, fields, await checkColor(fields, language), { created: text.created, saved: text.saved });
    case "save-theme":
      return saveChecked(args, user, THEMES, fields, await checkTheme(fields, language), { created: text.themeCreated, saved: text.themeSaved });
    case "delete-color":
      return deleteItem(args, user, COLORS, fields, text);
    case "delete-theme":
      return deleteItem(args, user, THEMES, fields, text);
    default:
      return refused(text.unknownIntent);
  }
}

/** One palette colour, edited in place; the hex code is checked while typing. */
function ColorEditor({ text, language, item, created }: { text: Texts; language: Language; item?: { id: string; version: number; data: ColorData }; created: (id: string) => string }) {
  const fetcher = useFetcher<AdminResult>();
  const { t } = useAdmin();
  useOpenCreated(item ? undefined : fetcher.data, fetcher.state === "idle", created);
  const labels = designLabels(language);
  const [name, setName] = useState(item?.data.name ?? "");
  const [hexcode, setHexcode] = useState(item?.data.hexcode ?? "#");
  const [touched, setTouched] = useState(false);
  // A saved change comes back with a new version: show what is stored (the notice stays).
  useEffect(() => {
    if (item) (setName(item.data.name ?? ""), setHexcode(item.data.hexcode ?? "#"));
  }, [item?.version]);
  const errors = useFormErrors(colorForm(language), { name, hexcode }, language);
  const blocked = Object.keys(errors).length > 0;
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form
      method="post"
      className="space-y-3"
      onSubmit={(e) => {
        setTouched(true);
        // The same rules as the server's: a form with a blocking message is not sent.
        if (blocked) e.preventDefault();
      }}
    >
      <input type="hidden" name="intent" value="save-color" />
      {item ? <input type="hidden" name="id" value={item.id} /> : null}
      {item ? <input type="hidden" name="version" value={item.version} /> : null}
      <LiveTextField label={labels.name} name="name" value={name} onChange={setName} error={touched || item ? errors.name?.[0] : undefined} />
      <HexField label={labels.hexcode} name="hexcode" value={hexcode} onChange={(v) => (setHexcode(v), setTouched(true))} error={touched ? errors.hexcode?.[0] : undefined} pickerLabel={t.colorPicker} />
      <button type="submit" className={buttonClass()} disabled={busy} aria-label={item ? `${text.save}: ${item.data.name ?? ""}` : undefined}>
        {item ? text.save : text.add}
      </button>
      {fetcher.data && fetcher.state === "idle" ? <SaveNotice result={fetcher.data} /> : null}
    </fetcher.Form>
  );
}

/** A theme's form values: its stored ones, or for a new theme no name and the default colours. */
const themeValues = (data?: ThemeData): Record<string, string> => ({
  name: data?.name ?? "",
  ...Object.fromEntries(THEME_COLOR_FIELDS.map((f) => [f, data ? (data[f] ?? "") : DEFAULT_THEME_SETTINGS[f]])),
});

/** One theme (or a new one): its name, the six role colours and their shades, previewed as the editor types. */
function ThemeEditor({ text, language, item, created, closeHref, deleteForm }: { text: Texts; language: Language; item?: { id: string; version: number; status: string; newStatus: string | null; data: ThemeData }; created: (id: string) => string; closeHref: string; deleteForm?: ReactNode }) {
  const fetcher = useFetcher<AdminResult>();
  const { t } = useAdmin();
  useOpenCreated(item ? undefined : fetcher.data, fetcher.state === "idle", created);
  const labels = designLabels(language);
  const [values, setValues] = useState<Record<string, string>>(() => themeValues(item?.data));
  // A new theme's empty name is not called out before the editor tries to add it.
  const [touched, setTouched] = useState(!!item);
  useEffect(() => {
    if (item) setValues(themeValues(item.data));
  }, [item?.version]);
  const errors = useFormErrors(themeForm(language), values, language);
  const set = (field: string) => (value: string) => setValues((v) => ({ ...v, [field]: value }));
  return (
    <div className="space-y-4" data-theme-editor={item?.id ?? "new"}>
      <PanelHeading
        title={
          item ? (
            <>
              {values.name || item.id} <StatusBadge status={item.status} newStatus={item.newStatus} />
            </>
          ) : (
            text.newTheme
          )
        }
        closeHref={closeHref}
      />
      <fetcher.Form
        method="post"
        className="space-y-4"
        onSubmit={(e) => {
          setTouched(true);
          if (Object.keys(errors).length) e.preventDefault();
        }}
      >
        <input type="hidden" name="intent" value="save-theme" />
        {item ? <input type="hidden" name="id" value={item.id} /> : null}
        {item ? <input type="hidden" name="version" value={item.version} /> : null}
        <LiveTextField label={labels.name} name="name" value={values.name ?? ""} onChange={set("name")} error={touched ? errors.name?.[0] : undefined} />
        {THEME_COLOR_FIELDS.map((field) => (
          <HexField key={field} label={labels[field]} name={field} value={values[field] ?? ""} onChange={set(field)} error={errors[field]?.[0]} pickerLabel={t.colorPicker} />
        ))}
        <button type="submit" className={buttonClass()} disabled={fetcher.state !== "idle"}>
          {item ? text.save : text.add}
        </button>
        {fetcher.data && fetcher.state === "idle" ? <SaveNotice result={fetcher.data} /> : null}
      </fetcher.Form>
      {deleteForm}
      <div className="space-y-3" aria-label={`${text.preview}: ${values.name ?? ""}`} role="group">
        <h3 className="font-semibold">{text.preview}</h3>
        <p className="text-sm text-slate-700">{text.themesIntro}</p>
        {THEME_COLOR_FIELDS.map((field) => (
          <ShadeStrip key={field} label={labels[field]} hex={values[field] ?? ""} badHex={BAD_HEX} />
        ))}
      </div>
    </div>
  );
}

export default function Colors({ loaderData }: Route.ComponentProps) {
  const { text, language, superuser, colors, themes, q, selectedId, color, theme, path } = loaderData;
  // Without JavaScript the forms post as documents: their answer arrives here.
  const result = useActionData<typeof action>() as (AdminResult & { confirm?: Confirmation }) | undefined;
  const carried = useCarriedNotice();
  const [search, setSearch] = useState(q);
  const labels = designLabels(language);
  const href = (params: Record<string, string | number | null>) => screenHref(path, { q, page: colors.page, themes: themes.page, ...params });
  useCloseAfterDelete(href({}));
  const open = (id: string) => href({ selected: id });
  const visibleColors = colors.items.filter((c) => matchesSearch([c.data.name, c.data.hexcode], search));
  const visibleThemes = themes.items.filter((th) => matchesSearch([th.data.name], search));
  const openLink = result?.ok && result.id ? (
    <Link className="mt-3 inline-block font-semibold text-[#0f5e63] underline" to={open(result.id)}>
      {text.open}
    </Link>
  ) : null;
  const panel =
    selectedId === "new-color" ? (
      <div data-new-color>
        <PanelHeading title={text.newColor} closeHref={href({})} />
        <ColorEditor text={text} language={language} created={open} />
        {openLink}
      </div>
    ) : selectedId === "new-theme" ? (
      <>
        <ThemeEditor text={text} language={language} created={open} closeHref={href({})} />
        {openLink}
      </>
    ) : color ? (
      <div className="space-y-4" data-color-panel={color.data.name ?? color.id}>
        <PanelHeading title={color.data.name || color.id} closeHref={href({})} />
        <ColorEditor key={color.id} text={text} language={language} item={color} created={open} />
        {superuser ? <DeleteForm id={color.id} intent="delete-color" label={text.remove} name={color.data.name ?? color.id} cancelHref={open(color.id)} /> : null}
      </div>
    ) : theme ? (
      <ThemeEditor
        key={theme.id}
        text={text}
        language={language}
        item={theme}
        created={open}
        closeHref={href({})}
        deleteForm={superuser ? <DeleteForm id={theme.id} intent="delete-theme" label={text.remove} name={theme.data.name ?? theme.id} cancelHref={open(theme.id)} /> : null}
      />
    ) : (
      <EmptyPanel title={text.edit} message={selectedId ? text.gone : text.pick}>
        <div className="flex flex-wrap gap-2">
          <Link to={href({ selected: "new-color" })} className={buttonClass()}>
            {text.newColor}
          </Link>
          <Link to={href({ selected: "new-theme" })} className={buttonClass("secondary")}>
            {text.newTheme}
          </Link>
        </div>
      </EmptyPanel>
    );
  return (
    <AdminPage title={text.title} intro={<p>{text.intro}</p>}>
      <ConfirmStep confirm={result?.confirm} Form={Form} cancelHref={href({ selected: selectedId })} />
      <SaveNotice result={result ?? carried} />
      <GridLayout search={<GridSearch label={text.search} value={search} onChange={setSearch} keep={{ selected: selectedId }} />} panel={panel}>
        <TileSection
          id="palette"
          title={text.palette}
          shown={visibleColors.length}
          total={colors.total}
          searching={!!search}
          action={
            <Link to={href({ selected: "new-color" })} className={buttonClass("secondary")}>
              {text.newColor}
            </Link>
          }
        >
          {visibleColors.map((c) => (
            <Tile key={c.id} href={open(c.id)} selected={c.id === color?.id} label={c.data.name ?? c.id} data={{ "data-color": c.data.name ?? c.id }}>
              <Swatch hex={c.data.hexcode ?? ""} size="h-12 w-full" />
              <span className="font-mono text-xs text-slate-700" data-color-hex>
                {c.data.hexcode}
              </span>
            </Tile>
          ))}
        </TileSection>
        <Pager page={colors.page} pages={colors.pages} href={(page) => screenHref(path, { q, page, themes: themes.page })} />
        <TileSection
          id="themes"
          title={text.themes}
          shown={visibleThemes.length}
          total={themes.total}
          searching={!!search}
          action={
            <Link to={href({ selected: "new-theme" })} className={buttonClass("secondary")}>
              {text.newTheme}
            </Link>
          }
        >
          {visibleThemes.map((th) => (
            <Tile key={th.id} href={open(th.id)} selected={th.id === theme?.id} label={th.data.name ?? th.id} data={{ "data-theme": th.data.name ?? th.id }}>
              <span className="grid w-full grid-cols-3 gap-1" title={THEME_COLOR_FIELDS.map((f) => `${labels[f]} ${th.data[f] ?? ""}`).join(", ")}>
                {THEME_COLOR_FIELDS.map((f) => (
                  <Swatch key={f} hex={th.data[f] ?? ""} size="h-6 w-full" />
                ))}
              </span>
              <StatusBadge status={th.status} newStatus={th.newStatus} />
            </Tile>
          ))}
        </TileSection>
        <Pager page={themes.page} pages={themes.pages} href={(page) => screenHref(path, { q, page: colors.page, themes: page })} />
      </GridLayout>
    </AdminPage>
  );
}
