import { data, Form, Link, useActionData, useLocation, useNavigation } from "react-router";
import type { Route } from "./+types/assets";
import { admin, askFirst, type Confirmation, done, isConfirmed, mutate, readAdminForm, refused, writer } from "~/admin/admin.server";
import { can, userPrincipal } from "~/content/policy";
import { folderPath, folderTargets, listFolders, listLibrary, renameAsset } from "~/admin/assets/library.server";
import {
  assetQueryString,
  checkFileName,
  checkFolderName,
  formatBytes,
  MAX_FILE_NAME_LENGTH,
  MAX_FOLDER_NAME_LENGTH,
  MAX_SEARCH_LENGTH,
  parseAssetQuery,
  parseFolderId,
  ROOT_FOLDER,
  thumbnailUrl,
  typeLabel,
} from "~/admin/assets/query";
import { UploadPanel } from "~/admin/assets/upload-panel";
import { AdminPage, buttonClass, ConfirmStep, EmptyState, inputClass, Pager, SaveNotice, useAdmin } from "~/admin/ui";
import { routeAccess } from "~/auth/access";
import { ContentError } from "~/content/errors";
import { isValidId } from "~/content/ids";
import type { Language } from "~/i18n/languages";
import { formatCount } from "~/i18n/numbers";

/**
 * `/manage/squidex-assets`: the asset library. Upload (drop or choose, a progress bar per file,
 * sent to the Squidex asset endpoint into the folder shown), named and nested folders with
 * breadcrumbs, search by file name, paging, previews, rename, move to a folder, delete (superusers).
 * Lists are paged and searched in the database; every write goes through the AssetStore.
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
    newFolder: "Neuer Ordner",
    folderName: "Ordnername",
    createFolder: "Ordner anlegen",
    folderCreated: (name: string) => `Ordner „${name}“ angelegt.`,
    renameFolder: "Ordner umbenennen",
    newFolderName: "Neuer Ordnername",
    folderRenamed: (name: string) => `Ordner umbenannt in „${name}“.`,
    deleteFolder: "Ordner löschen",
    folderDeleted: (name: string) => `Ordner „${name}“ gelöscht.`,
    folderNotEmpty: (name: string) => `Der Ordner „${name}“ ist nicht leer. Verschieben oder löschen Sie zuerst seinen Inhalt.`,
    folderNameEmpty: "Bitte einen Ordnernamen angeben.",
    folderNameTooLong: `Der Ordnername darf höchstens ${MAX_FOLDER_NAME_LENGTH} Zeichen haben.`,
    folderNameInvalid: "Der Ordnername darf keine Schrägstriche oder Steuerzeichen enthalten.",
    badFolder: "Ungültige Ordner-ID.",
    unknownFolder: "Diesen Ordner gibt es nicht (mehr).",
    moveTo: "Verschieben nach",
    move: "Verschieben",
    moved: (name: string, folder: string) => `„${name}“ verschoben nach „${folder}“.`,
    searchLabel: "Dateiname suchen",
    search: "Suchen",
    resetSearch: "Suche zurücksetzen",
    results: (n: number, q: string) => (q ? `${formatCount(n, "de")} Treffer für „${q}“` : n === 1 ? "1 Datei" : `${formatCount(n, "de")} Dateien`),
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
    removeDetail: "Gelöschte Dateien lassen sich nicht wiederherstellen.",
    yesRemove: (name: string) => `Ja, „${name}“ löschen`,
    removed: (name: string) => `„${name}“ gelöscht.`,
    open: "Öffnen",
    nameEmpty: "Bitte einen Dateinamen angeben.",
    nameTooLong: `Der Dateiname darf höchstens ${MAX_FILE_NAME_LENGTH} Zeichen haben.`,
    nameInvalid: "Der Dateiname darf keine Schrägstriche oder Steuerzeichen enthalten.",
    badId: "Ungültige Datei-ID.",
    unknownAsset: "Diese Datei gibt es nicht (mehr).",
    onlySuperuser: "Löschen dürfen nur Administrator:innen.",
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
    newFolder: "New folder",
    folderName: "Folder name",
    createFolder: "Create folder",
    folderCreated: (name: string) => `Folder “${name}” created.`,
    renameFolder: "Rename folder",
    newFolderName: "New folder name",
    folderRenamed: (name: string) => `Folder renamed to “${name}”.`,
    deleteFolder: "Delete folder",
    folderDeleted: (name: string) => `Folder “${name}” deleted.`,
    folderNotEmpty: (name: string) => `The folder “${name}” is not empty. Move or delete what it holds first.`,
    folderNameEmpty: "Please enter a folder name.",
    folderNameTooLong: `The folder name may have at most ${MAX_FOLDER_NAME_LENGTH} characters.`,
    folderNameInvalid: "The folder name may not contain slashes or control characters.",
    badFolder: "Invalid folder id.",
    unknownFolder: "This folder does not exist (any more).",
    moveTo: "Move to",
    move: "Move",
    moved: (name: string, folder: string) => `“${name}” moved to “${folder}”.`,
    searchLabel: "Search file names",
    search: "Search",
    resetSearch: "Reset search",
    results: (n: number, q: string) => (q ? `${formatCount(n, "en")} results for “${q}”` : n === 1 ? "1 file" : `${formatCount(n, "en")} files`),
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
    removeDetail: "Deleted files cannot be brought back.",
    yesRemove: (name: string) => `Yes, delete “${name}”`,
    removed: (name: string) => `“${name}” deleted.`,
    open: "Open",
    nameEmpty: "Please enter a file name.",
    nameTooLong: `The file name may have at most ${MAX_FILE_NAME_LENGTH} characters.`,
    nameInvalid: "The file name may not contain slashes or control characters.",
    badId: "Invalid file id.",
    unknownAsset: "This file does not exist (any more).",
    onlySuperuser: "Only administrators may delete.",
    unknownIntent: "Unknown action.",
  },
} satisfies Record<Language, unknown>;

export async function loader(args: Route.LoaderArgs) {
  const { user, services } = admin(args);
  const query = parseAssetQuery(new URL(args.request.url).searchParams);
  const { store } = services;
  // An unknown (or deleted) folder is a 404, not an empty list that looks like a folder.
  const path = await folderPath(store, query.folder).catch((error: unknown) => {
    if (error instanceof ContentError && error.statusCode === 404) throw data(null, { status: 404 });
    throw error;
  });
  const [library, folders, targets] = await Promise.all([listLibrary(store, query), listFolders(store, query.folder), folderTargets(store)]);
  return {
    query: { ...query, page: library.page },
    library,
    path,
    folders,
    targets,
    superuser: user.superuser,
    appName: services.env.SQUIDEX_APP_NAME,
    maxBytes: services.env.ASSET_MAX_BYTES,
  };
}

export async function action(args: Route.ActionArgs) {
  const { user, language, t, services } = admin(args);
  const text = texts[language];
  const fields = await readAdminForm(args.request);
  const run = { ...args, user };
  const { assets } = services.store;
  const expectedVersion = /^\d{1,9}$/.test(fields.version ?? "") ? Number(fields.version) : undefined;
  const folderNameOf = (input: string | undefined) => {
    const checked = checkFolderName(input ?? "");
    if (checked.ok) return checked;
    const message = checked.reason === "empty" ? text.folderNameEmpty : checked.reason === "tooLong" ? text.folderNameTooLong : text.folderNameInvalid;
    return { ok: false as const, refusal: refused(message, 400, { folderName: [message] }) };
  };

  if (fields.intent === "create-folder") {
    const parentId = parseFolderId(fields.parentId);
    if (!parentId) return refused(text.badFolder, 400, { parentId: [text.badFolder] });
    const name = folderNameOf(fields.folderName);
    if (!name.ok) return name.refusal;
    return mutate(
      run,
      null,
      () => assets.createFolder({ folderName: name.folderName, parentId, ...writer(user, { detail: name.folderName }) }),
      (folder) => done(text.folderCreated(name.folderName), 201, { id: (folder as { id: string }).id }),
    );
  }
  if (fields.intent === "rename-folder" || fields.intent === "delete-folder") {
    const folderId = fields.folderId ?? "";
    if (!isValidId(folderId) || folderId === ROOT_FOLDER) return refused(text.badFolder, 400, { folderId: [text.badFolder] });
    const folder = await assets.getFolder(folderId);
    if (!folder) return refused(text.unknownFolder, 404);
    if (fields.intent === "rename-folder") {
      const name = folderNameOf(fields.folderName);
      if (!name.ok) return name.refusal;
      return mutate(
        run,
        null,
        () => assets.renameFolder(folderId, name.folderName, { ...writer(user, { detail: `${folder.folderName} → ${name.folderName}`.slice(0, 300) }), expectedVersion }),
        () => done(text.folderRenamed(name.folderName)),
      );
    }
    return mutate(
      run,
      null,
      async () => {
        try {
          await assets.deleteFolder(folderId, writer(user, { detail: folder.folderName }));
        } catch (error) {
          if (error instanceof ContentError && error.statusCode === 409) throw new ContentError(409, text.folderNotEmpty(folder.folderName));
          throw error;
        }
      },
      () => done(text.folderDeleted(folder.folderName)),
    );
  }

  const id = fields.id ?? "";
  if (!isValidId(id)) return refused(text.badId, 400, { id: [text.badId] });
  const asset = await assets.get(id);
  if (!asset) return refused(text.unknownAsset, 404);

  if (fields.intent === "rename") {
    const checked = checkFileName(fields.fileName ?? "");
    if (!checked.ok) {
      const message = checked.reason === "empty" ? text.nameEmpty : checked.reason === "tooLong" ? text.nameTooLong : text.nameInvalid;
      return refused(message, 400, { fileName: [message] });
    }
    return mutate(
      run,
      null,
      () => renameAsset(services.store, { id, fileName: checked.fileName, ...writer(user, { detail: `${asset.fileName} → ${checked.fileName}`.slice(0, 300) }), expectedVersion }),
      () => done(text.renamed(checked.fileName)),
    );
  }
  if (fields.intent === "move") {
    const parentId = parseFolderId(fields.parentId);
    if (!parentId) return refused(text.badFolder, 400, { parentId: [text.badFolder] });
    const target = parentId === ROOT_FOLDER ? undefined : await assets.getFolder(parentId);
    if (parentId !== ROOT_FOLDER && !target) return refused(text.unknownFolder, 400, { parentId: [text.unknownFolder] });
    return mutate(
      run,
      null,
      () => assets.move(id, parentId, { ...writer(user, { detail: `${asset.fileName} → ${target?.folderName ?? "/"}`.slice(0, 300) }), expectedVersion }),
      () => done(text.moved(asset.fileName, target?.folderName ?? text.root)),
    );
  }
  if (fields.intent === "delete") {
    if (!can(userPrincipal(user), "deleteAsset")) return refused(t.forbidden, 403);
    // Asked first, by the server (issue 22, point 4): a post without confirmed=yes deletes nothing.
    if (!isConfirmed(fields)) return askFirst({ question: text.confirmRemove(asset.fileName), detail: text.removeDetail, confirmLabel: text.yesRemove(asset.fileName), fields: { intent: "delete", id } });
    return mutate(
      run,
      null,
      () => assets.delete(id, writer(user, { detail: asset.fileName.slice(0, 200) })),
      () => done(text.removed(asset.fileName)),
    );
  }
  return refused(text.unknownIntent);
}

export default function Assets({ loaderData }: Route.ComponentProps) {
  const { query, library, path, folders, targets, superuser, appName, maxBytes } = loaderData;
  const { language } = useAdmin();
  const text = texts[language];
  const result = useActionData<typeof action>() as { ok: boolean; message: string; errors?: Record<string, string[]>; confirm?: Confirmation } | undefined;
  const navigation = useNavigation();
  const location = useLocation();
  const loading = navigation.state === "loading" && navigation.location.pathname === location.pathname;
  const href = (change: Partial<typeof query>) => `${location.pathname}${assetQueryString({ ...query, ...change })}`;
  const inFolder = query.folder !== ROOT_FOLDER;
  const busy = navigation.state === "submitting";

  return (
    <AdminPage title={text.title} intro={<p>{text.intro}</p>}>
      <ConfirmStep confirm={result?.confirm} Form={Form} cancelHref={href({})} />
      <SaveNotice result={result} />
      <UploadPanel appName={appName} folder={query.folder} maxBytes={maxBytes} language={language} text={text} />

      <nav aria-label={text.breadcrumbs} data-breadcrumbs>
        <ol className="flex flex-wrap items-center gap-2 text-sm">
          <li>
            {inFolder ? (
              <Link className="font-semibold text-[#0f5e63] underline" to={href({ folder: ROOT_FOLDER, page: 1, q: "" })}>{text.root}</Link>
            ) : (
              <span aria-current="page" className="font-semibold">{text.root}</span>
            )}
          </li>
          {path.map((crumb, i) => (
            <li key={crumb.id} className="flex items-center gap-2" data-crumb={crumb.id}>
              <span aria-hidden="true">/</span>
              {i === path.length - 1 ? (
                <span aria-current="page" className="font-semibold break-all">{crumb.folderName}</span>
              ) : (
                <Link className="font-semibold text-[#0f5e63] underline break-all" to={href({ folder: crumb.id, page: 1, q: "" })}>{crumb.folderName}</Link>
              )}
            </li>
          ))}
        </ol>
      </nav>

      <section aria-labelledby="asset-folders" className="space-y-3">
        <h2 id="asset-folders" className="text-lg font-bold">{text.folders}</h2>
        {folders.length ? (
          <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3" data-folder-list>
            {folders.map((folder) => (
              <FolderCard key={`${folder.id}:${folder.version}`} folder={folder} href={href({ folder: folder.id, page: 1, q: "" })} language={language} busy={busy} />
            ))}
          </ul>
        ) : null}
        <Form method="post" className="flex flex-wrap items-end gap-2" key={`new-folder:${query.folder}:${folders.length}`} data-create-folder>
          <input type="hidden" name="intent" value="create-folder" />
          <input type="hidden" name="parentId" value={query.folder} />
          <div className="min-w-64 grow">
            <label htmlFor="new-folder-name" className="mb-1 block font-semibold">{text.newFolder}</label>
            <input id="new-folder-name" name="folderName" required maxLength={MAX_FOLDER_NAME_LENGTH} className={inputClass} />
          </div>
          <button type="submit" className={buttonClass("secondary")} disabled={busy}>{text.createFolder}</button>
        </Form>
      </section>

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
              <AssetCard key={`${asset.id}:${asset.version}`} asset={asset} targets={targets} superuser={superuser} language={language} busy={busy} />
            ))}
          </ul>
        )}
      </div>
      <Pager page={query.page} pages={library.pages} href={(page) => href({ page })} />
    </AdminPage>
  );
}

type LibraryItem = Route.ComponentProps["loaderData"]["library"]["items"][number];
type FolderItem = Route.ComponentProps["loaderData"]["folders"][number];
type Target = Route.ComponentProps["loaderData"]["targets"][number];

/** One folder of the current folder: open it, rename it, delete it (refused while it holds anything). */
function FolderCard({ folder, href, language, busy }: { folder: FolderItem; href: string; language: Language; busy: boolean }) {
  const text = texts[language];
  const inputId = `rename-folder-${folder.id}`;
  return (
    <li className="flex flex-col gap-2 rounded border border-slate-300 bg-white p-3" data-folder={folder.id} data-folder-name={folder.folderName}>
      <Link className="font-semibold text-[#0f5e63] underline break-all" to={href}>
        <span aria-hidden="true">📁</span> {folder.folderName}
      </Link>
      <details className="text-sm">
        <summary className="cursor-pointer font-semibold">{text.renameFolder}<span className="sr-only">: {folder.folderName}</span></summary>
        <Form method="post" className="mt-2 space-y-2">
          <input type="hidden" name="intent" value="rename-folder" />
          <input type="hidden" name="folderId" value={folder.id} />
          <input type="hidden" name="version" value={folder.version} />
          <label htmlFor={inputId} className="block font-semibold">{text.newFolderName}</label>
          <input id={inputId} name="folderName" defaultValue={folder.folderName} required maxLength={MAX_FOLDER_NAME_LENGTH} className={inputClass} />
          <button type="submit" className={buttonClass("secondary")} disabled={busy}>{text.saveName}</button>
        </Form>
      </details>
      <Form method="post">
        <input type="hidden" name="intent" value="delete-folder" />
        <input type="hidden" name="folderId" value={folder.id} />
        <button type="submit" className={buttonClass("danger")} disabled={busy}>
          {text.deleteFolder}<span className="sr-only">: {folder.folderName}</span>
        </button>
      </Form>
    </li>
  );
}

