import { useId, useState } from "react";
import { peopleNames, personName } from "~/editor/people.server";
import { data, Form, Link, redirect, useActionData, useNavigation } from "react-router";
import type { Route } from "./+types/page";
import { isValidId } from "~/content/ids";
import { admin, type Confirmation, done, isConfirmed, mutate, readAdminForm, refused, writer } from "~/admin/admin.server";
import { deletePage } from "~/admin/pages/page-delete.server";
import { pageSettings, pageState, settingsPatch, type PageSettings } from "~/admin/pages/page-data";
import { formVersion, pageByName, patchPage } from "~/admin/pages/page-edit";
import { checkPageSlugs, normalizePageSlug, PAGES_SCHEMA, type SlugProblem, SLUG_PROBLEM_TEXTS } from "~/admin/pages/page-slug";
import { AdminPage, buttonClass, ConfirmStep, inputClass, SaveNotice, StatusBadge, TextField, useAdmin } from "~/admin/ui";
import { routeAccess } from "~/auth/access";
import type { ContentStore } from "~/content/store";
import { LANGUAGES, localizedPath, type Language } from "~/i18n/languages";

/**
 * `/manage/pages/{pagename}` (pagename: the page's id, see pages.tsx; a German slug redirects to
 * it): a page's settings per language (title, slug, SEO title), critical flag, theme and
 * background colour; publishing and unpublishing; deleting (superusers, asked first). Saving a published page keeps the live page as
 * it is (state Changed) until it is published again.
 */
export const handle = routeAccess("auth");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

const TITLE_MAX = 200;
const SEOTITLE_MAX = 70;

const texts = {
  de: {
    back: "Alle Seiten",
    deleteTitle: "Seite löschen",
    deleteHint: "Sie werden vorher gefragt. Soll die Seite nur nicht mehr öffentlich sein, ziehen Sie sie oben zurück.",
    languageName: { de: "Deutsch", en: "Englisch" } as Record<Language, string>,
    pageTitle: "Titel",
    slug: "Slug",
    slugHelp: "Pfad ohne führenden Schrägstrich; „home“ ist die Startseite.",
    seotitle: "SEO-Titel",
    seotitleHelp: "Höchstens 70 Zeichen; erscheint im Browser-Tab und in Suchergebnissen.",
    critical: "Kritisch (wird bevorzugt vorgeladen)",
    theme: "Theme",
    background: "Hintergrundfarbe",
    none: "Keine (Standard)",
    swatch: "Gewählte Farbe",
    state: "Zustand",
    version: "Version",
    modified: "Zuletzt geändert",
    editMode: "Im Bearbeitungsmodus öffnen",
    stored: "Gespeicherte Daten ansehen",
    discard: "Änderungen verwerfen",
    published: "Veröffentlicht.",
    unpublished: "Zurückgezogen: die Seite ist nicht mehr öffentlich.",
    discarded: "Änderungen verworfen.",
    changedHint: "Die Website zeigt noch die veröffentlichte Fassung, bis Sie erneut veröffentlichen.",
    noTitle: "Bitte einen deutschen Titel angeben (höchstens 200 Zeichen).",
    seotitleTooLong: "Der SEO-Titel hat höchstens 70 Zeichen.",
    unknownRef: "Diese Auswahl gibt es nicht (mehr).",
    badVersion: "Die Seite wurde inzwischen geändert. Bitte neu laden.",
    unknownIntent: "Unbekannte Aktion.",
    slugProblems: SLUG_PROBLEM_TEXTS.de,
  },
  en: {
    back: "All pages",
    deleteTitle: "Delete page",
    deleteHint: "You will be asked first. If the page should only stop being public, unpublish it above instead.",
    languageName: { de: "German", en: "English" } as Record<Language, string>,
    pageTitle: "Title",
    slug: "Slug",
    slugHelp: "Path without a leading slash; “home” is the home page.",
    seotitle: "SEO title",
    seotitleHelp: "At most 70 characters; shown in the browser tab and in search results.",
    critical: "Critical (preloaded first)",
    theme: "Theme",
    background: "Background colour",
    none: "None (default)",
    swatch: "Chosen colour",
    state: "State",
    version: "Version",
    modified: "Last changed",
    editMode: "Open in edit mode",
    stored: "View stored data",
    discard: "Discard changes",
    published: "Published.",
    unpublished: "Unpublished: the page is no longer public.",
    discarded: "Changes discarded.",
    changedHint: "The site still shows the published version until you publish again.",
    noTitle: "Please enter a German title (at most 200 characters).",
    seotitleTooLong: "The SEO title has at most 70 characters.",
    unknownRef: "This choice does not exist (any more).",
    badVersion: "The page has changed in the meantime. Please reload.",
    unknownIntent: "Unknown action.",
    slugProblems: SLUG_PROBLEM_TEXTS.en,
  },
} satisfies Record<Language, unknown>;

