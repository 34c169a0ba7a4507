import { sameSitePath } from "~/lib/input";

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
 * Where to go after signing in: a path on this site (the shared rule, `sameSitePath`), never the
 * sign-in page itself; anything else gives the admin start page.
 */
export function safeRedirect(target: unknown, fallback = "/manage"): string {
  const path = sameSitePath(target, fallback);
  return /^\/login(?:[?#]|$)/.test(path) ? fallback : path;
}
