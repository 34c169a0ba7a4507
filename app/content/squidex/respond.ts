import { ContentError, badRequest } from "../errors";
import type { ContentClient } from "../client";
import type { ContentStore } from "../store";
import type { SquidexAuth } from "./auth";
import { parseJsonText, readBody } from "../../lib/body";

/**
 * The request/response layer every Squidex resource module shares (contents, assets, schemas,
 * apps/ping, identity): the light request view, the JSON answers, the `ErrorDto` for errors and the
 * header conventions (`X-*` flags by presence, `If-Match` versions). See shared/squidex-contract.md.
 */

/**
 * What the API reads of a request. The Express mount (server/squidex.ts) passes a light view of
 * Node's request: no Fetch `Request` and no web streams per call (a tenth of what a create cost).
 */
export interface ApiRequest {
  readonly method: string;
  /** Absolute, the path still percent-encoded. */
  readonly url: string;
  readonly headers: { get(name: string): string | null; has(name: string): boolean };
  /** The body, refused beyond `limit` bytes (413) without reading more. */
  readBody(limit: number): Promise<Buffer>;
  /** A signed-in editor's session (the admin area calls the API with its cookie, not a token). */
  readonly session?: { userId: string; email: string; superuser: boolean };
}

/** An answer: always JSON text, or nothing. */
export interface ApiAnswer {
  status: number;
  headers: Record<string, string>;
  /** JSON text, or the bytes of an asset. */
  body: string | Uint8Array | null;
}

export interface SquidexHttpContext {
  store: ContentStore;
  /** The one content client: GraphQL reads through it, with its visibility rules. */
  content: ContentClient;
  auth: SquidexAuth;
  appName: string;
  jsonLimit: number;
  assetLimit: number;
  /** Hosts an asset may be downloaded from though private (ASSET_URL_ALLOW_HOSTS; remote-file.server.ts). */
  downloadAllowHosts?: ReadonlySet<string>;
}

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}): ApiAnswer => ({
  status,
  headers: { "Content-Type": "application/json", ...headers },
  body: JSON.stringify(body),
});

export const empty = (status: number, headers: Record<string, string> = {}): ApiAnswer => ({ status, headers, body: null });

/** An `ErrorDto` answer; a 401 also names the scheme the client should use. */
export const error = (e: ContentError): ApiAnswer =>
  json(e.toJSON(), e.statusCode, e.statusCode === 401 ? { "WWW-Authenticate": 'Bearer realm="squidex"' } : {});

/** A 501 with a message: the endpoint exists in Squidex, this service does not offer it. */
export const notImplemented = (message: string) => new ContentError(501, message, undefined, "NOT_IMPLEMENTED");

/** `X-*` flags count by presence, whatever their value (as in Squidex). */
export const has = (request: ApiRequest, name: string) => request.headers.has(name);

export async function readJsonBody(request: ApiRequest, ctx: SquidexHttpContext): Promise<unknown> {
  // Squidex answers a body it cannot read as a validation error with the reason in the details.
  return parseJsonText((await readBody(request, ctx.jsonLimit)).toString("utf8"), (reason) => new ContentError(400, "Validation error", [reason]));
}

export function expectedVersion(request: ApiRequest): number | undefined {
  const raw = request.headers.get("if-match");
  if (!raw || raw.trim() === "*") return undefined;
  const n = Number(raw.replace(/^W\//, "").replace(/"/g, ""));
  if (!Number.isInteger(n)) throw badRequest(`If-Match must be a version number, got ${raw}.`);
  return n;
}

/** A query parameter whatever the case of its name (ASP.NET binds them so). */
export function queryParam(url: URL, name: string): string | null {
  const wanted = name.toLowerCase();
  for (const [key, value] of url.searchParams) if (key.toLowerCase() === wanted) return value;
  return null;
}

/**
 * A due time as Squidex takes it (an ISO 8601 instant; null or absent: none). Anything else is a 400
 * that says what is wanted; whether it lies in the future the store checks.
 */
export function parseDueTime(value: unknown, name: string): Date | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
  const date = typeof value === "string" && iso.test(value.trim()) ? new Date(value.trim()) : undefined;
  if (!date || Number.isNaN(date.getTime())) throw badRequest(`"${name}" must be a date and time with its zone, e.g. "2026-12-01T08:00:00Z", or null to change the status now.`);
  return date;
}
