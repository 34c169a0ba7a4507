import type { IncomingMessage } from "node:http";
import type express from "express";
import { matchRoutes, type ServerBuild } from "react-router";
import { requirementOf, strongest, type Requirement } from "../app/auth/access";
import type { AuthService } from "../app/auth/auth.server";
import { clearedSessionCookies, readSessionCookie, sessionCookies } from "../app/auth/session.server";
import type { User } from "../app/auth/users.server";

/** The signed-in user of a request, as the gate found it (read by getLoadContext). */
const users = new WeakMap<IncomingMessage, User>();
export const userOf = (req: IncomingMessage): User | null => users.get(req) ?? null;

interface GateRoute {
  id: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: GateRoute[];
}

/** React Router's routes as a tree for `matchRoutes`, with each route's own requirement. */
export interface RouteTable {
  routes: GateRoute[];
  requirement: ReadonlyMap<string, Requirement>;
}

/**
 * Reads every route module's `handle.middleware`. An unknown name throws here, when the build is
 * loaded, so the server does not start with a route it cannot guard ("Unknown route middleware").
 */
export function routeTable(build: Pick<ServerBuild, "routes">): RouteTable {
  const requirement = new Map<string, Requirement>();
  const nodes = new Map<string, GateRoute>();
  for (const [id, route] of Object.entries(build.routes)) {
    if (!route) continue;
    requirement.set(id, requirementOf((route.module as { handle?: unknown }).handle, id));
    nodes.set(id, { id, path: route.path, index: route.index, caseSensitive: route.caseSensitive });
  }
  const roots: GateRoute[] = [];
  for (const [id, route] of Object.entries(build.routes)) {
    if (!route) continue;
    const node = nodes.get(id)!;
    const parent = route.parentId ? nodes.get(route.parentId) : undefined;
    if (parent) (parent.children ??= []).push(node);
    else roots.push(node);
  }
  return { routes: roots, requirement };
}

/** The page a request is for: data requests of client navigation (`/x.data`, `/_root.data`) name their page. */
export function pagePath(pathname: string): { path: string; data: boolean } {
  if (pathname === "/_root.data") return { path: "/", data: true };
  if (pathname.endsWith(".data")) return { path: pathname.slice(0, -5) || "/", data: true };
  return { path: pathname, data: false };
}

/**
 * The URL of a request target as React Router's Express adapter builds it (origin + target, not the
 * target resolved against a base): `//` and `//x/manage` are paths here, as they are to the router,
 * not a scheme-relative URL naming host "x" (which `new URL("//", base)` cannot even parse). `null`
 * for what no URL can be made of.
 */
export function requestTarget(target: string): URL | null {
  if (!target.startsWith("/")) return null;
  try {
    return new URL(`http://gate.invalid${target}`);
  } catch {
    return null;
  }
}

/**
 * Paths already matched, per table: React Router's `matchRoutes` flattens and ranks the whole
 * route tree on every call (about 5 ms here), and the gate asks for every request. Bounded, so
 * made-up paths only push out older ones.
 */
const remembered = new WeakMap<RouteTable, Map<string, Requirement>>();
const REMEMBERED_PATHS = 5000;

/** What the routes matching a path ask for, together. */
export function requirementFor(table: RouteTable, pathname: string): Requirement {
  let known = remembered.get(table);
  if (!known) remembered.set(table, (known = new Map()));
  const hit = known.get(pathname);
  if (hit !== undefined) return hit;
  const result = matchRequirement(table, pathname);
  if (known.size >= REMEMBERED_PATHS) known.delete(known.keys().next().value!);
  known.set(pathname, result);
  return result;
}

function matchRequirement(table: RouteTable, pathname: string): Requirement {
  const matches = matchRoutes(table.routes as never, pathname) as Array<{ route: GateRoute }> | null;
  let result: Requirement = "none";
  for (const match of matches ?? []) result = strongest(result, table.requirement.get(match.route.id) ?? "none");
  return result;
}

/**
 * In front of React Router: reads the session cookie (renewing it now and then, clearing one that
 * is no longer valid) and enforces the route middleware. Without a session, pages redirect to
 * `/login?redirect=…` and JSON routes answer 401; a superuser route answers an editor's API call
 * with 403 (pages and data requests get their 403 from the route's loader, in the admin layout).
 */
export function authGate(auth: AuthService, table: () => RouteTable | Promise<RouteTable> | undefined): express.RequestHandler {
  return (req, res, next) => {
    void (async () => {
      const value = readSessionCookie(req.headers.cookie);
      let user: User | null = null;
      if (value !== undefined || /(?:^|;\s*)pn_session=/.test(req.headers.cookie ?? "")) {
        const session = await auth.session(value);
        if (session) {
          user = session.user;
          users.set(req, user);
          if (session.renewed) for (const [, cookie] of sessionCookies(session.renewed.value, session.renewed.maxAge, req.secure)) res.append("Set-Cookie", cookie);
        } else for (const [, cookie] of clearedSessionCookies(req.secure)) res.append("Set-Cookie", cookie);
      }
      // Before the build is loaded, requests wait for its table (they would wait for the renderer anyway).
      const routes = await table();
      if (!routes) return next();
      const url = requestTarget(req.originalUrl);
      if (!url) return void res.status(400).json({ message: "The request target is not a path.", statusCode: 400 });
      const { path, data } = pagePath(url.pathname);
      const needs = requirementFor(routes, path);
      if (needs === "none") return next();
      const api = path.toLowerCase().startsWith("/api/");
      if (!user) {
        if (api) return void res.status(401).json({ message: "Sign in first.", statusCode: 401 });
        if (data) return next();
        const back = `${path}${url.search}`;
        return void res.redirect(req.method === "GET" || req.method === "HEAD" ? 302 : 303, `/login?redirect=${encodeURIComponent(back)}`);
      }
      if (needs === "superuser" && !user.superuser && api) return void res.status(403).json({ message: "Only a superuser may do this.", statusCode: 403 });
      next();
    })().catch(next);
  };
}
