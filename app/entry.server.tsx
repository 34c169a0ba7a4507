import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import type { AppLoadContext, EntryContext } from "react-router";
import { ServerRouter } from "react-router";
import { sealInlineScripts } from "./lib/inline-scripts.server";
import { scriptsAfterPaint } from "./lib/scripts-after-paint.server";
import { redactUrl } from "./lib/redact";
import { NonceContext } from "./root";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // React Router's inline scripts are marked during rendering and admitted by hash afterwards (see
  // sealInlineScripts): the same page gets the same bytes and the same policy on every view.
  const nonce = randomBytes(12).toString("base64url");
  // The whole document in one piece: loaders have finished before rendering starts (no deferred
  // data), so waiting for all of it costs nothing, and one buffer goes through compression and the
  // socket at once instead of React's ~2 KB chunks each through a Node stream, a web stream and zlib.
  return new Promise<Response>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let settled = false;
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        // Never split a finished part out of place (React does so past ~12.8 KB, to show a page's
        // top while the rest streams): the document goes out in one piece anyway, and each part
        // out of place costs the browser a hidden copy and a script to move it. Edit mode has one
        // Suspense boundary per block (app/editor/canvas.tsx).
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          const sink = new Writable({
            write(chunk: Buffer, _encoding, done) {
              chunks.push(chunk);
              done();
            },
            final(done) {
              settled = true;
              clearTimeout(timer);
              let markup = Buffer.concat(chunks).toString("utf8");
              // A visitor's page paints before it asks for its scripts; edit mode and the admin area
              // want theirs at once (they are tools, not reading).
              if (visitorPage(request)) markup = scriptsAfterPaint(markup, nonce).html;
              const { html, hashes } = sealInlineScripts(markup, nonce);
              responseHeaders.set("Content-Type", "text/html; charset=utf-8");
              if (loadContext.contentSecurityPolicy) responseHeaders.set("Content-Security-Policy", loadContext.contentSecurityPolicy(hashes));
              resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
              done();
            },
          });
          pipe(sink);
        },
        onShellError(error: unknown) {
          settled = true;
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Before the shell, React Router reports the error itself (handleError).
          if (shellRendered) loadContext.services.logger.error({ err: error, requestId: loadContext.requestId }, "render error");
        },
      },
    );
    const timer = setTimeout(() => {
      if (!settled) abort();
    }, streamTimeout + 1000);
  });
}

function visitorPage(request: Request): boolean {
  const url = new URL(request.url);
  return !/^\/(manage|login)(\/|$)/.test(url.pathname) && url.searchParams.get("edit") !== "1" && url.searchParams.get("preview") !== "1";
}

/** Errors in loaders, actions and rendering go to the structured log (not the console), once. */
export function handleError(error: unknown, { request, context }: { request: Request; context: AppLoadContext }) {
  if (request.signal.aborted) return;
  context.services.logger.error({ err: error, requestId: context.requestId, url: redactUrl(new URL(request.url).pathname) }, "request failed");
}
