import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

/**
 * The public site exists three times: unprefixed (German, canonical), under /en and under /de.
 * Route modules are shared; each reads its language from the first path segment.
 */
function site(prefix: "" | "en" | "de") {
  const path = (p: string) => (prefix ? `${prefix}/${p}` : p);
  const id = (name: string) => `${prefix || "root"}-${name}`;
  return [
    prefix ? route(prefix, "routes/page.tsx", { id: id("home") }) : index("routes/page.tsx", { id: id("home") }),
    route(path("practitioners"), "routes/practitioners.tsx", { id: id("practitioners") }),
    route(path("practitioners/register"), "routes/register.tsx", { id: id("register") }),
    route(path("practitioners/register/:practitionerid"), "routes/register.tsx", { id: id("register-existing") }),
    route(path("practitioners/:practitionername"), "routes/practitioner.tsx", { id: id("practitioner") }),
    route(path("newsletter/:email"), "routes/newsletter.tsx", { id: id("newsletter") }),
    route(path("present/:email"), "routes/present.tsx", { id: id("present") }),
    route(path("appointments/cancel"), "routes/appointment-cancel.tsx", { id: id("appointment-cancel") }),
    route(path("appointments/book/:appointmentid"), "routes/appointment-book.tsx", { id: id("appointment-book") }),
    route(path("login"), "routes/login.tsx", { id: id("login") }),
    route(path("offline"), "routes/offline.tsx", { id: id("offline") }),
    route(path("*"), "routes/page.tsx", { id: id("page") }),
  ];
}

export default [
  route("api/rest", "routes/api.rest.ts"),
  route("api/getcontentitem", "routes/api.getcontentitem.ts"),
  route("api/getassets", "routes/api.getassets.ts"),
  route("api/schemas", "routes/api.schemas.ts"),
  route("api/getThirdPartyScripts", "routes/api.get-third-party-scripts.ts"),
  route("api/assets/:id/*", "routes/api.assets.ts"),
  route("api/assets/:id", "routes/api.assets.ts", { id: "asset-content-bare" }),
  route("api/icons/:name", "routes/api.icons.ts"),
  route("api/consent", "routes/api.consent.ts"),
  route("api/practitioners/map", "routes/api.practitioners-map.ts"),
  route("api/practitioners/register", "routes/api.practitioners-register.ts"),
  route("api/newsletter/subscribe", "routes/api.newsletter-subscribe.ts"),
  route("api/newsletter/unsubscribe", "routes/api.newsletter-unsubscribe.ts"),
  route("api/appointments/:id/book", "routes/api.appointments-book.ts"),
  route("api/_auth/session", "routes/api.auth-session.ts"),
  route("api/_auth/password", "routes/api.auth-password.ts"),
  route("api/editor/pages/:id", "routes/api.editor-page.ts"),
  route("api/editor/block-data", "routes/api.editor-block-data.ts"),
  route("api/editor/pages/:id/presence", "routes/api.editor-presence.ts"),
  route("api/editor/templates", "routes/api.editor-templates.ts"),
  route("api/editor/templates/:id", "routes/api.editor-templates.ts", { id: "editor-template" }),
  route("api/editor/pages/:id/history", "routes/api.editor-history.ts"),
  route("api/editor/items/:schema", "routes/api.editor-items.ts"),
  route("api/editor/assets", "routes/api.editor-assets.ts"),
  route("api/editor/geocode", "routes/api.editor-geocode.ts"),
  route("api/*", "routes/api.not-found.ts"),
  route("theme/:file", "routes/theme-css.ts"),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("manifest.webmanifest", "routes/webmanifest.ts"),
  route("en/manifest.webmanifest", "routes/webmanifest.ts", { id: "manifest-en" }),
  route("pwa/icons/:file", "routes/pwa-icon.ts"),
  route("robots.txt", "routes/robots.ts"),
  route("__test/error", "routes/test-error.tsx"),
  route("__test/injected-script", "routes/test-injected-script.tsx"),
  route("__test/rich-text", "routes/test-rich-text.tsx"),
  layout("routes/empty-layout.tsx", [route("manage/flushcache", "routes/flushcache.tsx")]),
  layout("routes/site-layout.tsx", [
    ...site(""),
    ...site("en"),
    ...site("de"),
  ]),
  // The admin area (spec §2): every screen behind the auth middleware (routes/manage/layout.tsx).
  route("manage", "routes/manage/layout.tsx", [
    index("routes/manage/home.tsx"),
    route("pages", "routes/manage/pages.tsx"),
    route("pages/:pagename", "routes/manage/page.tsx"),
    route("blocks", "routes/manage/blocks.tsx"),
    route("blocks/:blockname", "routes/manage/block.tsx"),
    route("squidex/icons", "routes/manage/icons.tsx"),
    route("squidex/colors", "routes/manage/colors.tsx", { id: "manage-squidex-colors" }),
    route("squidex/:pagename", "routes/manage/stored-page.tsx"),
    route("colors", "routes/manage/colors.tsx"),
    route("text-styles", "routes/manage/text-styles.tsx"),
    route("content", "routes/manage/content.tsx"),
    route("content/:schema", "routes/manage/collection.tsx"),
    route("content/:schema/:itemid", "routes/manage/item.tsx"),
    route("registrations", "routes/manage/registrations.tsx"),
    route("appointments", "routes/manage/appointments.tsx"),
    route("outbox", "routes/manage/outbox.tsx"),
    route("squidex-assets", "routes/manage/assets.tsx"),
    route("tailwind", "routes/manage/tailwind.tsx"),
    route("plausible", "routes/manage/plausible.tsx"),
    route("users", "routes/manage/users.tsx"),
    route("audit", "routes/manage/audit.tsx"),
    route("account", "routes/manage/account.tsx"),
    route("*", "routes/manage/not-found.tsx"),
  ]),
] satisfies RouteConfig;
