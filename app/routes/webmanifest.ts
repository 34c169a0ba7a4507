import type { Route } from "./+types/webmanifest";
import { splitLanguage } from "~/i18n/languages";
import { PWA_TEXTS } from "~/pwa/texts";
import { themeColors, webManifest } from "~/pwa/web-manifest";
import { loadSite } from "~/site/site.server";

/** `/manifest.webmanifest` (German) and `/en/manifest.webmanifest`: name and colours from the site's settings and theme. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { language } = splitLanguage(new URL(request.url).pathname);
  const site = await loadSite(context);
  const colors = themeColors(site.theme.css);
  const settings = site.settings[language];
  const manifest = webManifest({
    language,
    siteName: settings.siteName,
    description: settings.tagline || PWA_TEXTS[language].manifestDescription,
    themeColor: colors.main,
    backgroundColor: colors.white,
  });
  return new Response(JSON.stringify(manifest), { headers: { "Content-Type": "application/manifest+json; charset=utf-8", "Cache-Control": "no-cache" } });
}
