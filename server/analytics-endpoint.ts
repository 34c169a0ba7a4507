import type http from "node:http";
import { acceptEvent, type EventServices } from "../app/analytics/endpoint.server";
import { readNodeBody } from "./squidex";

/**
 * `POST /api/event` in front of Express, like the page cache's hits: an analytics event is the most
 * frequent request a busy site gets, and React Router's handler (a Fetch Request, route matching,
 * the middlewares) cost more than the event itself — ~650 events/s there against the ≥ 2 000 wanted
 * (decision 0029). Only requests the cross-site rule lets through anyway are answered here (a
 * browser's same-origin request, or a client that names no origin); anything else takes the
 * full path through Express and its guards, and ends in the same function (routes/api.event.ts).
 */
export function analyticsFastPath(services: EventServices, trustProxy: (addr: string, i: number) => boolean) {
  return (req: http.IncomingMessage, res: http.ServerResponse): boolean => {
    if (req.method !== "POST" || req.url !== "/api/event") return false;
    const site = req.headers["sec-fetch-site"];
    if (site === undefined ? req.headers.origin !== undefined : site !== "same-origin" && site !== "none") return false;
    const header = (name: string) => {
      const value = req.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    };
    void acceptEvent({ headers: { get: header }, readBody: (limit) => readNodeBody(req, limit), clientIp: clientAddress(req, trustProxy) }, services).then((answer) => {
      const body = Buffer.from(JSON.stringify(answer.body));
      res.writeHead(answer.status, { ...answer.headers, "Content-Type": "application/json", "Content-Length": String(body.length), "X-Content-Type-Options": "nosniff" });
      res.end(body);
      // What was not read (a body over the limit) is read and dropped, so the client gets the answer.
      if (!req.complete) req.resume();
    });
    return true;
  };
}

/** The visitor's address as Express's `req.ip` gives it (proxy-addr's rule over TRUST_PROXY). */
export function clientAddress(req: http.IncomingMessage, trust: (addr: string, i: number) => boolean): string {
  const forwarded = String(req.headers["x-forwarded-for"] ?? "")
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean)
    .reverse();
  const addrs = [req.socket.remoteAddress ?? "unknown", ...forwarded];
  for (let i = 0; i < addrs.length - 1; i++) if (!trust(addrs[i]!, i)) return addrs[i]!;
  return addrs[addrs.length - 1]!;
}
