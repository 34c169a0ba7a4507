import { Kind, parse } from "graphql";
import { ContentError } from "../errors";
import { authorize, userPrincipal, type Action } from "../policy";
import { error, json, type ApiAnswer } from "../squidex/respond";
import { checkProxyTarget, type ProxyKind, type ProxyTarget } from "./proxy-path";
import { RemoteSquidexError, type RemoteSquidex } from "./squidex-client";

/**
 * The content proxy (spec §7): with SQUIDEX_URL set, `/api/squidex/*` is passed to that Squidex
 * for signed-in editors, with this server's client credentials (the remote client's token), on
 * the allow-list of proxy-path.ts. The browser's cookie and Authorization never leave this server,
 * the remote's token never reaches the browser, and the remote's answer comes back with a few
 * safe headers. Every write is checked by the one policy (policy.ts) and written to the audit log.
 * See docs/decisions/0036-squidex-proxy.md.
 */

export interface ProxyRequest {
  readonly method: string;
  /** The raw request target as it arrived (`req.originalUrl`): nothing decoded, nothing resolved. */
  readonly target: string;
  readonly headers: { get(name: string): string | null };
  readBody(limit: number): Promise<Buffer>;
  readonly session?: { userId: string; email: string; superuser: boolean };
}

export interface SquidexProxyConfig {
  remote: Pick<RemoteSquidex, "request">;
  /** The remote app (SQUIDEX_APP): the only app a path may name. */
  app: string;
  /** Where the proxy is mounted (`/api/squidex`). */
  mount: string;
  jsonLimit: number;
  assetLimit: number;
  audit(user: { id: string; email: string }, record: { action: string; schema?: string | null; itemId?: string | null; version?: number | null; detail?: string | null }): Promise<void>;
  log: { warn(details: Record<string, unknown>, message: string): void; error(details: Record<string, unknown>, message: string): void };
  /**
   * Told of each write the remote took (2xx), with what it wrote: the site's mirror of the remote
   * (decision 0037) pulls it before the answer goes out, so the editor's next page shows it.
   */
  written?(write: { kind: ProxyKind; schema?: string; id: string }): Promise<unknown>;
}

/** Request headers a Squidex client may choose; everything else (cookies, Authorization, hop headers) stays here. */
const FORWARDED_REQUEST_HEADERS = [
  "accept",
  "accept-language",
  "if-match",
  "x-languages",
  "x-flatten",
  "x-unpublished",
  "x-nototal",
  "x-noslowtotal",
  "x-resolve-urls",
  "x-fields",
];
/** Answer headers passed back; the rest (the remote's cookies, CORS, server names) is dropped. */
const FORWARDED_RESPONSE_HEADERS: Record<string, string> = {
  "content-type": "Content-Type",
  etag: "ETag",
  "last-modified": "Last-Modified",
  "content-disposition": "Content-Disposition",
  "retry-after": "Retry-After",
};
const MAX_HEADER_VALUE = 2048;
/** The most of a remote answer the proxy holds (an asset's metadata, a page of contents). */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
/** What the token endpoint answers: the session is what authenticates; this token grants nothing. */
export const SESSION_TOKEN = "session";

const WRITES: Partial<Record<ProxyKind, Action>> = {
  "create-content": "create",
  "update-content": "update",
  "patch-content": "update",
  "delete-content": "delete",
  "upload-asset": "uploadAsset",
  "delete-asset": "deleteAsset",
};

export function createSquidexProxy(config: SquidexProxyConfig) {
  return async function proxy(request: ProxyRequest): Promise<ApiAnswer> {
    try {
      return await pass(request, config);
    } catch (e) {
      if (e instanceof ContentError) return error(e);
      throw e;
    }
  };
}

