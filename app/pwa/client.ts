import { claimReload } from "./reload-guard";
import { setPwaState } from "./state";

/** How often a page asks whether a newer build is out (and on every return to the window). */
const POLL_MS = 5 * 60_000;
/** The route-rules manifest is fetched this long after load (§9). */
const META_DELAY_MS = 1000;
export const INSTALL_DISMISSED_KEY = "pn-install-dismissed";

interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
}

/** The one text the core shows: kept here so the site's texts stay out of this always-loaded chunk. */
const FORM_OFFLINE = {
  de: "Sie sind offline. Ihre Eingaben bleiben erhalten – bitte senden Sie das Formular erneut, sobald Sie wieder verbunden sind.",
  en: "You are offline. Your input is kept – please send the form again once you are connected.",
};

let deferredPrompt: InstallPromptEvent | null = null;
let started = false;
/** Forms the visitor typed into and has not sent: a reload would throw their input away. */
const dirtyForms = new Set<HTMLFormElement>();
let reloadPending = false;

const language = () => (document.documentElement.lang === "en" ? "en" : "de");
const hasUnsavedInput = () => {
  for (const form of dirtyForms) if (!form.isConnected) dirtyForms.delete(form);
  return dirtyForms.size > 0;
};

/** A reload the page needs (new build, failed chunk, new worker): at most one per 10 s, never over unsent input. */
export function requestReload(): void {
  if (hasUnsavedInput()) {
    reloadPending = true;
    return;
  }
  if (claimReload(sessionStorage, Date.now())) location.reload();
}

/** This page's build: React Router's manifest version, the id `/builds/latest.json` answers. */
function currentBuild(): string | undefined {
  return (window as unknown as { __reactRouterManifest?: { version?: string } }).__reactRouterManifest?.version;
}

async function checkBuild() {
  try {
    const res = await fetch("/builds/latest.json", { cache: "no-store" });
    if (!res.ok) return;
    const { id } = (await res.json()) as { id?: unknown };
    const own = currentBuild();
    if (typeof id === "string" && own && id !== own) requestReload();
  } catch {
    // Offline or the server restarting: the next poll asks again.
  }
}

function watchBuilds() {
  setTimeout(() => {
    const id = currentBuild();
    if (id) void fetch(`/builds/meta/${encodeURIComponent(id)}.json`).catch(() => {});
  }, META_DELAY_MS);
  setInterval(() => void checkBuild(), POLL_MS);
  window.addEventListener("focus", () => void checkBuild());
  // A chunk of an older build that is gone from the server.
  window.addEventListener("vite:preloadError", (event) => {
    event.preventDefault();
    requestReload();
  });
}

function watchForms() {
  window.addEventListener("input", (event) => {
    const form = (event.target as HTMLInputElement | null)?.form;
    if (form) dirtyForms.add(form);
  });
  // Capture on window: ahead of React's own listener, so an offline submission never starts.
  window.addEventListener(
    "submit",
    (event) => {
      const form = event.target as HTMLFormElement;
      if (!navigator.onLine) {
        event.preventDefault();
        event.stopImmediatePropagation();
        showOfflineNotice(form);
        return;
      }
      form.querySelector("[data-offline-notice]")?.remove();
      dirtyForms.delete(form);
    },
    true,
  );
  window.addEventListener("online", () => document.querySelectorAll("[data-offline-notice]").forEach((n) => n.remove()));
  // The submitted form's answer moved the page on: the waiting reload loads the new address instead.
  const push = history.pushState.bind(history);
  history.pushState = (data, unused, url) => {
    if (reloadPending && !hasUnsavedInput() && url != null && claimReload(sessionStorage, Date.now())) {
      location.assign(String(url));
      return;
    }
    push(data, unused, url);
  };
}

function showOfflineNotice(form: HTMLFormElement) {
  if (form.querySelector("[data-offline-notice]")) return;
  const notice = document.createElement("p");
  notice.setAttribute("role", "alert");
  notice.dataset.offlineNotice = "";
  notice.className = "mt-3 rounded border border-amber-700 bg-amber-50 p-3 text-sm text-amber-950";
  notice.textContent = FORM_OFFLINE[language()];
  form.append(notice);
}

function watchInstall(onInstallAvailable: () => void) {
  if (matchMedia("(display-mode: standalone)").matches) setPwaState({ installed: true });
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();
    // Dismissed once, dismissed for good (§1): the prompt's code is not even loaded then.
    if (installDismissed()) return;
    deferredPrompt = event as InstallPromptEvent;
    setPwaState({ installAvailable: true });
    onInstallAvailable();
  });
  window.addEventListener("appinstalled", () => {
    deferredPrompt = null;
    setPwaState({ installed: true, installAvailable: false });
  });
}

/** Shows the browser's install dialog for the prompt kept earlier. */
export async function promptInstall(): Promise<void> {
  const prompt = deferredPrompt;
  deferredPrompt = null;
  setPwaState({ installAvailable: false });
  if (!prompt) return;
  await prompt.prompt();
  const { outcome } = await prompt.userChoice;
  if (outcome === "accepted") setPwaState({ installed: true });
}

async function register() {
  if (!("serviceWorker" in navigator)) return;
  const sw = navigator.serviceWorker;
  const hadController = !!sw.controller;
  try {
    const registration = await sw.register("/sw.js", { scope: "/" });
    const waiting = (worker: ServiceWorker | null) => {
      if (!worker || !sw.controller) return;
      setPwaState({ needRefresh: true });
      worker.postMessage({ type: "skip-waiting" });
    };
    waiting(registration.waiting);
    registration.addEventListener("updatefound", () => {
      const worker = registration.installing;
      worker?.addEventListener("statechange", () => worker.state === "installed" && waiting(worker));
    });
    // A new version took over from the one this page started with: reload once onto it.
    sw.addEventListener("controllerchange", () => hadController && requestReload());
    const ready = await sw.ready;
    setPwaState({ offlineReady: true });
    // What this page loaded before a worker controlled it: kept now, under the worker's rules.
    const own = location.origin;
    const files = performance
      .getEntriesByType("resource")
      .map((e) => e.name)
      .filter((u) => u.startsWith(`${own}/assets/`) || u.startsWith(`${own}/theme/`));
    ready.active?.postMessage({ type: "warm", urls: [location.href, ...files] });
  } catch {
    setPwaState({ registrationError: true });
  }
}

/**
 * Starts the worker, the build checks and the form guards once per page load (production only);
 * `onInstallAvailable` loads our install prompt when the browser offers installing.
 */
export function startPwa(onInstallAvailable: () => void): void {
  if (started) return;
  started = true;
  watchForms();
  watchInstall(onInstallAvailable);
  watchBuilds();
  void register();
}

export function installDismissed(): boolean {
  try {
    return localStorage.getItem(INSTALL_DISMISSED_KEY) === "1";
  } catch {
    return false;
  }
}

export function dismissInstall(): void {
  try {
    localStorage.setItem(INSTALL_DISMISSED_KEY, "1");
  } catch {}
  deferredPrompt = null;
  setPwaState({ installAvailable: false });
}
