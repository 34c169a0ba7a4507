/**
 * Route middleware, declared by route modules (`export const handle = routeAccess("auth")`) and
 * enforced in front of React Router by the auth gate (server/auth-gate.ts), for documents, data
 * requests and resource routes alike. A name that is not known here stops the server at start
 * ("Unknown route middleware"), so a typo cannot leave a route open.
 *
 * - `auth`: a signed-in editor (the admin area, draft-reading and mutating APIs).
 * - `superuser`: a signed-in superuser (users, deleting content, global settings, the audit log).
 */
export const ROUTE_MIDDLEWARE = ["auth", "superuser"] as const;
export type RouteMiddleware = (typeof ROUTE_MIDDLEWARE)[number];
/** What a request must bring, the strongest of what its matched routes ask for. */
export type Requirement = "none" | "editor" | "superuser";

export class UnknownMiddlewareError extends Error {
  constructor(name: unknown, where?: string) {
    super(`Unknown route middleware: ${JSON.stringify(name)}${where ? ` (route ${where})` : ""}`);
    this.name = "UnknownMiddlewareError";
  }
}

export function routeAccess(...middleware: RouteMiddleware[]) {
  return { middleware } as const;
}

const RANK: Record<Requirement, number> = { none: 0, editor: 1, superuser: 2 };

/** The requirement of one route's handle; throws UnknownMiddlewareError for a name not known. */
export function requirementOf(handle: unknown, where?: string): Requirement {
  const names = handle && typeof handle === "object" ? (handle as { middleware?: unknown }).middleware : undefined;
  if (names === undefined) return "none";
  const list = Array.isArray(names) ? names : [names];
  let result: Requirement = "none";
  for (const name of list) {
    if (!(ROUTE_MIDDLEWARE as readonly unknown[]).includes(name)) throw new UnknownMiddlewareError(name, where);
    result = strongest(result, name === "superuser" ? "superuser" : "editor");
  }
  return result;
}

export const strongest = (a: Requirement, b: Requirement): Requirement => (RANK[a] >= RANK[b] ? a : b);

/**
 * Where to go after signing in: a path on this site only. Anything else (another origin,
 * protocol-relative `//`, backslashes browsers treat as slashes, control characters) gives the
 * admin start page.
 */
export function safeRedirect(target: unknown, fallback = "/manage"): string {
  if (typeof target !== "string" || target.length > 2000) return fallback;
  if (!target.startsWith("/") || target.startsWith("//") || /[\\\u0000-\u001f\u007f]/.test(target)) return fallback;
  let decoded = target;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    return fallback;
  }
  if (decoded.startsWith("//") || /[\\\u0000-\u001f\u007f]/.test(decoded)) return fallback;
  // Resolved against a placeholder origin, it must stay on it.
  const url = new URL(target, "http://praxisnetz.invalid");
  if (url.origin !== "http://praxisnetz.invalid") return fallback;
  if (url.pathname === "/login") return fallback;
  // Dot segments resolve away ("/.//evil.example" → "//evil.example"): check what is left.
  const result = `${url.pathname}${url.search}${url.hash}`;
  return /^[/\\]{2}/.test(result) ? fallback : result;
}
