import { isDeepStrictEqual } from "node:util";
import { ROOT_FOLDER } from "../assets";
import { ArchiveError, emptyCounts, readArchive, type ArchiveRecord, type Counts, type RecordKind } from "./archive";
import { squidexRequests, type SquidexSource } from "./squidex-source";

type Json = Record<string, any>;
type Of<K extends ArchiveRecord["type"]> = Extract<ArchiveRecord, { type: K }>;

/**
 * Writes an archive into a live Squidex app over its HTTP API: schemas it lacks are created (a
 * schema it has is left as it is), folders made, assets uploaded under their ids (one with the same
 * bytes is left alone), items upserted under their ids with their live data published, a pending
 * draft put on top, and their status set. Squidex gives versions and stamps of its own: those of
 * the archive do not travel. Returns what was written.
 */
export async function archiveToSquidex(file: string, target: SquidexSource, opts: { onTotals?: (totals: Counts) => void; onRecord?: (kind: RecordKind) => void } = {}): Promise<Counts> {
  const records: { [K in ArchiveRecord["type"]]: Array<Of<K>> } = { schema: [], folder: [], item: [], pageVersion: [], schedule: [], asset: [] };
  for await (const record of readArchive(file)) {
    if (record.type === "header") opts.onTotals?.(record.counts);
    else (records[record.type] as ArchiveRecord[]).push(record);
  }
  const app = encodeURIComponent(target.app);
  const send = squidexRequests(target);
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Json }> => {
    const res = await send(method, path, { headers, ...(body instanceof FormData ? { body } : body !== undefined ? { json: body } : {}) });
    const text = await res.text();
    let json: Json = {};
    try {
      json = text ? (JSON.parse(text) as Json) : {};
    } catch {
      // Not JSON: the status says enough.
    }
    return { status: res.status, json };
  };
  const must = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const res = await call(method, path, body, headers);
    if (res.status >= 300) throw new ArchiveError(`Squidex answered ${res.status} to ${method} ${path}: ${String(res.json.message ?? "").slice(0, 300)}`);
    return res.json;
  };
  const done = emptyCounts();
  const tick = (kind: RecordKind) => {
    done[kind]++;
    opts.onRecord?.(kind);
  };

  const known = new Set((((await must("GET", `api/apps/${app}/schemas`)).items ?? []) as Json[]).map((s) => String(s.name)));
  for (const { row } of records.schema) {
    if (!known.has(row.name)) {
      const def = JSON.parse(row.definition) as { properties?: Json; fields?: Json[] };
      await must("POST", `api/apps/${app}/schemas`, schemaInput(row.name, row.type, !!row.is_published, def.properties ?? {}, def.fields ?? []));
    }
    tick("schema");
  }

  // Squidex names new folders itself: children are put under their parent's new id.
  const folderIds = new Map<string, string>([[ROOT_FOLDER, ROOT_FOLDER]]);
  const pending = [...records.folder];
  while (pending.length) {
    const at = pending.findIndex((f) => folderIds.has(f.row.parent_id));
    if (at < 0) throw new ArchiveError(`Folder ${JSON.stringify(pending[0]!.row.id)} sits in a folder the archive does not have.`);
    const { row } = pending.splice(at, 1)[0]!;
    const made = await must("POST", `api/apps/${app}/assets/folders`, { folderName: row.folder_name, parentId: folderIds.get(row.parent_id) });
    folderIds.set(row.id, String(made.id));
    tick("folder");
  }

  for (const { row, bytes } of records.asset) {
    const existing = await call("GET", `api/apps/${app}/assets/${encodeURIComponent(row.id)}`);
    if (existing.status === 200 && existing.json.fileHash === row.file_hash) {
      tick("asset");
      continue;
    }
    const form = new FormData();
    form.append("file", new Blob([Buffer.from(bytes, "base64")], { type: row.mime_type }), row.file_name);
    if (existing.status === 200) await must("PUT", `api/apps/${app}/assets/${encodeURIComponent(row.id)}/content`, form);
    else await must("POST", `api/apps/${app}/assets?id=${encodeURIComponent(row.id)}&parentId=${folderIds.get(row.parent_id) ?? ROOT_FOLDER}`, form);
    tick("asset");
  }

  for (const { row } of records.item) {
    const item = `api/content/${app}/${encodeURIComponent(row.schema_name)}/${encodeURIComponent(row.id)}`;
    const live = row.published_data !== null && row.status === "Published";
    // An update of an item with a pending draft changes only the draft: the target's goes first.
    const there = await call("GET", item, undefined, { "X-Unpublished": "1" });
    if (there.status === 200 && there.json.newStatus) await must("DELETE", `${item}/draft`);
    // The live data first (published), then a pending draft on top; an unpublished item its data.
    let now = await must("POST", `${item}?publish=${live}`, live ? row.published_data : row.data);
    if (live && !isDeepStrictEqual(row.data, row.published_data)) {
      if (!now.newStatus) await must("POST", `${item}/draft`);
      now = await must("PUT", item, row.data);
    }
    if (now.status !== row.status) now = await must("PUT", `${item}/status`, { status: row.status });
    tick("item");
  }
  return done;
}

/**
 * A stored schema as Squidex's create-schema body wants it: the settings this store keeps among the
 * properties (category, preview URLs, editor lists) go beside them, where Squidex reads them.
 */
export function schemaInput(name: string, type: string, isPublished: boolean, stored: Json, fields: Json[]): Json {
  const { category, previewUrls, fieldsInLists, fieldsInReferences, ...properties } = stored;
  return {
    name,
    type,
    isPublished,
    properties,
    ...(category ? { category } : {}),
    ...(previewUrls ? { previewUrls } : {}),
    ...(fieldsInLists ? { fieldsInLists } : {}),
    ...(fieldsInReferences ? { fieldsInReferences } : {}),
    fields: fields.map(fieldInput),
  };
}

/** A stored field as Squidex's create-schema body wants it, with its flags. */
function fieldInput(f: Json): Json {
  return {
    name: f.name,
    ...(f.partitioning ? { partitioning: f.partitioning } : {}),
    isHidden: !!f.isHidden,
    isLocked: !!f.isLocked,
    isDisabled: !!f.isDisabled,
    properties: f.properties ?? {},
    ...(Array.isArray(f.nested) ? { nested: (f.nested as Json[]).map(fieldInput) } : {}),
  };
}
