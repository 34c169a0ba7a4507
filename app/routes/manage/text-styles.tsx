import { useEffect, useState, type CSSProperties } from "react";
import { Form, Link, useActionData, useFetcher } from "react-router";
import type { Route } from "./+types/text-styles";
import { admin, type AdminResult, type Confirmation, readAdminForm, refused } from "~/admin/admin.server";
import { deleteItem, saveChecked } from "~/admin/design/actions.server";
import { checkTextStyle, defaultThemeVariables, getDesignItem, listDesignPage, pageParam, searchParam, TEXT_STYLES, tokensWithCss } from "~/admin/design/design.server";
import { GridLayout, GridSearch, matchesSearch, EmptyPanel, PanelHeading, screenHref, Tile, TileSection, useCarriedNotice, useOpenCreated } from "~/admin/design/grid";
import { LiveTextField, DeleteForm, useCloseAfterDelete } from "~/admin/design/ui";
import { AdminPage, buttonClass, ConfirmStep, Pager, SaveNotice } from "~/admin/ui";
import { routeAccess } from "~/auth/access";
import type { Language } from "~/i18n/languages";
import { validateClassTokens } from "~/theme/classes";
import { compileContentCss } from "~/theme/tailwind.server";

/**
 * `/manage/text-styles`: named sets of Tailwind classes (core-text-styles) as a searchable grid of
 * samples; a tile opens the style in the panel beside it (`?selected=id`, `?selected=new`) with
 * a live preview on sample text. Only allow-listed class tokens are stored; refused ones are named. The preview uses
 * CSS compiled on the server for the saved styles shown on this page (as the site compiles the classes
 * used in content), so a class typed but not saved yet is listed as "shown after saving".
 */
export const handle = routeAccess("auth");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

const texts = {
  de: {
    title: "Textstile",
    intro: "Benannte Tailwind-Klassen für Texte, z. B. „text-4xl font-bold tracking-tight“. Erlaubt sind nur einfache Klassen, ohne eckige oder runde Klammern, ! oder @.",
    name: "Name",
    classes: "Tailwind-Klassen",
    classesHelp: "Durch Leerzeichen getrennt.",
    sample: "Franz jagt im komplett verwahrlosten Taxi quer durch Bayern.",
    preview: "Vorschau",
    notCompiled: (tokens: string[]) => `Noch nicht im kompilierten Stylesheet, in der Vorschau erst nach dem Speichern sichtbar: ${tokens.join(" ")}`,
    badTokens: (tokens: string[]) => `Nicht erlaubte Klassen: ${tokens.join(" ")}`,
    newStyle: "Neuer Textstil",
    add: "Hinzufügen",
    save: "Speichern",
    remove: "Löschen",
    created: "Textstil angelegt.",
    saved: "Gespeichert.",
    deleted: "Gelöscht.",
    superuserOnly: "Nur Administrator:innen dürfen Inhalte löschen.",
    missing: "Welcher Eintrag? Es fehlt die ID.",
    empty: "Noch keine Textstile angelegt.",
    unknownIntent: "Unbekannte Aktion.",
    search: "Textstile durchsuchen",
    all: "Alle Textstile",
    pick: "Wählen Sie einen Textstil aus, um ihn zu bearbeiten, oder legen Sie einen neuen an.",
    edit: "Textstil bearbeiten",
    gone: "Diesen Textstil gibt es nicht (mehr).",
    open: "Öffnen",
    tileSample: "Abc",
  },
  en: {
    title: "Text styles",
    intro: "Named Tailwind classes for text, e.g. “text-4xl font-bold tracking-tight”. Only plain classes are allowed, without square or round brackets, ! or @.",
    name: "Name",
    classes: "Tailwind classes",
    classesHelp: "Separated by spaces.",
    sample: "The quick brown fox jumps over the lazy dog.",
    preview: "Preview",
    notCompiled: (tokens: string[]) => `Not in the compiled stylesheet yet, shown in the preview after saving: ${tokens.join(" ")}`,
    badTokens: (tokens: string[]) => `Classes not allowed: ${tokens.join(" ")}`,
    newStyle: "New text style",
    add: "Add",
    save: "Save",
    remove: "Delete",
    created: "Text style created.",
    saved: "Saved.",
    deleted: "Deleted.",
    superuserOnly: "Only administrators may delete content.",
    missing: "Which item? The id is missing.",
    empty: "No text styles yet.",
    unknownIntent: "Unknown action.",
    search: "Search text styles",
    all: "All text styles",
    pick: "Choose a text style to edit it, or add a new one.",
    edit: "Edit text style",
    gone: "This text style does not exist (any more).",
    open: "Open",
    tileSample: "Abc",
  },
} satisfies Record<Language, unknown>;
type Texts = (typeof texts)[Language];

