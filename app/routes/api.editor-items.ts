import type { Route } from "./+types/api.editor-items";
import { routeAccess } from "~/auth/access";
import { searchItems } from "~/admin/content/controls/pick.server";
import { pickerAnswer } from "~/admin/content/controls/pick-route.server";
import { userPrincipal } from "~/content/policy";
import { methodNotAllowed } from "~/lib/api.server";

/**
 * `GET /api/editor/items/{schema}?q=&skip=`: the reference picker's search (drafts included), for
 * signed-in editors of a collection the policy lets them read: `{ items: [{ id, title, detail?,
 * status }], total }`, 20 a page by title. Hostile input is a 400 with `{ message }`.
 */
export const handle = routeAccess("auth");

export function loader(args: Route.LoaderArgs) {
  return pickerAnswer(args, "items", (user, params) => searchItems(args.context.services.store, userPrincipal(user), args.params.schema, params, user.language));
}

export const action = () => methodNotAllowed("GET");
