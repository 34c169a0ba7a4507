import type express from "express";

/**
 * Browser features the site does not use are switched off for it and for anything it embeds.
 * The map needs none of them (it never asks for the visitor's position).
 */
export const PERMISSIONS_POLICY = [
  "accelerometer=()",
  "autoplay=()",
  "bluetooth=()",
  "camera=()",
  "display-capture=()",
  "geolocation=()",
  "gyroscope=()",
  "hid=()",
  "idle-detection=()",
  "magnetometer=()",
  "microphone=()",
  "midi=()",
  "payment=()",
  "publickey-credentials-get=()",
  "screen-wake-lock=()",
  "serial=()",
  "usb=()",
  "xr-spatial-tracking=()",
].join(", ");

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Why a mutation must be refused as cross-site, or null when it may go on. Browsers say where a
 * request comes from (`Sec-Fetch-Site`, `Origin`); a request from another site is refused whatever
 * it carries, so no page elsewhere can make a visitor's browser change anything here (CSRF).
 * Clients that are not browsers send neither header and authenticate by other means (tokens).
 */
export function crossSiteReason(req: express.Request, publicOrigin: string | undefined): string | null {
  if (SAFE_METHODS.has(req.method)) return null;
  // Browsers set Sec-Fetch-Site themselves (no page can forge it): where it is present it decides.
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined) return site === "same-origin" || site === "none" ? null : `Sec-Fetch-Site: ${String(site).slice(0, 40)}`;
  const origin = req.headers.origin;
  if (origin === undefined) return null;
  const own = `${req.protocol}://${req.get("host") ?? ""}`;
  if (origin === own || (publicOrigin !== undefined && origin === publicOrigin)) return null;
  return `Origin: ${origin.slice(0, 100)}`;
}

export function crossSiteGuard(publicOrigin: string | undefined): express.RequestHandler {
  return (req, res, next) => {
    const reason = crossSiteReason(req, publicOrigin);
    if (!reason) return next();
    req.log?.warn({ reason }, "cross-site request refused");
    res.status(403).json({ message: "Changes are only accepted from this site itself.", statusCode: 403 });
  };
}

/** HSTS only where it means something (a request that arrived over HTTPS), subdomains only when asked. */
export function transportSecurity(includeSubDomains: boolean): express.RequestHandler {
  const value = `max-age=31536000${includeSubDomains ? "; includeSubDomains" : ""}`;
  return (req, res, next) => {
    if (req.secure) res.setHeader("Strict-Transport-Security", value);
    next();
  };
}

/**
 * What the build's own files (scripts, stylesheets, fonts, icons) carry, answered ahead of the
 * general security headers: not to be sniffed as another type, not to be embedded by other sites.
 */
export const staticHeaders: express.RequestHandler = (_req, res, next) => {
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
  next();
};

/**
 * The Content-Security-Policy of a response. Scripts: our own files, plus the inline scripts of a
 * page by hash (see `sealInlineScripts`), so the header is the same for every view of the same page
 * and a cached page can be sent as ready bytes. `mapSource` is the map's tile service once the
 * visitor allowed functional cookies, else `'self'`.
 */
export function contentSecurityPolicy(opts: { mapSource: string; analyticsSource?: string; scriptHashes?: readonly string[]; scriptOrigins?: readonly string[] }): string {
  const { scriptHashes = [] } = opts;
  const mapSource = opts.mapSource === "'self'" ? "" : ` ${opts.mapSource}`;
  // An external Plausible server (PLAUSIBLE_URL), only for visitors who allowed statistics.
  const analyticsSource = opts.analyticsSource ? ` ${opts.analyticsSource}` : "";
  // Third-party scripts the visitor allowed (app/consent/scripts.ts): they load from, send to and
  // show pixels from their own origin; nothing else of theirs is admitted.
  const third = [...new Set(opts.scriptOrigins ?? [])].filter((o) => o !== "'self'" && /^https?:\/\/[\w.:[\]-]+$/.test(o));
  const thirdSource = third.length ? ` ${third.join(" ")}` : "";
  return [
    "default-src 'self'",
    ["script-src 'self'", ...third, ...scriptHashes.map((h) => `'sha256-${h}'`)].join(" "),
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${mapSource}${thirdSource}`,
    "font-src 'self'",
    `connect-src 'self'${mapSource}${analyticsSource}${thirdSource}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
    // MapLibre runs its workers from blob: URLs.
    "worker-src 'self' blob:",
    "child-src 'self' blob:",
    "manifest-src 'self'",
  ].join("; ");
}

/**
 * Every response gets a policy: pages set their own (with the hashes of their inline scripts, in
 * entry.server.tsx); anything else that has none when its headers go out gets the one without
 * inline scripts. Set late, so a page's policy is never doubled by this one.
 */
export function defaultContentSecurityPolicy(mapSourceOf: (res: express.Response) => string): express.RequestHandler {
  // Two possible values (map allowed or not): made once each, not per response.
  const policies = new Map<string, string>();
  const policyFor = (mapSource: string) => policies.get(mapSource) ?? policies.set(mapSource, contentSecurityPolicy({ mapSource })).get(mapSource)!;
  return (_req, res, next) => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: express.Response, ...args: unknown[]) {
      if (!this.headersSent && !this.hasHeader("content-security-policy")) this.setHeader("Content-Security-Policy", policyFor(mapSourceOf(this)));
      return (writeHead as (...a: unknown[]) => express.Response).apply(this, args);
    } as express.Response["writeHead"];
    next();
  };
}
