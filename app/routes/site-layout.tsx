import { useEffect } from "react";
import { preload } from "react-dom";
import { Link, Outlet, useLocation, useMatches, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/site-layout";
import { AnalyticsTracker } from "~/analytics/tracker-loader";
import { useAuthSession } from "~/auth/session-client";
import { parseConsent } from "~/consent/consent";
import { ConsentBanner } from "~/consent/consent-banner";
import { scriptsToLoad } from "~/consent/scripts";
import { LANGUAGES, localizedPath, splitLanguage, type Language } from "~/i18n/languages";
import { LANGUAGE_NAMES, messages } from "~/i18n/messages";
import { Icon } from "~/site/icon";
import { SiteContext, type SiteContextValue } from "~/site/site-context";
import { loadSite } from "~/site/site.server";
import { themeColors } from "~/pwa/web-manifest";

/** The default layout of the public site: header with menu and language switcher, footer, consent. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { language } = splitLanguage(new URL(request.url).pathname);
  const site = await loadSite(context);
  const settings = site.settings[language];
  const menu = (where: "header" | "footer") =>
    site.pages
      .filter((p) => p.navigation === where && p.reachable[language])
      .sort((a, b) => a.navigationOrder - b.navigationOrder)
      .map((p) => ({ id: p.id, title: p.title[language], href: localizedPath(language, `/${p.slug[language]}`) }));
  const icons = Object.entries(site.theme.icons);
  const consent = parseConsent(request.headers.get("cookie"));
  // Third-party scripts of the categories this visitor allowed, and their origins into this page's CSP.
  const url = new URL(request.url);
  const editing = url.searchParams.get("edit") === "1" || url.searchParams.get("preview") === "1";
  // An external consent tool (CONSENT_SERVICE_URL with CONSENT_SERVICE_ID) asks instead of our banner;
  // it is needed to ask, so it loads before any choice (public/consent-bridge.js carries its answer to us).
  const { CONSENT_SERVICE_URL, CONSENT_SERVICE_ID } = context.services.env;
  const consentService = CONSENT_SERVICE_URL && CONSENT_SERVICE_ID && !editing ? { src: CONSENT_SERVICE_URL, id: CONSENT_SERVICE_ID } : null;
  const scripts = editing
    ? []
    : scriptsToLoad(settings.thirdPartyScripts, consent, {
        // Without the tool's script there is no service to know the scripts' ids: our banner decides.
        consentServiceId: consentService ? consentService.id : undefined,
        warnMissingService: (service, script) => warnOnce(context, service, script),
      });
  for (const s of scripts) context.scriptOrigins?.add(s.origin);
  if (consentService) context.scriptOrigins?.add(new URL(consentService.src).origin);
  const { PLAUSIBLE_URL, PLAUSIBLE_DOMAIN, ANALYTICS_TRACK_LOCALHOST } = context.services.env;
  return {
    thirdPartyScripts: scripts.map(({ name, src, category }) => ({ name, src, category })),
    consentService,
    analytics: {
      endpoint: PLAUSIBLE_URL ? `${PLAUSIBLE_URL}/api/event` : "/api/event",
      domain: PLAUSIBLE_URL ? (PLAUSIBLE_DOMAIN ?? null) : null,
      trackLocalhost: ANALYTICS_TRACK_LOCALHOST,
    },
    language,
    siteName: settings.siteName,
    tagline: settings.tagline,
    footerText: settings.footerText,
    header: menu("header"),
    footer: menu("footer"),
    themeHref: `/theme/${site.theme.hash}.css`,
    themeColor: themeColors(site.theme.css).main,
    fontPreloads: site.theme.fontPreloads,
    defaultThemeClass: site.defaultThemeId ? `theme-${site.defaultThemeId}` : "",
    /** Each language's name, in that language, for the switcher. */
    languageNames: site.languageNames,
    context: {
      language,
      textStyles: site.theme.textStyles,
      criticalIcons: Object.fromEntries(icons.filter(([, i]) => i.critical).map(([name, i]) => [name, i.svg])),
      iconNames: icons.map(([name]) => name),
      consent,
      mapDefault: settings.mapDefault,
      mapZoom: settings.mapZoom,
      mapStyleUrl: context.services.env.MAP_STYLE_URL,
      siteVariant: context.services.env.SITE_VARIANT,
    } satisfies SiteContextValue,
  };
}

