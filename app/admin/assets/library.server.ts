import { sql } from "kysely";
import { ContentError, notFound } from "~/content/errors";
import type { ContentStore } from "~/content/store";
import type { Asset } from "~/content/types";
import { likePattern, PAGE_SIZE, ROOT_FOLDER, type AssetQuery } from "./query";

/**
 * The asset library's reads and the one write the AssetStore lacks (rename). Searching and paging
 * happen in SQL, so a library of 10 000+ assets never travels into memory as a whole.
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

/**
 * The folders below the root. The store has no folder entity (no names, no nesting): a folder is
 * known only as the parentId some assets carry, so these are those ids, at most `limit` of them.
 */
export async function listFolders(store: ContentStore, limit = 100): Promise<string[]> {
  const rows = await store.db
    .selectFrom("assets")
    .select("parent_id")
    .distinct()
    .where("parent_id", "<>", ROOT_FOLDER)
    .orderBy("parent_id")
    .limit(limit)
    .execute();
  return rows.map((r) => r.parent_id);
}

/**
 * Gives an asset a new file name (as Squidex's PUT assets/{id} with fileName). The slug, and with it
 * every published URL of the file, stays. `expectedVersion` guards against overwriting a rename
 * made meanwhile (409).
 */
export async function renameAsset(store: ContentStore, input: { id: string; fileName: string; actor: string; expectedVersion?: number }): Promise<Asset> {
  const current = await store.assets.get(input.id);
  if (!current) throw notFound(`Asset "${input.id}" not found.`);
  if (input.expectedVersion !== undefined && current.version !== input.expectedVersion)
    throw new ContentError(409, "The asset was changed meanwhile; reload and try again.", undefined, "OBJECT_CONFLICT");
  const now = new Date().toISOString();
  const res = await store.db
    .updateTable("assets")
    .set({ file_name: input.fileName, version: current.version + 1, last_modified: now, last_modified_by: input.actor })
    .where("id", "=", input.id)
    .where("version", "=", current.version)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) throw new ContentError(409, "The asset was changed meanwhile; reload and try again.", undefined, "OBJECT_CONFLICT");
  // The AssetStore's change event is private; this tells this node's caches and pages that the
  // asset changed (other nodes' caches expire by TTL until the store gets a rename of its own).
  store.applyRemoteChange({ kind: "asset", id: input.id });
  return { ...current, fileName: input.fileName, version: current.version + 1, lastModified: now, lastModifiedBy: input.actor };
}
