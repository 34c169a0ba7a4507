import { mayKeepResponse, strategyFor } from "./cache-rules";

/** The offline pages, one per language, rendered by the app and precached with the shell. */
export const OFFLINE_PAGES = { de: "/offline", en: "/en/offline" } as const;
/** The list of pages marked critical in the content, which the worker keeps for offline once it is active. */
export const CRITICAL_PAGES_URL = "/pwa/critical.json";

/**
 * The service worker's script for one build. Hand-written (decision 0030): precache the shell and
 * the offline pages under a cache named by the build id (and, once active, the pages marked
 * critical, from CRITICAL_PAGES_URL), then pages network first with the cache
 * as fallback (the offline page in the page's language when neither answers) and hashed assets
 * cache first. What may be kept is decided by `cache-rules.ts`, whose functions are pasted in.
 */
export function serviceWorkerScript(buildId: string, shell: readonly string[]): string {
  const precache = [...shell, OFFLINE_PAGES.de, OFFLINE_PAGES.en];
  return `// Praxisnetz service worker, build ${buildId}
"use strict";
const BUILD = ${JSON.stringify(buildId)};
const SHELL = "pn-shell-" + BUILD;
const PAGES = "pn-pages";
const ASSETS = "pn-assets";
const PRECACHE = ${JSON.stringify(precache)};
const OFFLINE = ${JSON.stringify(OFFLINE_PAGES)};
const CRITICAL = ${JSON.stringify(CRITICAL_PAGES_URL)};
const strategyFor = ${strategyFor.toString()};
const mayKeepResponse = ${mayKeepResponse.toString()};
const keepable = (res) => mayKeepResponse(res.status, res.type, res.headers.get("cache-control"), res.headers.has("set-cookie"));

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(SHELL).then((cache) =>
      Promise.all(
        PRECACHE.map(async (url) => {
          const res = await fetch(url, { credentials: "omit", cache: "reload" });
          if (!keepable(res)) return;
          // The offline pages' stylesheets (the theme's is named by its content, not in the build).
          if (!url.startsWith("/assets/")) {
            const html = await res.clone().text();
            for (const m of html.matchAll(/href="([/](?:theme|assets)[/][^"]+[.]css)"/g)) await remember(m[1]);
          }
          await cache.put(url, res);
        }),
      ),
    ),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("pn-shell-") && k !== SHELL).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
      // The pages open now were loaded before this worker: keep them (under the same rules) for offline.
      .then(() => self.clients.matchAll({ type: "window" }))
      .then((open) => Promise.all(open.map((client) => remember(client.url))))
      // And the pages marked critical in the content (their list changes with content, not with this script).
      .then(() => fetch(CRITICAL, { credentials: "omit", cache: "no-cache" }))
      .then((res) => (res.ok ? res.json() : { paths: [] }))
      .then(({ paths }) => Promise.all((Array.isArray(paths) ? paths : []).filter((p) => typeof p === "string" && p.startsWith("/")).slice(0, 50).map((p) => remember(new URL(p, self.location.origin).href))))
      .catch(() => {}),
  );
});

self.addEventListener("message", (event) => {
  if (event.data === "skip-waiting") self.skipWaiting();
});

async function remember(url) {
  const strategy = strategyFor("GET", url, self.location.origin);
  if (strategy === "none") return;
  try {
    const res = await fetch(url, { credentials: "same-origin" });
    if (keepable(res)) await (await caches.open(strategy === "asset" ? ASSETS : PAGES)).put(url, res);
  } catch {}
}

function offlinePage(url) {
  const path = new URL(url).pathname;
  return caches.match(path === "/en" || path.startsWith("/en/") ? OFFLINE.en : OFFLINE.de);
}

async function networkFirst(request) {
  try {
    const res = await fetch(request);
    if (keepable(res)) {
      const copy = res.clone();
      caches.open(PAGES).then((cache) => cache.put(request, copy));
    } else if (res.status === 200) {
      // An answer that must not be kept (a signed-in editor's) replaces nothing but drops an older copy.
      caches.open(PAGES).then((cache) => cache.delete(request));
    }
    return res;
  } catch (error) {
    const cached = await caches.match(request, { ignoreVary: true });
    if (cached) return cached;
    if (request.mode === "navigate") {
      const offline = await offlinePage(request.url);
      if (offline) return offline;
    }
    throw error;
  }
}

async function cacheFirst(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const res = await fetch(request);
  if (keepable(res)) {
    const copy = res.clone();
    caches.open(ASSETS).then((cache) => cache.put(request, copy));
  }
  return res;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const strategy = strategyFor(request.method, request.url, self.location.origin);
  if (strategy === "asset") return event.respondWith(cacheFirst(request));
  if (strategy === "page") return event.respondWith(networkFirst(request));
  // Never kept, but a navigation that cannot reach the server still gets the offline page.
  if (request.mode === "navigate" && request.method === "GET") {
    event.respondWith(fetch(request).catch(() => offlinePage(request.url).then((res) => res || Response.error())));
  }
});
`;
}
