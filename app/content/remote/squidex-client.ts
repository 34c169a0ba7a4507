import { createHttpClient, type HttpClient } from "~/lib/http";

/**
 * A client of a remote Squidex app over its HTTP API (§7, §8; shapes in shared/squidex-contract.md):
 * the base of the remote-Squidex backend and of the content proxy to it.
 *
 * - **Token.** Client credentials at `identity-server/connect/token` (scope `squidex-api`), kept
 *   until a minute before it expires (`expires_in` is in seconds), fetched once for callers that
 *   ask together, and dropped and fetched again once when the API answers 401.
 * - **Headers by presence.** Squidex turns an `X-*` flag on when the header exists, whatever its
 *   value: a flag that is off is not sent at all, never as `false`.
 * - **Failures (§8).** The typed calls never throw: a failure is logged and answered with `null`
 *   (reads, writes) or `false` (deletes). A create or an upload is a success only with 201.
 *   `request()` is there for callers that want the Response itself.
 * - **Retries.** Reads, PUT and DELETE go through the one HTTP client's retry policy (408, 429,
 *   5xx, network failures); a POST is sent once.
 */
export interface RemoteSquidexConfig {
  /** The Squidex base URL, before `/api` (e.g. https://cloud.squidex.io). */
  url: string;
  app: string;
  clientId: string;
  clientSecret: string;
  /** Per try (default 10 s). */
  timeoutMs?: number;
  fetch?: typeof fetch;
  now?: () => number;
  /** Where failures are told (default: nowhere). */
  onError?: (message: string, details: Record<string, unknown>) => void;
}

export interface ReadOptions {
  /** Sent as X-Languages (only these language keys in localised fields). */
  languages?: readonly string[];
  /** X-Flatten: single-key partitions become plain values. */
  flatten?: boolean;
  /** X-Unpublished: drafts too. */
  unpublished?: boolean;
  /** X-NoTotal: no counting. */
  noTotal?: boolean;
}

export interface ContentQueryOptions extends ReadOptions {
  filter?: string;
  orderby?: string;
  search?: string;
  top?: number;
  skip?: number;
  ids?: readonly string[];
  /** A JSON query (`q`), which Squidex prefers over the OData options. */
  q?: unknown;
}

export interface RemoteContent {
  id: string;
  version: number;
  status: string;
  data: Record<string, unknown>;
  created?: string;
  lastModified?: string;
  [key: string]: unknown;
}

export interface WriteOptions {
  /** Optimistic concurrency: the version the caller read (412 from Squidex when it moved on). */
  ifMatch?: number;
}

/** One API call: JSON (`json`) or bytes as they are (`body`, e.g. the content proxy's). */
export interface RequestOptions {
  headers?: Record<string, string>;
  json?: unknown;
  body?: BodyInit;
  query?: Record<string, string | number | boolean | undefined>;
  /** "manual": a redirect is answered, not followed (the proxy goes nowhere the remote points to). */
  redirect?: RequestRedirect;
}

type Json = Record<string, unknown>;

/** Expired this long before Squidex says: a token is never sent in its last minute. */
const EXPIRY_MARGIN_MS = 60_000;

export class RemoteSquidexError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** What the remote said, when it said something. */
    readonly detail?: string,
  ) {
    super(message);
    this.name = "RemoteSquidexError";
  }
}

