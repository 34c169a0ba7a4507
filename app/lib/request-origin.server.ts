import type { IncomingMessage } from "node:http";
import type { Request } from "express";

const HOSTNAME = /^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$|^\[[0-9a-f:.]+\]$/i;

/** Whether the peer at `address` is a proxy whose X-Forwarded-* headers count (Express's "trust proxy fn"). */
export type TrustProxy = (address: string | undefined, hop: number) => boolean;

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * The origin React Router builds the page's request URL from (and so every absolute URL on the page),
 * worked out the same way Express and its adapter do: protocol and host name from the trusted proxy
 * headers, the port from `X-Forwarded-Host` or `Host`. `null` when those headers do not make a valid
 * origin, so the request can be refused with a 400 instead of failing inside the renderer. Works on
 * the bare Node request, so the page cache can answer before Express (given Express's trust function).
 */
export function originOf(req: IncomingMessage, trustProxy: TrustProxy, forwardedPortCounts = true): string | null {
  const trusted = trustProxy(req.socket.remoteAddress, 0);
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted ? "https" : "http";
  const forwardedProto = trusted ? header(req, "x-forwarded-proto") : undefined;
  const protocol = forwardedProto ? forwardedProto.split(",")[0]!.trim() : encrypted;
  if (protocol !== "http" && protocol !== "https") return null;
  const forwardedHost = trusted ? header(req, "x-forwarded-host") : undefined;
  const host = forwardedHost ? forwardedHost.split(",")[0]!.trimEnd() : header(req, "host");
  // No host at all (HTTP/1.0 without Host, an empty or comma-only X-Forwarded-Host from the proxy):
  // there is no origin to build the page's URLs from (React Router's adapter would fail on it).
  if (!host) return null;
  const offset = host.startsWith("[") ? host.indexOf("]") + 1 : 0;
  const colon = host.indexOf(":", offset);
  const hostname = (colon >= 0 ? host.slice(0, colon) : host).split(/[\\/?#@]/)[0] || "localhost";
  // The adapter takes the port of X-Forwarded-Host whoever sent it once "trust proxy" is on at all
  // (TRUST_PROXY set), and never when it is off; so must the page's origin.
  const forwardedPort = forwardedPortCounts ? header(req, "x-forwarded-host")?.split(":")[1] : undefined;
  const hostPort = header(req, "host")?.split(":")[1];
  const port = [forwardedPort, hostPort].map((p) => (p === undefined ? NaN : Number.parseInt(p, 10))).find((p) => Number.isSafeInteger(p));
  if (!HOSTNAME.test(hostname) || (port !== undefined && (port < 1 || port > 65535))) return null;
  try {
    return new URL(`${protocol}://${hostname}${port !== undefined ? `:${port}` : ""}`).origin;
  } catch {
    return null;
  }
}

/** `originOf` for an Express request (its app's trust setting). */
export function requestOrigin(req: Request): string | null {
  return originOf(req, req.app.get("trust proxy fn") as TrustProxy, req.app.enabled("trust proxy"));
}
