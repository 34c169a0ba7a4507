import type { Route } from "./+types/api.editor-geocode";
import { routeAccess } from "~/auth/access";
import { geocode, parseAddress } from "~/admin/content/controls/pick.server";
import { pickerAnswer } from "~/admin/content/controls/pick-route.server";
import { methodNotAllowed } from "~/lib/api.server";

/**
 * `GET /api/editor/geocode?q=`: the place control's address search, for signed-in editors:
 * `{ source: "geocoder" | "directory", places: [{ label, latitude, longitude }] }`. The geocoder
 * (GEOCODER_URL) is asked from the server; when it cannot answer, addresses of our own directory do.
 */
export const handle = routeAccess("auth");

export function loader(args: Route.LoaderArgs) {
  const { store, env } = args.context.services;
  return pickerAnswer(args, "geocode", (user, params) => geocode(store, env.GEOCODER_URL, parseAddress(params.get("q"), user.language), user.language));
}

export const action = () => methodNotAllowed("GET");