async function pass(request: ProxyRequest, config: SquidexProxyConfig): Promise<ApiAnswer> {
  const session = request.session;
  // A bearer token is no way in: the embedded service's tokens mean nothing to the remote, and the
  // remote's are this server's alone. First of all: who is not signed in learns nothing, not even
  // which paths exist.
  if (!session) throw new ContentError(401, "Sign in first: the content proxy is for signed-in editors.");
  const target = checkProxyTarget(request.method, request.target, config.mount, config.app);
  if (target instanceof ContentError) throw target;
  if (target.kind === "token") return json({ access_token: SESSION_TOKEN, token_type: "Bearer", expires_in: 3600, scope: "squidex-api" });

  const by = userPrincipal({ id: session.userId, email: session.email, superuser: session.superuser });
  const action = WRITES[target.kind];
  if (action) authorize(by, action, target.schema ?? "");
  if (target.kind === "create-content" && target.query.publish?.toLowerCase() === "true") authorize(by, "publish", target.schema ?? "");

  const headers: Record<string, string> = {};
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = request.headers.get(name);
    if (value === null) continue;
    if (value.length > MAX_HEADER_VALUE) throw new ContentError(400, `The ${name} header is too long.`);
    headers[name] = value;
  }
  let body: Uint8Array<ArrayBuffer> | undefined;
  let mutation = false;
  if (target.method === "POST" || target.method === "PUT" || target.method === "PATCH") {
    const type = request.headers.get("content-type") ?? "";
    if (target.kind === "upload-asset") {
      if (!/^multipart\/form-data;.*\bboundary=/i.test(type)) throw new ContentError(415, "Upload the file as multipart/form-data.");
      body = new Uint8Array(await request.readBody(config.assetLimit + 64 * 1024));
    } else {
      if (!/^application\/(?:[\w.+-]*\+)?json\b/i.test(type)) throw new ContentError(415, "Send the body as application/json.");
      body = new Uint8Array(await request.readBody(config.jsonLimit));
    }
    if (type.length > MAX_HEADER_VALUE) throw new ContentError(400, "The content-type header is too long.");
    headers["content-type"] = type;
  }
  if (target.kind === "graphql") {
    mutation = hasMutation(target.method === "GET" ? (target.query.query ?? "") : body);
    if (mutation && !session.superuser) throw new ContentError(403, "GraphQL mutations through the content proxy are for superusers; editors change content through the content endpoints.", undefined, "FORBIDDEN");
  }

  const started = Date.now();
  const user = { id: session.userId, email: session.email };
  let answer: ApiAnswer;
  try {
    let res: Response;
    try {
      res = await config.remote.request(target.method, target.path, { headers, body, query: target.query, redirect: "manual" });
    } catch (e) {
      throw upstreamFailure(e, target, config, Date.now() - started);
    }
    answer = await answerOf(res, target, config);
  } catch (e) {
    // A write without an answer may still have happened at the remote: it is recorded as well.
    if ((action || mutation) && e instanceof ContentError) await audit(user, target, { status: e.statusCode, headers: {}, body: null }, config);
    throw e;
  }
  if (action || mutation) await audit(user, target, answer, config);
  const id = action && answer.status < 300 ? writtenOf(target, answer).itemId : null;
  if (id && config.written) {
    await config.written({ kind: target.kind, ...(target.schema ? { schema: target.schema } : {}), id }).catch((e: unknown) => {
      // The remote has it: the next pull or webhook brings it here.
      config.log.warn({ err: e, method: target.method, path: target.path }, "a write through the content proxy did not reach the mirror yet");
    });
  }
  return answer;
}

/** Whether a GraphQL request (GET's `query`, or a POST body of one query or a batch) holds a mutation. */
function hasMutation(source: string | Uint8Array | undefined): boolean {
  let queries: unknown[];
  if (typeof source === "string") queries = [source];
  else {
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(source ?? new Uint8Array()).toString("utf8"));
    } catch {
      throw new ContentError(400, "The GraphQL request is not valid JSON.");
    }
    queries = (Array.isArray(parsed) ? parsed : [parsed]).map((entry) => (entry && typeof entry === "object" ? (entry as { query?: unknown }).query : undefined));
  }
  return queries.some((query) => {
    if (typeof query !== "string") throw new ContentError(400, "Each GraphQL request needs its query as text.");
    try {
      return parse(query).definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION && d.operation !== "query");
    } catch {
      // What cannot be read here cannot be known to be a read.
      throw new ContentError(400, "The GraphQL query could not be read.");
    }
  });
}

