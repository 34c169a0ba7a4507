import type { AppLoadContext } from "react-router";
import type { ApiContext } from "~/content/public-api";
import { ContentError } from "~/content/errors";
import { logger } from "./logger.server";

/** One JSON error shape for every `/api` answer: `{ message, details?, statusCode }`. */
export function errorResponse(error: unknown, requestId?: string): Response {
  if (error instanceof ContentError) {
    // 413/415 are sent before the body is read: close the connection rather than reuse a half-read one.
    const headers = error.statusCode === 413 || error.statusCode === 415 ? { Connection: "close" } : undefined;
    return Response.json(error.toJSON(), { status: error.statusCode, headers });
  }
  logger.error({ err: error, requestId }, "unhandled API error");
  return Response.json({ message: "Internal server error.", statusCode: 500 }, { status: 500 });
}

/** Reads a JSON body, refusing more than `limit` bytes without buffering them. */
export async function readJson(request: Request, limit: number): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (type && !/^application\/(.+\+)?json\b/i.test(type)) throw new ContentError(415, "Send the body as application/json.");
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw new ContentError(413, `The request body is larger than ${limit} bytes.`);
  if (!request.body) return {};
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new ContentError(413, `The request body is larger than ${limit} bytes.`);
    }
    chunks.push(value);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text.trim()) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ContentError(400, "The request body is not valid JSON.");
  }
}

export const methodNotAllowed = (allowed = "POST") =>
  Response.json({ message: `Use ${allowed} for this endpoint.`, statusCode: 405 }, { status: 405, headers: { Allow: allowed } });


/** Until the auth issue lands nobody is an editor, so drafts and editor-only data never leave. */
export function apiContext(context: AppLoadContext): ApiContext {
  const { store, cache, env } = context.services;
  return { store, cache, siteName: env.SITE_NAME, isEditor: false };
}

/** Every JSON resource route: POST with a JSON body in, JSON out, errors in the one shape. */
export const apiAction = {
  get: () => methodNotAllowed(),
  async post<T>(request: Request, context: AppLoadContext, handler: (body: unknown, ctx: ApiContext) => Promise<T>): Promise<Response> {
    if (request.method !== "POST") return methodNotAllowed();
    try {
      const body = await readJson(request, context.services.env.API_BODY_LIMIT_BYTES);
      return Response.json(await handler(body, apiContext(context)));
    } catch (error) {
      return errorResponse(error, context.requestId);
    }
  },
};
