import type { Route } from "./+types/api.practitioners-map";
import { badRequest } from "~/content/errors";
import { isLanguage } from "~/i18n/languages";
import { errorResponse, methodNotAllowed } from "~/lib/api.server";
import { etagMatches } from "~/lib/etag";
import { loadMapMarkers, parseMapQuery } from "~/practitioners/map.server";

/**
 * GET `/api/practitioners/map?zoom=&west=&south=&east=&north=[&q=&language=&country=][&lang=en]`:
 * the directory's markers in the visible area as GeoJSON, clustered per grid square (see
 * map.server.ts). Public data only (visible practitioners' places, names and profile links); the
 * browser revalidates with the ETag.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  try {
    const params = new URL(request.url).searchParams;
    const lang = params.get("lang") ?? "de";
    if (!isLanguage(lang)) throw badRequest('lang must be "de" or "en".');
    const { body, etag } = await loadMapMarkers(context, lang, parseMapQuery(params));
    const headers = { "Content-Type": "application/geo+json; charset=utf-8", "Cache-Control": "public, max-age=0, must-revalidate", ETag: etag };
    return etagMatches(request.headers.get("If-None-Match"), etag) ? new Response(null, { status: 304, headers }) : new Response(body, { headers });
  } catch (error) {
    return errorResponse(error, context.requestId);
  }
}

export const action = () => methodNotAllowed("GET");