export function createRemoteSquidex(config: RemoteSquidexConfig) {
  const base = config.url.replace(/\/+$/, "");
  const app = encodeURIComponent(config.app);
  const now = config.now ?? Date.now;
  const http: HttpClient = createHttpClient({ baseURL: `${base}/`, fetch: config.fetch, timeoutMs: config.timeoutMs ?? 10_000 });
  const report = (message: string, details: Record<string, unknown>) => config.onError?.(message, { app: config.app, ...details });

  let token: { value: string; expiresAt: number } | null = null;
  let pending: Promise<string> | null = null;

  async function fetchToken(): Promise<string> {
    const body = new URLSearchParams({ grant_type: "client_credentials", client_id: config.clientId, client_secret: config.clientSecret, scope: "squidex-api" });
    // A token request changes nothing: it may be tried again.
    const res = await http("identity-server/connect/token", { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" }, idempotent: true });
    const answer = (await res.json().catch(() => ({}))) as { access_token?: unknown; expires_in?: unknown; error_description?: unknown };
    if (!res.ok || typeof answer.access_token !== "string") {
      const detail = typeof answer.error_description === "string" ? answer.error_description : undefined;
      throw new RemoteSquidexError(`The token request was refused (${res.status}${detail ? `: ${detail}` : ""}).`, res.status, detail);
    }
    const seconds = typeof answer.expires_in === "number" && answer.expires_in > 0 ? answer.expires_in : 3600;
    token = { value: answer.access_token, expiresAt: now() + seconds * 1000 - EXPIRY_MARGIN_MS };
    return token.value;
  }

  /** The cached token while it is good; one request for everyone who asks meanwhile. */
  function accessToken(): Promise<string> {
    if (token && token.expiresAt > now()) return Promise.resolve(token.value);
    pending ??= fetchToken().finally(() => {
      pending = null;
    });
    return pending;
  }

  /**
   * One API call with the token; a 401 drops the token and the call is tried once more with a new
   * one. Throws on network failures and on a refused token; any other answer is returned.
   */
  async function request(method: string, path: string, opts: RequestOptions = {}): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const bearer = await accessToken();
      const res = await http(path, { method, query: opts.query, json: opts.json, body: opts.body, redirect: opts.redirect, headers: { ...opts.headers, authorization: `Bearer ${bearer}` } });
      if (res.status !== 401 || attempt > 0) return res;
      void res.body?.cancel().catch(() => {});
      if (token?.value === bearer) token = null;
    }
  }

  /** A typed call: its answer when `ok` says so, else null with the failure told (§8). */
  async function call<T>(what: string, method: string, path: string, ok: (status: number) => boolean, opts: Parameters<typeof request>[2] = {}, read: (res: Response) => Promise<T> = (res) => res.json() as Promise<T>): Promise<T | null> {
    try {
      const res = await request(method, path, opts);
      if (ok(res.status)) return await read(res);
      const text = await res.text().catch(() => "");
      let message = text.slice(0, 300);
      try {
        const body = JSON.parse(text) as { message?: unknown };
        if (typeof body.message === "string") message = body.message;
      } catch {}
      report(`Squidex refused: ${what}`, { status: res.status, method, path, message });
      return null;
    } catch (error) {
      report(`Squidex could not be reached: ${what}`, { method, path, error: error instanceof Error ? error.message : String(error) });
      return null;
    }
  }

  const readHeaders = (opts: ReadOptions = {}): Record<string, string> => ({
    ...(opts.languages?.length ? { "X-Languages": opts.languages.join(",") } : {}),
    ...(opts.flatten ? { "X-Flatten": "1" } : {}),
    ...(opts.unpublished ? { "X-Unpublished": "1" } : {}),
    ...(opts.noTotal ? { "X-NoTotal": "1" } : {}),
  });
  const versionHeader = (opts: WriteOptions): Record<string, string> => (opts.ifMatch === undefined ? {} : { "If-Match": `"${opts.ifMatch}"` });
  const contentPath = (schema: string, id?: string, tail = "") => `api/content/${app}/${encodeURIComponent(schema)}${id === undefined ? "" : `/${encodeURIComponent(id)}`}${tail}`;
  const is = (...statuses: number[]) => (status: number) => statuses.includes(status);

  return {
    request,
    /** Forgets the token (tests; a secret rotated at the remote). */
    resetToken() {
      token = null;
    },

    queryContents(schema: string, opts: ContentQueryOptions = {}) {
      const query = {
        $filter: opts.filter,
        $orderby: opts.orderby,
        $search: opts.search,
        $top: opts.top,
        $skip: opts.skip,
        ids: opts.ids?.length ? opts.ids.join(",") : undefined,
        q: opts.q === undefined ? undefined : JSON.stringify(opts.q),
      };
      return call<{ total: number; items: RemoteContent[] }>(`query ${schema}`, "GET", contentPath(schema), is(200), { query, headers: readHeaders(opts) });
    },

    getContent(schema: string, id: string, opts: ReadOptions & { version?: number } = {}) {
      return call<RemoteContent>(`get ${schema}/${id}`, "GET", contentPath(schema, id), is(200), { query: { version: opts.version }, headers: readHeaders(opts) });
    },

    /** A new item (201 only), published at once when asked, with the caller's id when given. */
    createContent(schema: string, data: unknown, opts: { publish?: boolean; id?: string } = {}) {
      return call<RemoteContent>(`create in ${schema}`, "POST", contentPath(schema), is(201), { json: data, query: { publish: opts.publish ? true : undefined, id: opts.id } });
    },

    /** Create or update by id (Squidex's upsert); `patch` merges instead of replacing. */
    upsertContent(schema: string, id: string, data: unknown, opts: { publish?: boolean; patch?: boolean } = {}) {
      return call<RemoteContent>(`upsert ${schema}/${id}`, "POST", contentPath(schema, id), is(200, 201), { json: data, query: { publish: opts.publish ? true : undefined, patch: opts.patch ? true : undefined } });
    },

    /** PUT replaces the data, PATCH merges it; with `ifMatch`, only onto that version. */
    updateContent(schema: string, id: string, data: unknown, opts: WriteOptions & { method?: "PUT" | "PATCH" } = {}) {
      const method = opts.method ?? "PUT";
      return call<RemoteContent>(`${method === "PUT" ? "update" : "patch"} ${schema}/${id}`, method, contentPath(schema, id), is(200), { json: data, headers: versionHeader(opts) });
    },

    changeStatus(schema: string, id: string, status: string, opts: WriteOptions & { dueTime?: Date } = {}) {
      return call<RemoteContent>(`status of ${schema}/${id}`, "PUT", contentPath(schema, id, "/status"), is(200), { json: { status, ...(opts.dueTime ? { dueTime: opts.dueTime.toISOString() } : {}) }, headers: versionHeader(opts) });
    },

    async deleteContent(schema: string, id: string, opts: WriteOptions = {}): Promise<boolean> {
      return (await call(`delete ${schema}/${id}`, "DELETE", contentPath(schema, id), is(204, 200), { headers: versionHeader(opts) }, async () => true)) === true;
    },

    getSchema(name: string) {
      return call<Json>(`schema ${name}`, "GET", `api/apps/${app}/schemas/${encodeURIComponent(name)}`, is(200));
    },

    async listSchemas(): Promise<Json[] | null> {
      const answer = await call<{ items?: Json[] }>("schemas", "GET", `api/apps/${app}/schemas`, is(200));
      return answer ? (answer.items ?? []) : null;
    },

    getAsset(id: string) {
      return call<Json>(`asset ${id}`, "GET", `api/apps/${app}/assets/${encodeURIComponent(id)}`, is(200));
    },

    /** The asset's bytes (`api/assets/{app}/{id}`), or null. */
    async assetContent(id: string): Promise<Uint8Array | null> {
      return call(`asset content ${id}`, "GET", `api/assets/${app}/${encodeURIComponent(id)}`, is(200), {}, async (res) => new Uint8Array(await res.arrayBuffer()));
    },

    /** A multipart upload, into a folder when `parentId` is given; a success only with 201. */
    uploadAsset(file: { name: string; type: string; bytes: Uint8Array }, opts: { parentId?: string } = {}) {
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
      if (opts.parentId) form.append("ParentId", opts.parentId);
      return call<Json>(`upload ${file.name}`, "POST", `api/apps/${app}/assets`, is(201), { body: form, query: { parentId: opts.parentId } });
    },

    async deleteAsset(id: string): Promise<boolean> {
      return (await call(`delete asset ${id}`, "DELETE", `api/apps/${app}/assets/${encodeURIComponent(id)}`, is(204, 200), {}, async () => true)) === true;
    },
  };
}

export type RemoteSquidex = ReturnType<typeof createRemoteSquidex>;