/** One asset: preview (thumbnail or type label), name, size, and its rename/delete forms. */
function AssetCard({ asset, targets, superuser, language, busy }: { asset: LibraryItem; targets: Target[]; superuser: boolean; language: Language; busy: boolean }) {
  const text = texts[language];
  const url = `/api/assets/${encodeURIComponent(asset.id)}/${encodeURIComponent(asset.slug)}`;
  const inputId = `rename-${asset.id}`;
  const moveId = `move-${asset.id}`;
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
        {targets.length ? (
          <Form method="post" className="flex flex-wrap items-end gap-2 text-sm" data-move>
            <input type="hidden" name="intent" value="move" />
            <input type="hidden" name="id" value={asset.id} />
            <input type="hidden" name="version" value={asset.version} />
            <div className="grow">
              <label htmlFor={moveId} className="block font-semibold">{text.moveTo}<span className="sr-only">: {asset.fileName}</span></label>
              <select id={moveId} name="parentId" defaultValue={asset.parentId} className={inputClass}>
                <option value={ROOT_FOLDER}>{text.root}</option>
                {targets.map((target) => (
                  <option key={target.id} value={target.id}>{target.label}</option>
                ))}
              </select>
            </div>
            <button type="submit" className={buttonClass("secondary")} disabled={busy}>
              {text.move}<span className="sr-only">: {asset.fileName}</span>
            </button>
          </Form>
        ) : null}
        {superuser ? (
          // Not red here: the server asks first (ConfirmStep), where the button that deletes is.
          <Form method="post" className="mt-auto">
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="id" value={asset.id} />
            <button type="submit" className={buttonClass("secondary")} disabled={busy}>
              {text.remove}<span className="sr-only">: {asset.fileName}</span>
            </button>
          </Form>
        ) : null}
      </div>
    </li>
  );
}