/** Theme settings and colours to choose from (small collections: every item, drafts too). */
async function choices(store: ContentStore) {
  const [themes, colors] = await Promise.all([
    store.query("core-theme-settings", {}, { unpublished: true, all: true, noTotal: true }),
    store.query("core-theme-colors", {}, { unpublished: true, all: true, noTotal: true }),
  ]);
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  return {
    themes: themes.items.map((i) => ({ id: i.id, name: str(i.data.name?.iv) || i.id })),
    colors: colors.items.map((i) => ({ id: i.id, name: str(i.data.name?.iv) || i.id, hexcode: str(i.data.hexcode?.iv) })),
  };
}

async function requirePage(store: ContentStore, name: string) {
  const page = await pageByName(store, name);
  if (!page) throw data(null, { status: 404 });
  return page;
}

export async function loader(args: Route.LoaderArgs) {
  const { user, language, services } = admin(args);
  const item = await requirePage(services.store, args.params.pagename);
  if (item.id !== args.params.pagename) throw redirect(`/manage/pages/${encodeURIComponent(item.id)}`);
  return {
    language,
    superuser: user.superuser,
    page: pageSettings(item),
    lastModified: item.lastModified,
    lastModifiedBy: personName(await peopleNames(args.context), item.lastModifiedBy, language),
    ...(await choices(services.store)),
  };
}

/** The settings form's values (per language `<field>.<language>`), trimmed and normalised. */
function readSettings(fields: Record<string, string>) {
  const per = (name: string, clean: (v: string) => string = (v) => v.trim()) =>
    Object.fromEntries(LANGUAGES.map((l) => [l, clean(fields[`${name}.${l}`] ?? "")])) as Record<Language, string>;
  const title = per("title");
  if (!title.en) title.en = title.de;
  return {
    title,
    slug: per("slug", normalizePageSlug),
    seotitle: per("seotitle"),
    critical: fields.critical === "on",
    themesettings: (fields.themesettings ?? "").trim(),
    backgroundColor: (fields.backgroundColor ?? "").trim(),
  };
}

export async function action(args: Route.ActionArgs) {
  const { user, language, t, services } = admin(args);
  const text = texts[language];
  const store = services.store;
  const item = await requirePage(store, args.params.pagename);
  const fields = await readAdminForm(args.request);
  const expectedVersion = formVersion(fields.version);
  if (expectedVersion === undefined) return refused(text.badVersion, 400);
  const by = (action: string, detail?: string) => writer(user, { action, ...(detail ? { detail } : {}) });
  if (fields.intent === "save") {
    const next = readSettings(fields);
    const errors: Record<string, string[]> = {};
    if (!next.title.de || LANGUAGES.some((l) => next.title[l].length > TITLE_MAX)) errors["title.de"] = [text.noTitle];
    for (const l of LANGUAGES) if (next.seotitle[l].length > SEOTITLE_MAX) errors[`seotitle.${l}`] = [text.seotitleTooLong];
    const problems = await checkPageSlugs(store, next.slug, item.id);
    for (const [l, problem] of Object.entries(problems)) errors[`slug.${l}`] = [text.slugProblems[problem]];
    // The references must name an item (draft or live): one lookup each, not the choice lists.
    const exists = async (schema: string, id: string) => isValidId(id) && !!(await store.get(schema, id, { unpublished: true }));
    if (next.themesettings && !(await exists("core-theme-settings", next.themesettings))) errors.themesettings = [text.unknownRef];
    if (next.backgroundColor && !(await exists("core-theme-colors", next.backgroundColor))) errors.backgroundColor = [text.unknownRef];
    const first = Object.values(errors)[0];
    if (first) return refused(first[0]!, Object.values(problems).includes("taken") ? 409 : 400, errors);
    return mutate(
      { ...args, user },
      null,
      () => patchPage(store, item.id, settingsPatch(item.data, next), { ...by("update-page", `slug ${next.slug.de} / ${next.slug.en}`), expectedVersion }),
      () => done(item.status === "Published" ? `${t.saved} ${text.changedHint}` : t.saved),
    );
  }
  if (fields.intent === "publish" || fields.intent === "unpublish") {
    const publish = fields.intent === "publish";
    return mutate(
      { ...args, user },
      null,
      () => store.changeStatus(PAGES_SCHEMA, item.id, publish ? "Published" : "Draft", { ...by(publish ? "publish-page" : "unpublish-page"), expectedVersion }),
      () => done(publish ? text.published : text.unpublished),
    );
  }
  if (fields.intent === "delete") {
    const answer = await deletePage(args, user, item, fields, expectedVersion);
    // Gone: back to the list, which says so (its own screen would be a 404 now).
    if (isConfirmed(fields) && answer.data.ok) return redirect("/manage/pages?deleted=1");
    return answer;
  }
  if (fields.intent === "discard") {
    return mutate({ ...args, user }, null, () => store.discardDraft(PAGES_SCHEMA, item.id, { ...by("discard-page-draft"), expectedVersion }), () => done(text.discarded));
  }
  return refused(text.unknownIntent);
}

