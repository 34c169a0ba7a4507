import type { AppLoadContext } from "react-router";
import type { ApiContext } from "~/content/public-api";
import { BUSY_RETRY_AFTER_SECONDS, contentErrorOf } from "~/content/errors";
import { readJson } from "./body";
import { logger } from "./logger.server";

/**
 * A JSON answer with its length: the compression middleware then leaves short answers (under its
 * 1 KB threshold) alone. `Response.json` streams without a length, so every answer, however small,
 * used to get a zlib stream of its own — that halved the rate of small POSTs.
 */
export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  const bytes = Buffer.from(JSON.stringify(body), "utf8");
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json");
  headers.set("Content-Length", String(bytes.length));
  return new Response(bytes, { ...init, headers });
}

/** One JSON error shape for every `/api` answer: `{ message, details?, statusCode }`. */
export function errorResponse(error: unknown, requestId?: string): Response {
  const known = contentErrorOf(error);
  if (known) {
    // A 413/415 goes out before the body is read: the server drops the rest of the upload (server/app.ts).
    // A busy database (503) says when to come back; the request changed nothing.
    const headers = known.statusCode === 503 ? { "Retry-After": String(BUSY_RETRY_AFTER_SECONDS) } : undefined;
    if (known !== error) logger.warn({ err: error, requestId }, "content store busy");
    return jsonResponse(known.toJSON(), { status: known.statusCode, headers });
  }
  logger.error({ err: error, requestId }, "unhandled API error");
  return jsonResponse({ message: "Internal server error.", statusCode: 500 }, { status: 500 });
}

export const methodNotAllowed = (allowed = "POST") =>
  jsonResponse({ message: `Use ${allowed} for this endpoint.`, statusCode: 405 }, { status: 405, headers: { Allow: allowed } });


/** Drafts and editor-only data go to signed-in editors only (the session the auth gate read). */
export function apiContext(context: AppLoadContext): ApiContext {
  const { store, cache, env } = context.services;
  return { store, cache, siteName: env.SITE_NAME, isEditor: !!context.user };
}

/** Every JSON resource route: POST with a JSON body in, JSON out, errors in the one shape. */
export const apiAction = {
  get: () => methodNotAllowed(),
  async post<T>(request: Request, context: AppLoadContext, handler: (body: unknown, ctx: ApiContext) => Promise<T>): Promise<Response> {
    if (request.method !== "POST") return methodNotAllowed();
    try {
      const body = await readJson(request, context.services.env.API_BODY_LIMIT_BYTES);
      return jsonResponse(await handler(body, apiContext(context)));
    } catch (error) {
      return errorResponse(error, context.requestId);
    }
  },
};
