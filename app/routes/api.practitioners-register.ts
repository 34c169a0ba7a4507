import type { Route } from "./+types/api.practitioners-register";
import { ContentError } from "~/content/errors";
import { guardSubmission, submissionErrorResponse } from "~/forms/guard.server";
import { readSubmission, requireValid, submissionLanguage } from "~/forms/submission.server";
import { jsonResponse, methodNotAllowed } from "~/lib/api.server";
import { registrationTexts } from "~/registration/texts";
import { originOf } from "~/site/seo";

/**
 * `POST {…practitioner fields, privacy: true, language}` → 201 `{ id }`: a new Draft practitioner.
 * With `id` and `token` (the continue link's) it saves that registration instead (200), unless it
 * was finished (403). The same rules as the page's form, in the request's language.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const { registration } = context.services;
  try {
    const submission = await readSubmission(request);
    const language = submissionLanguage(submission.data, "de");
    const id = typeof submission.data.id === "string" ? submission.data.id : undefined;
    const valid = await requireValid(await registration.form(language, { continuing: id !== undefined }), submission.data, language);
    await guardSubmission(context, "registration", id ?? String(valid.email).toLowerCase(), submission, language);
    const t = registrationTexts[language];
    if (id === undefined) {
      const created = await registration.register(valid, language, originOf(request, context));
      return jsonResponse({ id: created, message: t.sent }, { status: 201, headers: { "Cache-Control": "no-store" } });
    }
    const state = await registration.update(id, submission.data.token, valid, language, originOf(request, context));
    if (!state.ok) throw new ContentError(state.reason === "gone" ? 404 : 403, t[state.reason]);
    return jsonResponse({ id, finished: valid.finish === true, message: valid.finish === true ? t.finishedNow : t.saved }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return submissionErrorResponse(error, context);
  }
}

export const loader = () => methodNotAllowed();
