import type { Route } from "./+types/api.editor-page";
import { writer } from "~/admin/admin.server";
import { getPage, patchPage } from "~/admin/pages/page-edit";
import { PAGES_SCHEMA } from "~/admin/pages/page-slug";
import { routeAccess } from "~/auth/access";
import { requireUser } from "~/auth/require.server";
import { ContentError, contentErrorOf } from "~/content/errors";
import { isValidId } from "~/content/ids";
import { pageMeta } from "~/editor/edit-page.server";
import { peopleNames } from "~/editor/people.server";
import { recordVersion, versionOfData, type VersionKind } from "~/editor/history.server";
import { editorTexts } from "~/editor/texts";
import type { SaveAnswer } from "~/editor/types";
import { LANGUAGES } from "~/i18n/languages";
import { jsonResponse, methodNotAllowed } from "~/lib/api.server";
import { readJson } from "~/lib/body";
import { isPlainObject } from "~/content/validate";

/**
 * `POST /api/editor/pages/{id}`: edit mode's writes to one page, as the signed-in editor (the store
 * asks the authorization policy and audits each write).
 * - `{ intent: "save", version, blocks: { de: [...], en: [...] }, force? }`: the page's blocks become
 *   its draft (a published page stays live as it is, state Changed). A save against an older version
 *   is a 409 naming who changed the page, unless `force` (the editor chose to overwrite).
 * - `{ intent: "publish", version }`, `{ intent: "discard", version }`.
 * 200 with the page's new state, else a message in the editor's language (§8: anything but 200/201
 * is shown and logged by the editor).
 */
export const handle = routeAccess("auth");

/** A page's blocks in both languages: far below this even at thousands of blocks. */
const SAVE_LIMIT = 4 * 1024 * 1024;

export const loader = () => methodNotAllowed();

export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = requireUser({ context, request });
  const t = editorTexts[user.language];
  const answer = (status: number, body: SaveAnswer) => jsonResponse(body, { status, headers: { "Cache-Control": "private, no-store" } });
  const store = context.services.store;
  try {
    const id = params.id;
    const item = isValidId(id) ? await getPage(store, id) : undefined;
    if (!item) return answer(404, { ok: false, message: t.notFound });
    const body = await readJson(request, SAVE_LIMIT);
    if (!isPlainObject(body)) return answer(400, { ok: false, message: t.badRequest });
    const version = body.version;
    if (typeof version !== "number" || !Number.isSafeInteger(version) || version < 0) return answer(400, { ok: false, message: t.badRequest });
    const people = await peopleNames(context);
    const meta = (i: typeof item) => pageMeta(i, people, user.language);
    // The version history (editor/history.server.ts): kept after the write; a failure to keep it is logged, the write stands.
    const record = (kind: VersionKind, saved: typeof item) =>
      recordVersion(store.db, { pageId: id, version: saved.version, kind, ...versionOfData(saved.data), actor: `subject:${user.id}` }).catch((err: unknown) =>
        context.services.logger.error({ err, requestId: context.requestId, page: id }, "recording a page version failed"),
      );
    const conflict = (): SaveAnswer => ({ ok: false, message: t.conflict(meta(item).lastModifiedBy), conflict: { version: item.version, lastModifiedBy: meta(item).lastModifiedBy, lastModified: item.lastModified } });

    if (body.intent === "save") {
      const blocks = body.blocks;
      if (!isPlainObject(blocks) || !LANGUAGES.every((l) => Array.isArray(blocks[l])) || Object.keys(blocks).some((k) => !(LANGUAGES as readonly string[]).includes(k)))
        return answer(400, { ok: false, message: t.badRequest });
      const force = body.force === true;
      if (!force && version !== item.version) return answer(409, conflict());
      const saved = await patchPage(store, id, { blocks }, { ...writer(user, { action: "edit-page-blocks" }), expectedVersion: item.version });
      await record("draft", saved);
      return answer(200, { ok: true, page: meta(saved) });
    }
    if (body.intent === "publish" || body.intent === "discard") {
      if (version !== item.version) return answer(409, conflict());
      const changed =
        body.intent === "publish"
          ? await store.changeStatus(PAGES_SCHEMA, id, "Published", { ...writer(user, { action: "publish-page" }), expectedVersion: version })
          : await store.discardDraft(PAGES_SCHEMA, id, { ...writer(user, { action: "discard-page-draft" }), expectedVersion: version });
      if (body.intent === "publish") await record("published", changed);
      return answer(200, { ok: true, message: body.intent === "publish" ? t.published : t.discarded, page: meta(changed) });
    }
    return answer(400, { ok: false, message: t.badRequest });
  } catch (error) {
    const known = contentErrorOf(error);
    if (known?.statusCode === 412 || known?.statusCode === 409) {
      // Someone saved between our read and our write: the same answer as a stale version.
      const now = await getPage(store, params.id);
      const people = await peopleNames(context);
      const who = now ? pageMeta(now, people, user.language).lastModifiedBy : "";
      return answer(409, { ok: false, message: t.conflict(who), ...(now ? { conflict: { version: now.version, lastModifiedBy: who, lastModified: now.lastModified } } : {}) });
    }
    if (known?.statusCode === 403) return answer(403, { ok: false, message: t.forbidden });
    if (known?.statusCode === 503) return answer(503, { ok: false, message: t.busy });
    if (known?.statusCode === 413) return answer(413, { ok: false, message: t.badRequest });
    if (known instanceof ContentError && known.statusCode < 500) {
      // The store's own words are for developers: logged with the details, the editor gets plain words.
      context.services.logger.warn({ requestId: context.requestId, page: params.id, err: known.message, details: known.details }, "editor save refused");
      return answer(known.statusCode === 404 ? 404 : 400, { ok: false, message: known.statusCode === 404 ? t.notFound : t.invalidPage });
    }
    context.services.logger.error({ err: error, requestId: context.requestId, page: params.id }, "editor save failed");
    return answer(500, { ok: false, message: t.saveFailed });
  }
}
