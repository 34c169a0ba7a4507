/**
 * The browser side of analytics: Plausible's event API, in about a kilobyte. Loaded as its own chunk
 * only after the visitor allowed statistics (tracker-loader.tsx). Like Plausible's script it stays
 * silent on localhost and under file:, and when `localStorage.plausible_ignore` is "true".
 */
import { http } from "~/lib/http";
export interface TrackerConfig {
  /** Where events go: our own /api/event, or PLAUSIBLE_URL's. */
  endpoint: string;
  /** The site's name in Plausible; by default this page's host. */
  domain: string | null;
  /** Set by the server only when ANALYTICS_TRACK_LOCALHOST is on (browser tests). */
  trackLocalhost: boolean;
}

export interface Tracker {
  pageview(): void;
  event(name: string, props?: Record<string, string | number>): void;
  stop(): void;
}

const LOCAL = /^(localhost|127(\.\d+){3}|\[::1\])$/;

function ignored(config: TrackerConfig): boolean {
  if (location.protocol === "file:") return true;
  if (LOCAL.test(location.hostname) && !config.trackLocalhost) return true;
  try {
    return localStorage.getItem("plausible_ignore") === "true";
  } catch {
    return false;
  }
}

export function startTracker(config: TrackerConfig): Tracker | null {
  if (ignored(config)) return null;
  let lastPage = "";
  // For the country of our own /api/event (a Plausible server, config.domain set, is sent its own API only).
  let timeZone = "";
  try {
    timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone ?? "";
  } catch {}
  const send = (name: string, props?: Record<string, string | number>) => {
    // Checked again for each event: the flag may be set in another tab meanwhile.
    if (ignored(config)) return;
    const body = JSON.stringify({ n: name, u: location.href, d: config.domain ?? location.hostname, r: document.referrer || null, w: innerWidth, h: false, ...(props ? { p: props } : {}), ...(timeZone && !config.domain ? { tz: timeZone } : {}) });
    // text/plain needs no CORS preflight (an external Plausible); keepalive outlives a page change.
    // Sent once (a lost page view is not worth a second request), through the one client.
    void http(config.endpoint, { method: "POST", body, headers: { "Content-Type": "text/plain" }, keepalive: true, credentials: "omit", retry: false }).catch(() => {});
  };
  const onClick = (e: MouseEvent) => {
    const link = (e.target as Element | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
    if (link && /^https?:$/.test(link.protocol) && link.host !== location.host) send("Outbound Link: Click", { url: link.href.slice(0, 300) });
  };
  const onSubmit = () => send("Form: Submission", { path: location.pathname });
  document.addEventListener("click", onClick, true);
  document.addEventListener("auxclick", onClick, true);
  document.addEventListener("submit", onSubmit, true);
  return {
    pageview() {
      // Once per address: a re-render or a search-param change on the same path is no new view.
      const page = location.pathname + location.hash;
      if (page === lastPage) return;
      lastPage = page;
      send("pageview");
    },
    event: send,
    stop() {
      document.removeEventListener("click", onClick, true);
      document.removeEventListener("auxclick", onClick, true);
      document.removeEventListener("submit", onSubmit, true);
    },
  };
}
