import type { Route } from "./+types/api.editor-presence";
import { getPage } from "~/admin/pages/page-edit";
import { routeAccess } from "~/auth/access";
import { requireUser } from "~/auth/require.server";
import { BUSY_RETRY_AFTER_SECONDS, contentErrorOf } from "~/content/errors";
import { isValidId } from "~/content/ids";
import { isPlainObject } from "~/content/validate";
import { heartbeat, leave, type PresentEditor } from "~/editor/presence.server";
import { editorTexts } from "~/editor/texts";
import { jsonResponse, methodNotAllowed } from "~/lib/api.server";
import { readJson } from "~/lib/body";

/**
 * `/api/editor/pages/{id}/presence`: who else has this page open in edit mode.
 * - `POST` (empty body or `{}`): "I am here"; answers `{ others: [{ name }] }`, the other people
 *   seen on the page within the last 45 s.
 * - `DELETE`, or `POST` with `{ leaving: true }` or `?leaving=1`: "I left" (the query form is for
 *   navigator.sendBeacon on pagehide, which can send no JSON body from every browser).
 * A page that does not exist (or an id that cannot be one) is a 404 with a message.
 */
export const handle = routeAccess("auth");

/** The body is `{}` or `{ leaving: true }`: anything near this size is not ours. */
const BODY_LIMIT = 1024;
const ALLOWED = "POST, DELETE";

export const loader = () => methodNotAllowed(ALLOWED);

export interface PresenceAnswer {
  others?: PresentEditor[];
  message?: string;
}

export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST" && request.method !== "DELETE") return methodNotAllowed(ALLOWED);
  const user = requireUser({ context, request });
  const t = editorTexts[user.language];
  const answer = (status: number, body: PresenceAnswer, headers: Record<string, string> = {}) => jsonResponse(body, { status, headers: { "Cache-Control": "private, no-store", ...headers } });
  const { store } = context.services;
  try {
    const id = params.id;
    const page = isValidId(id) ? await getPage(store, id) : undefined;
    if (!page) return answer(404, { message: t.notFound });
    let leaving = request.method === "DELETE" || new URL(request.url).searchParams.get("leaving") === "1";
    if (request.method === "POST") {
      const body = await readJson(request, BODY_LIMIT);
      if (!isPlainObject(body)) return answer(400, { message: t.badRequest });
      if (body.leaving === true) leaving = true;
    }
    if (leaving) {
      await leave(store.db, page.id, user.id);
      return answer(200, { others: [] });
    }
    return answer(200, { others: await heartbeat(store.db, page.id, user) });
  } catch (error) {
    const known = contentErrorOf(error);
    // A body that is too large, of another type or no JSON: the request's fault, said plainly.
    if (known && known.statusCode < 500) return answer(known.statusCode, { message: t.badRequest });
    if (known?.statusCode === 503) return answer(503, { message: t.busy }, { "Retry-After": String(BUSY_RETRY_AFTER_SECONDS) });
    context.services.logger.error({ err: error, requestId: context.requestId, page: params.id }, "editor presence failed");
    return answer(500, { message: t.failed });
  }
}
