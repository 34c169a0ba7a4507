import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { fileTypeFromBuffer } from "file-type";
import { imageSize } from "image-size";
import type { Database, DB } from "./db";
import { ContentError, badRequest, notFound } from "./errors";
import { newId, pathInside, requireValidId } from "./ids";
import { ASSETS_TAG, recordRead } from "./read-tags";
import type { Asset } from "./types";
import type { ContentChange } from "./types";

/** Widths image variants are made in: a fixed set, so nobody can make us store endless sizes. */
export const VARIANT_WIDTHS = [320, 480, 640, 960, 1280, 1440, 1920];
const RESIZABLE = new Set(["image/png", "image/jpeg", "image/webp", "image/avif"]);
const ROOT_FOLDER = "00000000-0000-0000-0000-000000000000";
const SYSTEM_ACTOR = "client:praxisnetz:default";
const TEXT_TYPES = new Set(["text/plain", "text/csv", "application/json"]);

export interface UploadInput {
  fileName: string;
  /** The type the uploader declared; checked against the bytes. */
  mimeType?: string;
  body: Buffer;
  id?: string;
  tags?: string[];
  actor?: string;
}

/**
 * Asset files live under `DATA_DIR/assets/<id>/<fileVersion>`, metadata in the database. A file is
 * written to a temporary name and renamed, so a crash never leaves half a file behind a row.
 */
export class AssetStore {
  private db!: DB;
  private emit: (change: ContentChange) => void = () => {};

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
    };
  }

  async list(opts: { ids?: string[]; skip?: number; take?: number } = {}): Promise<{ total: number; items: Asset[] }> {
    recordRead(ASSETS_TAG);
    // Asked by id: all of those (ids are bounded where they come in). Otherwise one page of at most 200.
    const take = opts.ids?.length ? opts.ids.length : Math.min(opts.take ?? 200, 200);
    const skip = opts.skip ?? 0;
    let base = this.db.selectFrom("assets");
    if (opts.ids?.length) base = base.where("id", "in", opts.ids);
    const rows = await base.selectAll().orderBy("last_modified", "desc").orderBy("id").limit(take).offset(skip).execute();
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

  filePath(asset: Pick<Asset, "id" | "fileVersion">): string {
    return pathInside(this.dir, asset.id, String(asset.fileVersion));
  }

  async upload(input: UploadInput): Promise<Asset> {
    const { body } = input;
    if (!body.length) throw badRequest("The file is empty.");
    if (body.length > this.maxBytes)
      throw new ContentError(413, `The file is ${body.length} bytes; the limit is ${this.maxBytes} bytes.`);
    const fileName = sanitizeFileName(input.fileName);
    if (!fileName) throw badRequest("The file needs a name.");
    const mimeType = await detectMimeType(body, input.mimeType);
    const id = input.id === undefined ? newId() : requireValidId(input.id, "asset id");
    if (await this.get(id)) throw new ContentError(409, `An asset with id "${id}" already exists.`, undefined, "OBJECT_CONFLICT");
    const size = mimeType.startsWith("image/") ? safeImageSize(body) : undefined;
    const now = new Date().toISOString();
    const actor = input.actor ?? SYSTEM_ACTOR;
    const asset: Asset = {
      id,
      fileName,
      slug: slugifyFileName(fileName),
      mimeType,
      fileSize: body.length,
      fileHash: createHash("sha256").update(body).digest("base64"),
      fileVersion: 0,
      type: mimeType.startsWith("image/") ? "Image" : mimeType.startsWith("audio/") ? "Audio" : mimeType.startsWith("video/") ? "Video" : "Unknown",
      ...(size ? { pixelWidth: size.width, pixelHeight: size.height } : {}),
      tags: input.tags ?? (mimeType.startsWith("image/") ? ["image"] : []),
      parentId: ROOT_FOLDER,
      version: 0,
      created: now,
      createdBy: actor,
      lastModified: now,
      lastModifiedBy: actor,
    };
    // The row decides who owns the id: write to a private temp file, insert, and only then move the
    // file into place, so a losing concurrent upload never touches the winner's file.
    const target = this.filePath(asset);
    await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    const tmp = `${target}.${randomUUID()}.tmp`;
    await fsp.writeFile(tmp, body, { mode: 0o600 });
    try {
      await this.db
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
          parent_id: ROOT_FOLDER,
          version: 0,
          created: now,
          created_by: actor,
          last_modified: now,
          last_modified_by: actor,
        })
        .execute();
    } catch (e) {
      await fsp.rm(tmp, { force: true });
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

  async delete(id: string): Promise<void> {
    const folder = pathInside(this.dir, id);
    const res = await this.db.deleteFrom("assets").where("id", "=", id).executeTakeFirst();
    if (Number(res.numDeletedRows) === 0) throw notFound(`Asset "${id}" not found.`);
    await fsp.rm(folder, { recursive: true, force: true });
    this.emit({ kind: "asset", id });
  }
}

function sanitizeFileName(name: string): string {
  return path.basename(String(name ?? "")).replace(/[\u0000-\u001f/\\]/g, "").trim().slice(0, 200);
}

function slugifyFileName(name: string): string {
  return name
    .toLowerCase()
    .replace(/ä/g, "ae").replace(/ö/g, "oe").replace(/ü/g, "ue").replace(/ß/g, "ss")
    .replace(/[^a-z0-9.]+/g, "-")
    .replace(/^-+|-+$/g, "");
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
