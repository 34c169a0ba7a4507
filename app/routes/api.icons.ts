import type { Route } from "./+types/api.icons";
import { loadSite } from "~/site/site.server";
import { own } from "~/lib/input";

/** One sanitised theme icon as SVG, for icons that are not inlined as critical. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const site = await loadSite(context);
  const icon = own(site.theme.icons, params.name);
  if (!icon) return new Response("Icon not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(icon.svg, {
    headers: {
      "Content-Type": "image/svg+xml; charset=utf-8",
      "Cache-Control": "public, max-age=300, stale-while-revalidate=86400",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    },
  });
}
