import { Form, Link, useActionData, useLocation, useNavigation } from "react-router";
import type { Route } from "./+types/assets";
import { actorOf, admin, done, mutate, readAdminForm, refused } from "~/admin/admin.server";
import { listFolders, listLibrary, renameAsset } from "~/admin/assets/library.server";
import { assetQueryString, checkFileName, formatBytes, MAX_FILE_NAME_LENGTH, MAX_SEARCH_LENGTH, parseAssetQuery, ROOT_FOLDER, thumbnailUrl, typeLabel } from "~/admin/assets/query";
import { UploadPanel } from "~/admin/assets/upload-panel";
import { AdminPage, buttonClass, EmptyState, inputClass, Pager, SaveNotice, useAdmin } from "~/admin/ui";
import { routeAccess } from "~/auth/access";
import { isValidId } from "~/content/ids";
import type { Language } from "~/i18n/languages";

/**
 * `/manage/squidex-assets`: the asset library. Upload (drop or choose, a progress bar per file,
 * sent to the Squidex asset endpoint), folders by parentId, search by file name, paging, previews,
 * rename, delete (superusers). Lists are paged and searched in the database.
 */
export const handle = routeAccess("auth");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

const texts = {
  de: {
    title: "Medien",
    intro: "Bilder und Dateien für Seiten und Profile. Bilder erscheinen als Vorschau.",
    uploadTitle: "Hochladen",
    dropHint: "Dateien hierher ziehen oder auswählen.",
    chooseFiles: "Dateien auswählen",
    uploading: "Wird hochgeladen …",
    uploadDone: "Fertig",
    uploadFailed: (status: number) => (status ? `Hochladen fehlgeschlagen (Status ${status}).` : "Hochladen fehlgeschlagen: keine Verbindung zum Server."),
    tooLarge: (max: string) => `Die Datei ist zu groß; erlaubt sind höchstens ${max}.`,
    progressOf: (name: string) => `Fortschritt: ${name}`,
    clearFinished: "Abgeschlossene ausblenden",
    folders: "Ordner",
    breadcrumbs: "Ordnerpfad",
    root: "Alle Medien",
    folder: (id: string) => `Ordner ${id}`,
    searchLabel: "Dateiname suchen",
    search: "Suchen",
    resetSearch: "Suche zurücksetzen",
    results: (n: number, q: string) => (q ? `${n.toLocaleString("de-DE")} Treffer für „${q}“` : n === 1 ? "1 Datei" : `${n.toLocaleString("de-DE")} Dateien`),
    empty: "Noch keine Dateien. Laden Sie oben die erste hoch.",
    emptyFolder: "Dieser Ordner ist leer.",
    noMatches: "Keine Datei passt zur Suche.",
    loading: "Liste wird geladen …",
    rename: "Umbenennen",
    newName: "Neuer Dateiname",
    saveName: "Namen speichern",
    renamed: (name: string) => `Umbenannt in „${name}“.`,
    remove: "Löschen",
    confirmRemove: (name: string) => `„${name}“ wirklich löschen? Seiten, die die Datei zeigen, verlieren sie.`,
    removed: (name: string) => `„${name}“ gelöscht.`,
    open: "Öffnen",
    nameEmpty: "Bitte einen Dateinamen angeben.",
    nameTooLong: `Der Dateiname darf höchstens ${MAX_FILE_NAME_LENGTH} Zeichen haben.`,
    nameInvalid: "Der Dateiname darf keine Schrägstriche oder Steuerzeichen enthalten.",
    badId: "Ungültige Datei-ID.",
    unknownAsset: "Diese Datei gibt es nicht (mehr).",
    notYours: "Diese Datei wurde nicht von Ihnen hochgeladen.",
    onlySuperuser: "Löschen dürfen nur Administrator:innen.",
    recorded: "Hochladen protokolliert.",
    unknownIntent: "Unbekannte Aktion.",
  },
  en: {
    title: "Media",
    intro: "Images and files for pages and profiles. Images are shown as previews.",
    uploadTitle: "Upload",
    dropHint: "Drag files here or choose them.",
    chooseFiles: "Choose files",
    uploading: "Uploading …",
    uploadDone: "Done",
    uploadFailed: (status: number) => (status ? `Upload failed (status ${status}).` : "Upload failed: no connection to the server."),
    tooLarge: (max: string) => `The file is too large; at most ${max} is allowed.`,
    progressOf: (name: string) => `Progress: ${name}`,
    clearFinished: "Hide finished",
    folders: "Folders",
    breadcrumbs: "Folder path",
    root: "All media",
    folder: (id: string) => `Folder ${id}`,
    searchLabel: "Search file names",
    search: "Search",
    resetSearch: "Reset search",
    results: (n: number, q: string) => (q ? `${n.toLocaleString("en-GB")} results for “${q}”` : n === 1 ? "1 file" : `${n.toLocaleString("en-GB")} files`),
    empty: "No files yet. Upload the first one above.",
    emptyFolder: "This folder is empty.",
    noMatches: "No file matches the search.",
    loading: "Loading the list …",
    rename: "Rename",
    newName: "New file name",
    saveName: "Save name",
    renamed: (name: string) => `Renamed to “${name}”.`,
    remove: "Delete",
    confirmRemove: (name: string) => `Really delete “${name}”? Pages showing the file will lose it.`,
    removed: (name: string) => `“${name}” deleted.`,
    open: "Open",
    nameEmpty: "Please enter a file name.",
    nameTooLong: `The file name may have at most ${MAX_FILE_NAME_LENGTH} characters.`,
    nameInvalid: "The file name may not contain slashes or control characters.",
    badId: "Invalid file id.",
    unknownAsset: "This file does not exist (any more).",
    notYours: "You did not upload this file.",
    onlySuperuser: "Only administrators may delete.",
    recorded: "Upload recorded.",
    unknownIntent: "Unknown action.",
  },
} satisfies Record<Language, unknown>;