/**
 * The consent state for other scripts on the page (§4): `window.praxisnetzConsent`, and a
 * `praxisnetz:consent` event on window whenever it is known or changes.
 */
function useConsentEvent(consent: SiteContextValue["consent"]) {
  useEffect(() => {
    (window as { praxisnetzConsent?: unknown }).praxisnetzConsent = consent;
    window.dispatchEvent(new CustomEvent("praxisnetz:consent", { detail: consent }));
  }, [consent]);
}

const warned = new Set<string>();
/** §8: a script names a consent-service id nothing here knows; said once per id, and our banner decides. */
function warnOnce(context: Route.LoaderArgs["context"], service: string, script: string) {
  if (warned.has(service) || warned.size > 100) return;
  warned.add(service);
  context.services.logger.warn({ consentServiceId: service, script }, "consent service id missing: no consent service is configured (CONSENT_SERVICE_URL and CONSENT_SERVICE_ID); the site's own consent banner decides this script");
}

// Site data only changes with content; revalidate on navigation only when the language changes.
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod) return defaultShouldRevalidate;
  return splitLanguage(currentUrl.pathname).language !== splitLanguage(nextUrl.pathname).language || defaultShouldRevalidate;
}

/** Child routes return `alternates` (the same page in each language) for the switcher and hreflang. */
export type Alternates = Record<Language, string>;

function useAlternates(language: Language): Alternates {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const data = matches[i]!.data as { alternates?: Alternates } | undefined;
    if (data?.alternates) return data.alternates;
  }
  return { de: localizedPath("de", "/"), en: localizedPath("en", "/"), [language]: localizedPath(language, "/") } as Alternates;
}

/** Whether the page below is in edit mode (its loader said so). */
function useEditMode(): boolean {
  const matches = useMatches();
  const last = matches[matches.length - 1]?.data as { mode?: string } | undefined;
  return last?.mode === "edit";
}

type MenuItem = { id: string; title: string; href: string };

function MenuList({ items, className, linkClassName, children }: { items: MenuItem[]; className: string; linkClassName: string; children?: React.ReactNode }) {
  return (
    <ul className={className}>
      {items.map((item) => (
        <li key={item.id}>
          <Link to={item.href} prefetch="intent" className={linkClassName}>
            {item.title}
          </Link>
        </li>
      ))}
      {children}
    </ul>
  );
}

