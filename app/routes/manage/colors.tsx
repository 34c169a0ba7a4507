import { useEffect, useState } from "react";
import { useActionData, useFetcher } from "react-router";
import type { Route } from "./+types/colors";
import { admin, type AdminResult, readAdminForm, refused } from "~/admin/admin.server";
import { deleteItem, saveChecked } from "~/admin/design/actions.server";
import { checkColor, checkTheme, COLORS, listDesignPage, pageParam, THEMES } from "~/admin/design/design.server";
import { colorForm, designLabels, THEME_COLOR_FIELDS, themeForm } from "~/admin/design/forms";
import { DeleteForm, HexField, LiveTextField, ShadeStrip, useFormErrors } from "~/admin/design/ui";
import { AdminPage, buttonClass, EmptyState, Pager, SaveNotice, StatusBadge } from "~/admin/ui";
import { routeAccess } from "~/auth/access";
import type { Language } from "~/i18n/languages";
import { BAD_HEX, DEFAULT_THEME_SETTINGS } from "~/theme/shades";

/**
 * `/manage/colors` and `/manage/squidex/colors` (one module, two route ids): the colour palette
 * (core-theme-colors) and the themes (core-theme-settings) with a live preview of each role
 * colour's shades. Hex codes are checked as the editor types and again on the server, with the
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
  },
} satisfies Record<Language, unknown>;
type Texts = (typeof texts)[Language];

type ColorData = { name?: string; hexcode?: string };
type ThemeData = Record<string, string | undefined>;

export async function loader(args: Route.LoaderArgs) {
  const { user, language, services } = admin(args);
  const url = new URL(args.request.url);
  const [colors, themes] = await Promise.all([
    listDesignPage<ColorData>(services.store, COLORS, pageParam(url, "page", language), language),
    listDesignPage<ThemeData>(services.store, THEMES, pageParam(url, "themes", language), language, 5),
  ]);
  return { text: texts[language], language, superuser: user.superuser, colors, themes, path: url.pathname };
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
function ColorEditor({ text, language, item }: { text: Texts; language: Language; item?: { id: string; version: number; data: ColorData } }) {
  const fetcher = useFetcher<AdminResult>();
  const labels = designLabels(language);
  const [name, setName] = useState(item?.data.name ?? "");
  const [hexcode, setHexcode] = useState(item?.data.hexcode ?? "#");
  const [touched, setTouched] = useState(false);
  // A saved change comes back with a new version: show what is stored (the notice stays).
  useEffect(() => {
    if (item) (setName(item.data.name ?? ""), setHexcode(item.data.hexcode ?? "#"));
  }, [item?.version]);
  // The new-colour form starts empty again once its colour is stored.
  useEffect(() => {
    if (!item && fetcher.state === "idle" && fetcher.data?.ok) (setName(""), setHexcode("#"), setTouched(false));
  }, [item, fetcher.state, fetcher.data]);
  const errors = useFormErrors(colorForm(language), { name, hexcode }, language);
  const blocked = Object.keys(errors).length > 0;
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form
      method="post"
      className="flex flex-wrap items-start gap-3"
      onSubmit={(e) => {
        setTouched(true);
        // The same rules as the server's: a form with a blocking message is not sent.
        if (blocked) e.preventDefault();
      }}
    >
      <input type="hidden" name="intent" value="save-color" />
      {item ? <input type="hidden" name="id" value={item.id} /> : null}
      {item ? <input type="hidden" name="version" value={item.version} /> : null}
      <div className="w-48">
        <LiveTextField label={labels.name} name="name" value={name} onChange={setName} error={touched || item ? errors.name?.[0] : undefined} />
      </div>
      <div className="w-48">
        <HexField label={labels.hexcode} name="hexcode" value={hexcode} onChange={(v) => (setHexcode(v), setTouched(true))} error={touched ? errors.hexcode?.[0] : undefined} />
      </div>
      <div className="pt-8">
        <button type="submit" className={buttonClass(item ? "secondary" : "primary")} disabled={busy} aria-label={item ? `${text.save}: ${item.data.name ?? ""}` : undefined}>
          {item ? text.save : text.add}
        </button>
      </div>
      <div className="basis-full empty:hidden">{fetcher.data && fetcher.state === "idle" ? <SaveNotice result={fetcher.data} /> : null}</div>
    </fetcher.Form>
  );
}

/** A theme's form values: its stored ones, or for a new theme no name and the default colours. */
const themeValues = (data?: ThemeData): Record<string, string> => ({
  name: data?.name ?? "",
  ...Object.fromEntries(THEME_COLOR_FIELDS.map((f) => [f, data ? (data[f] ?? "") : DEFAULT_THEME_SETTINGS[f]])),
});

