import type { Database } from "../db";
import { ContentError } from "../errors";
import { assetRow, folderRow } from "./squidex-rows";
import type { RemoteSquidex } from "./squidex-client";

/**
 * Where the embedded store sends its item writes first when the site runs on a remote Squidex
 * (SQUIDEX_URL): the store is then a mirror of that app (mirror.ts keeps it current), and a write
 * counts only once Squidex has taken it. Each call carries the version the store holds as If-Match,
 * so two sites (or a site and Squidex's own editors) cannot overwrite each other's changes: the
 * booking race is decided by Squidex's version check, not by our database (decision 0037).
 */
export interface ContentUpstream {
  create(schema: string, id: string, data: unknown, publish: boolean): Promise<UpstreamResult>;
  /** The change a store write makes to a row (`set`: the columns it changes), as Squidex's call for it. */
  apply(schema: string, id: string, version: number, set: UpstreamChange): Promise<UpstreamResult>;
  delete(schema: string, id: string, version: number | undefined): Promise<void>;
}

export interface UpstreamChange {
  status?: string;
  new_status?: string | null;
  /** The item's current data as the store writes it (JSON text). */
  data?: string;
  published_data?: string | null;
}

/**
 * The same for assets and asset folders (AssetStore.upstream): each call answers the row as Squidex
 * has it afterwards, which the store keeps in place of its own.
 */
export interface AssetUpstream {
  /** A new asset under the id the store chose (`POST …/assets?id=`: an id taken there is a conflict). */
  upload(input: { id: string; fileName: string; mimeType: string; body: Buffer; parentId: string }): Promise<Database["assets"]>;
  /** Squidex's annotation (`PUT …/assets/{id}`): any of file name, tags, slug, metadata, protection. */
  annotate(id: string, version: number, changes: AssetAnnotationChanges): Promise<Database["assets"]>;
  /** A new file for the asset (`PUT …/assets/{id}/content`, multipart `file`). */
  replaceContent(id: string, version: number, file: UpstreamFile): Promise<Database["assets"]>;
  /** Squidex's upsert (`POST …/assets/{id}`): the new file, and the asset into `parentId`, in one call. */
  upsert(id: string, version: number | undefined, input: UpstreamFile & { parentId: string }): Promise<Database["assets"]>;
  move(id: string, version: number, parentId: string): Promise<Database["assets"]>;
  delete(id: string, version: number): Promise<void>;
  createFolder(folderName: string, parentId: string): Promise<Database["asset_folders"]>;
  renameFolder(id: string, version: number, folderName: string): Promise<Database["asset_folders"]>;
  moveFolder(id: string, version: number, parentId: string): Promise<Database["asset_folders"]>;
  deleteFolder(id: string, version: number): Promise<void>;
}

export interface AssetAnnotationChanges {
  fileName?: string;
  tags?: string[];
  slug?: string;
  metadata?: Record<string, string | number | boolean>;
  isProtected?: boolean;
}

export interface UpstreamFile {
  fileName: string;
  mimeType: string;
  body: Buffer;
}

/** What Squidex answered: the item's version and stamp there, which the mirror takes over. */
export interface UpstreamResult {
  version: number;
  lastModified?: string;
}

/** The remote's ErrorDto message, or the first lines of whatever it sent. */
async function messageOf(res: Response): Promise<{ message: string; details: string[] }> {
  const text = await res.text().catch(() => "");
  try {
    const body = JSON.parse(text) as { message?: unknown; details?: unknown };
    const details = Array.isArray(body.details) ? body.details.filter((d): d is string => typeof d === "string").slice(0, 20) : [];
    return { message: typeof body.message === "string" ? body.message : text.slice(0, 300), details };
  } catch {
    return { message: text.slice(0, 300), details: [] };
  }
}

const UNREACHABLE = "The content service (Squidex) cannot be reached: nothing was saved. Try again in a moment.";

type Log = (message: string, details: Record<string, unknown>) => void;
type Send = (what: string, method: string, url: string, opts?: { json?: unknown; body?: FormData; version?: number; query?: Record<string, string> }) => Promise<Response>;

/** One write call to Squidex; its refusals become the store's errors, with Squidex's words. */
function sender(remote: RemoteSquidex, log: Log, thing: string): Send {
  return async function send(what, method, url, opts = {}) {
    let res: Response;
    try {
      res = await remote.request(method, url, { json: opts.json, body: opts.body, query: opts.query, headers: opts.version === undefined ? {} : { "If-Match": `"${opts.version}"` } });
    } catch (error) {
      log("Squidex could not be reached for a write", { what, error: error instanceof Error ? error.message : String(error) });
      throw new ContentError(503, UNREACHABLE, undefined, "UPSTREAM_UNAVAILABLE");
    }
    if (res.ok) return res;
    const { message, details } = await messageOf(res);
    log("Squidex refused a write", { what, status: res.status, message });
    if (res.status === 409 || res.status === 412)
      throw new ContentError(409, `The ${thing} was changed on the content service meanwhile (${message || "newer version"}). Reload it and make the change again.`, details, "OBJECT_CONFLICT");
    if (res.status === 404) throw new ContentError(404, message || `The content service does not have this ${thing} (any more).`, details);
    if (res.status === 400) throw new ContentError(400, message || "The content service refused the data.", details, "VALIDATION_ERROR");
    if (res.status === 401 || res.status === 403) throw new ContentError(503, "The content service refused this site's credentials: nothing was saved. Check SQUIDEX_CLIENT_ID and SQUIDEX_CLIENT_SECRET.", undefined, "UPSTREAM_UNAVAILABLE");
    throw new ContentError(503, UNREACHABLE, undefined, "UPSTREAM_UNAVAILABLE");
  };
}

