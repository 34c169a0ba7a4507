import type { Route } from "./+types/api.editor-history";
import { peopleNames } from "~/editor/people.server";
import { writer } from "~/admin/admin.server";
import { getPage, patchPage } from "~/admin/pages/page-edit";
import { routeAccess } from "~/auth/access";
import { requireUser } from "~/auth/require.server";
import type { User } from "~/auth/users.server";
import { ContentError, contentErrorOf } from "~/content/errors";
import { isValidId } from "~/content/ids";
import { isPlainObject } from "~/content/validate";
import { pageMeta } from "~/editor/edit-page.server";
import { getVersion, listVersions, MAX_ENTRY_ID, recordVersion, versionOfData, type VersionSummary } from "~/editor/history.server";
import { editorTexts } from "~/editor/texts";
import type { HistoryAnswer, HistoryEntryAnswer, HistoryListAnswer } from "~/editor/types";
import type { Language } from "~/i18n/languages";
import { jsonResponse, methodNotAllowed } from "~/lib/api.server";
import { readJson } from "~/lib/body";

/**
 * The page editor's version history of one page (editor/history.server.ts), for signed-in editors:
 * - `GET ?before=N`: entries newest first, 20 at a time, `{ items: [{ id, version, kind, at, by }], next }`
 *   (`by`: the editor's name or e-mail, never an id; `next`: the `before` of the following page, or null).
 * - `GET ?entry=N`: one entry with its blocks `{ de: [...], en: [...] }` and title.
 * - `POST { intent: "restore", entry, version }`: that entry's blocks become the page's draft (the
 *   live page stays as it is), at the version the editor saw (a stale one is a 409); answers
 *   `{ ok, message, page, blocks }` like the save endpoint.
 * Anything but 200 carries a message in the editor's language.
 */
export const handle = routeAccess("auth");

const PAGE_SIZE = 20;
/** `{ intent, entry, version }`: small. */
const BODY_LIMIT = 4 * 1024;

const noStore = { "Cache-Control": "private, no-store" };
const answer = (status: number, body: HistoryAnswer | HistoryListAnswer | HistoryEntryAnswer) => jsonResponse(body, { status, headers: noStore });

/** A whole number written as digits only (an id or a position); undefined for anything else. */
function wholeNumber(value: string | null): number | undefined {
  if (value === null || !/^\d{1,16}$/.test(value)) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
}


const byOf = (people: ReadonlyMap<string, string>, language: Language) => (actor: string) => people.get(actor) ?? editorTexts[language].history.someone;

const summary = (by: (actor: string) => string) => (v: VersionSummary) => ({ id: v.id, version: v.version, kind: v.kind, at: v.at, by: by(v.actor) });

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = requireUser({ context, request });
  const t = editorTexts[user.language];
  const store = context.services.store;
  try {
    const id = params.id;
    const item = isValidId(id) ? await getPage(store, id) : undefined;
    if (!item) return answer(404, { ok: false, message: t.notFound });
    const url = new URL(request.url);
    const by = byOf(await peopleNames(context), user.language);
    const entryParam = url.searchParams.get("entry");
    if (entryParam !== null) {
      const entryId = wholeNumber(entryParam);
      if (entryId === undefined) return answer(400, { ok: false, message: t.badRequest });
      // Another page's entry is no entry of this page: the same answer as one that never was.
      const entry = await getVersion(store.db, id, entryId);
      if (!entry) return answer(404, { ok: false, message: t.history.entryNotFound });
      return answer(200, { ok: true, ...summary(by)(entry), title: entry.title, blocks: entry.blocks });
    }
    const beforeParam = url.searchParams.get("before");
    const before = beforeParam === null || beforeParam === "" ? undefined : wholeNumber(beforeParam);
    // Only ids of entries come back as `before` (the list's `next`): anything else is no request of ours.
    if (beforeParam && (before === undefined || before > MAX_ENTRY_ID)) return answer(400, { ok: false, message: t.badRequest });
    const list = await listVersions(store.db, id, { limit: PAGE_SIZE, ...(before !== undefined ? { before } : {}) });
    return answer(200, { ok: true, items: list.items.map(summary(by)), next: list.next });
  } catch (error) {
    return failed(error, context, params.id, user, "editor history read failed", t.history.loadFailed);
  }
}

