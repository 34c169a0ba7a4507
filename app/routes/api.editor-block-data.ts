import type { Route } from "./+types/api.editor-block-data";
import { routeAccess } from "~/auth/access";
import { requireUser } from "~/auth/require.server";
import { blockNeeds, isKnownBlock, prepareBlock } from "~/blocks/registry.server";
import type { Block } from "~/blocks/types";
import { isPlainObject } from "~/content/validate";
import { isLanguage } from "~/i18n/languages";
import { errorResponse, jsonResponse, methodNotAllowed } from "~/lib/api.server";
import { readJson } from "~/lib/body";
import { loadBlockData } from "~/site/page.server";

/**
 * `POST /api/editor/block-data { language, blocks }`: what the given blocks show (practitioners,
 * slots, images), for edit mode after an editor picks a practitioner or an image — the same loader
 * and the same visibility rules as the public page. Signed-in editors only.
 */
export const handle = routeAccess("auth");

/** Blocks of one page: the same bound as the editor's save. */
const LIMIT = 4 * 1024 * 1024;

export const loader = () => methodNotAllowed();

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  requireUser({ context, request });
  try {
    const body = await readJson(request, LIMIT);
    if (!isPlainObject(body) || typeof body.language !== "string" || !isLanguage(body.language) || !Array.isArray(body.blocks))
      return jsonResponse({ message: "Send { language: \"de\" | \"en\", blocks: [...] }.", statusCode: 400 }, { status: 400 });
    const blocks = (body.blocks as unknown[]).filter((b): b is Block => isPlainObject(b) && typeof b.schemaId === "string" && isKnownBlock(b as Block)).map((b) => prepareBlock(b));
    // The same bound a page's loader has: far more blocks than any page would be a hostile request.
    if (blocks.length > 2000 || blockNeeds(blocks).practitioners.ids.length > 500) return jsonResponse({ message: "Too many blocks.", statusCode: 400 }, { status: 400 });
    const data = await loadBlockData(context, body.language, blocks, new URL(request.url));
    return jsonResponse(data, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    return errorResponse(error, context.requestId);
  }
}
