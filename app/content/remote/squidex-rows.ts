import type { Database } from "../db";
import { MAX_METADATA_BYTES, MAX_METADATA_KEYS, MAX_METADATA_TEXT_LENGTH, ROOT_FOLDER, readMetadata } from "../assets";

type Json = Record<string, any>;

/**
 * Squidex's DTOs (schemas, content items, assets, asset folders) as the store keeps them, and the
 * calls that list assets and folders: one reading for the import from a live Squidex
 * (transfer/squidex-source.ts) and for the mirror of a remote app (mirror.ts, decision 0037).
 */

const PAGE = 200;

/** Reads one API path as JSON (the caller's client, token and failure words). */
export type GetJson = (path: string) => Promise<Json | null>;

/** An AssetDto as an `assets` row; `fileSize` from the bytes when the caller has them. */
export function assetRow(a: Json, actor: string, fileSize?: number): Database["assets"] {
  const width = a.pixelWidth ?? a.metadata?.pixelWidth;
  const height = a.pixelHeight ?? a.metadata?.pixelHeight;
  return {
    id: String(a.id),
    file_name: String(a.fileName),
    slug: String(a.slug ?? a.fileName),
    mime_type: String(a.mimeType ?? "application/octet-stream"),
    file_size: fileSize ?? Number(a.fileSize ?? 0),
    file_hash: String(a.fileHash ?? ""),
    file_version: Number(a.fileVersion ?? 0),
    type: String(a.type ?? "Unknown"),
    pixel_width: Number.isSafeInteger(width) ? width : null,
    pixel_height: Number.isSafeInteger(height) ? height : null,
    tags: JSON.stringify(Array.isArray(a.tags) ? a.tags : []),
    parent_id: String(a.parentId ?? ROOT_FOLDER) || ROOT_FOLDER,
    version: Number(a.version ?? 0),
    created: String(a.created ?? ""),
    created_by: String(a.createdBy ?? actor),
    last_modified: String(a.lastModified ?? a.created ?? ""),
    last_modified_by: String(a.lastModifiedBy ?? a.createdBy ?? actor),
    metadata: metadataOf(a.metadata),
    is_protected: a.isProtected === true ? 1 : 0,
  };
}

/**
 * Squidex's asset metadata as the store keeps it: its flat entries (the pixel sizes have their
 * columns), within the size an annotation may have here; entries beyond it are left out.
 */
