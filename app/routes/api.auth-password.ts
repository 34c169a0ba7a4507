import type { Route } from "./+types/api.auth-password";
import { setPasswordWithToken } from "~/auth/set-password.server";
import { readSubmission, submissionLanguage } from "~/forms/submission.server";
import { errorResponse, jsonResponse, methodNotAllowed } from "~/lib/api.server";

/** `POST /api/_auth/password { token, password, password_confirm }`: an invited or reset user sets a password. */
export const loader = () => methodNotAllowed();

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  try {
    const submission = await readSubmission(request);
    const answer = await setPasswordWithToken(context, submission.data, submissionLanguage(submission.data, "de"));
    if (answer.ok) return jsonResponse({ ok: true }, { headers: answer.headers });
    return jsonResponse({ ...answer.problem, statusCode: answer.status }, { status: answer.status });
  } catch (error) {
    return errorResponse(error, context.requestId);
  }
}
