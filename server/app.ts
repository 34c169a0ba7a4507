import { randomUUID } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import { precompressedAssets, themeStylesheet } from "./precompressed";
import express from "express";
import helmet from "helmet";
import type { LevelWithSilent } from "pino";
import { pinoHttp } from "pino-http";
import type { ServerBuild } from "react-router";
import { parseConsent } from "../app/consent/consent";
import { parseEnv, type Env } from "../app/env.server";
import { logger } from "../app/lib/logger.server";
import { redactUrl } from "../app/lib/redact";
import { createServices, type Services } from "../app/services.server";
import { requestOrigin } from "../app/lib/request-origin.server";
import { authGate, routeTable, userOf, type RouteTable } from "./auth-gate";
import { CdnPurger } from "./cdn";
import { PageCache } from "./page-cache";
import { privateForSignedIn, pwaMiddleware } from "./pwa";
import { MOUNT as SQUIDEX_MOUNT, squidexMiddleware } from "./squidex";
import { analyticsFastPath } from "./analytics-endpoint";
import { contentSecurityPolicy, crossSiteGuard, defaultContentSecurityPolicy, PERMISSIONS_POLICY, staticHeaders, transportSecurity } from "./security";

declare module "react-router" {
  interface AppLoadContext {
    services: Services;
    /** This response's Content-Security-Policy, admitting the page's own inline scripts by hash (not in development). */
    contentSecurityPolicy?: (scriptHashes: readonly string[]) => string;
    /** Origins of third-party scripts this page loads (the visitor allowed their category): its CSP admits them. */
    scriptOrigins?: Set<string>;
    requestId: string;
    /** The visitor's address (through trusted proxies only): rate limits count per address. */
    clientIp: string;
    /** The signed-in user (from the sealed session cookie, checked by the auth gate), or null. */
    user: import("../app/auth/users.server").User | null;
    /** Whether the request came over HTTPS (session cookies are Secure then). */
    secure: boolean;
  }
}

export interface AppOptions {
  /** Development: Vite's middlewares and a way to load the current build. */
  vite?: { middlewares: express.RequestHandler; ssrLoadModule(id: string): Promise<Record<string, unknown>> };
  clientDir?: string;
  env?: Env;
}

/**
 * The whole HTTP app: logging with request ids, security headers, compression, hashed assets with
 * immutable caching, `/healthz`, then React Router (pages and `/api/*` resource routes).
 */
