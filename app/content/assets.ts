import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { fileTypeFromBuffer } from "file-type";
import { imageSize } from "image-size";
import { PostgresAdapter, sql, type Transaction } from "kysely";
import type { Database, DB } from "./db";
import { ContentError, alreadyExists, badRequest, notFound, versionConflict } from "./errors";
import { newId, pathInside, requireValidId } from "./ids";
import { ASSETS_TAG, recordRead } from "./read-tags";
import type { Asset, AssetMetadata, AuditNote, FilterNode } from "./types";
import { assetCondition } from "./asset-filter";
import { isPlainObject } from "./validate";
import type { ContentChange } from "./types";
import { actorOf, authorize, type AssetAction, type Principal } from "./policy";
import { recordWrites } from "./audit";
import type { AssetUpstream } from "./remote/upstream";

/** Widths image variants are made in: a fixed set, so nobody can make us store endless sizes. */
export const VARIANT_WIDTHS = [320, 480, 640, 960, 1280, 1440, 1920];
const RESIZABLE = new Set(["image/png", "image/jpeg", "image/webp", "image/avif"]);
/** Squidex's id of the root asset folder (the empty GUID): the parentId of what sits in no folder. */
export const ROOT_FOLDER = "00000000-0000-0000-0000-000000000000";
/** Folders nest at most this deep, so a path (breadcrumbs) is a bounded walk. */
export const MAX_FOLDER_DEPTH = 20;
export const MAX_FOLDER_NAME_LENGTH = 100;
export const MAX_FILE_NAME_LENGTH = 200;
/** A slug set by hand: as long as a file name may be. */
export const MAX_SLUG_LENGTH = 200;
/** Squidex's slugs: lower-case letters, digits, `.`, `-`, `_`, starting and ending with a letter or digit. */
const SLUG = /^[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?$/;
/** Annotation metadata: at most this many entries, this long a key or text, this long as JSON. */
export const MAX_METADATA_KEYS = 50;
export const MAX_METADATA_KEY_LENGTH = 100;
export const MAX_METADATA_TEXT_LENGTH = 1000;
export const MAX_METADATA_BYTES = 4096;
/** Metadata the file itself gives (its columns); what an annotation says of them is not kept. */
const MEASURED = new Set(["pixelWidth", "pixelHeight"]);
/** The folders of one parent listed at once (a person pages through files, not through hundreds of folders). */
export const MAX_FOLDERS_LISTED = 1000;
const CONTROL = /[\u0000-\u001f\u007f]/;
const SYSTEM_ACTOR = "client:praxisnetz:default";
const TEXT_TYPES = new Set(["text/plain", "text/csv", "application/json"]);

/** A named folder of assets (Squidex's AssetFolderDto, with the audit fields). */
export interface AssetFolder {
  id: string;
  parentId: string;
  folderName: string;
  version: number;
  created: string;
  createdBy: string;
  lastModified: string;
  lastModifiedBy: string;
}

export interface AssetWriteOptions {
  /** The version the writer saw: another one is a 412. */
  expectedVersion?: number;
  actor?: string;
  /** Who is writing: asked of the policy and audited, as for content (store.ts). Unset for the app's own writes. */
  by?: Principal;
  note?: AuditNote;
}

/** The policy's word on an asset write that names its writer. */
function authorizeAsset(opts: AssetWriteOptions, action: AssetAction): void {
  if (opts.by) authorize(opts.by, action);
}

const actorFor = (opts: AssetWriteOptions) => (opts.by ? actorOf(opts.by) : (opts.actor ?? SYSTEM_ACTOR));

async function auditAsset(db: DB, opts: AssetWriteOptions, action: string, id: string, version: number | null): Promise<void> {
  if (opts.by) await recordWrites(db, opts.by, action, null, [{ id, version }], opts.note);
}

/** The root's id for what a client may send for it ("", the empty GUID, nothing); any other id checked. */
export function parentIdOf(raw: unknown): string {
  if (raw === undefined || raw === null || raw === "" || raw === ROOT_FOLDER) return ROOT_FOLDER;
  return requireValidId(raw, "folder id");
}

/** A folder name as given, trimmed, or a 400 saying why it cannot be one. */
export function checkFolderName(raw: unknown): string {
  if (typeof raw !== "string") throw badRequest("folderName must be a string.");
  const name = raw.trim();
  if (!name) throw badRequest("The folder name is empty.");
  if (name.length > MAX_FOLDER_NAME_LENGTH) throw badRequest(`The folder name may have at most ${MAX_FOLDER_NAME_LENGTH} characters.`);
  if (/[/\\]/.test(name) || CONTROL.test(name) || /^\.+$/.test(name)) throw badRequest("The folder name may not contain slashes or control characters, nor be \".\" or \"..\".");
  return name;
}

/**
 * A slug set by hand (Squidex's annotation), or a 400 that says the rule and what would do: it is
 * the last segment of the file's URL (`api/assets/{app}/{slug}`), so it is kept URL-safe as it is,
 * never rewritten behind the caller's back.
 */
export function checkSlug(raw: unknown): string {
  if (typeof raw !== "string") throw badRequest("slug must be a string.");
  if (raw.length <= MAX_SLUG_LENGTH && SLUG.test(raw)) return raw;
  const hint = slugifyFileName(raw.slice(0, MAX_SLUG_LENGTH)).replace(/^[._-]+|[._-]+$/g, "");
  throw badRequest(
    `The slug "${raw.slice(0, 100)}" is not one: use lower-case letters, digits, ".", "-" and "_", starting and ending with a letter or digit, at most ${MAX_SLUG_LENGTH} characters${hint && hint !== "file" ? ` (e.g. "${hint}")` : ""}.`,
  );
}

/**
 * Annotation metadata (Squidex's `metadata`): a flat object of texts, numbers and flags, at most
 * MAX_METADATA_KEYS entries and MAX_METADATA_BYTES as JSON, else a 400 naming the entry. The pixel
 * sizes are measured from the file and kept by the store: what is sent for them is left out (a
 * client that sends back the metadata it read changes nothing there).
 */
export function checkMetadata(raw: unknown): AssetMetadata {
  if (!isPlainObject(raw)) throw badRequest('metadata must be an object of texts, numbers and true/false, e.g. {"description": "Logo", "year": 2026}.');
  const entries = Object.entries(raw);
  if (entries.length > MAX_METADATA_KEYS) throw badRequest(`metadata may have at most ${MAX_METADATA_KEYS} entries (got ${entries.length}).`);
  const kept: Array<[string, string | number | boolean]> = [];
  for (const [key, value] of entries) {
    if (!key.trim() || key.length > MAX_METADATA_KEY_LENGTH || CONTROL.test(key)) throw badRequest(`Each metadata key is a name of 1 to ${MAX_METADATA_KEY_LENGTH} characters without control characters.`);
    const shown = key.slice(0, 50);
    if (typeof value === "string") {
      if (value.length > MAX_METADATA_TEXT_LENGTH) throw badRequest(`metadata.${shown}: a text of at most ${MAX_METADATA_TEXT_LENGTH} characters.`);
    } else if (typeof value === "number") {
      if (!Number.isFinite(value)) throw badRequest(`metadata.${shown}: a finite number.`);
    } else if (typeof value !== "boolean") throw badRequest(`metadata.${shown} must be a text, a number or true/false (metadata is flat: no lists, objects or null).`);
    if (!MEASURED.has(key)) kept.push([key, value]);
  }
  const metadata = Object.fromEntries(kept);
  const size = Buffer.byteLength(JSON.stringify(metadata));
  if (size > MAX_METADATA_BYTES) throw badRequest(`metadata is ${size} bytes as JSON; at most ${MAX_METADATA_BYTES} are kept.`);
  return metadata;
}

/** A stored metadata column as the object it holds: only its flat entries, nothing if it is no JSON object. */
export function readMetadata(text: unknown): AssetMetadata {
  let parsed: unknown = text;
  if (typeof text === "string") {
    try {
      parsed = JSON.parse(text);
    } catch {
      return {};
    }
  }
  if (!isPlainObject(parsed)) return {};
  return Object.fromEntries(
    Object.entries(parsed).filter((e): e is [string, string | number | boolean] => !MEASURED.has(e[0]) && (typeof e[1] === "string" || typeof e[1] === "boolean" || (typeof e[1] === "number" && Number.isFinite(e[1])))),
  );
}

/** A new file name for an asset, trimmed, or a 400 saying why it cannot be one. */
export function checkFileName(raw: unknown): string {
  if (typeof raw !== "string") throw badRequest("fileName must be a string.");
  const name = raw.trim();
  if (!name) throw badRequest("The file name is empty.");
  if (name.length > MAX_FILE_NAME_LENGTH) throw badRequest(`The file name may have at most ${MAX_FILE_NAME_LENGTH} characters.`);
  if (/[/\\]/.test(name) || CONTROL.test(name) || /^\.+$/.test(name)) throw badRequest("The file name may not contain slashes or control characters, nor be \".\" or \"..\".");
  return name;
}

/** Squidex's annotation of an asset (PUT assets/{id}), as sent: each checked by `AssetStore.annotate`. */
export interface AssetAnnotation {
  fileName?: unknown;
  tags?: unknown;
  slug?: unknown;
  metadata?: unknown;
  isProtected?: unknown;
}

/** A new file for an asset that exists (`replaceContent`), or for one that may (`upsert`). */
export interface ReplaceInput extends AssetWriteOptions {
  fileName: string;
  /** The type the uploader declared; checked against the bytes. */
  mimeType?: string;
  body: Buffer;
  /** A folder to put the asset into as well (an upsert's parentId); unset: it stays where it is. */
  parentId?: string;
}

export interface UploadInput {
  fileName: string;
  /** The type the uploader declared; checked against the bytes. */
  mimeType?: string;
  body: Buffer;
  id?: string;
  tags?: string[];
  /** The folder (ROOT_FOLDER or nothing for none); an unknown folder is a 400. */
  parentId?: string;
  actor?: string;
  by?: Principal;
  note?: AuditNote;
}

/**
 * Asset files live under `DATA_DIR/assets/<id>/<fileVersion>`, metadata in the database. A file is
 * written to a temporary name and renamed, so a crash never leaves half a file behind a row.
 */
/** What the asset list may be sorted by (Squidex's `$orderby` names), and the column behind each. */
export const ASSET_SORT_COLUMNS = { fileName: "file_name", fileSize: "file_size", mimeType: "mime_type", created: "created", lastModified: "last_modified", version: "version" } as const;
export interface AssetSort {
  field: keyof typeof ASSET_SORT_COLUMNS;
  descending: boolean;
}

export class AssetStore {
  private db!: DB;
  private emit: (change: ContentChange) => void = () => {};
  /**
   * Set when the site runs on a remote Squidex (remote/upstream.ts, decision 0037): every asset and
   * folder write goes there first, with the version held here as If-Match, and is kept here only
   * once Squidex took it, as Squidex answered it (its version, id, stamps).
   */
  upstream: AssetUpstream | undefined;

  constructor(
    readonly dir: string,
    readonly maxBytes: number,
  ) {}

  attach(db: DB, emit: (change: ContentChange) => void) {
    this.db = db;
    this.emit = emit;
  }

  private toAsset(r: Database["assets"]): Asset {
    return {
      id: r.id,
      fileName: r.file_name,
      slug: r.slug,
      mimeType: r.mime_type,
      fileSize: Number(r.file_size),
      fileHash: r.file_hash,
      fileVersion: r.file_version,
      type: r.type as Asset["type"],
      ...(r.pixel_width !== null ? { pixelWidth: r.pixel_width } : {}),
      ...(r.pixel_height !== null ? { pixelHeight: r.pixel_height } : {}),
      tags: JSON.parse(r.tags) as string[],
      parentId: r.parent_id,
      version: r.version,
      created: r.created,
      createdBy: r.created_by,
      lastModified: r.last_modified,
      lastModifiedBy: r.last_modified_by,
      metadata: readMetadata(r.metadata),
      isProtected: Number(r.is_protected) === 1,
    };
  }

  /** `publicOnly`: without protected files (what visitors are shown). */
  async list(opts: { ids?: string[]; skip?: number; take?: number; parentId?: string; search?: string; where?: FilterNode; sort?: readonly AssetSort[]; publicOnly?: boolean } = {}): Promise<{ total: number; items: Asset[] }> {
    recordRead(ASSETS_TAG);
    // Asked by id: all of those (ids are bounded where they come in). Otherwise one page of at most 200.
    const take = opts.ids?.length ? opts.ids.length : Math.min(opts.take ?? 200, 200);
    const skip = opts.skip ?? 0;
    let base = this.db.selectFrom("assets");
    if (opts.ids?.length) base = base.where("id", "in", opts.ids);
    if (opts.parentId !== undefined) base = base.where("parent_id", "=", opts.parentId);
    if (opts.publicOnly) base = base.where("is_protected", "=", 0);
    // Squidex's `q` on assets: the file name contains the text, in any case.
    if (opts.search) base = base.where(sql<boolean>`lower(file_name) like ${`%${opts.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`);
    // Squidex's asset filter ($filter, or filter in q): asset-filter.ts.
    const where = opts.where;
    if (where) base = base.where((eb) => assetCondition(eb, where));
    let ordered = base.selectAll();
    for (const { field, descending } of opts.sort?.length ? opts.sort : [{ field: "lastModified" as const, descending: true }]) ordered = ordered.orderBy(ASSET_SORT_COLUMNS[field], descending ? "desc" : "asc");
    const rows = await ordered.orderBy("id").limit(take).offset(skip).execute();
    const total =
      rows.length < take && (rows.length > 0 || skip === 0)
        ? skip + rows.length
        : Number((await base.select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow()).n);
    return { total, items: rows.map((r) => this.toAsset(r)) };
  }

  async get(id: string): Promise<Asset | undefined> {
    recordRead(ASSETS_TAG);
    const row = await this.db.selectFrom("assets").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? this.toAsset(row) : undefined;
  }

  /**
   * The asset an address names (`api/assets/{app}/{idOrSlug}`): by id, else by slug. Slugs made from
   * file names may repeat (two uploads of "logo.png", as in Squidex); the oldest such asset answers.
   */
  async getByIdOrSlug(idOrSlug: string): Promise<Asset | undefined> {
    const byId = await this.get(idOrSlug);
    if (byId) return byId;
    const row = await this.db.selectFrom("assets").selectAll().where("slug", "=", idOrSlug).orderBy("created").orderBy("id").limit(1).executeTakeFirst();
    return row ? this.toAsset(row) : undefined;
  }

  filePath(asset: Pick<Asset, "id" | "fileVersion">): string {
    return pathInside(this.dir, asset.id, String(asset.fileVersion));
  }

  /**
   * What a file's bytes say, for an upload and for a new file of an asset alike: not empty, within
   * the size limit (413), a file name renames would take (a path or ".." is refused, not cut down),
   * the type from the bytes (a declared type they contradict is a 400), pixel sizes of an image.
   */
  private async checkFile(input: { fileName: string; mimeType?: string | undefined; body: Buffer }) {
    const { body } = input;
    if (!body.length) throw badRequest("The file is empty.");
    if (body.length > this.maxBytes) throw new ContentError(413, `The file is ${body.length} bytes; the limit is ${this.maxBytes} bytes.`);
    const fileName = checkFileName(input.fileName);
    const mimeType = await detectMimeType(body, input.mimeType);
    const size = mimeType.startsWith("image/") ? safeImageSize(body) : undefined;
    return {
      fileName,
      mimeType,
      fileHash: createHash("sha256").update(body).digest("base64"),
      type: (mimeType.startsWith("image/") ? "Image" : mimeType.startsWith("audio/") ? "Audio" : mimeType.startsWith("video/") ? "Video" : "Unknown") as Asset["type"],
      pixelWidth: size?.width ?? null,
      pixelHeight: size?.height ?? null,
    };
  }

  async upload(input: UploadInput): Promise<Asset> {
    authorizeAsset(input, "uploadAsset");
    const { body } = input;
    const file = await this.checkFile(input);
    const { fileName, mimeType } = file;
    const id = input.id === undefined ? newId() : requireValidId(input.id, "asset id");
    const parentId = parentIdOf(input.parentId);
    if (parentId !== ROOT_FOLDER && !(await this.getFolder(parentId))) throw unknownFolder(parentId);
    if (await this.get(id)) throw new ContentError(409, `An asset with id "${id}" already exists.`, undefined, "OBJECT_CONFLICT");
    if (this.upstream) {
      const row = { ...(await this.upstream.upload({ id, fileName, mimeType, body, parentId })), file_size: body.length };
      await this.writeMirrored([{ row, body }], (trx) => auditAsset(trx, { ...input, note: { detail: fileName, ...input.note } }, "upload-asset", id, row.version), { keepNewer: true });
      return this.toAsset(row);
    }
    const now = new Date().toISOString();
    const actor = actorFor(input);
    const asset: Asset = {
      id,
      fileName,
      slug: slugifyFileName(fileName),
      mimeType,
      fileSize: body.length,
      fileHash: file.fileHash,
      fileVersion: 0,
      type: file.type,
      ...(file.pixelWidth !== null && file.pixelHeight !== null ? { pixelWidth: file.pixelWidth, pixelHeight: file.pixelHeight } : {}),
      tags: input.tags ?? (mimeType.startsWith("image/") ? ["image"] : []),
      parentId,
      version: 0,
      created: now,
      createdBy: actor,
      lastModified: now,
      lastModifiedBy: actor,
      metadata: {},
      isProtected: false,
    };
    // The row decides who owns the id: write to a private temp file, insert, and only then move the
    // file into place, so a losing concurrent upload never touches the winner's file.
    const target = this.filePath(asset);
    await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    const tmp = `${target}.${randomUUID()}.tmp`;
    await fsp.writeFile(tmp, body, { mode: 0o600 });
    try {
      // Into a folder: the folder row is held (shared) until the insert, so a concurrent folder
      // delete either sees this asset or happens first and this upload is refused.
      await this.db.transaction().execute(async (trx) => {
        if (parentId !== ROOT_FOLDER && !(await this.lockFolder(trx, parentId, "share"))) throw unknownFolder(parentId);
        await trx
        .insertInto("assets")
        .values({
          id,
          file_name: asset.fileName,
          slug: asset.slug,
          mime_type: mimeType,
          file_size: asset.fileSize,
          file_hash: asset.fileHash,
          file_version: 0,
          type: asset.type,
          pixel_width: asset.pixelWidth ?? null,
          pixel_height: asset.pixelHeight ?? null,
          tags: JSON.stringify(asset.tags),
          parent_id: parentId,
          version: 0,
          created: now,
          created_by: actor,
          last_modified: now,
          last_modified_by: actor,
          metadata: "{}",
          is_protected: 0,
        })
        .execute();
        await auditAsset(trx, { ...input, note: { detail: fileName, ...input.note } }, "upload-asset", id, 0);
      });
    } catch (e) {
      await fsp.rm(tmp, { force: true });
      if (e instanceof ContentError) throw e;
      if (await this.get(id)) throw new ContentError(409, `An asset with id "${id}" already exists.`, undefined, "OBJECT_CONFLICT");
      throw e;
    }
    await fsp.rename(tmp, target);
    this.emit({ kind: "asset", id });
    return asset;
  }

  async open(id: string): Promise<{ asset: Asset; stream: fs.ReadStream }> {
    const asset = await this.get(id);
    if (!asset) throw notFound(`Asset "${id}" not found.`);
    const file = this.filePath(asset);
    if (!fs.existsSync(file)) throw notFound(`Asset "${id}" has no content yet.`);
    return { asset, stream: fs.createReadStream(file) };
  }

  /**
   * A raster image scaled down to one of the `VARIANT_WIDTHS`, made once with sharp and kept beside
   * the original. Wider than the original (or not a raster image) gives the original.
   */
  async variant(id: string, width: number): Promise<{ asset: Asset; file: string; mimeType: string; size: number }> {
    if (!VARIANT_WIDTHS.includes(width)) throw badRequest(`width must be one of ${VARIANT_WIDTHS.join(", ")}.`);
    const asset = await this.get(id);
    if (!asset) throw notFound(`Asset "${id}" not found.`);
    const original = this.filePath(asset);
    if (!RESIZABLE.has(asset.mimeType) || !asset.pixelWidth || width >= asset.pixelWidth) {
      return { asset, file: original, mimeType: asset.mimeType, size: asset.fileSize };
    }
    const file = `${original}-w${width}`;
    if (!fs.existsSync(file)) {
      const { default: sharp } = await import("sharp");
      const tmp = `${file}.${randomUUID()}.tmp`;
      await sharp(original).resize({ width, withoutEnlargement: true }).toFile(tmp);
      await fsp.chmod(tmp, 0o600);
      await fsp.rename(tmp, file);
    }
    return { asset, file, mimeType: asset.mimeType, size: (await fsp.stat(file)).size };
  }

  async read(id: string): Promise<{ asset: Asset; body: Buffer }> {
    const asset = await this.get(id);
    if (!asset) throw notFound(`Asset "${id}" not found.`);
    return { asset, body: await fsp.readFile(this.filePath(asset)) };
  }

  async delete(id: string, opts: AssetWriteOptions = {}): Promise<void> {
    authorizeAsset(opts, "deleteAsset");
    const folder = pathInside(this.dir, id);
    if (this.upstream) {
      const row = await this.db.selectFrom("assets").select("version").where("id", "=", id).executeTakeFirst();
      if (!row) throw notFound(`Asset "${id}" not found.`);
      if (opts.expectedVersion !== undefined && opts.expectedVersion !== row.version) throw versionConflict(opts.expectedVersion, row.version);
      await this.upstream.delete(id, row.version);
    }
    await this.db.transaction().execute(async (trx) => {
      // Locally, `expectedVersion` is checked in the delete itself (remote: Squidex checked it).
      let query = trx.deleteFrom("assets").where("id", "=", id);
      if (opts.expectedVersion !== undefined && !this.upstream) query = query.where("version", "=", opts.expectedVersion);
      const res = await query.executeTakeFirst();
      if (Number(res.numDeletedRows) === 0) {
        const now = await trx.selectFrom("assets").select("version").where("id", "=", id).executeTakeFirst();
        if (now && opts.expectedVersion !== undefined) throw versionConflict(opts.expectedVersion, now.version);
        throw notFound(`Asset "${id}" not found.`);
      }
      await auditAsset(trx, opts, "delete-asset", id, null);
    });
    await fsp.rm(folder, { recursive: true, force: true });
    this.emit({ kind: "asset", id });
  }

  /**
   * A new file name (Squidex's PUT assets/{id} with fileName). The slug, and with it every URL of
   * the file, stays; version, last change and its author move on.
   */
  async rename(id: string, fileName: string, opts: AssetWriteOptions = {}): Promise<Asset> {
    authorizeAsset(opts, "changeAsset");
    const name = checkFileName(fileName);
    return this.updateAsset(id, opts, "rename-asset", async () => ({ file_name: name }), (up, row) => up.annotate(id, row.version, { fileName: name }));
  }

  /**
   * Squidex's annotation (PUT assets/{id}): any of a new file name, tags, slug, metadata and
   * protection, in one change; what is left out (or null) stays. Tags are texts of 1 to 100
   * characters, at most 100 of them, each once. A slug follows `checkSlug` and is another asset's
   * neither as slug nor as id (400): it is an address of the file. Metadata (`checkMetadata`)
   * replaces what the annotations said before, as in Squidex; the pixel sizes stay the file's.
   */
  async annotate(id: string, changes: AssetAnnotation, opts: AssetWriteOptions = {}): Promise<Asset> {
    authorizeAsset(opts, "changeAsset");
    const row: { file_name?: string; tags?: string; slug?: string; metadata?: string; is_protected?: number } = {};
    const given = (value: unknown) => value !== undefined && value !== null;
    if (given(changes.fileName)) row.file_name = checkFileName(changes.fileName);
    if (given(changes.tags)) row.tags = JSON.stringify(checkTags(changes.tags));
    if (given(changes.slug)) row.slug = checkSlug(changes.slug);
    const metadata = given(changes.metadata) ? checkMetadata(changes.metadata) : undefined;
    if (metadata) row.metadata = JSON.stringify(metadata);
    if (given(changes.isProtected)) {
      if (typeof changes.isProtected !== "boolean") throw badRequest("isProtected must be true or false.");
      row.is_protected = changes.isProtected ? 1 : 0;
    }
    if (!Object.keys(row).length) {
      const asset = await this.get(id);
      if (!asset) throw notFound(`Asset "${id}" not found.`);
      return asset;
    }
    return this.updateAsset(
      id,
      opts,
      "annotate-asset",
      async (trx, current) => {
        if (row.slug !== undefined && row.slug !== current.slug) await this.checkSlugFree(trx, id, row.slug);
        return row;
      },
      (up, current) =>
        up.annotate(id, current.version, {
          ...(row.file_name !== undefined ? { fileName: row.file_name } : {}),
          ...(row.tags !== undefined ? { tags: JSON.parse(row.tags) as string[] } : {}),
          ...(row.slug !== undefined ? { slug: row.slug } : {}),
          // Squidex replaces its metadata, pixel sizes included: they go along, so it keeps them.
          ...(metadata ? { metadata: { ...(current.pixel_width !== null && current.pixel_height !== null ? { pixelWidth: current.pixel_width, pixelHeight: current.pixel_height } : {}), ...metadata } } : {}),
          ...(row.is_protected !== undefined ? { isProtected: row.is_protected === 1 } : {}),
        }),
    );
  }

  /** Squidex's tag list (GET assets/tags): every tag an asset has, with how many assets have it. */
  async tagCounts(): Promise<Record<string, number>> {
    recordRead(ASSETS_TAG);
    // Each distinct tag list once, with how many assets have it: a library's assets share a few lists.
    const rows = await this.db
      .selectFrom("assets")
      .select((eb) => ["tags", eb.fn.countAll<number | string>().as("n")])
      .where("tags", "<>", "[]")
      .groupBy("tags")
      .execute();
    const counts = new Map<string, number>();
    for (const row of rows) for (const tag of new Set(JSON.parse(row.tags) as string[])) counts.set(tag, (counts.get(tag) ?? 0) + Number(row.n));
    // From a Map: a tag named like an Object property ("__proto__") stays a plain entry.
    return Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  /**
   * Squidex's tag rename (PUT assets/tags/{name}): every asset with the tag gets the new name in its
   * place (once, if it had both). Each asset is one annotation of its own, asked of the policy,
   * audited and sent to a remote Squidex first as any other; a failed one undoes none before it, as
   * in the asset bulk. No asset with the tag is a 404; the new name follows the tag rules (400).
   */
  async renameTag(name: string, tagName: unknown, opts: AssetWriteOptions = {}): Promise<number> {
    authorizeAsset(opts, "changeAsset");
    if (typeof tagName !== "string") throw badRequest('Send {"tagName": "<new name>"}.');
    const [renamed] = checkTags([tagName]);
    const ids = (
      await this.db
        .selectFrom("assets")
        .select("id")
        .where((eb) => assetCondition(eb, { path: "tags", op: "eq", value: name }))
        .orderBy("id")
        .execute()
    ).map((r) => r.id);
    const note = { detail: `tag "${name}" renamed to "${renamed}"`, ...opts.note };
    let changed = 0;
    for (const id of ids) {
      // Compare-and-set on the version read: tags another writer set meanwhile are read again, not overwritten.
      for (let attempt = 0; ; attempt++) {
        const asset = await this.get(id);
        // The filter matches the tag's JSON text; the list itself decides.
        if (!asset?.tags.includes(name)) break;
        if (renamed === name) {
          changed++;
          break;
        }
        const tags = asset.tags.map((t) => (t === name ? renamed! : t)).filter((t, i, all) => all.indexOf(t) === i);
        try {
          await this.annotate(id, { tags }, { ...opts, expectedVersion: asset.version, note });
          changed++;
          break;
        } catch (e) {
          if (!(e instanceof ContentError && e.statusCode === 412) || attempt >= 4) throw e;
        }
      }
    }
    if (!changed) throw notFound(`No asset has the tag "${name.slice(0, 100)}".`);
    return changed;
  }

  /**
   * A slug no other asset has, as slug or as id (an id answers first at `api/assets/{app}/{x}`):
   * else a 400. In the write's transaction; on PostgreSQL one writer per slug at a time, so two
   * annotations cannot both take it (SQLite runs one write transaction at a time anyway).
   */
  private async checkSlugFree(trx: Transaction<Database>, id: string, slug: string): Promise<void> {
    if (this.db.getExecutor().adapter instanceof PostgresAdapter) await sql`select pg_advisory_xact_lock(hashtext(${`praxisnetz_asset_slug:${slug}`}))`.execute(trx);
    const other = await trx
      .selectFrom("assets")
      .select("id")
      .where((eb) => eb.or([eb("slug", "=", slug), eb("id", "=", slug)]))
      .where("id", "<>", id)
      .limit(1)
      .executeTakeFirst();
    if (other) throw badRequest(`The slug "${slug}" is taken by another asset ("${other.id}"); choose another.`);
  }

  /** Puts the asset into another folder (ROOT_FOLDER for none); an unknown folder is a 400. */
  async move(id: string, parentId: string, opts: AssetWriteOptions = {}): Promise<Asset> {
    authorizeAsset(opts, "changeAsset");
    const target = parentIdOf(parentId);
    return this.updateAsset(id, opts, "move-asset", async (trx) => {
      if (target !== ROOT_FOLDER && !(await this.lockFolder(trx, target, "share"))) throw unknownFolder(target);
      return { parent_id: target };
    }, (up, row) => up.move(id, row.version, target));
  }

  /**
   * A new file for the asset (Squidex's PUT assets/{id}/content): the id, slug, tags and annotation
   * metadata stay; name, type, size, hash and pixel sizes are the new file's, as an upload makes
   * them; version and file version move on by one. The new file gets its own place (a file version
   * has its own path), put there only by the write that won the compare-and-set on the version,
   * before it commits: a reader never finds a row without its file. The old file and its resized
   * variants go after. `parentId` (an upsert's) moves the asset in the same change.
   */
  async replaceContent(id: string, input: ReplaceInput): Promise<Asset> {
    authorizeAsset(input, "changeAsset");
    requireValidId(id, "asset id");
    const file = await this.checkFile(input);
    const parentId = input.parentId === undefined ? undefined : parentIdOf(input.parentId);
    if (parentId !== undefined && parentId !== ROOT_FOLDER && !(await this.getFolder(parentId))) throw unknownFolder(parentId);
    const note = { detail: file.fileName, ...input.note };
    if (this.upstream) {
      const row = await this.db.selectFrom("assets").selectAll().where("id", "=", id).executeTakeFirst();
      if (!row) throw notFound(`Asset "${id}" not found.`);
      if (input.expectedVersion !== undefined && input.expectedVersion !== row.version) throw versionConflict(input.expectedVersion, row.version);
      const sent = { fileName: file.fileName, mimeType: file.mimeType, body: input.body };
      // With a folder, Squidex's upsert: the new file and the move in one call.
      const answer = parentId === undefined ? await this.upstream.replaceContent(id, row.version, sent) : await this.upstream.upsert(id, row.version, { ...sent, parentId });
      const next = { ...answer, file_size: input.body.length };
      await this.writeMirrored([{ row: next, body: input.body }], (trx) => auditAsset(trx, { ...input, note }, "replace-asset-content", id, next.version), { keepNewer: true });
      return this.toAsset(next);
    }
    const dir = pathInside(this.dir, id);
    await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
    const tmp = path.join(dir, `replace.${randomUUID()}.tmp`);
    await fsp.writeFile(tmp, input.body, { mode: 0o600 });
    try {
      for (let attempt = 0; attempt < 5; attempt++) {
        const written = await this.db.transaction().execute(async (trx) => {
          const row = await trx.selectFrom("assets").selectAll().where("id", "=", id).executeTakeFirst();
          if (!row) throw notFound(`Asset "${id}" not found.`);
          if (input.expectedVersion !== undefined && input.expectedVersion !== row.version) throw versionConflict(input.expectedVersion, row.version);
          if (parentId !== undefined && parentId !== ROOT_FOLDER && !(await this.lockFolder(trx, parentId, "share"))) throw unknownFolder(parentId);
          const set = {
            file_name: file.fileName,
            mime_type: file.mimeType,
            file_size: input.body.length,
            file_hash: file.fileHash,
            file_version: Number(row.file_version) + 1,
            type: file.type,
            pixel_width: file.pixelWidth,
            pixel_height: file.pixelHeight,
            ...(parentId !== undefined ? { parent_id: parentId } : {}),
            version: row.version + 1,
            last_modified: new Date().toISOString(),
            last_modified_by: actorFor(input),
          };
          const res = await trx.updateTable("assets").set(set).where("id", "=", id).where("version", "=", row.version).executeTakeFirst();
          if (Number(res.numUpdatedRows) !== 1) return undefined;
          // Only the winner of the compare-and-set places its file, and before its row is seen.
          await fsp.rename(tmp, this.filePath({ id, fileVersion: set.file_version }));
          await auditAsset(trx, { ...input, note }, "replace-asset-content", id, set.version);
          return { ...row, ...set };
        });
        if (written) {
          await this.dropOtherFiles(id, written.file_version);
          this.emit({ kind: "asset", id });
          return this.toAsset(written);
        }
        if (input.expectedVersion !== undefined) {
          const now = await this.get(id);
          throw versionConflict(input.expectedVersion, now?.version ?? -1);
        }
      }
      throw new ContentError(409, "The asset is being changed by others; try again.", undefined, "OBJECT_CONFLICT");
    } finally {
      await fsp.rm(tmp, { force: true });
    }
  }

  /**
   * Squidex's upsert (POST assets/{id}): a new asset under this id when there is none (an upload,
   * into `parentId` or the root), else a new file for it (`replaceContent`, moved into `parentId`
   * when one is given). `created` says which.
   */
  async upsert(id: string, input: ReplaceInput & { tags?: string[] }): Promise<{ asset: Asset; created: boolean }> {
    requireValidId(id, "asset id");
    const existing = await this.db.selectFrom("assets").select("id").where("id", "=", id).executeTakeFirst();
    if (!existing) {
      // A version expected of an asset that is not there (Squidex: -1, none yet).
      if (input.expectedVersion !== undefined && input.expectedVersion >= 0) throw versionConflict(input.expectedVersion, -1);
      try {
        return { asset: await this.upload({ ...input, id }), created: true };
      } catch (e) {
        // Made meanwhile by another writer: then it is a new file for that one.
        if (!(e instanceof ContentError && e.statusCode === 409 && (await this.get(id)))) throw e;
      }
    }
    return { asset: await this.replaceContent(id, input), created: false };
  }

  /** An asset's files other than this file version and its variants (temporary files of writes in flight stay). */
  private async dropOtherFiles(id: string, fileVersion: number): Promise<void> {
    const dir = pathInside(this.dir, id);
    const keep = String(fileVersion);
    for (const name of await fsp.readdir(dir).catch(() => [] as string[]))
      if (name !== keep && !name.startsWith(`${keep}-`) && !name.endsWith(".tmp")) await fsp.rm(path.join(dir, name), { force: true });
  }

  /**
   * One change of an asset's row, compare-and-set on its version (as the content store writes):
   * `expectedVersion` not met is a 412, losing five races in a row a 409.
   */
  private async updateAsset(
    id: string,
    opts: AssetWriteOptions,
    auditAction: string,
    change: (trx: Transaction<Database>, row: Database["assets"]) => Promise<Partial<Database["assets"]>>,
    /** The same change as Squidex's call (remote mode): what it answers is what is kept. */
    remote: (upstream: AssetUpstream, row: Database["assets"]) => Promise<Database["assets"]>,
  ): Promise<Asset> {
    requireValidId(id, "asset id");
    if (this.upstream) {
      const upstream = this.upstream;
      const row = await this.db.selectFrom("assets").selectAll().where("id", "=", id).executeTakeFirst();
      if (!row) throw notFound(`Asset "${id}" not found.`);
      if (opts.expectedVersion !== undefined && opts.expectedVersion !== row.version) throw versionConflict(opts.expectedVersion, row.version);
      // Checked here first (a folder that is not there, a bad name), so Squidex is asked only for what this store would take.
      await this.db.transaction().execute((trx) => change(trx, row));
      const next = { ...(await remote(upstream, row)), file_size: row.file_size };
      await this.writeMirrored([{ row: next }], (trx) => auditAsset(trx, opts, auditAction, id, next.version), { keepNewer: true });
      return this.toAsset(next);
    }
    for (let attempt = 0; attempt < 5; attempt++) {
      const written = await this.db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom("assets").selectAll().where("id", "=", id).executeTakeFirst();
        if (!row) throw notFound(`Asset "${id}" not found.`);
        if (opts.expectedVersion !== undefined && opts.expectedVersion !== row.version) throw versionConflict(opts.expectedVersion, row.version);
        const set = await change(trx, row);
        const stamp = { version: row.version + 1, last_modified: new Date().toISOString(), last_modified_by: actorFor(opts) };
        const res = await trx.updateTable("assets").set({ ...set, ...stamp }).where("id", "=", id).where("version", "=", row.version).executeTakeFirst();
        if (Number(res.numUpdatedRows) !== 1) return undefined;
        await auditAsset(trx, opts, auditAction, id, stamp.version);
        return { ...row, ...set, ...stamp };
      });
      if (written) {
        this.emit({ kind: "asset", id });
        return this.toAsset(written);
      }
      if (opts.expectedVersion !== undefined) {
        const now = await this.get(id);
        throw versionConflict(opts.expectedVersion, now?.version ?? -1);
      }
    }
    throw new ContentError(409, "The asset is being changed by others; try again.", undefined, "OBJECT_CONFLICT");
  }

  // ---- the mirror of a remote Squidex (remote/mirror.ts, decision 0037) ----------------------------

  /** The version and file version of every asset kept (the mirror compares Squidex's with them). */
  async mirroredVersions(): Promise<Map<string, { version: number; fileVersion: number }>> {
    const rows = await this.db.selectFrom("assets").select(["id", "version", "file_version"]).execute();
    return new Map(rows.map((r) => [r.id, { version: Number(r.version), fileVersion: Number(r.file_version) }]));
  }

  /** Whether the file of this version of the asset is here (a pull that stopped half-way may have left it out). */
  hasFile(asset: Pick<Asset, "id" | "fileVersion">): boolean {
    return fs.existsSync(this.filePath(asset));
  }

  /**
   * Rows as Squidex has them, each with its file's bytes when they are new: every file is written to
   * a private temporary name and renamed into its place (a file version has a path of its own, so the
   * row kept meanwhile still finds its file), then all rows go in at once; older file versions and
   * their variants go after. `audit` is written in the same transaction (a write of the site's own).
   */
  async writeMirrored(
    entries: ReadonlyArray<{ row: Database["assets"]; body?: Buffer }>,
    audit?: (trx: DB) => Promise<void>,
    /**
     * A write of the site's own, answered by Squidex: compare-and-set on the version, so a newer row
     * the mirror took meanwhile (a change made after ours) is not overwritten by our older answer.
     */
    opts: { keepNewer?: boolean } = {},
  ): Promise<void> {
    if (!entries.length) return;
    const placed: string[] = [];
    /** Rows left as they were (a newer one is kept): their file version then. */
    const kept = new Map<string, number>();
    try {
      for (const { row, body } of entries) {
        if (!body) continue;
        const target = this.filePath({ id: requireValidId(row.id, "asset id"), fileVersion: row.file_version });
        await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
        const tmp = `${target}.${randomUUID()}.tmp`;
        await fsp.writeFile(tmp, body, { mode: 0o600 });
        await fsp.rename(tmp, target);
        placed.push(target);
      }
      await this.db.transaction().execute(async (trx) => {
        for (const { row } of entries) {
          if (opts.keepNewer) {
            const now = await trx.selectFrom("assets").select(["version", "file_version"]).where("id", "=", row.id).executeTakeFirst();
            if (now && Number(now.version) > row.version) {
              kept.set(row.id, Number(now.file_version));
              continue;
            }
          }
          await trx.deleteFrom("assets").where("id", "=", row.id).execute();
          await trx.insertInto("assets").values(row).execute();
        }
        await audit?.(trx);
      });
    } catch (error) {
      await Promise.all(placed.map((file) => fsp.rm(file, { force: true })));
      throw error;
    }
    for (const { row, body } of entries) {
      const newer = kept.get(row.id);
      if (newer !== undefined) {
        // The file placed for our older answer, unless the newer row uses that very file version.
        if (body && newer !== row.file_version) await fsp.rm(this.filePath({ id: row.id, fileVersion: row.file_version }), { force: true });
        continue;
      }
      // A new file: what was kept of older versions (and variants of an earlier copy) goes.
      if (body) {
        const dir = pathInside(this.dir, row.id);
        for (const name of await fsp.readdir(dir).catch(() => [] as string[])) if (name !== String(row.file_version) && !name.endsWith(".tmp")) await fsp.rm(path.join(dir, name), { force: true });
      }
      this.emit({ kind: "asset", id: row.id });
    }
  }

  /** Assets Squidex no longer has: rows and files go. */
  async removeMirrored(ids: readonly string[]): Promise<void> {
    if (!ids.length) return;
    for (let i = 0; i < ids.length; i += 500) await this.db.deleteFrom("assets").where("id", "in", ids.slice(i, i + 500)).execute();
    for (const id of ids) {
      await fsp.rm(pathInside(this.dir, id), { recursive: true, force: true });
      this.emit({ kind: "asset", id });
    }
  }

  /** The version of every folder kept. */
  async mirroredFolderVersions(): Promise<Map<string, number>> {
    const rows = await this.db.selectFrom("asset_folders").select(["id", "version"]).execute();
    return new Map(rows.map((r) => [r.id, Number(r.version)]));
  }

  /** Folder rows as Squidex has them, in one transaction (with `audit`, for a write of the site's own). */
  async writeMirroredFolders(rows: ReadonlyArray<Database["asset_folders"]>, audit?: (trx: DB) => Promise<void>): Promise<void> {
    if (!rows.length) return;
    await this.db.transaction().execute(async (trx) => {
      for (const row of rows) {
        await trx.deleteFrom("asset_folders").where("id", "=", row.id).execute();
        await trx.insertInto("asset_folders").values(row).execute();
      }
      await audit?.(trx);
    });
    for (const row of rows) this.emit({ kind: "asset-folder", id: row.id });
  }

  /** Folders Squidex no longer has. */
  async removeMirroredFolders(ids: readonly string[]): Promise<void> {
    if (!ids.length) return;
    for (let i = 0; i < ids.length; i += 500) await this.db.deleteFrom("asset_folders").where("id", "in", ids.slice(i, i + 500)).execute();
    for (const id of ids) this.emit({ kind: "asset-folder", id });
  }

  // ---- folders ---------------------------------------------------------------------------------

  private toFolder(r: Database["asset_folders"]): AssetFolder {
    return {
      id: r.id,
      parentId: r.parent_id,
      folderName: r.folder_name,
      version: Number(r.version),
      created: r.created,
      createdBy: r.created_by,
      lastModified: r.last_modified,
      lastModifiedBy: r.last_modified_by,
    };
  }

  /** On PostgreSQL, the folder row locked for this transaction; SQLite runs one write transaction at a time anyway. */
  private async lockFolder(trx: Transaction<Database>, id: string, mode: "share" | "update"): Promise<Database["asset_folders"] | undefined> {
    let query = trx.selectFrom("asset_folders").selectAll().where("id", "=", id);
    if (this.db.getExecutor().adapter instanceof PostgresAdapter) query = mode === "share" ? query.forShare() : query.forUpdate();
    return query.executeTakeFirst();
  }

  async getFolder(id: string): Promise<AssetFolder | undefined> {
    if (id === ROOT_FOLDER) return undefined;
    const row = await this.db.selectFrom("asset_folders").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? this.toFolder(row) : undefined;
  }

  /** The folders in `parentId` (the root by default), by name; 404 for an unknown parent. */
  async listFolders(parentId: string = ROOT_FOLDER): Promise<{ total: number; items: AssetFolder[] }> {
    const parent = parentIdOf(parentId);
    if (parent !== ROOT_FOLDER && !(await this.getFolder(parent))) throw notFound(`Asset folder "${parent}" not found.`);
    const base = this.db.selectFrom("asset_folders").where("parent_id", "=", parent);
    const rows = await base.selectAll().orderBy("folder_name").orderBy("id").limit(MAX_FOLDERS_LISTED).execute();
    const total =
      rows.length < MAX_FOLDERS_LISTED ? rows.length : Number((await base.select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow()).n);
    return { total, items: rows.map((r) => this.toFolder(r)) };
  }

  /**
   * The folders from the top down to `id` itself (breadcrumbs); empty for the root, 404 for an
   * unknown folder. The walk stops after MAX_FOLDER_DEPTH steps, whatever the rows say.
   */
  async folderPath(id: string): Promise<AssetFolder[]> {
    const start = parentIdOf(id);
    const path: AssetFolder[] = [];
    let current = start;
    while (current !== ROOT_FOLDER && path.length < MAX_FOLDER_DEPTH + 1) {
      const folder = await this.getFolder(current);
      if (!folder) {
        if (current === start) throw notFound(`Asset folder "${start}" not found.`);
        break;
      }
      if (path.some((f) => f.id === folder.id)) break;
      path.unshift(folder);
      current = folder.parentId;
    }
    return path;
  }

  async createFolder(input: { folderName: unknown; parentId?: unknown; id?: string } & AssetWriteOptions): Promise<AssetFolder> {
    authorizeAsset(input, "changeFolder");
    const folderName = checkFolderName(input.folderName);
    const parentId = parentIdOf(input.parentId);
    const id = input.id === undefined ? newId() : requireValidId(input.id, "folder id");
    if (id === ROOT_FOLDER) throw badRequest("That id names the root folder.");
    const depth = parentId === ROOT_FOLDER ? 0 : (await this.folderPath(parentId).catch(() => { throw unknownFolder(parentId); })).length;
    if (depth >= MAX_FOLDER_DEPTH) throw badRequest(`Folders nest at most ${MAX_FOLDER_DEPTH} deep.`);
    if (this.upstream) {
      // Squidex names the folder (its folder create takes no id): its row is what is kept.
      const made = await this.upstream.createFolder(folderName, parentId);
      await this.writeMirroredFolders([made], (trx) => auditAsset(trx, input, "create-asset-folder", made.id, made.version));
      return this.toFolder(made);
    }
    const now = new Date().toISOString();
    const actor = actorFor(input);
    const row: Database["asset_folders"] = { id, parent_id: parentId, folder_name: folderName, version: 0, created: now, created_by: actor, last_modified: now, last_modified_by: actor };
    try {
      await this.db.transaction().execute(async (trx) => {
        if (parentId !== ROOT_FOLDER && !(await this.lockFolder(trx, parentId, "share"))) throw unknownFolder(parentId);
        await trx.insertInto("asset_folders").values(row).execute();
        await auditAsset(trx, input, "create-asset-folder", id, 0);
      });
    } catch (e) {
      if (e instanceof ContentError) throw e;
      if (await this.getFolder(id)) throw alreadyExists(`An asset folder with id "${id}" already exists.`);
      throw e;
    }
    this.emit({ kind: "asset-folder", id });
    return this.toFolder(row);
  }

  async renameFolder(id: string, folderName: unknown, opts: AssetWriteOptions = {}): Promise<AssetFolder> {
    authorizeAsset(opts, "changeFolder");
    const name = checkFolderName(folderName);
    return this.updateFolder(id, opts, "rename-asset-folder", async () => ({ folder_name: name }), (up, row) => up.renameFolder(row.id, Number(row.version), name));
  }

  /** Moves a folder under another (ROOT_FOLDER for the top): not into itself or below itself (400), not deeper than MAX_FOLDER_DEPTH. */
  async moveFolder(id: string, parentId: unknown, opts: AssetWriteOptions = {}): Promise<AssetFolder> {
    authorizeAsset(opts, "changeFolder");
    const target = parentIdOf(parentId);
    return this.updateFolder(id, opts, "move-asset-folder", async (trx) => {
      if (target === id) throw badRequest("A folder cannot be moved into itself.");
      if (this.db.getExecutor().adapter instanceof PostgresAdapter) {
        // Moves are rare: one at a time across all nodes, so two crossing moves cannot make a cycle.
        await sql`select pg_advisory_xact_lock(hashtext('praxisnetz_asset_folder_moves'))`.execute(trx);
      }
      const targetPath: string[] = [];
      if (target !== ROOT_FOLDER) {
        if (!(await this.lockFolder(trx, target, "share"))) throw unknownFolder(target);
        let current = target;
        while (current !== ROOT_FOLDER && targetPath.length <= MAX_FOLDER_DEPTH) {
          const row = await trx.selectFrom("asset_folders").select(["id", "parent_id"]).where("id", "=", current).executeTakeFirst();
          if (!row) break;
          targetPath.push(row.id);
          current = row.parent_id;
        }
      }
      if (targetPath.includes(id)) throw badRequest("A folder cannot be moved into one of its own subfolders.");
      // How deep the moved folder's subtree goes, level by level (bounded by the depth limit).
      let height = 1;
      let level = [id];
      while (level.length && height <= MAX_FOLDER_DEPTH) {
        const children = await trx.selectFrom("asset_folders").select("id").where("parent_id", "in", level).limit(10_000).execute();
        level = children.map((c) => c.id);
        if (level.length) height++;
      }
      if (targetPath.length + height > MAX_FOLDER_DEPTH) throw badRequest(`Folders nest at most ${MAX_FOLDER_DEPTH} deep.`);
      return { parent_id: target };
    }, (up, row) => up.moveFolder(row.id, Number(row.version), target));
  }

  /** Deletes an empty folder; one that still holds assets or folders is refused with 409. */
  async deleteFolder(id: string, opts: AssetWriteOptions = {}): Promise<void> {
    authorizeAsset(opts, "deleteFolder");
    const folderId = requireValidId(id, "folder id");
    if (this.upstream) {
      const row = await this.getFolder(folderId);
      if (!row) throw notFound(`Asset folder "${folderId}" not found.`);
      if (opts.expectedVersion !== undefined && opts.expectedVersion !== row.version) throw versionConflict(opts.expectedVersion, row.version);
      const asset = await this.db.selectFrom("assets").select("id").where("parent_id", "=", folderId).limit(1).executeTakeFirst();
      const folder = await this.db.selectFrom("asset_folders").select("id").where("parent_id", "=", folderId).limit(1).executeTakeFirst();
      if (asset || folder) throw notEmpty(row.folderName, !!asset);
      await this.upstream.deleteFolder(folderId, row.version);
    }
    await this.db.transaction().execute(async (trx) => {
      // Held exclusively: uploads and moves into the folder wait, then find it gone.
      const row = await this.lockFolder(trx, folderId, "update");
      if (!row) throw notFound(`Asset folder "${folderId}" not found.`);
      if (opts.expectedVersion !== undefined && opts.expectedVersion !== row.version) throw versionConflict(opts.expectedVersion, row.version);
      const asset = await trx.selectFrom("assets").select("id").where("parent_id", "=", folderId).limit(1).executeTakeFirst();
      const folder = await trx.selectFrom("asset_folders").select("id").where("parent_id", "=", folderId).limit(1).executeTakeFirst();
      if (asset || folder) throw notEmpty(row.folder_name, !!asset);
      await trx.deleteFrom("asset_folders").where("id", "=", folderId).execute();
      await auditAsset(trx, opts, "delete-asset-folder", folderId, Number(row.version));
    });
    this.emit({ kind: "asset-folder", id: folderId });
  }

  private async updateFolder(
    id: string,
    opts: AssetWriteOptions,
    auditAction: string,
    change: (trx: Transaction<Database>, row: Database["asset_folders"]) => Promise<Partial<Database["asset_folders"]>>,
    /** The same change as Squidex's call (remote mode): what it answers is what is kept. */
    remote: (upstream: AssetUpstream, row: Database["asset_folders"]) => Promise<Database["asset_folders"]>,
  ): Promise<AssetFolder> {
    const folderId = requireValidId(id, "folder id");
    if (this.upstream) {
      const upstream = this.upstream;
      const row = await this.db.selectFrom("asset_folders").selectAll().where("id", "=", folderId).executeTakeFirst();
      if (!row) throw notFound(`Asset folder "${folderId}" not found.`);
      if (opts.expectedVersion !== undefined && opts.expectedVersion !== Number(row.version)) throw versionConflict(opts.expectedVersion, Number(row.version));
      await this.db.transaction().execute((trx) => change(trx, row));
      const next = { ...(await remote(upstream, row)), created: row.created, created_by: row.created_by, last_modified: new Date().toISOString(), last_modified_by: actorFor(opts) };
      await this.writeMirroredFolders([next], (trx) => auditAsset(trx, opts, auditAction, folderId, next.version));
      return this.toFolder(next);
    }
    for (let attempt = 0; attempt < 5; attempt++) {
      const written = await this.db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom("asset_folders").selectAll().where("id", "=", folderId).executeTakeFirst();
        if (!row) throw notFound(`Asset folder "${folderId}" not found.`);
        const version = Number(row.version);
        if (opts.expectedVersion !== undefined && opts.expectedVersion !== version) throw versionConflict(opts.expectedVersion, version);
        const set = await change(trx, row);
        const stamp = { version: version + 1, last_modified: new Date().toISOString(), last_modified_by: actorFor(opts) };
        const res = await trx.updateTable("asset_folders").set({ ...set, ...stamp }).where("id", "=", folderId).where("version", "=", version).executeTakeFirst();
        if (Number(res.numUpdatedRows) !== 1) return undefined;
        await auditAsset(trx, opts, auditAction, folderId, stamp.version);
        return { ...row, ...set, ...stamp };
      });
      if (written) {
        this.emit({ kind: "asset-folder", id: folderId });
        return this.toFolder(written);
      }
      if (opts.expectedVersion !== undefined) {
        const now = await this.getFolder(folderId);
        throw versionConflict(opts.expectedVersion, now?.version ?? -1);
      }
    }
    throw new ContentError(409, "The folder is being changed by others; try again.", undefined, "OBJECT_CONFLICT");
  }
}

const unknownFolder = (id: string) => badRequest(`Asset folder "${id}" does not exist.`);
const notEmpty = (name: string, files: boolean) =>
  new ContentError(409, `The folder "${name}" is not empty: move or delete its ${files ? "files" : "folders"} first.`, undefined, "OBJECT_CONFLICT");

/** The last segment of the asset's URL: never empty, "." or ".." (a URL parser would drop those, and the URL be a 404). */
function checkTags(value: unknown): string[] {
  if (!Array.isArray(value)) throw badRequest('"tags" must be a list of texts.');
  if (value.length > 100) throw badRequest("An asset has at most 100 tags.");
  const tags: string[] = [];
  for (const tag of value) {
    if (typeof tag !== "string" || !tag.trim() || tag.trim().length > 100 || CONTROL.test(tag)) throw badRequest("Each tag is a text of 1 to 100 characters.");
    if (!tags.includes(tag.trim())) tags.push(tag.trim());
  }
  return tags;
}

function slugifyFileName(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/ä/g, "ae").replace(/ö/g, "oe").replace(/ü/g, "ue").replace(/ß/g, "ss")
    .replace(/[^a-z0-9.]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return /^\.*$/.test(slug) ? "file" : slug;
}

function safeImageSize(body: Buffer): { width: number; height: number } | undefined {
  try {
    const { width, height } = imageSize(body);
    return width && height ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}

const ALIASES: Record<string, string> = { "image/jpg": "image/jpeg", "image/pjpeg": "image/jpeg", "image/x-png": "image/png" };

/** The MIME type is taken from the bytes; a declared type that contradicts them is refused. */
export async function detectMimeType(body: Buffer, declared?: string): Promise<string> {
  const claimed = declared ? (ALIASES[declared.toLowerCase()] ?? declared.toLowerCase().split(";")[0]!.trim()) : undefined;
  const generic = !claimed || claimed === "application/octet-stream";
  const detected = (await fileTypeFromBuffer(body))?.mime;
  // file-type calls any XML file application/xml; SVGs are recognised below.
  if (detected && detected !== "application/xml" && detected !== "text/xml") {
    if (!generic && claimed !== detected)
      throw badRequest(`The file content is ${detected}, but it was uploaded as ${claimed}.`);
    return detected;
  }
  const head = body.subarray(0, 2048).toString("utf8").trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head)) {
    if (!generic && claimed !== "image/svg+xml") throw badRequest(`The file content is image/svg+xml, but it was uploaded as ${claimed}.`);
    return "image/svg+xml";
  }
  if (claimed && TEXT_TYPES.has(claimed) && isUtf8Text(body)) return claimed;
  throw new ContentError(415, `Unsupported or unrecognised file type${claimed ? ` (${claimed})` : ""}.`);
}

function isUtf8Text(body: Buffer): boolean {
  if (body.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(body);
    return true;
  } catch {
    return false;
  }
}
