import { useState } from "react";
import { Form, Link, NavLink, Outlet, type ShouldRevalidateFunction } from "react-router";
import type { Route } from "./+types/layout";
import { admin } from "~/admin/admin.server";
import { loadNavigation, type NavEntry } from "~/admin/navigation.server";
import { adminTexts } from "~/admin/texts";
import { NavigationProgress, useAdmin } from "~/admin/ui";
import { routeAccess } from "~/auth/access";
import { localizedPath } from "~/i18n/languages";

/**
 * The admin layout (spec §2): every /manage screen is below it and behind the auth middleware.
 * The menu comes from core-backend-navigation (ordered, nested, in the editor's language), plus
 * the system screens (account; users and audit log for superusers).
 */
export const handle = routeAccess("auth");

const PRIVATE = { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex" };
export const headers = () => PRIVATE;

export async function loader(args: Route.LoaderArgs) {
  const { user, language, services } = admin(args);
  // Kept in the content cache (dropped when the menu's collection changes), like the site's own menus.
  const navigation = await services.cache.getOrLoad(`admin-navigation:${language}`, () => loadNavigation(services.store, language));
  return {
    user: { id: user.id, email: user.email, name: user.name, superuser: user.superuser, language: user.language },
    language,
    navigation,
    siteName: services.env.SITE_NAME,
  };
}

/**
 * The frame's data (user, menu) changes only through a submission (a new language, a menu edit):
 * moving between screens does not ask for it again.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) => (formMethod ? defaultShouldRevalidate : false);

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData ? adminTexts[loaderData.language].adminArea : "Admin" }, { name: "robots", content: "noindex" }];

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `block rounded px-3 py-2 text-sm focus-visible:outline-3 focus-visible:outline-offset-1 focus-visible:outline-[#0f5e63] ${isActive ? "bg-[#0f5e63] font-semibold text-white" : "text-slate-900 hover:bg-slate-200"}`;

function Menu({ navigation, superuser }: { navigation: NavEntry[]; superuser: boolean }) {
  const { t } = useAdmin();
  return (
    <ul className="space-y-1">
      <li>
        <NavLink to="/manage" end className={linkClass}>
          {t.dashboard}
        </NavLink>
      </li>
      {navigation.map((entry) =>
        entry.type === "divider" ? (
          <li key={entry.id} className="px-3 pt-4 pb-1 text-xs font-semibold tracking-wider text-slate-700 uppercase">
            {entry.label}
          </li>
        ) : (
          <li key={entry.id} data-nav-component={entry.component ?? undefined}>
            <NavLink to={entry.slug} end={entry.children.length > 0} className={linkClass}>
              {entry.label}
            </NavLink>
            {entry.children.length ? (
              <ul className="mt-1 ml-3 space-y-1 border-l border-slate-300 pl-2">
                {entry.children.map((child) => (
                  <li key={child.slug}>
                    <NavLink to={child.slug} className={linkClass}>
                      {child.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ),
      )}
      <li className="px-3 pt-4 pb-1 text-xs font-semibold tracking-wider text-slate-700 uppercase">
        {t.system}
      </li>
      <li>
        <NavLink to="/manage/account" className={linkClass}>
          {t.account}
        </NavLink>
      </li>
      {superuser ? (
        <>
          <li>
            <NavLink to="/manage/users" className={linkClass}>
              {t.users}
            </NavLink>
          </li>
          <li>
            <NavLink to="/manage/audit" className={linkClass}>
              {t.audit}
            </NavLink>
          </li>
        </>
      ) : null}
    </ul>
  );
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const { user, navigation, language, siteName } = loaderData;
  const t = adminTexts[language];
  const [open, setOpen] = useState(false);
  return (
    <div className="min-h-screen bg-slate-50" data-admin-layout>
      <NavigationProgress />
      <a href="#admin-main" className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:p-2">
        {t.skipToContent}
      </a>
      <header className="flex items-center justify-between gap-4 border-b border-slate-300 bg-white px-4 py-3">
        <div className="flex items-center gap-3">
          <button
            type="button"
            className="rounded border border-slate-400 px-3 py-2 text-sm lg:hidden"
            aria-expanded={open}
            aria-controls="admin-navigation"
            onClick={() => setOpen((v) => !v)}
          >
            {open ? t.closeMenu : t.openMenu}
          </button>
          <Link to="/manage" className="font-bold">
            {siteName} · {t.adminArea}
          </Link>
        </div>
        <div className="flex flex-wrap items-center gap-3 text-sm">
          <a href={localizedPath(language, "/")} className="underline">
            {t.viewSite}
          </a>
          <span className="hidden sm:inline" data-signed-in-as={user.email}>
            {t.signedInAs(user.name)}
          </span>
          <Form method="post" action="/manage/account" reloadDocument>
            <input type="hidden" name="intent" value="sign-out" />
            <button type="submit" className="rounded border border-slate-400 px-3 py-1.5 font-semibold hover:bg-slate-100" data-sign-out>
              {t.signOut}
            </button>
          </Form>
        </div>
      </header>
      <div className="flex">
        <nav
          id="admin-navigation"
          aria-label={t.navigation}
          className={`${open ? "block" : "hidden"} w-full shrink-0 border-r border-slate-300 bg-white p-3 sm:w-64 lg:block`}
          onClick={(e) => (e.target as HTMLElement).closest("a") && setOpen(false)}
        >
          <Menu navigation={navigation} superuser={user.superuser} />
        </nav>
        <main id="admin-main" className={`${open ? "hidden sm:block" : ""} min-w-0 flex-1 p-4 sm:p-6`} tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}

export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";
