import { ContentError } from "../errors";

/**
 * The allow-list of the content proxy (`/api/squidex/*` with SQUIDEX_URL set; spec §7): which
 * requests may be passed to the configured Squidex, checked on the raw request target before
 * anything is decoded or resolved. Anything not listed here is refused, so the proxy can reach
 * no other host and no other path of that host. See docs/decisions/0036-squidex-proxy.md.
 *
 * A target passes when
 * - it is origin-form (`/api/squidex/...`), not absolute (`http://host/...`), and short;
 * - its path holds no backslash, no control character, no percent-encoded `/`, `\` or `.`, no
 *   `.` or `..` segment and no empty segment (`//host`), and every escape decodes;
 * - method and shape are one of ROUTES below, the app is the configured one and every name or
 *   id is of Squidex's characters (so nothing in it can mean anything to a URL parser);
 * - its query names only the parameters that route takes, once each.
 */

/** Longer paths are no request of a Squidex client. */
export const MAX_PATH_BYTES = 1024;
/** A long OData filter or JSON query fits; a query meant to exhaust memory does not. */
export const MAX_QUERY_BYTES = 8 * 1024;

/** What a checked request is for. */
export type ProxyKind =
  | "token"
  | "query-contents"
  | "create-content"
  | "get-content"
  | "update-content"
  | "patch-content"
  | "delete-content"
  | "graphql"
  | "get-schema"
  | "get-asset"
  | "delete-asset"
  | "upload-asset";

export interface ProxyTarget {
  kind: ProxyKind;
  method: string;
  /** The upstream path, relative to the configured base URL, every segment re-encoded. */
  path: string;
  /** The checked query parameters, to be re-encoded by the caller. */
  query: Record<string, string>;
  schema?: string;
  id?: string;
}

/** Squidex's app and schema names. */
const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** Content and asset ids: GUIDs, or custom ids of letters, digits, `-` and `_`. */
const ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;

const CONTENT_LIST_QUERY = ["$filter", "$orderby", "$search", "$top", "$skip", "q", "ids"];
const GRAPHQL_QUERY = ["query", "variables", "operationName"];

interface Route {
  kind: ProxyKind;
  method: string;
  /** Fixed words (lower case) and placeholders: `{app}`, `{schema}`, `{id}`. */
  shape: readonly string[];
  query: readonly string[];
}

const ROUTES: readonly Route[] = [
  { kind: "token", method: "POST", shape: ["identity-server", "connect", "token"], query: [] },
  { kind: "graphql", method: "GET", shape: ["api", "content", "{app}", "graphql"], query: GRAPHQL_QUERY },
  { kind: "graphql", method: "POST", shape: ["api", "content", "{app}", "graphql"], query: [] },
  { kind: "query-contents", method: "GET", shape: ["api", "content", "{app}", "{schema}"], query: CONTENT_LIST_QUERY },
  { kind: "create-content", method: "POST", shape: ["api", "content", "{app}", "{schema}"], query: ["publish", "id"] },
  { kind: "get-content", method: "GET", shape: ["api", "content", "{app}", "{schema}", "{id}"], query: ["version"] },
  { kind: "update-content", method: "PUT", shape: ["api", "content", "{app}", "{schema}", "{id}"], query: [] },
  { kind: "patch-content", method: "PATCH", shape: ["api", "content", "{app}", "{schema}", "{id}"], query: [] },
  { kind: "delete-content", method: "DELETE", shape: ["api", "content", "{app}", "{schema}", "{id}"], query: ["permanent", "checkReferrers"] },
  { kind: "get-schema", method: "GET", shape: ["api", "apps", "{app}", "schemas", "{schema}"], query: [] },
  { kind: "upload-asset", method: "POST", shape: ["api", "apps", "{app}", "assets"], query: ["parentId", "duplicate"] },
  { kind: "get-asset", method: "GET", shape: ["api", "apps", "{app}", "assets", "{id}"], query: [] },
  { kind: "delete-asset", method: "DELETE", shape: ["api", "apps", "{app}", "assets", "{id}"], query: ["checkReferrers"] },
];

const refuse = (status: number, message: string) => new ContentError(status, message, undefined, "PROXY_REFUSED");

/**
 * The checked target of a request to the proxy, or a ContentError (400, 404, 405, 414) saying why
 * not. `target` is the raw request target as it arrived (`req.originalUrl`), `mount` the proxy's
 * prefix (`/api/squidex`), `app` the configured app.
 */
