import type { Route } from "./+types/api.content-webhook";
import { ContentError } from "~/content/errors";
import { MirrorError } from "~/content/remote/mirror";
import { validSignature, webhookTarget } from "~/content/remote/webhook";
import { errorResponse, jsonResponse, methodNotAllowed } from "~/lib/api.server";
import { readBody } from "~/lib/body";

/** A Squidex event is a few KB; its data is not used (the item is fetched from Squidex itself). */
const BODY_LIMIT = 256 * 1024;

/**
 * POST /api/content-webhook: a Squidex rule's webhook (decision 0037). With the site on a remote
 * Squidex (SQUIDEX_URL) the event's item (or asset, with its file) is fetched from Squidex and written
 * into the mirror (or removed), which drops just the cached reads and pages that read it; a schema event pulls the
 * schemas; anything else pulls the changes. The call must carry Squidex's signature (`X-Signature`,
 * made with SQUIDEX_WEBHOOK_SECRET, or FLUSH_TOKEN when that is not set). The event's own data is
 * never trusted: only its names are read.
 */
export async function action({ request, context }: Route.ActionArgs) {
  try {
    if (request.method !== "POST") throw new ContentError(405, "Use POST for this endpoint.");
    const { mirror, env, flushToken, logger } = context.services;
    if (!mirror) throw new ContentError(404, "This site runs on its embedded content store: there is no remote Squidex to take events from.");
    const body = (await readBody(request, BODY_LIMIT)).toString("utf8");
    if (!validSignature(body, request.headers.get("x-signature"), env.SQUIDEX_WEBHOOK_SECRET ?? flushToken)) {
      logger.warn({ requestId: context.requestId }, "content webhook refused: no valid signature");
      throw new ContentError(403, "The X-Signature header is missing or not made with this site's webhook secret.");
    }
    let event: unknown;
    try {
      event = JSON.parse(body);
    } catch {
      throw new ContentError(400, "The body is not JSON: send the event as Squidex's webhook does.");
    }
    const target = webhookTarget(event);
    if (!target) throw new ContentError(400, "The body is not a Squidex event (it names no type).");
    const done =
      target.kind === "content"
        ? await mirror.pullItem(target.schema, target.id)
        : target.kind === "asset"
          ? await mirror.pullAsset(target.id)
          : target.kind === "schema"
            ? { written: (await mirror.pullSchemas()).length, removed: 0 }
            : await mirror.pullChanges();
    return jsonResponse({ ok: true, ...done }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    // Squidex down while it calls us: say so; its rule retries the call.
    const response = errorResponse(error instanceof MirrorError ? new ContentError(503, error.message) : error, context.requestId);
    if (response.status === 405) response.headers.set("Allow", "POST");
    return response;
  }
}

export const loader = () => methodNotAllowed();
