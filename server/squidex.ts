import { Readable } from "node:stream";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import { handleSquidex, type SquidexHttpContext } from "../app/content/squidex/http";
import { errorResponse } from "../app/lib/api.server";
import { requestOrigin } from "../app/lib/request-origin.server";
import type { Services } from "../app/services.server";

/**
 * The Squidex HTTP API (app/content/squidex/http.ts) as Express middleware: the request becomes a
 * Fetch request (the path still percent-encoded, so each segment is decoded once by the adapter), the
 * answer is written back as it is, streamed when it is a file.
 */
export async function answerSquidex(req: ExpressRequest, res: ExpressResponse, services: Services): Promise<void> {
  const { store, squidexAuth, env } = services;
  const ctx: SquidexHttpContext = { store, auth: squidexAuth, appName: env.SQUIDEX_APP_NAME, jsonLimit: env.API_BODY_LIMIT_BYTES, assetLimit: env.ASSET_MAX_BYTES };
  const origin = requestOrigin(req)!;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const request = new Request(origin + req.originalUrl, {
    method: req.method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: "half" } : {}),
  } as RequestInit);
  const raw = new URL(request.url).pathname.replace(/^\/api\/squidex\/?/, "");
  let response: Response;
  try {
    response = await handleSquidex(request, raw, ctx);
  } catch (error) {
    response = errorResponse(error, String(req.id));
  }
  res.status(response.status);
  response.headers.forEach((value, name) => res.append(name, value));
  if (!response.body || req.method === "HEAD") {
    res.end();
    return;
  }
  Readable.fromWeb(response.body as import("node:stream/web").ReadableStream).pipe(res);
}
