import { sql } from "kysely";
import type { ContentStore } from "~/content/store";
import type { AssetFolder, AssetWriteOptions } from "~/content/assets";
import type { Asset } from "~/content/types";
import { likePattern, PAGE_SIZE, ROOT_FOLDER, type AssetQuery } from "./query";

/**
 * The asset library's reads (searching and paging in SQL, so a library of 10 000+ assets never
 * travels into memory as a whole) and its writes, which the AssetStore makes: it versions them and
 * tells every app node (change events, change-feed.ts).
 */

/** What the screen shows of an asset (plain data for the loader). */
export interface LibraryAsset {
  id: string;
  fileName: string;
  slug: string;
  mimeType: string;
  fileSize: number;
  isImage: boolean;
  pixelWidth: number | null;
  pixelHeight: number | null;
  parentId: string;
  version: number;
  lastModified: string;
}

export interface LibraryPage {
  items: LibraryAsset[];
  total: number;
  pages: number;
  /** The page shown: the asked one, or the last one when it was past the end. */
  page: number;
}

/** What the screen shows of a folder. */
export interface LibraryFolder {
  id: string;
  folderName: string;
  version: number;
}

/** A folder an asset can be moved to, labelled with its path ("Praxis / Team"). */
export interface FolderTarget {
  id: string;
  label: string;
}

/** One page of the assets in `query.folder` whose file name contains `query.q` (case-insensitive). */
export async function listLibrary(store: ContentStore, query: AssetQuery, pageSize = PAGE_SIZE): Promise<LibraryPage> {
  let base = store.db.selectFrom("assets").where("parent_id", "=", query.folder);
  if (query.q) base = base.where(sql<boolean>`lower(file_name) like ${likePattern(query.q)} escape '\\'`);
  const counted = await base.select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow();
  const total = Number(counted.n);
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(query.page, pages);
  const rows = await base
    .select(["id", "file_name", "slug", "mime_type", "file_size", "type", "pixel_width", "pixel_height", "parent_id", "version", "last_modified"])
    .orderBy("last_modified", "desc")
    .orderBy("id")
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return {
    total,
    pages,
    page,
    items: rows.map((r) => ({
      id: r.id,
      fileName: r.file_name,
      slug: r.slug,
      mimeType: r.mime_type,
      fileSize: Number(r.file_size),
      isImage: r.type === "Image",
      pixelWidth: r.pixel_width,
      pixelHeight: r.pixel_height,
      parentId: r.parent_id,
      version: Number(r.version),
      lastModified: r.last_modified,
    })),
  };
}

const plainFolder = (f: AssetFolder): LibraryFolder => ({ id: f.id, folderName: f.folderName, version: f.version });

/** The folders inside `parentId` (the root by default), by name; 404 for an unknown folder. */
export async function listFolders(store: ContentStore, parentId = ROOT_FOLDER): Promise<LibraryFolder[]> {
  return (await store.assets.listFolders(parentId)).items.map(plainFolder);
}

/** The breadcrumbs down to `folderId` (empty for the root); 404 for an unknown folder. */
export async function folderPath(store: ContentStore, folderId: string): Promise<LibraryFolder[]> {
  return (await store.assets.folderPath(folderId)).map(plainFolder);
}

/**
 * Every folder an asset can be moved to, with its path as label, sorted by it (at most `limit`
 * folders are read: the select stays a select).
 */
export async function folderTargets(store: ContentStore, limit = 500): Promise<FolderTarget[]> {
  const rows = await store.db.selectFrom("asset_folders").select(["id", "parent_id", "folder_name"]).orderBy("folder_name").limit(limit).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const label = (id: string) => {
    const names: string[] = [];
    let current = byId.get(id);
    while (current && names.length < 25) {
      names.unshift(current.folder_name);
      current = current.parent_id === ROOT_FOLDER ? undefined : byId.get(current.parent_id);
    }
    return names.join(" / ");
  };
  return rows.map((r) => ({ id: r.id, label: label(r.id) })).sort((a, b) => a.label.localeCompare(b.label));
}

/**
 * Gives an asset a new file name (as Squidex's PUT assets/{id} with fileName). The slug, and with it
 * every published URL of the file, stays. `expectedVersion` guards against overwriting a change made
 * meanwhile (412).
 */
export async function renameAsset(store: ContentStore, input: { id: string; fileName: string; expectedVersion?: number } & Pick<AssetWriteOptions, "by" | "note">): Promise<Asset> {
  const { id, fileName, ...opts } = input;
  return store.assets.rename(id, fileName, opts);
}
