import type { Route } from "./+types/pwa-icon";
import { appIcon } from "~/pwa/icons.server";
import { parseIconName, themeColors } from "~/pwa/web-manifest";
import { loadSite } from "~/site/site.server";

/** `/pwa/icons/icon-192.png`, `icon-512.png`, `maskable-512.png`: made from the site's logo on first request. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const icon = parseIconName(params.file ?? "");
  if (!icon) return Response.json({ message: "No such icon: icon-192.png, icon-512.png and maskable-512.png exist.", statusCode: 404 }, { status: 404 });
  const site = await loadSite(context);
  const png = await appIcon(icon.size, icon.maskable, themeColors(site.theme.css).main);
  return new Response(new Uint8Array(png), { headers: { "Content-Type": "image/png", "Cache-Control": "public, max-age=86400" } });
}
