import { INSTALL_DISMISSED_KEY, installPrompt } from "./client";
import { setPwaState } from "./state";
import { PWA_TEXTS } from "./texts";

let shown = false;

/**
 * Our own install prompt (§1), loaded only when the browser offers installing and it was never
 * dismissed. Plain DOM at the end of the page, outside React's tree: the router never re-renders
 * or removes it, and it brings no second React root.
 */
export function showInstallPrompt(): void {
  if (shown) return;
  shown = true;
  const t = PWA_TEXTS[document.documentElement.lang === "en" ? "en" : "de"];
  const el = (tag: string, className: string, text?: string) => {
    const node = document.createElement(tag);
    node.className = className;
    if (text) node.textContent = text;
    return node;
  };
  const box = el("section", "fixed right-4 top-4 z-50 max-w-sm rounded-lg border border-black/20 bg-white p-4 text-slate-900 shadow-2xl");
  box.setAttribute("aria-labelledby", "pwa-install-title");
  box.setAttribute("data-install-prompt", "");
  const title = el("h2", "font-semibold", t.installTitle);
  title.id = "pwa-install-title";
  const buttons = el("div", "mt-3 flex gap-3");
  const install = el("button", "rounded bg-[var(--color-main,#0f5e63)] px-3 py-2 text-sm font-semibold text-white", t.install);
  const dismiss = el("button", "rounded border border-black/30 px-3 py-2 text-sm", t.dismiss);
  for (const b of [install, dismiss]) b.setAttribute("type", "button");
  const close = () => {
    box.remove();
    setPwaState({ installAvailable: false });
  };
  install.onclick = async () => {
    close();
    const prompt = installPrompt;
    if (!prompt) return;
    await prompt.prompt();
    if ((await prompt.userChoice).outcome === "accepted") setPwaState({ installed: true });
  };
  // Dismissed for good: not offered again in this browser.
  dismiss.onclick = () => {
    try {
      localStorage.setItem(INSTALL_DISMISSED_KEY, "1");
    } catch {}
    close();
  };
  buttons.append(install, dismiss);
  box.append(title, el("p", "mt-1 text-sm", t.installText), buttons);
  document.body.append(box);
}
