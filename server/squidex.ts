import type { IncomingMessage } from "node:http";
import { promisify } from "node:util";
import { gzip as gzipCallback } from "node:zlib";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import { handleSquidex, type ApiAnswer, type ApiRequest, type SquidexHttpContext } from "../app/content/squidex/http";
import { ContentError } from "../app/content/errors";
import { createSquidexProxy, type ProxyRequest } from "../app/content/remote/proxy";
import { errorResponse } from "../app/lib/api.server";
import { tooLarge } from "../app/lib/body";
import { requestOrigin } from "../app/lib/request-origin.server";
import type { Services } from "../app/services.server";
import { userOf } from "./auth-gate";

/**
 * The Squidex HTTP API (app/content/squidex/http.ts) as Express middleware, ahead of the page-only
 * middleware, static files, the page cache and React Router. The handler sees a light view of Node's
 * request (the path still percent-encoded, so each segment is decoded once by the adapter) and
 * answers JSON text, written back in one piece with its length, gzipped when large.
 *
 * With SQUIDEX_URL set, the same paths go to that Squidex instead, through the content proxy
 * (app/content/remote/proxy.ts), which sees the raw request target and answers the same way.
 */
export const MOUNT = "/api/squidex";

const gzip = promisify(gzipCallback);

/** JSON answers are no documents: nothing in them may run, frame or be sniffed as something else. */
const API_HEADERS: Record<string, string> = {
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Resource-Policy": "same-origin",
};
/** Smaller answers go out as they are: gzip would cost more than it saves. */
const GZIP_FROM_BYTES = 1024;

export function squidexMiddleware(services: Services) {
  const { store, content, squidexAuth, env, remoteSquidex, mirror, auth, logger } = services;
  const ctx: SquidexHttpContext = {
    store,
    content,
    auth: squidexAuth,
    appName: env.SQUIDEX_APP_NAME,
    jsonLimit: env.API_BODY_LIMIT_BYTES,
    assetLimit: env.ASSET_MAX_BYTES,
    downloadAllowHosts: env.ASSET_URL_ALLOW_HOSTS,
  };
  const proxy =
    remoteSquidex && env.SQUIDEX_APP
      ? createSquidexProxy({
          remote: remoteSquidex,
          app: env.SQUIDEX_APP,
          mount: MOUNT,
          jsonLimit: env.API_BODY_LIMIT_BYTES,
          assetLimit: env.ASSET_MAX_BYTES,
          audit: (user, record) => auth.audit.record(user, record),
          // An asset the remote took (the library's upload, a delete) is pulled into the mirror before
          // the answer goes out, so the library shows it at once; content waits for the webhook.
          ...(mirror ? { written: ({ kind, id }) => (kind === "upload-asset" || kind === "delete-asset" ? mirror.pullAsset(id) : Promise.resolve()) } : {}),
          log: {
            warn: (details, message) => logger.warn(details, message),
            error: (details, message) => logger.error(details, message),
          },
        })
      : null;

  return async (req: ExpressRequest, res: ExpressResponse, next: (error?: unknown) => void) => {
    try {
      const request = apiRequest(req);
      let answer: ApiAnswer;
      try {
        if (proxy) answer = await proxy(proxyRequest(req, request));
        else {
          // The API path after the mount point, still percent-encoded (dot segments resolved by the URL
          // parser; a path they lead out of the API names nothing here).
          const pathname = new URL(request.url).pathname;
          const raw = pathname.toLowerCase().startsWith(MOUNT) ? pathname.slice(MOUNT.length).replace(/^\/+/, "") : "";
          answer = await handleSquidex(request, raw, ctx);
        }
      } catch (error) {
        const response = errorResponse(error, String(req.id));
        const retryAfter = response.headers.get("Retry-After");
        answer = { status: response.status, headers: { "Content-Type": "application/json", ...(retryAfter ? { "Retry-After": retryAfter } : {}) }, body: await response.text() };
      }
      let bytes = answer.body === null ? undefined : Buffer.from(answer.body);
      const headers = { ...API_HEADERS, ...answer.headers };
      if (bytes) {
        headers.Vary = "Accept-Encoding";
        // Compressed on libuv's thread pool, not on the thread that serves requests.
        // Text only: an asset's image is compressed already.
        if (bytes.length >= GZIP_FROM_BYTES && /json|text|svg/i.test(headers["Content-Type"] ?? "") && /\bgzip\b/i.test(req.headers["accept-encoding"] ?? "")) {
          bytes = await gzip(bytes);
          headers["Content-Encoding"] = "gzip";
        }
        headers["Content-Length"] = String(bytes.length);
      }
      if (res.destroyed || res.writableEnded) return;
      res.writeHead(answer.status, headers);
      res.end(req.method === "HEAD" ? undefined : bytes);
    } catch (error) {
      if (res.destroyed) return;
      next(error);
    }
  };
}

function apiRequest(req: ExpressRequest): ApiRequest {
  const header = (name: string) => req.headers[name.toLowerCase()];
  const user = userOf(req);
  const request: ApiRequest = {
    ...(user ? { session: { userId: user.id, email: user.email, superuser: user.superuser } } : {}),
    method: req.method,
    url: `${requestOrigin(req)}${req.originalUrl}`,
    headers: {
      get: (name) => {
        const value = header(name);
        return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
      },
      has: (name) => header(name) !== undefined,
    },
    readBody: (limit) => readNodeBody(req, limit),
  };
  return request;
}

/** What the proxy reads: the raw target (no URL parser has resolved dots or backslashes in it). */
function proxyRequest(req: ExpressRequest, request: ApiRequest): ProxyRequest {
  return { method: request.method, target: req.originalUrl, headers: request.headers, readBody: request.readBody, ...(request.session ? { session: request.session } : {}) };
}

/**
 * Reads the body, at most `limit` bytes. Beyond it, reading stops and a 413 goes out; the server
 * reads and drops the rest (server/app.ts), so the client gets the answer, not a reset.
 */
export function readNodeBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (error?: Error) => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        done(tooLarge(limit));
      } else chunks.push(chunk);
    };
    const onEnd = () => done();
    const onError = () => done(new ContentError(400, "The request body could not be read."));
    const onClose = () => {
      if (!req.complete) done(new ContentError(400, "The request body ended before its end."));
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
}
