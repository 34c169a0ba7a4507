/**
 * The route-rules manifest of a build (`/builds/meta/{id}.json`): which paths the service worker
 * serves from its cache and which never, in a form small enough to fetch on every page load.
 */
export interface RouteRules {
  id: string;
  /** Path prefixes kept cache first (their names change with their content). */
  immutable: string[];
  /** Path prefixes (after an optional language segment) never cached. */
  never: string[];
  /** Pages kept network first; everything else not under `never`. */
  pages: "network-first";
  /** The offline pages, by language. */
  offline: Record<"de" | "en", string>;
}

export function routeRules(id: string): RouteRules {
  return {
    id,
    immutable: ["/assets/", "/theme/", "/fonts/"],
    never: ["/api/", "/manage", "/login", "/appointments/", "/newsletter/", "/present/", "/builds/", "/sw.js"],
    pages: "network-first",
    offline: { de: "/offline", en: "/en/offline" },
  };
}
