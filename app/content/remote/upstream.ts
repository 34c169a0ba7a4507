import { ContentError } from "../errors";
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

export function createUpstream(remote: RemoteSquidex, app: string, log: (message: string, details: Record<string, unknown>) => void = () => {}): ContentUpstream {
  const path = (schema: string, id?: string, tail = "") => `api/content/${encodeURIComponent(app)}/${encodeURIComponent(schema)}${id === undefined ? "" : `/${encodeURIComponent(id)}`}${tail}`;

  /** One write call; Squidex's refusals become the store's errors, with Squidex's words. */
  async function send(what: string, method: string, url: string, opts: { json?: unknown; version?: number; query?: Record<string, string> } = {}): Promise<Response> {
    let res: Response;
    try {
      res = await remote.request(method, url, { json: opts.json, query: opts.query, headers: opts.version === undefined ? {} : { "If-Match": `"${opts.version}"` } });
    } catch (error) {
      log("Squidex could not be reached for a write", { what, error: error instanceof Error ? error.message : String(error) });
      throw new ContentError(503, UNREACHABLE, undefined, "UPSTREAM_UNAVAILABLE");
    }
    if (res.ok) return res;
    const { message, details } = await messageOf(res);
    log("Squidex refused a write", { what, status: res.status, message });
    if (res.status === 409 || res.status === 412)
      throw new ContentError(409, `The item was changed on the content service meanwhile (${message || "newer version"}). Reload it and make the change again.`, details, "OBJECT_CONFLICT");
    if (res.status === 404) throw new ContentError(404, message || "The content service does not have this item (any more).", details);
    if (res.status === 400) throw new ContentError(400, message || "The content service refused the data.", details, "VALIDATION_ERROR");
    if (res.status === 401 || res.status === 403) throw new ContentError(503, "The content service refused this site's credentials: nothing was saved. Check SQUIDEX_CLIENT_ID and SQUIDEX_CLIENT_SECRET.", undefined, "UPSTREAM_UNAVAILABLE");
    throw new ContentError(503, UNREACHABLE, undefined, "UPSTREAM_UNAVAILABLE");
  }

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
