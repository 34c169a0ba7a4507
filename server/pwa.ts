import express from "express";
import { readBuildInfo } from "../app/pwa/build-info.server";
import { routeRules } from "../app/pwa/route-rules";
import { CRITICAL_PAGES_URL, serviceWorkerScript } from "../app/pwa/sw-script.server";
import { SESSION_COOKIE } from "../app/auth/session.server";

/**
 * The service worker (`/sw.js`, made once per start for the build on disk) and the build pointers
 * pages poll (`/builds/latest.json`, `/builds/meta/{id}.json`). Nothing here without a build.
 */
export function pwaMiddleware(clientDir: string, criticalPaths: () => Promise<string[]>): express.Router {
  const router = express.Router();
  const build = readBuildInfo(clientDir);
  if (!build) return router;
  const script = serviceWorkerScript(build.id, build.shell);
  const meta = JSON.stringify(routeRules(build.id));
  router.get("/sw.js", (_req, res) => {
    // Always asked again: a new build must reach browsers with the next check, not in a day.
    res.set({ "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-cache" }).send(script);
  });
  // The pages marked critical (both languages): the worker keeps them for offline once it is active.
  router.get(CRITICAL_PAGES_URL, (_req, res, next) => {
    criticalPaths().then((paths) => void res.set("Cache-Control", "no-cache").json({ paths }), next);
  });
  router.get("/builds/latest.json", (_req, res) => {
    res.set("Cache-Control", "no-cache").json({ id: build.id });
  });
  router.get("/builds/meta/:file", (req, res) => {
    const file = req.params.file ?? "";
    if (file !== `${build.id}.json`) {
      res.status(404).set("Cache-Control", "no-cache").json({ message: `No route rules for build '${file.replace(/\.json$/, "").slice(0, 40)}': the current build is ${build.id}.`, statusCode: 404 });
      return;
    }
    // A build's rules never change under its id.
    res.set({ "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=31536000, immutable" }).send(meta);
  });
  return router;
}

const SESSION_COOKIE_PATTERN = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=`);

/**
 * Answers to a browser that carries a session cookie are about a signed-in person: `private,
 * no-store`, so neither a shared cache nor the service worker (which cannot see HttpOnly cookies,
 * but sees this header) keeps them. Decided as the headers go out: a route that said so itself
 * keeps its words; anything else (a page's `no-cache`, a CDN's `public`) is replaced.
 */
export const privateForSignedIn: express.RequestHandler = (req, res, next) => {
  if (!SESSION_COOKIE_PATTERN.test(req.headers.cookie ?? "")) return next();
  const writeHead = res.writeHead;
  res.writeHead = function (this: express.Response, ...args: unknown[]) {
    if (!this.headersSent) {
      const current = this.getHeader("cache-control");
      const value = Array.isArray(current) ? current.join(", ") : String(current ?? "");
      if (!/\bprivate\b/i.test(value) || !/\bno-store\b/i.test(value)) this.setHeader("Cache-Control", "private, no-store");
    }
    return (writeHead as (...a: unknown[]) => express.Response).apply(this, args);
  } as express.Response["writeHead"];
  next();
};
