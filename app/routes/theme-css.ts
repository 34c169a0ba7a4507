import type { Route } from "./+types/theme-css";
import { loadSite } from "~/site/site.server";

/**
 * The theme stylesheet (colour variables with shades, fonts, Tailwind CSS for classes from content),
 * built once per content change. Its URL carries the content hash, so it is cached for a year.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const site = await loadSite(context);
  const current = `${site.theme.hash}.css`;
  const immutable = params.file === current;
  return new Response(site.theme.css, {
    headers: {
      "Content-Type": "text/css; charset=utf-8",
      "Cache-Control": immutable ? "public, max-age=31536000, immutable" : "public, max-age=60",
      ETag: `"${site.theme.hash}"`,
    },
  });
}
