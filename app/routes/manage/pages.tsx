import { Form, Link, redirect, useActionData, useNavigation } from "react-router";
import type { Route } from "./+types/pages";
import { admin, done, mutate, readAdminForm, refused, writer, type Confirmation } from "~/admin/admin.server";
import { deletePage } from "~/admin/pages/page-delete.server";
import { orBadRequest } from "~/admin/content/list-query";
import { listPages, PAGE_STATES, pageListQuery, type PageListQuery } from "~/admin/pages/page-list";
import { newPageData, pageSettings } from "~/admin/pages/page-data";
import { formVersion, getPage } from "~/admin/pages/page-edit";
import { checkPageSlugs, normalizePageSlug, PAGES_SCHEMA, type SlugProblem, SLUG_PROBLEM_TEXTS } from "~/admin/pages/page-slug";
import { AdminPage, ConfirmStep, DataTable, EmptyState, Pager, SaveNotice, StatusBadge, TextField, buttonClass, inputClass, useAdmin } from "~/admin/ui";
import { routeAccess } from "~/auth/access";
import { slugify } from "~/content/slug";
import type { Language } from "~/i18n/languages";

/**
 * `/manage/pages`: the site's pages, a page at a time (search and state filter run in the
 * database), and creating a page (as a draft). Renaming and deleting happen on a page's own screen
 * (issue 22, point 4: no rename field and delete button in every row). A page's own screen is
 * `/manage/pages/{pagename}`, where pagename is the page's id: it stays the same when the slugs
 * change and is one path segment even for nested slugs like "ratgeber/rueckenschmerzen".
 */
export const handle = routeAccess("auth");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

const TITLE_MAX = 200;

const texts = {
  de: {
    title: "Seiten",
    intro: "Neue Seiten beginnen als Entwurf. Änderungen an veröffentlichten Seiten werden erst mit dem erneuten Veröffentlichen sichtbar. Frühere Fassungen einer Seite stellen Sie in ihrem Editor unter „Versionen“ wieder her.",
    searchLabel: "Seiten durchsuchen",
    stateLabel: "Status",
    anyState: "Alle",
    pageTitle: "Titel",
    slug: "Slug",
    state: "Status",
    createTitle: "Neue Seite",
    deleted: "Seite gelöscht.",
    slugHelp: "Pfad ohne führenden Schrägstrich, z. B. „ueber-uns“ oder „ratgeber/ruecken“. Leer: aus dem Titel.",
    created: (title: string) => `Seite „${title}“ als Entwurf angelegt.`,
    noTitle: "Bitte einen Titel angeben (höchstens 200 Zeichen).",
    badVersion: "Die Seite wurde inzwischen geändert. Bitte neu laden.",
    unknownPage: "Diese Seite gibt es nicht (mehr).",
    unknownIntent: "Unbekannte Aktion.",
    slugProblems: SLUG_PROBLEM_TEXTS.de,
  },
  en: {
    title: "Pages",
    intro: "New pages start as drafts. Changes to published pages show once the page is published again. Earlier versions of a page are brought back in its editor, under “Versions”.",
    searchLabel: "Search pages",
    stateLabel: "State",
    anyState: "All",
    pageTitle: "Title",
    slug: "Slug",
    state: "State",
    createTitle: "New page",
    deleted: "Page deleted.",
    slugHelp: "Path without a leading slash, e.g. “about-us” or “guide/back-pain”. Empty: from the title.",
    created: (title: string) => `Page “${title}” created as a draft.`,
    noTitle: "Please enter a title (at most 200 characters).",
    badVersion: "The page has changed in the meantime. Please reload.",
    unknownPage: "This page does not exist (any more).",
    unknownIntent: "Unknown action.",
    slugProblems: SLUG_PROBLEM_TEXTS.en,
  },
} satisfies Record<Language, unknown>;

export async function loader(args: Route.LoaderArgs) {
  const { language, services } = admin(args);
  const query = orBadRequest(() => pageListQuery(new URL(args.request.url).searchParams, language));
  const { total, pages, items } = await listPages(services.store, query);
  // Past the end: the last page, never "page 9 of 2".
  if (query.page > pages) throw redirect(listHref(query, pages));
  return {
    language,
    query,
    total,
    pages,
    // A page deleted on its own screen comes back here to say so.
    deleted: new URL(args.request.url).searchParams.get("deleted") === "1",
    items: items.map((item) => {
      const page = pageSettings(item);
      return { id: page.id, title: page.title[language], slug: page.slug[language], status: page.status, newStatus: page.newStatus, version: page.version };
    }),
  };
}