/** One theme (or a new one): its name, the six role colours and their shades, previewed as the editor types. */
function ThemeEditor({ text, language, item, superuser }: { text: Texts; language: Language; superuser: boolean; item?: { id: string; version: number; status: string; newStatus: string | null; data: ThemeData } }) {
  const fetcher = useFetcher<AdminResult>();
  const labels = designLabels(language);
  const [values, setValues] = useState<Record<string, string>>(() => themeValues(item?.data));
  // A new theme's empty name is not called out before the editor tries to add it.
  const [touched, setTouched] = useState(!!item);
  useEffect(() => {
    if (item) setValues(themeValues(item.data));
  }, [item?.version]);
  // The new-theme form starts afresh once its theme is stored.
  useEffect(() => {
    if (!item && fetcher.state === "idle" && fetcher.data?.ok) (setValues(themeValues()), setTouched(false));
  }, [item, fetcher.state, fetcher.data]);
  const errors = useFormErrors(themeForm(language), values, language);
  const set = (field: string) => (value: string) => setValues((v) => ({ ...v, [field]: value }));
  const headingId = `theme-${item?.id ?? "new"}`;
  return (
    <section aria-labelledby={headingId} className="space-y-4 rounded border border-slate-300 bg-white p-4" data-theme-editor={item?.id ?? "new"}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h3 id={headingId} className="flex items-center gap-2 text-lg font-bold">
          {item ? (
            <>
              {values.name || item.id} <StatusBadge status={item.status} newStatus={item.newStatus} />
            </>
          ) : (
            text.newTheme
          )}
        </h3>
        {item && superuser ? <DeleteForm id={item.id} intent="delete-theme" label={text.remove} name={item.data.name ?? item.id} /> : null}
      </div>
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
        <div className="max-w-sm">
          <LiveTextField label={labels.name} name="name" value={values.name ?? ""} onChange={set("name")} error={touched ? errors.name?.[0] : undefined} />
        </div>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {THEME_COLOR_FIELDS.map((field) => (
            <HexField key={field} label={labels[field]} name={field} value={values[field] ?? ""} onChange={set(field)} error={errors[field]?.[0]} />
          ))}
        </div>
        <button type="submit" className={buttonClass()} disabled={fetcher.state !== "idle"}>
          {item ? text.save : text.add}
        </button>
        {fetcher.data && fetcher.state === "idle" ? <SaveNotice result={fetcher.data} /> : null}
      </fetcher.Form>
      <div className="space-y-3" aria-label={`${text.preview}: ${values.name ?? ""}`} role="group">
        <h4 className="font-semibold">{text.preview}</h4>
        {THEME_COLOR_FIELDS.map((field) => (
          <ShadeStrip key={field} label={labels[field]} hex={values[field] ?? ""} badHex={BAD_HEX} />
        ))}
      </div>
    </section>
  );
}

export default function Colors({ loaderData }: Route.ComponentProps) {
  const { text, language, superuser, colors, themes, path } = loaderData;
  // Without JavaScript the forms post as documents: their answer arrives here.
  const result = useActionData<typeof action>();
  const href = (param: string, other: string, otherPage: number) => (page: number) => `${path}?${param}=${page}&${other}=${otherPage}`;
  return (
    <AdminPage title={text.title} intro={<p>{text.intro}</p>}>
      <SaveNotice result={result} />
      <section aria-labelledby="palette" className="space-y-4">
        <h2 id="palette" className="text-xl font-bold">
          {text.palette}
        </h2>
        {colors.items.length === 0 ? <EmptyState>{text.noColors}</EmptyState> : null}
        <ul className="space-y-3">
          {colors.items.map((item) => (
            <li key={item.id} className="flex flex-wrap items-start justify-between gap-3 rounded border border-slate-300 bg-white p-3" data-color={item.data.name}>
              <ColorEditor text={text} language={language} item={item} />
              {superuser ? (
                <div className="pt-8">
                  <DeleteForm id={item.id} intent="delete-color" label={text.remove} name={item.data.name ?? item.id} />
                </div>
              ) : null}
            </li>
          ))}
        </ul>
        <Pager page={colors.page} pages={colors.pages} href={href("page", "themes", themes.page)} />
        <div className="rounded border border-slate-300 bg-white p-3" data-new-color>
          <h3 className="mb-2 font-bold">{text.newColor}</h3>
          <ColorEditor text={text} language={language} />
        </div>
      </section>
      <section aria-labelledby="themes" className="space-y-4">
        <h2 id="themes" className="text-xl font-bold">
          {text.themes}
        </h2>
        <p className="text-slate-700">{text.themesIntro}</p>
        {themes.items.length === 0 ? <EmptyState>{text.noThemes}</EmptyState> : null}
        {themes.items.map((item) => (
          <ThemeEditor key={item.id} text={text} language={language} item={item} superuser={superuser} />
        ))}
        <Pager page={themes.page} pages={themes.pages} href={href("themes", "page", colors.page)} />
        <ThemeEditor text={text} language={language} superuser={superuser} />
      </section>
    </AdminPage>
  );
}
