import { createContext, useContext, useEffect } from "react";
import { isRouteErrorResponse, Link, Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation, useMatches, useRouteError, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/root";
import { localizedPath, splitLanguage } from "./i18n/languages";
import { messages } from "./i18n/messages";
// The site's stylesheet as a React 19 stylesheet resource (precedence): it goes to the top of the
// head with the theme's, ahead of the script preloads, so the browser asks for it first.
import appCss from "./app.css?url";

/** The CSP nonce of this response; empty in the browser, where it is no longer needed. */
export const NonceContext = createContext("");

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useContext(NonceContext);
  // The admin area speaks the editor's language, whatever its path says.
  const adminLanguage = (useRouteLoaderData("routes/manage/layout") as { language?: string } | undefined)?.language;
  const location = useLocation();
  const language = adminLanguage ?? splitLanguage(location.pathname).language;
  // Edit mode's window does not scroll (its canvas does): no scroll positions to restore there, and
  // the restoring script, run while the page is still being read, costs its opening 10-15 ms.
  const editing = new URLSearchParams(location.search).get("edit") === "1";
  // A page that is served under other addresses (the offline page) stays plain HTML: hydrated there it would not match.
  const plain = useMatches().some((m) => (m.handle as { plain?: boolean } | undefined)?.plain);
  return (
    <html lang={language}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="bg-white text-slate-900 antialiased">
        {children}
        {/* After the page: the theme's stylesheet (site-layout) is found first and stays first in the cascade. */}
        <link rel="stylesheet" href={appCss} precedence="app" />
        {editing || plain ? null : <ScrollRestoration nonce={nonce} />}
        {plain ? null : <Scripts nonce={nonce} />}
      </body>
    </html>
  );
}

export default function App() {
  // Said once the page is hydrated (its scripts may come after its first paint): for scripts and tests that wait for it.
  useEffect(() => void (document.documentElement.dataset.hydrated = "true"), []);
  return <Outlet />;
}

/**
 * The error layout: a 404 variant for missing pages, otherwise "Internal Server Error" with status
 * 500. Details of a server error stay in the log, never on the page.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const { language } = splitLanguage(useLocation().pathname);
  const t = messages(language);
  // A link followed in the browser while offline: its data could not be fetched. Loaded as a
  // document instead, the service worker answers with the page it kept, or with its offline page.
  const offline = !isRouteErrorResponse(error) && typeof navigator !== "undefined" && navigator.onLine === false;
  useEffect(() => {
    if (offline && navigator.serviceWorker?.controller) location.reload();
  }, [offline]);
  if (offline)
    return (
      <main className="mx-auto max-w-3xl px-6 py-16" data-offline-error>
        <title>{t.offline}</title>
        <h1 className="text-4xl font-bold tracking-tight">{t.offline}</h1>
      </main>
    );
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const notFound = status === 404;
  const title = notFound ? t.pageNotFound : t.internalError;
  const data: unknown = isRouteErrorResponse(error) ? error.data : undefined;
  const missing = data && typeof data === "object" && typeof (data as { notFound?: unknown }).notFound === "string" ? (data as { notFound: string }).notFound : undefined;
  const detail = missing !== undefined ? `${t.pageNotFound}: ${missing}` : typeof data === "string" ? data : t.errorHint;
  return (
    <main className="mx-auto flex min-h-screen max-w-3xl flex-col justify-center px-6 py-16" data-error-status={status}>
      <title>{title}</title>
      <p className="text-sm font-semibold tracking-widest text-black/70">{status}</p>
      <h1 className="mt-2 text-4xl font-bold tracking-tight">{title}</h1>
      <p className="mt-4 text-lg" data-error-message>
        {detail}
      </p>
      <p className="mt-8">
        <Link to={localizedPath(language, "/")} className="font-semibold underline" reloadDocument>
          {t.backHome}
        </Link>
      </p>
    </main>
  );
}
