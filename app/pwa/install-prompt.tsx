import { dismissInstall, promptInstall } from "./client";
import { usePwaState } from "./state";
import { PWA_TEXTS } from "./texts";

/** Our own install prompt (§1), loaded only when the browser offers installing and it was never dismissed. */
export default function InstallPrompt({ language }: { language: "de" | "en" }) {
  const { installAvailable } = usePwaState();
  if (!installAvailable) return null;
  const t = PWA_TEXTS[language];
  return (
    <section aria-labelledby="pwa-install-title" className="fixed right-4 top-4 z-50 max-w-sm rounded-lg border border-black/20 bg-white p-4 text-slate-900 shadow-2xl" data-install-prompt>
      <h2 id="pwa-install-title" className="font-semibold">
        {t.installTitle}
      </h2>
      <p className="mt-1 text-sm">{t.installText}</p>
      <div className="mt-3 flex gap-3">
        <button type="button" className="rounded bg-[var(--color-main,#0f5e63)] px-3 py-2 text-sm font-semibold text-white" onClick={() => void promptInstall()}>
          {t.install}
        </button>
        <button type="button" className="rounded border border-black/30 px-3 py-2 text-sm" onClick={dismissInstall}>
          {t.dismiss}
        </button>
      </div>
    </section>
  );
}