export function checkProxyTarget(method: string, target: string, mount: string, app: string): ProxyTarget | ContentError {
  // Absolute-form (`GET http://evil/...`) and anything else that is not a plain path.
  if (!target.startsWith("/") || target.startsWith("//")) return refuse(400, "Only paths on this site are accepted.");
  const cut = target.indexOf("?");
  const rawPath = cut < 0 ? target : target.slice(0, cut);
  const rawQuery = cut < 0 ? "" : target.slice(cut + 1);
  if (Buffer.byteLength(rawPath) > MAX_PATH_BYTES) return refuse(414, `The path is longer than ${MAX_PATH_BYTES} bytes.`);
  if (Buffer.byteLength(rawQuery) > MAX_QUERY_BYTES) return refuse(414, `The query is longer than ${MAX_QUERY_BYTES} bytes.`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(target)) return refuse(400, "The request target holds control characters.");
  if (target.includes("#")) return refuse(400, "The request target holds a fragment.");
  if (rawPath.includes("\\") || /%5c/i.test(rawPath)) return refuse(400, "Backslashes are not accepted in the path.");
  if (/%2f/i.test(rawPath)) return refuse(400, "Encoded slashes are not accepted in the path.");
  if (/%2e/i.test(rawPath)) return refuse(400, "Encoded dots are not accepted in the path.");
  if (rawPath.slice(0, mount.length).toLowerCase() !== mount.toLowerCase() || (rawPath.length > mount.length && rawPath[mount.length] !== "/"))
    return refuse(404, "No such proxy path.");
  // One trailing slash is no segment (`assets/`); an empty segment elsewhere is (`//host`).
  const inner = rawPath.slice(mount.length + 1).replace(/\/$/, "");
  const raw = inner === "" ? [] : inner.split("/");
  const segments: string[] = [];
  for (const part of raw) {
    if (part === "") return refuse(400, "Empty path segments are not accepted.");
    if (part === "." || part === "..") return refuse(400, "Dot segments are not accepted in the path.");
    let decoded: string;
    try {
      decoded = decodeURIComponent(part);
    } catch {
      return refuse(400, "The path is not valid percent-encoding.");
    }
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(decoded)) return refuse(400, "The path holds control characters.");
    segments.push(decoded);
  }

  const shaped = ROUTES.filter((route) => matches(route, segments));
  if (!shaped.length) return refuse(404, `Not available through the content proxy: /${segments.join("/").slice(0, 200)}.`);
  const upper = method.toUpperCase();
  const route = shaped.find((r) => r.method === upper);
  if (!route) return refuse(405, `Use ${shaped.map((r) => r.method).join(" or ")} on this path.`);

  const values: { app?: string; schema?: string; id?: string } = {};
  route.shape.forEach((word, i) => {
    if (word.startsWith("{")) values[word.slice(1, -1) as "app" | "schema" | "id"] = segments[i]!;
  });
  if (values.app !== undefined && values.app !== app) return refuse(404, `App "${values.app.slice(0, 100)}" not found.`);
  if (values.schema !== undefined && !NAME.test(values.schema)) return refuse(400, "A schema name is lower-case letters, digits and dashes.");
  if (values.id !== undefined && !ID.test(values.id)) return refuse(400, "An id is letters, digits, dashes and underscores (at most 100).");

  const query = checkQuery(rawQuery, route.query);
  if (query instanceof ContentError) return query;
  const path = route.shape
    .map((word) => (word.startsWith("{") ? encodeURIComponent(values[word.slice(1, -1) as "app" | "schema" | "id"]!) : word))
    .join("/");
  return { kind: route.kind, method: route.method, path, query, ...(values.schema ? { schema: values.schema } : {}), ...(values.id ? { id: values.id } : {}) };
}

function matches(route: Route, segments: string[]): boolean {
  if (route.shape.length !== segments.length) return false;
  return route.shape.every((word, i) => word.startsWith("{") || word === segments[i]!.toLowerCase());
}

/** The query's parameters, each one the route takes (names as ASP.NET binds them: any case), once. */
function checkQuery(rawQuery: string, allowed: readonly string[]): Record<string, string> | ContentError {
  const query: Record<string, string> = {};
  if (rawQuery === "") return query;
  const names = new Map(allowed.map((name) => [name.toLowerCase(), name]));
  let params: URLSearchParams;
  try {
    // URLSearchParams replaces bad escapes instead of throwing: check them first.
    for (const pair of rawQuery.split("&")) decodeURIComponent(pair.replace(/\+/g, " "));
    params = new URLSearchParams(rawQuery);
  } catch {
    return refuse(400, "The query is not valid percent-encoding.");
  }
  for (const [key, value] of params) {
    const name = names.get(key.toLowerCase());
    if (!name) return refuse(400, `The query parameter "${key.slice(0, 50)}" is not accepted on this path.`);
    if (name in query) return refuse(400, `The query parameter "${name}" is given twice.`);
    query[name] = value;
  }
  return query;
}
