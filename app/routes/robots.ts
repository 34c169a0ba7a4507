import type { Route } from "./+types/robots";
import { originOf } from "~/site/seo";

export function loader({ request, context }: Route.LoaderArgs) {
  const origin = originOf(request, context);
  const body = ["User-agent: *", "Disallow: /manage/", "Disallow: /api/", "Allow: /api/assets/", "", `Sitemap: ${origin}/sitemap.xml`, ""].join("\n");
  return new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