type StyleData = { name?: string; twclasses?: string };

export async function loader(args: Route.LoaderArgs) {
  const { user, language, services } = admin(args);
  const url = new URL(args.request.url);
  const q = searchParam(url, language);
  const selectedId = url.searchParams.get("selected");
  const [styles, selected] = await Promise.all([
    listDesignPage<StyleData>(services.store, TEXT_STYLES, pageParam(url, "page", language), language, undefined, q, ["name", "twclasses"]),
    getDesignItem<StyleData>(services.store, TEXT_STYLES, selectedId === "new" ? null : selectedId, language),
  ]);
  const shown = selected ? [...styles.items, selected] : styles.items;
  const tokens = validateClassTokens(shown.map((s) => s.data.twclasses ?? "").join(" ")).valid;
  const css = await compileContentCss(tokens);
  return { language, superuser: user.superuser, styles, q, selectedId, selected, css, compiled: tokensWithCss(css, tokens), variables: await defaultThemeVariables(args.context), path: url.pathname };
}

export async function action(args: Route.ActionArgs) {
  const { user, language } = admin(args);
  const text = texts[language];
  const fields = await readAdminForm(args.request);
  if (fields.intent === "save-style") return saveChecked(args, user, TEXT_STYLES, fields, await checkTextStyle(fields, language), text);
  if (fields.intent === "delete-style") return deleteItem(args, user, TEXT_STYLES, fields, text);
  return refused(text.unknownIntent);
}

/** One text style (or a new one), with its preview following the typed classes. */
function StyleEditor({ text, compiled, variables, item, created }: { text: Texts; compiled: ReadonlySet<string>; variables: Record<string, string>; item?: { id: string; version: number; data: StyleData }; created: (id: string) => string }) {
  const fetcher = useFetcher<AdminResult>();
  useOpenCreated(item ? undefined : fetcher.data, fetcher.state === "idle", created);
  const [name, setName] = useState(item?.data.name ?? "");
  const [classes, setClasses] = useState(item?.data.twclasses ?? "");
  // A saved change comes back with a new version: show what is stored (the notice stays).
  useEffect(() => {
    if (item) (setName(item.data.name ?? ""), setClasses(item.data.twclasses ?? ""));
  }, [item?.version]);
  const { valid, invalid } = validateClassTokens(classes);
  const pending = valid.filter((t) => !compiled.has(t));
  const serverErrors = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.errors : undefined;
  return (
    <fetcher.Form
      method="post"
      className="space-y-3"
      onSubmit={(e) => {
        // Refused tokens are named right under the field; the server would refuse them the same way.
        if (invalid.length) e.preventDefault();
      }}
    >
      <input type="hidden" name="intent" value="save-style" />
      {item ? <input type="hidden" name="id" value={item.id} /> : null}
      {item ? <input type="hidden" name="version" value={item.version} /> : null}
      <div className="grid gap-3">
        <LiveTextField label={text.name} name="name" value={name} onChange={setName} error={serverErrors?.name?.[0]} />
        <LiveTextField
          label={text.classes}
          name="twclasses"
          value={classes}
          onChange={setClasses}
          mono
          help={text.classesHelp}
          error={invalid.length ? text.badTokens(invalid) : serverErrors?.twclasses?.[0]}
        />
      </div>
      <figure className="rounded border border-dashed border-slate-400 p-3" style={variables as CSSProperties}>
        <figcaption className="mb-2 text-xs font-semibold text-slate-700">{text.preview}</figcaption>
        <p className={valid.join(" ")} data-text-style-preview>
          {text.sample}
        </p>
      </figure>
      {pending.length ? (
        <p className="text-sm text-slate-700" data-not-compiled>
          {text.notCompiled(pending)}
        </p>
      ) : null}
      <button type="submit" className={buttonClass(item ? "secondary" : "primary")} disabled={fetcher.state !== "idle"}>
        {item ? text.save : text.add}
      </button>
      {fetcher.data && fetcher.state === "idle" ? <SaveNotice result={fetcher.data} /> : null}
    </fetcher.Form>
  );
}

