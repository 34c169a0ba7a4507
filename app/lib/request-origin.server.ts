import type { Request } from "express";

const HOSTNAME = /^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$|^\[[0-9a-f:.]+\]$/i;

/**
 * The origin React Router builds the page's request URL from (and so every absolute URL on the page),
 * worked out the same way its Express adapter does: protocol and host name from the trusted proxy
 * headers, the port from `X-Forwarded-Host` or `Host`. `null` when those headers do not make a valid
 * origin, so the request can be refused with a 400 instead of failing inside the renderer.
 */
export function requestOrigin(req: Request): string | null {
  const protocol = req.protocol;
  if (protocol !== "http" && protocol !== "https") return null;
  const forwardedPort = req.app.enabled("trust proxy") ? req.get("X-Forwarded-Host")?.split(":")[1] : undefined;
  const hostPort = req.get("host")?.split(":")[1];
  const port = [forwardedPort, hostPort].map((p) => (p === undefined ? NaN : Number.parseInt(p, 10))).find((p) => Number.isSafeInteger(p));
  const hostname = req.hostname.split(/[\\/?#@]/)[0] || "localhost";
  if (!HOSTNAME.test(hostname) || (port !== undefined && (port < 1 || port > 65535))) return null;
  try {
    return new URL(`${protocol}://${hostname}${port !== undefined ? `:${port}` : ""}`).origin;
  } catch {
    return null;
  }
}