export async function loader(args: Route.LoaderArgs) {
  const { user, services } = admin(args);
  const query = parseAssetQuery(new URL(args.request.url).searchParams);
  const [library, folders] = await Promise.all([listLibrary(services.store, query), query.folder === ROOT_FOLDER ? listFolders(services.store) : Promise.resolve([])]);
  return {
    query: { ...query, page: library.page },
    library,
    folders,
    superuser: user.superuser,
    appName: services.env.SQUIDEX_APP_NAME,
    maxBytes: services.env.ASSET_MAX_BYTES,
  };
}

export async function action(args: Route.ActionArgs) {
  const { user, language, t, services } = admin(args);
  const text = texts[language];
  const fields = await readAdminForm(args.request);
  const id = fields.id ?? "";
  if (!isValidId(id)) return refused(text.badId, 400, { id: [text.badId] });
  const asset = await services.store.assets.get(id);
  if (!asset) return refused(text.unknownAsset, 404);
  const run = { ...args, user };

  if (fields.intent === "rename") {
    const checked = checkFileName(fields.fileName ?? "");
    if (!checked.ok) {
      const message = checked.reason === "empty" ? text.nameEmpty : checked.reason === "tooLong" ? text.nameTooLong : text.nameInvalid;
      return refused(message, 400, { fileName: [message] });
    }
    const expectedVersion = /^\d{1,9}$/.test(fields.version ?? "") ? Number(fields.version) : undefined;
    return mutate(
      run,
      { action: "rename-asset", itemId: id, version: asset.version + 1, detail: `${asset.fileName} → ${checked.fileName}`.slice(0, 300) },
      () => renameAsset(services.store, { id, fileName: checked.fileName, actor: actorOf(user), expectedVersion }),
      () => done(text.renamed(checked.fileName)),
    );
  }
  if (fields.intent === "delete") {
    if (!user.superuser) return refused(t.forbidden, 403);
    return mutate(
      run,
      { action: "delete-asset", itemId: id, detail: asset.fileName.slice(0, 200) },
      () => services.store.assets.delete(id),
      () => done(text.removed(asset.fileName)),
    );
  }
  if (fields.intent === "record-upload") {
    // Uploads go to the Squidex endpoint; this puts them in the audit log, for the uploader's own files only.
    if (asset.createdBy !== actorOf(user)) return refused(text.notYours, 403);
    await services.auth.audit.record(user, { action: "upload-asset", itemId: id, version: asset.version, detail: asset.fileName.slice(0, 200) });
    return done(text.recorded, 201);
  }
  return refused(text.unknownIntent);
}