export function createUpstream(remote: RemoteSquidex, app: string, log: Log = () => {}): ContentUpstream {
  const path = (schema: string, id?: string, tail = "") => `api/content/${encodeURIComponent(app)}/${encodeURIComponent(schema)}${id === undefined ? "" : `/${encodeURIComponent(id)}`}${tail}`;
  const send = sender(remote, log, "item");

  async function result(res: Response, fallbackVersion: number): Promise<UpstreamResult> {
    const body = (await res.json().catch(() => ({}))) as { version?: unknown; lastModified?: unknown };
    const version = typeof body.version === "number" && Number.isSafeInteger(body.version) ? body.version : Number(res.headers.get("etag")?.replace(/\D/g, "") || fallbackVersion);
    return { version, lastModified: typeof body.lastModified === "string" ? body.lastModified : undefined };
  }

  return {
    async create(schema, id, data, publish) {
      // Created under the id the store made (Squidex's `?id=`): a create, never an overwrite of an item there.
      const res = await send(`create ${schema}/${id}`, "POST", path(schema), { json: data, query: { id, ...(publish ? { publish: "true" } : {}) } });
      return result(res, 0);
    },
    async apply(schema, id, version, set) {
      if (set.status !== undefined) return result(await send(`status ${schema}/${id}`, "PUT", path(schema, id, "/status"), { json: { status: set.status }, version }), version + 1);
      if (set.new_status === "Draft") return result(await send(`draft ${schema}/${id}`, "POST", path(schema, id, "/draft"), { version }), version + 1);
      if ("new_status" in set && set.new_status === null && set.data !== undefined) return result(await send(`discard draft ${schema}/${id}`, "DELETE", path(schema, id, "/draft"), { version }), version + 1);
      if (set.data !== undefined) return result(await send(`update ${schema}/${id}`, "PUT", path(schema, id), { json: JSON.parse(set.data), version }), version + 1);
      return { version };
    },
    async delete(schema, id, version) {
      await send(`delete ${schema}/${id}`, "DELETE", path(schema, id), { version });
    },
  };
}

const ACTOR = "client:squidex";

export function createAssetUpstream(remote: RemoteSquidex, app: string, log: Log = () => {}): AssetUpstream {
  const base = `api/apps/${encodeURIComponent(app)}/assets`;
  const assetPath = (id: string, tail = "") => `${base}/${encodeURIComponent(id)}${tail}`;
  const folderPath = (id?: string, tail = "") => `${base}/folders${id === undefined ? "" : `/${encodeURIComponent(id)}`}${tail}`;
  const send = sender(remote, log, "file");
  const sendFolder = sender(remote, log, "folder");
  /** Squidex's answer as a row; an answer that is no DTO of the thing asked is a failure, not a row. */
  const dto = async (res: Response, id?: string) => {
    const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    if (!body || typeof body.id !== "string" || (id !== undefined && body.id !== id) || typeof body.version !== "number") {
      log("Squidex answered a write with something that is not the asset", { status: res.status });
      throw new ContentError(503, UNREACHABLE, undefined, "UPSTREAM_UNAVAILABLE");
    }
    return body;
  };
  const asset = async (res: Response, id: string) => assetRow(await dto(res, id), ACTOR);
  const folder = async (res: Response, id?: string) => folderRow(await dto(res, id), ACTOR, new Date().toISOString());

  /** The multipart body Squidex takes a file in (the part `file`), with the folder when one is given. */
  const fileForm = ({ fileName, mimeType, body }: UpstreamFile, parentId?: string) => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(body)], { type: mimeType }), fileName);
    if (parentId !== undefined) form.append("parentId", parentId);
    return form;
  };

  return {
    async upload({ id, parentId, ...file }) {
      return asset(await send(`upload ${id}`, "POST", base, { body: fileForm(file, parentId), query: { id, parentId } }), id);
    },
    async replaceContent(id, version, file) {
      return asset(await send(`replace file of ${id}`, "PUT", assetPath(id, "/content"), { body: fileForm(file), version }), id);
    },
    async upsert(id, version, { parentId, ...file }) {
      return asset(await send(`upsert ${id}`, "POST", assetPath(id), { body: fileForm(file, parentId), query: { parentId }, ...(version === undefined ? {} : { version }) }), id);
    },
    async annotate(id, version, changes) {
      return asset(await send(`annotate ${id}`, "PUT", assetPath(id), { json: changes, version }), id);
    },
    async move(id, version, parentId) {
      return asset(await send(`move ${id}`, "PUT", assetPath(id, "/parent"), { json: { parentId }, version }), id);
    },
    async delete(id, version) {
      await send(`delete ${id}`, "DELETE", assetPath(id), { version });
    },
    async createFolder(folderName, parentId) {
      return folder(await sendFolder(`create folder ${folderName}`, "POST", folderPath(), { json: { folderName, parentId } }));
    },
    async renameFolder(id, version, folderName) {
      return folder(await sendFolder(`rename folder ${id}`, "PUT", folderPath(id), { json: { folderName }, version }), id);
    },
    async moveFolder(id, version, parentId) {
      return folder(await sendFolder(`move folder ${id}`, "PUT", folderPath(id, "/parent"), { json: { parentId }, version }), id);
    },
    async deleteFolder(id, version) {
      await sendFolder(`delete folder ${id}`, "DELETE", folderPath(id), { version });
    },
  };
}