async function answerOf(res: Response, target: ProxyTarget, config: SquidexProxyConfig): Promise<ApiAnswer> {
  if (res.status >= 300 && res.status < 400) {
    void res.body?.cancel().catch(() => {});
    config.log.warn({ status: res.status, method: target.method, path: target.path }, "the content service answered the proxy with a redirect");
    throw new ContentError(502, "The content service answered with a redirect, which the proxy does not follow.");
  }
  if (res.status === 401) {
    // Still 401 after a fresh token: this server's credentials are wrong, not the editor's session.
    void res.body?.cancel().catch(() => {});
    config.log.error({ method: target.method, path: target.path }, "the content service refused this server's token");
    throw new ContentError(502, "The content service refused this server's credentials.");
  }
  const bytes = await readCapped(res, MAX_ANSWER_BYTES);
  if (!bytes) {
    config.log.warn({ method: target.method, path: target.path }, "the content service's answer was too large for the proxy");
    throw new ContentError(502, "The content service's answer is too large for the proxy.");
  }
  const headers: Record<string, string> = { "Cache-Control": "private, no-store" };
  for (const [name, canonical] of Object.entries(FORWARDED_RESPONSE_HEADERS)) {
    const value = res.headers.get(name);
    if (value !== null) headers[canonical] = value;
  }
  const empty = res.status === 204 || res.status === 205 || bytes.length === 0;
  return { status: res.status, headers, body: empty ? null : bytes };
}

/** The whole body, or null past `limit` bytes (then the rest is not read). */
async function readCapped(res: Response, limit: number): Promise<Uint8Array | null> {
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > limit) {
    void res.body?.cancel().catch(() => {});
    return null;
  }
  if (!res.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      void reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

function upstreamFailure(e: unknown, target: ProxyTarget, config: SquidexProxyConfig, ms: number): ContentError {
  const details = { method: target.method, path: target.path, ms, error: e instanceof Error ? e.message : String(e) };
  if (e instanceof RemoteSquidexError) {
    config.log.error({ ...details, status: e.status }, "the content service refused this server's credentials");
    return new ContentError(502, "The content service refused this server's credentials.");
  }
  if (e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError")) {
    config.log.warn(details, "the content service did not answer the proxy in time");
    return new ContentError(504, "The content service did not answer in time. Try again in a moment.");
  }
  config.log.warn(details, "the content service could not be reached by the proxy");
  return new ContentError(502, "The content service cannot be reached. Try again in a moment.");
}

/** What a write names: the path's id, or the one in the remote's answer (a create), and its version. */
function writtenOf(target: ProxyTarget, answer: ApiAnswer): { itemId: string | null; version: number | null } {
  let itemId = target.id ?? null;
  let version: number | null = null;
  if (answer.body && answer.status < 300 && /json/i.test(answer.headers["Content-Type"] ?? "")) {
    try {
      const parsed = JSON.parse(Buffer.from(answer.body).toString("utf8")) as { id?: unknown; version?: unknown };
      if (typeof parsed.id === "string") itemId ??= parsed.id;
      if (typeof parsed.version === "number") version = parsed.version;
    } catch {}
  }
  return { itemId, version };
}

/** One audit line per write through the proxy: who, what path, what the remote answered. */
async function audit(user: { id: string; email: string }, target: ProxyTarget, answer: ApiAnswer, config: SquidexProxyConfig): Promise<void> {
  const { itemId, version } = writtenOf(target, answer);
  const query = new URLSearchParams(target.query).toString();
  const detail = `${target.method} ${target.path}${query ? `?${query}` : ""} → ${answer.status}`;
  try {
    await config.audit(user, { action: `proxy-${target.kind}`, schema: target.schema ?? null, itemId: itemId?.slice(0, 100) ?? null, version, detail });
  } catch (e) {
    // The remote has changed already: the answer goes out, the missing line is told loudly.
    config.log.error({ err: e, user: user.id, detail }, "a write through the content proxy could not be written to the audit log");
  }
}
