import { ContentError, badRequest, notFound } from "../errors";
import { decodeComponent } from "../../lib/input";
import { readBody } from "../../lib/body";
import type { Principal } from "../policy";
import { allLanguages, appResource, appsRoot, info, ping } from "./apps";
import { assetContent, assets } from "./assets";
import { contents } from "./contents";
import { graphql } from "./graphql";
import { token } from "./identity";
import { schemas } from "./schemas";
import { error, notImplemented, type ApiAnswer, type ApiRequest, type SquidexHttpContext } from "./respond";

export type { ApiAnswer, ApiRequest, SquidexHttpContext } from "./respond";

/**
 * The Squidex HTTP API answered by the embedded store, under `/api/squidex` (so a Squidex client's
 * base URL is `{site}/api/squidex`): client-credentials tokens, contents, schemas, languages and
 * assets, with Squidex's headers (`X-Unpublished`, `X-Languages`, `X-Flatten`), status codes,
 * `If-Match`/`ETag` versions and `ErrorDto` bodies. See shared/squidex-contract.md.
 *
 * This module routes, and decides who is asking; one module per resource answers
 * (identity.ts, contents.ts with bulk.ts, graphql.ts, assets.ts, schemas.ts, apps.ts for ping, info,
 * the app and its languages), on the request/response layer they share (respond.ts). See
 * docs/decisions/0028-squidex-api-modules.md and 0034-graphql.md.
 */

export function fromFetchRequest(request: ApiRequest): ApiRequest {
  return { method: request.method, url: request.url, headers: request.headers, readBody: (limit) => readBody(request, limit) };
}

export async function handleSquidex(request: ApiRequest, subpath: string, ctx: SquidexHttpContext): Promise<ApiAnswer> {
  try {
    const parts = subpath.split("/").filter(Boolean).map((part) => {
      const decoded = decodeComponent(part);
      if (decoded === undefined) throw badRequest(`The path segment "${part.slice(0, 100)}" is not valid percent-encoding.`);
      return decoded;
    });
    const method = request.method.toUpperCase();
    if (parts[0]?.toLowerCase() === "identity-server" && parts[1]?.toLowerCase() === "connect" && parts[2]?.toLowerCase() === "token") {
      if (method !== "POST") throw new ContentError(405, "Use POST.");
      return await token(request, ctx);
    }
    if (parts[0]?.toLowerCase() !== "api") throw notFound(`No Squidex endpoint at /${subpath}.`);
    const [, areaName, app, ...rest] = parts;
    const area = areaName?.toLowerCase();
    // Anonymous in Squidex: the service's ping and info.
    if (area === "ping" && app === undefined) {
      if (method !== "GET") throw new ContentError(405, "Use GET.");
      return ping();
    }
    if (area === "info" && app === undefined) {
      if (method !== "GET") throw new ContentError(405, "Use GET.");
      return info();
    }
    // Asset content is public, as in Squidex for unprotected assets; who asks matters only for a protected one.
    if (area === "assets" && method === "GET") return await assetContent(request, rest[0] ?? app ?? "", ctx, () => principalOf(request, ctx));
    const by = await principalOf(request, ctx);
    if (!by) throw new ContentError(401, "Send a valid bearer token (POST identity-server/connect/token).");
    if (area === "apps" && app === undefined) return await appsRoot(request, method, by, ctx);
    if (area === "languages" && app === undefined) {
      if (method !== "GET") throw new ContentError(405, "Use GET.");
      return allLanguages();
    }
    if (area !== undefined && SERVICE_MANAGEMENT.has(area))
      throw notImplemented(`Squidex's ${area} endpoints are not supported by this service: it hosts the one app "${ctx.appName}" with one API client.`);
    if (area !== "content" && area !== "apps" && area !== "ping") throw notFound(`No Squidex endpoint at /${subpath}.`);
    if (app !== ctx.appName) throw notFound(`App "${app}" not found.`);
    // The app's ping needs access to the app (it is not anonymous).
    if (area === "ping" && !rest.length) {
      if (method !== "GET") throw new ContentError(405, "Use GET.");
      return ping();
    }
    // What each principal may do is the store's policy (policy.ts): every write below names `by`.
    if (area === "content" && rest[0]?.toLowerCase() === "graphql") return await graphql(request, method, rest.slice(1), by, ctx);
    if (area === "content") return await contents(request, method, rest, by, ctx);
    if (area === "apps") {
      const answer = await appResource(method, rest, by, ctx);
      if (answer) return answer;
      return rest[0] === "schemas" ? await schemas(request, method, rest.slice(1), by, ctx) : await assets(request, method, rest, by, ctx);
    }
    throw notFound(`No Squidex endpoint at /${subpath}.`);
  } catch (e) {
    if (e instanceof ContentError) return error(e);
    throw e;
  }
}

/** Squidex's service-wide management areas (users, teams, rules, news, ...), none offered here. */
const SERVICE_MANAGEMENT = new Set(["diagnostics", "event-consumers", "news", "rules", "teams", "templates", "user", "user-management", "users"]);

/** A client token stands for the site's owner; a session cookie for its signed-in person. */
async function principalOf(request: ApiRequest, ctx: SquidexHttpContext): Promise<Principal | null> {
  if (await ctx.auth.verify(request.headers.get("authorization"))) return { kind: "client", clientId: ctx.auth.clientId };
  const session = request.session;
  return session ? { kind: "user", userId: session.userId, email: session.email, superuser: session.superuser } : null;
}
