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