export async function createApp(opts: AppOptions = {}) {
  const env = opts.env ?? parseEnv();
  logger.level = env.LOG_LEVEL;
  const app = express();
  app.disable("x-powered-by");
  // X-Forwarded-For/-Proto/-Host count only from the proxies TRUST_PROXY names (none by default):
  // trusted from any local client, they let it pick the address the per-address limits count.
  app.set("trust proxy", env.TRUST_PROXY);
  const pageCache = new PageCache({
    trustProxy: app.get("trust proxy fn"),
    ttlMs: env.CACHE_TTL_SECONDS * 1000,
    cdnSeconds: env.CDN_CACHE_SECONDS,
    purger: env.CDN_PURGE_URL ? new CdnPurger(env.CDN_PURGE_URL, env.CDN_PURGE_TOKEN, logger) : undefined,
    logger,
  });
  // The renderer (React Router's build: routes, React, the rich-text tools) loads while the store
  // opens, and is not waited for: the server listens (and /healthz answers) before it is there;
  // /readyz says when it is, with the critical pages rendered.
  const buildLoading = opts.vite ? undefined : (import("virtual:react-router/server-build") as Promise<ServerBuild>);
  buildLoading?.catch(() => {});
  const services = await createServices(env, logger, pageCache);
  const dev = !!opts.vite;

  app.use(
    pinoHttp({
      logger,
      genReqId: (req, res) => {
        const incoming = req.headers["x-request-id"];
        const id = typeof incoming === "string" && /^[\w.-]{1,100}$/.test(incoming) ? incoming : randomUUID();
        res.setHeader("X-Request-Id", id);
        return id;
      },
      customLogLevel: (_req, res, err): LevelWithSilent => (err || res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info"),
      serializers: {
        // Addresses in paths (/newsletter/{email}) and tokens in links stay out of the log.
        req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, url: redactUrl(req.url) }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
      autoLogging: { ignore: (req) => req.url === "/healthz" || req.url === "/readyz" || !!req.url?.startsWith("/assets/") },
    }),
  );
  // An answer sent before the request body was read to its end (413, 415, a 403 to a form post): Node
  // reads and drops the rest, so the client receives the answer instead of a connection reset in the
  // middle of its upload. A client still sending after a few seconds is cut off.
  app.use((req, res, next) => {
    res.once("finish", () => {
      if (req.complete) return;
      // Whatever still listens (the unread request stream) gets nothing more: read and discard.
      req.removeAllListeners("data");
      req.on("data", () => {});
      req.resume();
      const timer = setTimeout(() => req.socket.destroy(), 5000);
      timer.unref();
      const done = () => clearTimeout(timer);
      req.once("end", done);
      req.once("close", done);
    });
    next();
  });
  if (!dev) {
    app.use(transportSecurity(env.HSTS_INCLUDE_SUBDOMAINS));
    // The build's files (scripts, stylesheets, fonts, icons) are the same for everyone: answered
    // here, ahead of the request log, the session read and the route gate, which a first visit
    // would otherwise run 25-30 times for bytes that need none of them.
    const clientDir = path.resolve(opts.clientDir ?? path.join(process.env.BUILD_DIR || "build", "client"));
    app.use(staticHeaders);
    app.use("/assets", precompressedAssets(path.join(clientDir, "assets")));
    app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
    // The build's manifest (build/client/.vite) is the server's to read, not a file to serve.
    app.use(express.static(clientDir, { maxAge: "1h", index: false, dotfiles: "ignore" }));
    // The service worker and the build pointers: made from the build on disk, no session needed.
    app.use(pwaMiddleware(clientDir, async () => (await import("../app/site/site.server")).criticalPaths(services)));
    app.use(
      themeStylesheet(async () => {
        const { loadSite } = await import("../app/site/site.server");
        const site = await loadSite({ services, requestId: "theme-stylesheet" } as unknown as Parameters<typeof loadSite>[0]);
        return { hash: site.theme.hash, css: site.theme.css };
      }),
    );
  }
  app.use(privateForSignedIn);
  app.use(crossSiteGuard(env.PUBLIC_ORIGIN));
  // Host and proxy headers become the URL of the request and of every link on the page: refuse
  // what cannot be one here, not deep inside the renderer.
  app.use((req, res, next) => {
    if (requestOrigin(req)) return next();
    res.status(400).json({ message: "The Host or X-Forwarded-* headers do not form a valid origin.", statusCode: 400 });
  });

  // Sessions and route middleware (app/auth/access.ts): after the origin checks, before anything that
  // answers for a signed-in user. The route table comes with the build; in development loaders check alone.
  let table: RouteTable | undefined;
  const tableReady = buildLoading?.then((build) => (table = routeTable(build)));
  tableReady?.catch(() => {});
  app.use(authGate(services.auth, () => table ?? tableReady));

  // The Squidex HTTP API is an adapter over the store, not a page: answered here, with headers of its
  // own (server/squidex.ts), ahead of what only pages need (CSP nonces, consent, compression
  // streams), static files, the page cache and React Router.
  app.use(SQUIDEX_MOUNT, squidexMiddleware(services));

  // The map's tile service may be contacted only by visitors who allowed functional cookies, and by
  // the admin's place control (a tool of the people signed in there, never shown to visitors).
  const mapOrigin = new URL(env.MAP_STYLE_URL).origin;
  const isAdmin = (path: string) => path === "/manage" || path.startsWith("/manage/");
  const mapSource = (res: express.Response) => (isAdmin(res.req.path) || parseConsent(res.req.headers.cookie).functional ? mapOrigin : "'self'");
  // Events go to an external Plausible server only when one is set and the visitor allowed statistics.
  const analyticsSource = (res: express.Response) => (env.PLAUSIBLE_URL && parseConsent(res.req.headers.cookie).statistic ? env.PLAUSIBLE_URL : undefined);
  // Pages set their own policy (with their inline scripts' hashes); everything else gets this one.
  if (!dev) app.use(defaultContentSecurityPolicy(mapSource));
  app.use(
    helmet({
      contentSecurityPolicy: false,
      crossOriginEmbedderPolicy: false,
      // Full referrer on our own pages (so forms carry their Origin), none to other sites.
      referrerPolicy: { policy: "same-origin" },
      hsts: false,
    }),
  );
  app.use((_req, res, next) => {
    res.setHeader("Permissions-Policy", PERMISSIONS_POLICY);
    next();
  });
  app.use(compression());

  // `/readyz`: 200 once the renderer is loaded and the critical pages (and with them the site data and
  // the theme's stylesheet) are in the caches (see `warmUp`): what a load balancer waits for. `/healthz` says the process and
  // its database are alive, from the moment the server listens.
  let ready = false;
  app.get("/readyz", async (_req, res) => {
    const database = await services.store.ping().then(
      () => true,
      () => false,
    );
    const status = ready && database ? 200 : 503;
    // On a remote Squidex: when the mirror last finished a pull (null before the first), no error text.
    const mirror = services.mirror ? { mirrorSynced: services.mirror.status.lastSync } : {};
    res.status(status).json({ status: status === 200 ? "ready" : "starting", renderer: !!render, warm: ready, database: database ? "ok" : "unreachable", ...mirror, statusCode: status });
  });
  app.get("/healthz", async (_req, res) => {
    try {
      await services.store.ping();
      res.json({ status: "ok", database: "ok", dialect: services.store.dialect });
    } catch (error) {
      logger.error({ err: error }, "health check: database unreachable");
      res.status(503).json({ status: "error", database: "unreachable", statusCode: 503, message: "The database cannot be reached." });
    }
  });

  if (opts.vite) app.use(opts.vite.middlewares);

  // A page the cache did not have is kept once rendered (a change drops the pages that read it).
  if (!dev) app.use(pageCache.capture());

  const getLoadContext = (req: express.Request, res: express.Response) => {
    const scriptOrigins = new Set<string>();
    return {
      services,
      scriptOrigins,
      requestId: String(req.id),
      clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
      user: userOf(req),
      secure: req.secure,
      contentSecurityPolicy: dev ? undefined : (scriptHashes: readonly string[]) => contentSecurityPolicy({ mapSource: mapSource(res), analyticsSource: analyticsSource(res), scriptHashes, scriptOrigins: [...scriptOrigins] }),
    };
  };
  // In production the build is read once: given a function, React Router would call it and derive
  // its route tables again for every request. In development Vite reloads it per request.
  let render: express.RequestHandler | undefined = opts.vite
    ? createRequestHandler({ build: () => opts.vite!.ssrLoadModule("virtual:react-router/server-build") as unknown as Promise<ServerBuild>, mode: "development", getLoadContext })
    : undefined;
  const rendererReady = buildLoading?.then(async (build) => {
    // A route naming an unknown middleware stops the start here (routeTable throws).
    await tableReady;
    render = createRequestHandler({ build, mode: "production", getLoadContext });
  });
  // Requests that come before the renderer wait for it (a failed load fails them, and the start).
  app.use((req, res, next) => (render ? render(req, res, next) : rendererReady!.then(() => render!(req, res, next), next)));
  // Whatever reached Express's error path: logged with the request id, answered without details
  // (Express's own handler shows the stack trace unless NODE_ENV=production, e.g. for `node server.js`).
  app.use((error: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) => {
    logger.error({ err: error, requestId: String(req.id) }, "request failed");
    if (res.headersSent) return void res.end();
    const { status, expose, message } = (error ?? {}) as { status?: unknown; expose?: unknown; message?: unknown };
    const code = typeof status === "number" && status >= 400 && status < 500 ? status : 500;
    res.status(code).json({ statusCode: code, message: code < 500 && expose === true && typeof message === "string" ? message : code === 500 ? "Internal Server Error" : "The request could not be handled." });
  });
  /**
   * Renders the critical pages (both languages) into the page cache, so first visitors get them
   * fast. Asked for over loopback, but under the host visitors use: PUBLIC_ORIGIN's, or
   * localhost:PORT for the demo.
   */
  async function warm(port: number) {
    // Loaded here, not at the top: the site's page code (every block) is the renderer's, and must not
    // delay the start (/healthz) by being imported before the server listens.
    const { criticalPaths } = await import("../app/site/site.server");
    const paths = await criticalPaths(services);
    const origin = new URL(env.PUBLIC_ORIGIN ?? `http://localhost:${port}`);
    const host = origin.host;
    const get = (path: string) =>
      new Promise<void>((resolve) => {
        http
          .get({ host: "127.0.0.1", port, path, headers: { host, "x-forwarded-proto": origin.protocol.slice(0, -1) } }, (res) => res.resume().on("end", () => resolve()))
          .on("error", () => resolve());
      });
    // Rendering them also builds the site data and with it the theme's stylesheet (loadSite).
    await Promise.all(paths.map(get));
    logger.info({ pages: paths, host }, "critical pages cached");
  }

  const warmUp = async (port: number) => {
    await rendererReady;
    await warm(port);
    ready = true;
  };

  /**
   * The server's request handler: anonymous page views the cache holds are answered in front of
   * Express, as ready bytes with the headers their first answer had (none of the middlewares above
   * runs for them); everything else goes to the app.
   */
  const eventFastPath = analyticsFastPath(services, app.get("trust proxy fn"));
  const handler: http.RequestListener = dev ? app : (req, res) => eventFastPath(req, res) || pageCache.handle(req, res, () => app(req, res));

  return { app, handler, env, services, logger, pageCache, warm: warmUp, rendererReady };
}

/** `npm run user:create` runs from the build, like the server (scripts/user-create.mjs). */
export { createUserCommand } from "../app/auth/cli.server";
/** `npm run content:export` / `content:import` run from the build too (scripts/content-*.mjs). */
export { contentExportCommand, contentImportCommand } from "../app/content/transfer/cli.server";