export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = requireUser({ context, request });
  const t = editorTexts[user.language];
  const store = context.services.store;
  try {
    const id = params.id;
    const item = isValidId(id) ? await getPage(store, id) : undefined;
    if (!item) return answer(404, { ok: false, message: t.notFound });
    // A body that is no JSON, too large or of another type is a bad request like any other (never the store's words).
    const body = await readJson(request, BODY_LIMIT).catch(() => undefined);
    if (!isPlainObject(body) || body.intent !== "restore") return answer(400, { ok: false, message: t.badRequest });
    const { entry: entryId, version } = body;
    if (typeof entryId !== "number" || !Number.isSafeInteger(entryId) || entryId < 1) return answer(400, { ok: false, message: t.badRequest });
    if (typeof version !== "number" || !Number.isSafeInteger(version) || version < 0) return answer(400, { ok: false, message: t.badRequest });
    const entry = await getVersion(store.db, id, entryId);
    if (!entry) return answer(404, { ok: false, message: t.history.entryNotFound });
    const people = await peopleNames(context);
    if (version !== item.version) return conflict(item, people, user);
    const saved = await patchPage(store, id, { blocks: entry.blocks }, { ...writer(user, { action: "restore-page-version", detail: `entry ${entry.id} (version ${entry.version})` }), expectedVersion: item.version });
    const kept = versionOfData(saved.data);
    await recordVersion(store.db, { pageId: id, version: saved.version, kind: "restored", ...kept, actor: `subject:${user.id}` }).catch((err: unknown) =>
      // The page is restored; a history that misses this entry is no reason to tell the editor otherwise.
      context.services.logger.error({ err, requestId: context.requestId, page: id }, "recording a restored version failed"),
    );
    return answer(200, { ok: true, message: t.history.restored, page: pageMeta(saved, people, user.language), blocks: kept.blocks });
  } catch (error) {
    return failed(error, context, params.id, user, "editor history restore failed", t.history.restoreFailed);
  }
}

/** A restore at a version older than the page's: who changed it meanwhile, in plain words. */
function conflict(item: Parameters<typeof pageMeta>[0], people: ReadonlyMap<string, string>, user: User) {
  const meta = pageMeta(item, people, user.language);
  return answer(409, { ok: false, message: editorTexts[user.language].history.restoreConflict(meta.lastModifiedBy), conflict: { version: item.version, lastModifiedBy: meta.lastModifiedBy, lastModified: item.lastModified } });
}

async function failed(error: unknown, context: Route.LoaderArgs["context"], pageId: string, user: User, what: string, fallback: string) {
  const t = editorTexts[user.language];
  const known = contentErrorOf(error);
  if (known?.statusCode === 409 || known?.statusCode === 412) {
    // Someone saved between our read and our write: the same answer as a stale version.
    const now = await getPage(context.services.store, pageId).catch(() => undefined);
    if (now) return conflict(now, await peopleNames(context), user);
    return answer(404, { ok: false, message: t.notFound });
  }
  if (known?.statusCode === 403) return answer(403, { ok: false, message: t.forbidden });
  if (known?.statusCode === 503) return answer(503, { ok: false, message: t.busy });
  if (known instanceof ContentError && known.statusCode < 500) {
    // The store's own words are for developers (logged); an old version whose blocks the schemas no longer accept is refused in plain words.
    context.services.logger.warn({ requestId: context.requestId, page: pageId, err: known.message, details: known.details }, what);
    return answer(known.statusCode === 404 ? 404 : 400, { ok: false, message: known.statusCode === 404 ? t.notFound : t.invalidPage });
  }
  context.services.logger.error({ err: error, requestId: context.requestId, page: pageId }, what);
  return answer(500, { ok: false, message: fallback });
}