export default function SiteLayout({ loaderData }: Route.ComponentProps) {
  const { language, siteName, tagline, header, footer, footerText, themeHref, themeColor, fontPreloads, defaultThemeClass, languageNames, context, thirdPartyScripts, consentService, analytics } = loaderData;
  useConsentEvent(context.consent);
  // Hoisted into <head> by React.
  for (const href of fontPreloads) preload(href, { as: "font", type: "font/woff2", crossOrigin: "anonymous" });
  const t = messages(language);
  const alternates = useAlternates(language);
  // Edit mode is the page and the editor only: no menus, footer or consent banner around it.
  if (useEditMode()) {
    return (
      <SiteContext.Provider value={context}>
        <link rel="stylesheet" href={themeHref} precedence="theme" />
        <main id="main" className={`bg-[var(--color-white,#fff)] text-[var(--color-black,#1f2328)] ${defaultThemeClass}`}>
          <Outlet />
        </main>
      </SiteContext.Provider>
    );
  }
  return (
    <SiteContext.Provider value={context}>
      <link rel="stylesheet" href={themeHref} precedence="theme" />
      <div className={`flex min-h-screen flex-col bg-[var(--color-white,#fff)] text-[var(--color-black,#1f2328)] ${defaultThemeClass}`}>
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2">
          {t.skipToContent}
        </a>
        <header className="border-b border-black/10 bg-[var(--color-white,#fff)]">
          <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
            <Link to={localizedPath(language, "/")} prefetch="intent" className="flex items-center gap-2 text-xl font-bold text-[var(--color-main,#0f5e63)]">
              <Icon name="heart" className="size-7" />
              <span>{siteName}</span>
            </Link>
            {tagline ? <span className="hidden text-sm text-black/80 lg:inline">{tagline}</span> : null}
            <nav aria-label={t.mainNavigation} className="order-last w-full font-[family-name:var(--font-navbar,inherit)] md:order-none md:ml-auto md:w-auto">
              <MenuList items={header} className="flex flex-wrap gap-x-5 gap-y-1" linkClassName="font-medium hover:underline" />
            </nav>
            <nav aria-label={t.languageSwitch} className="ml-auto md:ml-0">
              <ul className="flex gap-2 text-sm">
                {LANGUAGES.map((lang) => (
                  <li key={lang}>
                    {lang === language ? (
                      <span aria-current="true" className="rounded bg-black/10 px-2 py-1 font-semibold">
                        {lang.toUpperCase()}
                      </span>
                    ) : (
                      <Link to={alternates[lang]} hrefLang={lang} lang={lang} prefetch="intent" className="rounded px-2 py-1 underline" aria-label={`${lang.toUpperCase()} – ${languageNames[lang] ?? LANGUAGE_NAMES[lang]}`}>
                        {lang.toUpperCase()}
                      </Link>
                    )}
                  </li>
                ))}
              </ul>
            </nav>
            <EditorLink language={language} />
          </div>
        </header>
        <main id="main" className="flex-1">
          <Outlet />
        </main>
        <footer className="mt-16 border-t border-black/10 bg-black/5">
          <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 text-sm md:flex-row md:items-center md:justify-between">
            <p>{footerText || `© ${siteName}`}</p>
            <nav aria-label={t.footerNavigation}>
              <MenuList items={footer} className="flex flex-wrap gap-4" linkClassName="underline">
                <li>
                  <a href="#consent" className="underline">
                    {t.consentSettings}
                  </a>
                </li>
              </MenuList>
            </nav>
          </div>
        </footer>
        {consentService ? (
          <>
            <script src={consentService.src} data-settings-id={consentService.id} data-consent-service="" async />
            <script src="/consent-bridge.js" async />
          </>
        ) : (
          <ConsentBanner />
        )}
        {/* Hoisted into <head> by React; only what the visitor allowed (the loader chose, the CSP admits). */}
        {thirdPartyScripts.map((s) => (
          <script key={s.src} src={s.src} async data-third-party={s.name} data-consent-category={s.category} />
        ))}
        <AnalyticsTracker config={analytics} />
        <link rel="manifest" href={language === "de" ? "/manifest.webmanifest" : `/${language}/manifest.webmanifest`} />
        <meta name="theme-color" content={themeColor} />
        <Pwa />
      </div>
    </SiteContext.Provider>
  );
}

/**
 * The service worker, build checks, offline form guard and install prompt: a small chunk asked for
 * after hydration, in production builds only (the server's HTML is the same for everyone).
 */
function Pwa() {
  useEffect(() => {
    if (import.meta.env.PROD) void import("~/pwa/client").then((pwa) => pwa.startPwa());
  }, []);
  return null;
}

/**
 * For a signed-in editor (known after the one session fetch): a way into the admin area. Rendered
 * only in the browser, so the page's cached HTML is the same for everyone.
 */
function EditorLink({ language }: { language: Language }) {
  const { ready, user } = useAuthSession();
  const matches = useMatches();
  const location = useLocation();
  if (!ready || !user) return null;
  // Content pages (home and the catch-all) can be edited where they are: the same path with ?edit=1.
  const editable = matches.some((m) => /-(home|page)$/.test(m.id));
  return (
    <span className="flex gap-2">
      {editable ? (
        <a href={`${location.pathname}?edit=1`} className="rounded border border-[var(--color-main,#0f5e63)] px-2 py-1 text-sm font-semibold text-[var(--color-main,#0f5e63)]" data-edit-page-link>
          {language === "de" ? "Seite bearbeiten" : "Edit page"}
        </a>
      ) : null}
      <a href="/manage" className="rounded bg-[var(--color-main,#0f5e63)] px-2 py-1 text-sm font-semibold text-white" data-editor-link>
        {language === "de" ? "Verwaltung" : "Admin"}
      </a>
    </span>
  );
}
