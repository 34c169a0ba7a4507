import type { Route } from "./+types/api.editor-templates";
import { routeAccess } from "~/auth/access";
import { requireUser } from "~/auth/require.server";
import type { User } from "~/auth/users.server";
import { BUSY_RETRY_AFTER_SECONDS, contentErrorOf } from "~/content/errors";
import { isValidId } from "~/content/ids";
import { isPlainObject } from "~/content/validate";
import { createTemplate, deleteTemplate, getTemplate, listTemplates, TEMPLATE_MAX_BYTES, TemplateError, type TemplateProblem, type TemplateSummary } from "~/editor/templates.server";
import { editorTexts, type EditorTexts } from "~/editor/texts";
import { jsonResponse, methodNotAllowed } from "~/lib/api.server";
import { readJson } from "~/lib/body";

/**
 * The page editor's templates (selections of blocks saved for reuse), for signed-in editors:
 * - `GET /api/editor/templates`: `{ templates: [{ id, name, blockCount, createdBy, createdAt, canDelete }] }`, newest first.
 * - `POST /api/editor/templates` `{ name, blocks }`: 201 `{ template, message }`.
 * - `GET /api/editor/templates/{id}`: `{ template }` with its `blocks` (page form, without ids).
 * - `DELETE /api/editor/templates/{id}`: `{ message }`; the author's own, or any for a superuser.
 * Anything refused is a 4xx with `{ message }` in the editor's language.
 */
export const handle = routeAccess("auth");

/** The blocks may take 256 KB once stored; the request also carries the name and the blocks' ids. */
const BODY_LIMIT = TEMPLATE_MAX_BYTES + 32 * 1024;

const STATUS: Record<TemplateProblem, number> = { name: 400, blocks: 400, unknownKind: 400, tooMany: 400, tooLarge: 413, notFound: 404, forbidden: 403 };

function problemText(t: EditorTexts, problem: TemplateProblem): string {
  const texts: Record<TemplateProblem, string> = {
    name: t.templateBadName,
    blocks: t.templateBadBlocks,
    unknownKind: t.templateUnknownKind,
    tooMany: t.templateTooMany,
    tooLarge: t.templateTooLarge,
    notFound: t.templateNotFound,
    forbidden: t.templateForbidden,
  };
  return texts[problem];
}

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => jsonResponse(body, { status, headers: { "Cache-Control": "private, no-store", ...headers } });

/** Who saved a template, for people: a user since deleted is "someone no longer here", not null. */
const forPeople = <T extends TemplateSummary>(s: T, t: EditorTexts): Omit<T, "createdBy"> & { createdBy: string } => ({ ...s, createdBy: s.createdBy ?? t.templateSomeone });

/** What went wrong, as an answer: the request's fault in plain words; ours logged and said plainly too. */
function failure(error: unknown, context: Route.ActionArgs["context"], user: User, params: { id?: string }) {
  const t = editorTexts[user.language];
  if (error instanceof TemplateError) {
    if (error.detail) context.services.logger.warn({ requestId: context.requestId, problem: error.problem, detail: error.detail }, "editor template refused");
    return answer(STATUS[error.problem], { message: problemText(t, error.problem) });
  }
  const known = contentErrorOf(error);
  if (known?.statusCode === 413) return answer(413, { message: t.templateTooLarge });
  if (known && known.statusCode < 500) return answer(known.statusCode, { message: t.badRequest });
  if (known?.statusCode === 503) return answer(503, { message: t.busy }, { "Retry-After": String(BUSY_RETRY_AFTER_SECONDS) });
  context.services.logger.error({ err: error, requestId: context.requestId, template: params.id }, "editor templates failed");
  return answer(500, { message: t.failed });
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = requireUser({ context, request });
  const t = editorTexts[user.language];
  const db = context.services.store.db;
  try {
    if (params.id === undefined) return answer(200, { templates: (await listTemplates(db, user)).map((s) => forPeople(s, t)) });
    const template = isValidId(params.id) ? await getTemplate(db, params.id, user) : undefined;
    if (!template) return answer(404, { message: t.templateNotFound });
    return answer(200, { template: forPeople(template, t) });
  } catch (error) {
    return failure(error, context, user, params);
  }
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const collection = params.id === undefined;
  if (request.method !== (collection ? "POST" : "DELETE")) return methodNotAllowed(collection ? "GET, POST" : "GET, DELETE");
  const user = requireUser({ context, request });
  const t = editorTexts[user.language];
  const db = context.services.store.db;
  const audit = context.services.auth.audit;
  try {
    if (collection) {
      const body = await readJson(request, BODY_LIMIT);
      if (!isPlainObject(body)) return answer(400, { message: t.badRequest });
      const template = await createTemplate(db, audit, user, { name: body.name, blocks: body.blocks });
      return answer(201, { template: forPeople(template, t), message: t.templateSaved(template.name) });
    }
    if (!isValidId(params.id)) return answer(404, { message: t.templateNotFound });
    const deleted = await deleteTemplate(db, audit, user, params.id);
    return answer(200, { message: t.templateDeleted(deleted.name) });
  } catch (error) {
    return failure(error, context, user, params);
  }
}
