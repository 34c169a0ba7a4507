import type { Route } from "./+types/api.editor-assets";
import { routeAccess } from "~/auth/access";
import { searchAssets } from "~/admin/content/controls/pick.server";
import { pickerAnswer } from "~/admin/content/controls/pick-route.server";
import { methodNotAllowed } from "~/lib/api.server";

/**
 * `GET /api/editor/assets?q=&skip=&images=1`: the file picker's library grid, for signed-in editors:
 * `{ items: [{ id, fileName, url, mimeType, isImage }], total }`, 24 a page, newest first, searched
 * by file name in every folder. Hostile input is a 400 with `{ message }`.
 */
export const handle = routeAccess("auth");

export function loader(args: Route.LoaderArgs) {
  return pickerAnswer(args, "assets", (user, params) => searchAssets(args.context.services.store, params, user.language));
}

export const action = () => methodNotAllowed("GET");