function metadataOf(value: unknown): string {
  const kept: Record<string, string | number | boolean> = {};
  let size = 2;
  for (const [key, v] of Object.entries(readMetadata(value))) {
    if (typeof v === "string" && v.length > MAX_METADATA_TEXT_LENGTH) continue;
    const entry = Buffer.byteLength(JSON.stringify({ [key]: v })) - 1;
    if (size + entry > MAX_METADATA_BYTES || Object.keys(kept).length >= MAX_METADATA_KEYS) break;
    size += entry;
    Object.defineProperty(kept, key, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return JSON.stringify(kept);
}

/** An AssetFolderDto as an `asset_folders` row (Squidex gives folders no stamps: `now` stands in). */
export function folderRow(f: Json, actor: string, now: string): Database["asset_folders"] {
  return {
    id: String(f.id),
    parent_id: String(f.parentId ?? ROOT_FOLDER) || ROOT_FOLDER,
    folder_name: String(f.folderName),
    version: Number(f.version ?? 0),
    created: now,
    created_by: actor,
    last_modified: now,
    last_modified_by: actor,
  };
}

/** Every asset folder of the app, from the root down (Squidex lists one parent's children at a time). */
export async function listRemoteFolders(getJson: GetJson, app: string): Promise<Json[]> {
  const parents = [ROOT_FOLDER];
  const out: Json[] = [];
  const seen = new Set<string>();
  while (parents.length) {
    const parent = parents.shift()!;
    for (const f of ((await getJson(`api/apps/${encodeURIComponent(app)}/assets/folders?parentId=${parent}`))?.items ?? []) as Json[]) {
      // A folder listed twice (a cycle at the remote) is walked once.
      if (seen.has(String(f.id))) continue;
      seen.add(String(f.id));
      parents.push(String(f.id));
      out.push(f);
    }
  }
  return out;
}

/** Every asset's metadata, page by page; with `since`, those changed since then (Squidex's clock). */
export async function listRemoteAssets(getJson: GetJson, app: string, since?: string): Promise<Json[]> {
  const out: Json[] = [];
  for (let skip = 0; ; skip += PAGE) {
    const query = new URLSearchParams({ $top: String(PAGE), $skip: String(skip) });
    if (since) {
      query.set("$filter", `lastModified ge ${since}`);
      query.set("$orderby", "lastModified asc");
    }
    const got = ((await getJson(`api/apps/${encodeURIComponent(app)}/assets?${query}`))?.items ?? []) as Json[];
    out.push(...got);
    if (got.length < PAGE) return out;
  }
}

/** Where an asset's bytes are read (`api/assets/{app}/{id}`: the current file, unresized). */
export const assetContentPath = (app: string, id: string) => `api/assets/${encodeURIComponent(app)}/${encodeURIComponent(id)}`;

/** Who a row names when Squidex named nobody. */
function stamps(x: Json, actor: string) {
  return {
    created: String(x.created ?? ""),
    created_by: String(x.createdBy ?? actor),
    last_modified: String(x.lastModified ?? x.created ?? ""),
    last_modified_by: String(x.lastModifiedBy ?? x.createdBy ?? actor),
  };
}

/** A Squidex field DTO as the store keeps a field, with its flags (links dropped). */
function toField(f: Json): Json {
  return {
    fieldId: Number(f.fieldId),
    name: String(f.name),
    ...(f.partitioning !== undefined ? { partitioning: f.partitioning } : {}),
    ...(f.isHidden ? { isHidden: true } : {}),
    ...(f.isLocked ? { isLocked: true } : {}),
    ...(f.isDisabled ? { isDisabled: true } : {}),
    properties: f.properties ?? {},
    ...(Array.isArray(f.nested) ? { nested: (f.nested as Json[]).map(toField) } : {}),
  };
}

/** A SchemaDto's properties as the store keeps them: with the settings Squidex serves beside them. */
function storedProperties(s: Json): Json {
  const out: Json = { ...(s.properties ?? {}) };
  if (typeof s.category === "string" && s.category) out.category = s.category;
  if (s.previewUrls && typeof s.previewUrls === "object" && Object.keys(s.previewUrls).length) out.previewUrls = s.previewUrls;
  for (const key of ["fieldsInLists", "fieldsInReferences"]) if (Array.isArray(s[key]) && s[key].length) out[key] = s[key];
  return out;
}

/** A SchemaDto as a `schemas` row. */
export function schemaRow(s: Json, actor: string): Database["schemas"] {
  return {
    id: String(s.id),
    name: String(s.name),
    type: String(s.type ?? (s.isSingleton ? "Singleton" : "Default")),
    is_published: s.isPublished === false ? 0 : 1,
    definition: JSON.stringify({ properties: storedProperties(s), fields: ((s.fields ?? []) as Json[]).map(toField) }),
    version: Number(s.version ?? 0),
    ...stamps(s, actor),
  };
}

/**
 * A ContentDto (its current data, read with X-Unpublished) and the live one of a published item as a
 * `contents` row, its data as values (the archive's form; the table keeps JSON text).
 */
export function itemRecord(schema: string, item: Json, published: Json | undefined, actor: string) {
  const status = String(item.status ?? "Draft");
  const live = published ?? (status === "Published" ? item : undefined);
  return {
    id: String(item.id),
    schema_name: schema,
    status,
    new_status: typeof item.newStatus === "string" ? item.newStatus : null,
    version: Number(item.version ?? 0),
    data: (item.data ?? {}) as Json,
    published_data: live ? ((live.data ?? {}) as Json) : null,
    published_version: live ? Number(live.version ?? item.version ?? 0) : null,
    published_last_modified: live ? String(live.lastModified ?? item.lastModified ?? "") : null,
    published_last_modified_by: live ? String(live.lastModifiedBy ?? actor) : null,
    ...stamps(item, actor),
  };
}
