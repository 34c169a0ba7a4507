import type { Route } from "./+types/offline";
import { splitLanguage, type Language } from "~/i18n/languages";
import { PWA_TEXTS } from "~/pwa/texts";
import { originOf, seoMeta } from "~/site/seo";

/** Served by the service worker under any address: no scripts, so nothing tries to hydrate it as that address's page. */
export const handle = { plain: true };

/** The page the service worker shows for a page it never saw while the visitor is offline (precached per language). */
export function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const { language } = splitLanguage(url.pathname);
  return { language, path: url.pathname, origin: originOf(request, context), alternates: { de: "/offline", en: "/en/offline" } as Record<Language, string> };
}

export const meta: Route.MetaFunction = ({ loaderData: d }) =>
  d ? seoMeta({ title: PWA_TEXTS[d.language].offlineTitle, language: d.language, origin: d.origin, canonical: d.path, alternates: d.alternates, noindex: true }) : [];

export default function OfflinePage({ loaderData: d }: Route.ComponentProps) {
  const t = PWA_TEXTS[d.language];
  return (
    <div className="mx-auto max-w-2xl px-4 py-12" data-offline-page={d.language}>
      <h1 className="text-4xl font-bold tracking-tight">{t.offlineTitle}</h1>
      <p className="mt-4">{t.offlineText}</p>
      <p className="mt-6">
        {/* A plain link: reloading the address the visitor wanted is the browser's, not the router's. */}
        <a href="" className="inline-block rounded bg-[var(--color-main,#0f5e63)] px-5 py-3 font-semibold text-white">
          {t.offlineRetry}
        </a>
      </p>
    </div>
  );
}
