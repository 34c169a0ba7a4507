import { claimReload } from "./reload-guard";
import { setPwaState } from "./state";

/**
 * The PWA core every public page loads after hydration (production only): the service worker, the
 * build checks with the reload guard, and the offline form notice. Kept small on purpose (the
 * public page's JavaScript budget); the install prompt's UI is a chunk of its own.
 */

/** How often a page asks whether a newer build is out (and on every return to the window). */
const POLL_MS = 5 * 60_000;
/** The route-rules manifest is fetched this long after load (§9). */
const META_DELAY_MS = 1000;
export const INSTALL_DISMISSED_KEY = "pn-install-dismissed";
export interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
}

/** The browser's install offer, kept for our own prompt. */
export let installPrompt: InstallPromptEvent | null = null;
let started = false;
/** Forms the visitor typed into and has not sent: a reload would throw their input away. */
const dirtyForms = new Set<HTMLFormElement>();
let reloadPending = false;

const unsent = () => [...dirtyForms].some((form) => form.isConnected);
const claim = () => claimReload(sessionStorage, Date.now());

/** A reload the page needs (new build, failed chunk, new worker): at most one per 10 s, never over unsent input. */
export function requestReload(): void {
  if (unsent()) reloadPending = true;
  else if (claim()) location.reload();
}

/** Starts everything once per page load. */
export function startPwa(): void {
  if (started) return;
  started = true;
  const on = addEventListener;

  // Builds: this page's is React Router's manifest version, the id /builds/latest.json answers.
  const own = (window as unknown as { __reactRouterManifest?: { version?: string } }).__reactRouterManifest?.version;
  const check = () =>
    fetch("/builds/latest.json")
      .then((res) => res.json() as Promise<{ id?: string }>)
      .then(({ id }) => own && id && id !== own && requestReload())
      .catch(() => {});
  setTimeout(() => own && fetch(`/builds/meta/${own}.json`).catch(() => {}), META_DELAY_MS);
  setInterval(check, POLL_MS);
  on("focus", check);
  // A chunk of an older build that is gone from the server.
  on("vite:preloadError", (event) => {
    event.preventDefault();
    requestReload();
  });

  // Forms: typed-into forms hold a reload back; offline, a submission never starts (capture on
  // window runs ahead of React's listener) and the form keeps its input.
  on("input", (event) => {
    const form = (event.target as HTMLInputElement).form;
    if (form) dirtyForms.add(form);
  });
  on(
    "submit",
    (event) => {
      const form = event.target as HTMLFormElement;
      form.querySelector("[data-offline-notice]")?.remove();
      if (navigator.onLine) return void dirtyForms.delete(form);
      event.preventDefault();
      event.stopPropagation();
      void import("./offline-notice").then((m) => m.showOfflineNotice(form));
    },
    true,
  );
  // A reload held back for a form: the form was sent and the page moves on, so load that address afresh.
  const push = history.pushState.bind(history);
  history.pushState = (data, unused, url) => (reloadPending && url && !unsent() && claim() ? location.assign(url) : push(data, unused, url));

  // Installing.
  if (matchMedia("(display-mode: standalone)").matches) setPwaState({ installed: true });
  on("beforeinstallprompt", (event) => {
    event.preventDefault();
    // Dismissed once, dismissed for good (§1); storage that cannot be read throws here, and nothing shows.
    if (localStorage.getItem(INSTALL_DISMISSED_KEY)) return;
    installPrompt = event as InstallPromptEvent;
    setPwaState({ installAvailable: true });
    // Our prompt's code loads only now, and never once dismissed.
    void import("./install-prompt").then((m) => m.showInstallPrompt());
  });
  on("appinstalled", () => setPwaState({ installed: true, installAvailable: false }));

  // The worker. A new version waiting takes over at once; the page then reloads once onto it.
  const sw = navigator.serviceWorker;
  if (!sw) return;
  // The first worker claiming this page is no update; any later change of controller is.
  let controller = sw.controller;
  const waiting = (worker: ServiceWorker | null) => {
    if (!worker || !sw.controller) return;
    setPwaState({ needRefresh: true });
    worker.postMessage("skip-waiting");
  };
  sw.register("/sw.js", { scope: "/" }).then(
    (registration) => {
      waiting(registration.waiting);
      registration.onupdatefound = () => {
        const worker = registration.installing;
        if (worker) worker.onstatechange = () => worker.state === "installed" && waiting(worker);
      };
      sw.oncontrollerchange = () => {
        if (controller) requestReload();
        controller = sw.controller;
      };
      return sw.ready.then(() => setPwaState({ offlineReady: true }));
    },
    () => setPwaState({ registrationError: true }),
  );
}