export default function Assets({ loaderData }: Route.ComponentProps) {
  const { query, library, folders, superuser, appName, maxBytes } = loaderData;
  const { language } = useAdmin();
  const text = texts[language];
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const location = useLocation();
  const loading = navigation.state === "loading" && navigation.location.pathname === location.pathname;
  const href = (change: Partial<typeof query>) => `${location.pathname}${assetQueryString({ ...query, ...change })}`;
  const inFolder = query.folder !== ROOT_FOLDER;

  return (
    <AdminPage title={text.title} intro={<p>{text.intro}</p>}>
      <SaveNotice result={result} />
      <UploadPanel appName={appName} folder={query.folder} maxBytes={maxBytes} language={language} text={text} />

      <nav aria-label={text.breadcrumbs}>
        <ol className="flex flex-wrap items-center gap-2 text-sm">
          <li>{inFolder ? <Link className="font-semibold text-[#0f5e63] underline" to={href({ folder: ROOT_FOLDER, page: 1, q: "" })}>{text.root}</Link> : <span aria-current="page" className="font-semibold">{text.root}</span>}</li>
          {inFolder ? (
            <li className="flex items-center gap-2">
              <span aria-hidden="true">/</span>
              <span aria-current="page" className="font-semibold break-all">{text.folder(query.folder)}</span>
            </li>
          ) : null}
        </ol>
      </nav>

      {folders.length ? (
        <section aria-labelledby="asset-folders">
          <h2 id="asset-folders" className="mb-2 text-lg font-bold">{text.folders}</h2>
          <ul className="flex flex-wrap gap-2">
            {folders.map((folder) => (
              <li key={folder}>
                <Link className={buttonClass("secondary")} to={href({ folder, page: 1, q: "" })} data-folder={folder}>
                  <span aria-hidden="true">📁</span> {text.folder(folder)}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <Form method="get" role="search" className="flex flex-wrap items-end gap-2" key={`${query.folder}:${query.q}`}>
        {inFolder ? <input type="hidden" name="folder" value={query.folder} /> : null}
        <div className="min-w-64 grow">
          <label htmlFor="asset-search" className="mb-1 block font-semibold">{text.searchLabel}</label>
          <input id="asset-search" name="q" type="search" defaultValue={query.q} maxLength={MAX_SEARCH_LENGTH} className={inputClass} />
        </div>
        <button type="submit" className={buttonClass()}>{text.search}</button>
        {query.q ? <Link className={buttonClass("secondary")} to={href({ q: "", page: 1 })}>{text.resetSearch}</Link> : null}
      </Form>

      <div aria-busy={loading || undefined} data-asset-list className={loading ? "opacity-60 transition-opacity" : undefined}>
        <p role="status" className="mb-3 text-sm text-slate-700">
          {loading ? text.loading : text.results(library.total, query.q)}
        </p>
        {library.items.length === 0 ? (
          <EmptyState>{query.q ? text.noMatches : inFolder ? text.emptyFolder : text.empty}</EmptyState>
        ) : (
          <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
            {library.items.map((asset) => (
              <AssetCard key={`${asset.id}:${asset.version}`} asset={asset} superuser={superuser} language={language} busy={navigation.state === "submitting"} />
            ))}
          </ul>
        )}
      </div>
      <Pager page={query.page} pages={library.pages} href={(page) => href({ page })} />
    </AdminPage>
  );
}

type LibraryItem = Route.ComponentProps["loaderData"]["library"]["items"][number];

/** One asset: preview (thumbnail or type label), name, size, and its rename/delete forms. */
function AssetCard({ asset, superuser, language, busy }: { asset: LibraryItem; superuser: boolean; language: Language; busy: boolean }) {
  const text = texts[language];
  const url = `/api/assets/${encodeURIComponent(asset.id)}/${encodeURIComponent(asset.slug)}`;
  const inputId = `rename-${asset.id}`;
  return (
    <li className="flex flex-col rounded border border-slate-300 bg-white" data-asset={asset.id} data-file-name={asset.fileName}>
      <div className="flex h-40 items-center justify-center overflow-hidden rounded-t bg-slate-100">
        {asset.isImage ? (
          <img src={thumbnailUrl(asset)} alt="" loading="lazy" decoding="async" className="max-h-40 max-w-full object-contain" width={asset.pixelWidth ?? undefined} height={asset.pixelHeight ?? undefined} data-preview />
        ) : (
          <span className="rounded bg-slate-700 px-3 py-2 font-mono text-lg font-bold text-white" data-type-label>
            {typeLabel(asset.fileName, asset.mimeType)}
          </span>
        )}
      </div>
      <div className="flex grow flex-col gap-2 p-3">
        <p className="font-semibold break-all" data-asset-name>{asset.fileName}</p>
        <p className="text-sm text-slate-700">
          {formatBytes(asset.fileSize, language)}
          {asset.pixelWidth && asset.pixelHeight ? ` · ${asset.pixelWidth} × ${asset.pixelHeight} px` : ""} · {asset.mimeType}
        </p>
        <a className="text-sm font-semibold text-[#0f5e63] underline" href={url} target="_blank" rel="noreferrer">
          {text.open}<span className="sr-only">: {asset.fileName}</span>
        </a>
        <details className="text-sm">
          <summary className="cursor-pointer font-semibold">{text.rename}<span className="sr-only">: {asset.fileName}</span></summary>
          <Form method="post" className="mt-2 space-y-2">
            <input type="hidden" name="intent" value="rename" />
            <input type="hidden" name="id" value={asset.id} />
            <input type="hidden" name="version" value={asset.version} />
            <label htmlFor={inputId} className="block font-semibold">{text.newName}</label>
            <input id={inputId} name="fileName" defaultValue={asset.fileName} required maxLength={MAX_FILE_NAME_LENGTH} className={inputClass} />
            <button type="submit" className={buttonClass("secondary")} disabled={busy}>{text.saveName}</button>
          </Form>
        </details>
        {superuser ? (
          <Form method="post" className="mt-auto" onSubmit={(event) => !confirm(text.confirmRemove(asset.fileName)) && event.preventDefault()}>
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="id" value={asset.id} />
            <button type="submit" className={buttonClass("danger")} disabled={busy}>
              {text.remove}<span className="sr-only">: {asset.fileName}</span>
            </button>
          </Form>
        ) : null}
      </div>
    </li>
  );
}
