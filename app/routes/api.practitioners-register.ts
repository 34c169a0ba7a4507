import type { Route } from "./+types/api.practitioners-register";
import { submissionErrorResponse } from "~/forms/guard.server";
import { readSubmission, submissionLanguage } from "~/forms/submission.server";
import { jsonResponse, methodNotAllowed } from "~/lib/api.server";
import { submitRegistration } from "~/registration/submit.server";
import { originOf } from "~/site/seo";

/**
 * `POST {…practitioner fields, privacy: true, language}` → 201 `{ id }`: a new Draft practitioner.
 * With `id` and `token` (the continue link's) it saves that registration instead (200), unless it
 * was finished (403). The same rules as the page's form, in the request's language.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  try {
    const submission = await readSubmission(request);
    const language = submissionLanguage(submission.data, "de");
    const id = typeof submission.data.id === "string" ? submission.data.id : undefined;
    const outcome = await submitRegistration(context, id, submission, language, originOf(request, context));
    return jsonResponse(
      { id: outcome.id, finished: outcome.kind === "finished", message: outcome.message },
      { status: outcome.kind === "created" ? 201 : 200, headers: { "Cache-Control": "no-store" } },
    );
  } catch (error) {
    return submissionErrorResponse(error, context);
  }
}

export const loader = () => methodNotAllowed();