export default function TextStyles({ loaderData }: Route.ComponentProps) {
  const { language, superuser, styles, q, selectedId, selected, css, compiled, variables, path } = loaderData;
  // Texts come from this module, not loader data: some are functions.
  const text = texts[language];
  const result = useActionData<typeof action>() as (AdminResult & { confirm?: Confirmation }) | undefined;
  const carried = useCarriedNotice();
  const known = new Set(compiled);
  const [search, setSearch] = useState(q);
  const href = (params: Record<string, string | number | null>) => screenHref(path, { q, page: styles.page, ...params });
  useCloseAfterDelete(href({}));
  const created = (id: string) => href({ selected: id });
  const visible = styles.items.filter((style) => matchesSearch([style.data.name, style.data.twclasses], search));
  return (
    <AdminPage title={text.title} intro={<p>{text.intro}</p>}>
      {/* Built on the server from allow-listed class tokens only (theme/tailwind.server.ts). */}
      <style dangerouslySetInnerHTML={{ __html: css }} />
      <ConfirmStep confirm={result?.confirm} Form={Form} cancelHref={href({ selected: selectedId })} />
      <SaveNotice result={result ?? carried} />
      <GridLayout
        search={<GridSearch label={text.search} value={search} onChange={setSearch} keep={{ selected: selectedId }} />}
        panel={
          selectedId === "new" ? (
            <div data-new-text-style>
              <PanelHeading title={text.newStyle} closeHref={href({})} />
              <StyleEditor text={text} compiled={known} variables={variables} created={created} />
              {result?.ok && result.id ? (
                <Link className="mt-3 inline-block font-semibold text-[#0f5e63] underline" to={created(result.id)}>
                  {text.open}
                </Link>
              ) : null}
            </div>
          ) : selected ? (
            <div className="space-y-3" data-text-style-panel={selected.data.name ?? selected.id}>
              <PanelHeading title={selected.data.name || selected.id} closeHref={href({})} />
              <StyleEditor key={selected.id} text={text} compiled={known} variables={variables} item={selected} created={created} />
              {superuser ? <DeleteForm id={selected.id} intent="delete-style" label={text.remove} name={selected.data.name ?? selected.id} cancelHref={created(selected.id)} /> : null}
            </div>
          ) : (
            <EmptyPanel title={text.edit} message={selectedId ? text.gone : text.pick}>
              <Link to={href({ selected: "new" })} className={buttonClass()}>
                {text.newStyle}
              </Link>
            </EmptyPanel>
          )
        }
      >
        <TileSection
          id="style-grid"
          title={text.all}
          shown={visible.length}
          total={styles.total}
          searching={!!search}
          action={
            <Link to={href({ selected: "new" })} className={buttonClass("secondary")}>
              {text.newStyle}
            </Link>
          }
        >
          {visible.map((style) => (
            <Tile key={style.id} href={created(style.id)} selected={style.id === selected?.id} label={style.data.name ?? style.id} data={{ "data-text-style": style.data.name ?? style.id }}>
              {/* The style on a short sample, the theme's colours as on the site; clipped so a huge style keeps the tile's size. */}
              <span aria-hidden="true" className="flex h-16 w-full items-center justify-center overflow-hidden" style={variables as CSSProperties}>
                <span className={validateClassTokens(style.data.twclasses ?? "").valid.join(" ")} data-text-style-preview>
                  {text.tileSample}
                </span>
              </span>
              <span className="w-full truncate font-mono text-xs text-slate-700">{style.data.twclasses}</span>
            </Tile>
          ))}
        </TileSection>
        <Pager page={styles.page} pages={styles.pages} href={(page) => screenHref(path, { q, page })} />
      </GridLayout>
    </AdminPage>
  );
}
