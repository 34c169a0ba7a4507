import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import { handleSquidex, type SquidexHttpContext } from "../app/content/squidex/http";
import { errorResponse } from "../app/lib/api.server";
import { requestOrigin } from "../app/lib/request-origin.server";
import type { Services } from "../app/services.server";

/**
 * The Squidex HTTP API (app/content/squidex/http.ts) as Express middleware, ahead of the page cache
 * and React Router. The request becomes a Fetch request the way React Router's Express adapter
 * makes one (the path still percent-encoded, so each segment is decoded once by the adapter; aborted
 * when the client goes away); the answer is written back the same way, streamed.
 */
export const MOUNT = "/api/squidex";

export function squidexMiddleware(services: Services) {
  const { store, squidexAuth, env } = services;
  const ctx: SquidexHttpContext = { store, auth: squidexAuth, appName: env.SQUIDEX_APP_NAME, jsonLimit: env.API_BODY_LIMIT_BYTES, assetLimit: env.ASSET_MAX_BYTES };

  return async (req: ExpressRequest, res: ExpressResponse, next: (error?: unknown) => void) => {
    try {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (Array.isArray(value)) for (const v of value) headers.append(name, v);
        else if (value) headers.set(name, value);
      }
      const aborted = new AbortController();
      res.on("close", () => {
        if (!res.writableFinished) aborted.abort();
      });
      const body = req.method === "GET" || req.method === "HEAD" ? {} : { body: createReadableStreamFromReadable(req), duplex: "half" };
      const request = new Request(`${requestOrigin(req)}${req.originalUrl}`, { method: req.method, headers, signal: aborted.signal, ...body } as RequestInit);
      // The API path after the mount point, still percent-encoded (dot segments resolved by the URL
      // parser, as before; a path they lead out of the API names nothing here).
      const pathname = new URL(request.url).pathname;
      const raw = pathname.toLowerCase().startsWith(MOUNT) ? pathname.slice(MOUNT.length).replace(/^\/+/, "") : "";
      let response: Response;
      try {
        response = await handleSquidex(request, raw, ctx);
      } catch (error) {
        response = errorResponse(error, String(req.id));
      }
      if (res.destroyed || res.writableEnded) {
        await response.body?.cancel();
        return;
      }
      res.status(response.status);
      response.headers.forEach((value, name) => res.append(name, value));
      if (!response.body || req.method === "HEAD") {
        await response.body?.cancel();
        res.end();
        return;
      }
      await writeReadableStreamToWritable(response.body, res);
    } catch (error) {
      if (res.destroyed) return;
      next(error);
    }
  };
}