/** The page's public address in German, for the editor (the home page lives at the root). */
const publicPath = (page: PageSettings) => localizedPath("de", page.slug.de === "home" ? "/" : `/${page.slug.de}`);

export default function PageSettingsScreen({ loaderData }: Route.ComponentProps) {
  const { language, superuser, page, themes, colors, lastModified, lastModifiedBy } = loaderData;
  const text = texts[language];
  const { t } = useAdmin();
  const result = useActionData<typeof action>() as { ok: boolean; message: string; errors?: Record<string, string[]>; confirm?: Confirmation } | undefined;
  const busy = useNavigation().state === "submitting";
  const [color, setColor] = useState(page.backgroundColor);
  const swatchId = useId();
  const hex = colors.find((c) => c.id === color)?.hexcode;
  const state = pageState(page.status, page.newStatus);
  const error = (name: string) => result?.errors?.[name]?.[0];
  const hidden = (intent: string) => (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="version" value={page.version} />
    </>
  );
  return (
    <AdminPage
      title={<span data-content>{page.title[language] || page.id}</span>}
      intro={
        <p>
          <Link className="underline" to="/manage/pages">
            {text.back}
          </Link>
        </p>
      }
      actions={
        <>
          <a className={buttonClass("secondary")} href={`${publicPath(page)}?edit=1`} data-edit-mode-link>
            {text.editMode}
          </a>
          <Link className={buttonClass("secondary")} to={`/manage/squidex/${encodeURIComponent(page.id)}`}>
            {text.stored}
          </Link>
        </>
      }
    >
      <ConfirmStep confirm={result?.confirm} Form={Form} cancelHref={`/manage/pages/${encodeURIComponent(page.id)}`} />
      <SaveNotice result={result} />
      <section aria-labelledby="page-state" className="flex flex-wrap items-center gap-4 rounded border border-slate-300 bg-white p-4">
        <h2 id="page-state" className="text-lg font-bold">
          {text.state}
        </h2>
        <StatusBadge status={page.status} newStatus={page.newStatus} />
        <span>
          {text.version} {page.version} · {text.modified} {new Date(lastModified).toLocaleString(language === "de" ? "de-DE" : "en-GB", { timeZone: "Europe/Berlin" })} ({lastModifiedBy})
        </span>
        {state === "Changed" ? <p className="w-full text-sm text-slate-700">{text.changedHint}</p> : null}
        <div className="flex flex-wrap gap-2">
          {state !== "Published" ? (
            <Form method="post">
              {hidden("publish")}
              <button type="submit" className={buttonClass()} disabled={busy}>
                {t.publish}
              </button>
            </Form>
          ) : null}
          {state === "Published" || state === "Changed" ? (
            <Form method="post">
              {hidden("unpublish")}
              <button type="submit" className={buttonClass("secondary")} disabled={busy}>
                {t.unpublish}
              </button>
            </Form>
          ) : null}
          {state === "Changed" ? (
            <Form method="post">
              {hidden("discard")}
              <button type="submit" className={buttonClass("secondary")} disabled={busy}>
                {text.discard}
              </button>
            </Form>
          ) : null}
        </div>
      </section>
      <Form method="post" className="space-y-6 rounded border border-slate-300 bg-white p-4">
        {hidden("save")}
        <div className="grid gap-6 md:grid-cols-2">
          {LANGUAGES.map((l) => (
            <fieldset key={l} className="space-y-3" lang={l}>
              <legend className="text-lg font-bold">{text.languageName[l]}</legend>
              <TextField label={`${text.pageTitle} (${l})`} name={`title.${l}`} defaultValue={page.title[l]} required={l === "de"} maxLength={TITLE_MAX} error={error(`title.${l}`)} />
              <TextField label={`${text.slug} (${l})`} name={`slug.${l}`} defaultValue={page.slug[l]} required help={text.slugHelp} error={error(`slug.${l}`)} />
              <TextField label={`${text.seotitle} (${l})`} name={`seotitle.${l}`} defaultValue={page.seotitle[l]} maxLength={SEOTITLE_MAX} help={text.seotitleHelp} error={error(`seotitle.${l}`)} />
            </fieldset>
          ))}
        </div>
        <label className="flex items-center gap-2">
          <input type="checkbox" name="critical" defaultChecked={page.critical} className="h-5 w-5" /> {text.critical}
        </label>
        <div className="grid gap-6 md:grid-cols-2">
          <div>
            <label htmlFor="page-theme" className="mb-1 block font-semibold">
              {text.theme}
            </label>
            <select id="page-theme" name="themesettings" defaultValue={page.themesettings} className={inputClass}>
              <option value="">{text.none}</option>
              {themes.map((theme) => (
                <option key={theme.id} value={theme.id}>
                  {theme.name}
                </option>
              ))}
            </select>
            {error("themesettings") ? <p className="mt-1 text-sm text-red-800">{error("themesettings")}</p> : null}
          </div>
          <div>
            <label htmlFor="page-background" className="mb-1 block font-semibold">
              {text.background}
            </label>
            <div className="flex items-center gap-3">
              <select id="page-background" name="backgroundColor" value={color} onChange={(e) => setColor(e.target.value)} aria-describedby={swatchId} className={inputClass}>
                <option value="">{text.none}</option>
                {colors.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name} {c.hexcode}
                  </option>
                ))}
              </select>
              <span
                id={swatchId}
                className="inline-block h-10 w-10 shrink-0 rounded border border-slate-500"
                style={hex ? { backgroundColor: hex } : undefined}
                data-swatch={hex ?? ""}
                role="img"
                aria-label={`${text.swatch}: ${hex ?? text.none}`}
              />
            </div>
            {error("backgroundColor") ? <p className="mt-1 text-sm text-red-800">{error("backgroundColor")}</p> : null}
            <ul className="mt-2 flex flex-wrap gap-1" aria-hidden="true">
              {colors.map((c) => (
                <li key={c.id} title={c.name} className={`h-5 w-5 rounded border ${c.id === color ? "border-2 border-slate-900" : "border-slate-400"}`} style={{ backgroundColor: c.hexcode }} />
              ))}
            </ul>
          </div>
        </div>
        <button type="submit" className={buttonClass()} disabled={busy}>
          {t.save}
        </button>
      </Form>
      {superuser ? (
        <section aria-labelledby="page-delete" className="space-y-2 rounded border border-slate-300 bg-white p-4" data-page-delete>
          <h2 id="page-delete" className="text-lg font-bold">
            {text.deleteTitle}
          </h2>
          <p className="text-slate-700">{text.deleteHint}</p>
          {/* Not red here: the server asks first (ConfirmStep), where the button that deletes is. */}
          <Form method="post">
            {hidden("delete")}
            <button type="submit" className={buttonClass("secondary")} disabled={busy}>
              {text.deleteTitle}
            </button>
          </Form>
        </section>
      ) : null}
    </AdminPage>
  );
}