export async function action(args: Route.ActionArgs) {
  const { user, language, services } = admin(args);
  const text = texts[language];
  const store = services.store;
  const fields = await readAdminForm(args.request);
  const title = (fields.title ?? "").trim();
  if (fields.intent === "create") {
    if (!title || title.length > TITLE_MAX) return refused(text.noTitle, 400, { title: [text.noTitle] });
    const slug = normalizePageSlug(fields.slug ?? "") || slugify(title);
    const problem = (await checkPageSlugs(store, { de: slug, en: slug })).de;
    if (problem) return refused(text.slugProblems[problem], problem === "taken" ? 409 : 400, { slug: [text.slugProblems[problem]] });
    // A readable id from the slug where it is free (the page's address in the admin area).
    const wanted = `page-${slug.replace(/\//g, "-")}`.slice(0, 100);
    const id = (await getPage(store, wanted)) ? undefined : wanted;
    return mutate(
      { ...args, user },
      null,
      () => store.create(PAGES_SCHEMA, newPageData(title, slug), { ...writer(user, { action: "create-page", detail: slug }), ...(id ? { id } : {}) }),
      (created) => done(text.created(title), 201, { id: (created as { id: string }).id }),
    );
  }
  const page = fields.id ? await getPage(store, fields.id) : undefined;
  if (!page) return refused(text.unknownPage, 404);
  const expectedVersion = formVersion(fields.version);
  if (expectedVersion === undefined) return refused(text.badVersion, 400);
  // The list shows no delete button any more (a page is deleted on its own screen); a post here still works the same way.
  if (fields.intent === "delete") return deletePage(args, user, page, fields, expectedVersion);
  return refused(text.unknownIntent);
}

/** The list's address for a query (empty values left out). */
function listHref(query: PageListQuery, page: number): string {
  const params = new URLSearchParams();
  if (query.search) params.set("q", query.search);
  if (query.state) params.set("state", query.state);
  if (page > 1) params.set("page", String(page));
  const s = params.toString();
  return s ? `?${s}` : "?";
}

export default function Pages({ loaderData }: Route.ComponentProps) {
  const { language, query, total, pages, items, deleted } = loaderData;
  const text = texts[language];
  const { t } = useAdmin();
  const result = useActionData<typeof action>() as { ok: boolean; message: string; errors?: Record<string, string[]>; id?: string; confirm?: Confirmation } | undefined;
  const busy = useNavigation().state === "submitting";
  const stateLabel = { Draft: t.statusDraft, Published: t.statusPublished, Changed: t.statusChanged };
  return (
    <AdminPage title={text.title} intro={<p>{text.intro}</p>}>
      <ConfirmStep confirm={result?.confirm} Form={Form} cancelHref={listHref(query, query.page)} />
      <SaveNotice result={result ?? (deleted ? { ok: true, message: text.deleted } : undefined)} />
      {result?.ok && result.id ? (
        <p>
          <Link className="font-semibold text-[#0f5e63] underline" to={`/manage/pages/${encodeURIComponent(result.id)}`}>
            {t.edit}
          </Link>
        </p>
      ) : null}
      <Form method="get" role="search" className="flex flex-wrap items-end gap-3">
        <div className="min-w-56 flex-1">
          <label htmlFor="pages-q" className="mb-1 block font-semibold">
            {text.searchLabel}
          </label>
          <input id="pages-q" name="q" type="search" defaultValue={query.search} className={inputClass} />
        </div>
        <div>
          <label htmlFor="pages-state" className="mb-1 block font-semibold">
            {text.stateLabel}
          </label>
          <select id="pages-state" name="state" defaultValue={query.state} className={inputClass}>
            <option value="">{text.anyState}</option>
            {PAGE_STATES.map((s) => (
              <option key={s} value={s}>
                {stateLabel[s]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={buttonClass("secondary")}>
          {t.search}
        </button>
      </Form>
      <p role="status" data-page-total>
        {t.total(total)}
      </p>
      {items.length === 0 ? (
        <EmptyState>{query.search || query.state ? t.noMatches : t.empty}</EmptyState>
      ) : (
        <DataTable headings={[text.pageTitle, text.slug, text.state]}>
          {items.map((p) => (
            <tr key={p.id} className="border-b border-slate-200 align-top" data-page={p.id}>
              <td className="p-2">
                <Link className="font-semibold text-[#0f5e63] underline" to={`/manage/pages/${encodeURIComponent(p.id)}`}>
                  {p.title || p.id}
                </Link>
              </td>
              <td className="p-2 break-all">
                <code>/{p.slug}</code>
              </td>
              <td className="p-2">
                <StatusBadge status={p.status} newStatus={p.newStatus} />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <Pager page={query.page} pages={pages} href={(n) => listHref(query, n)} />
      <Form method="post" className="max-w-xl space-y-3 rounded border border-slate-300 bg-white p-4">
        <h2 className="text-lg font-bold">{text.createTitle}</h2>
        <input type="hidden" name="intent" value="create" />
        <TextField label={text.pageTitle} name="title" required maxLength={TITLE_MAX} error={result?.errors?.title?.[0]} />
        <TextField label={text.slug} name="slug" help={text.slugHelp} error={result?.errors?.slug?.[0]} />
        <button type="submit" className={buttonClass()} disabled={busy}>
          {t.create}
        </button>
      </Form>
    </AdminPage>
  );
}
