import type { Route } from "./+types/api.auth-session";
import { publicUser, signIn } from "~/auth/sign-in.server";
import { clearedSessionCookies, readSessionCookie } from "~/auth/session.server";
import { readSubmission, submissionLanguage } from "~/forms/submission.server";
import { errorResponse, jsonResponse, methodNotAllowed } from "~/lib/api.server";

/**
 * The session (spec §7): GET answers `{ user }` for a signed-in editor, `{}` otherwise (the client
 * fetches it once, without retry, and is then "auth ready"); POST `{ email, password }` signs in;
 * DELETE signs out: this session on every app node (`?everywhere=true`: every session of the user,
 * on every device).
 */
const NO_STORE = { "Cache-Control": "no-store" };

export function loader({ context }: Route.LoaderArgs) {
  const user = context.user;
  return jsonResponse(user ? { user: publicUser(user) } : {}, { headers: NO_STORE });
}

export async function action({ request, context }: Route.ActionArgs) {
  try {
    if (request.method === "DELETE") {
      const user = context.user;
      const everywhere = new URL(request.url).searchParams.get("everywhere") === "true";
      if (user && everywhere) {
        await context.services.auth.users.endSessions(user.id);
        await context.services.auth.audit.record(user, { action: "sign-out-everywhere" });
      } else await context.services.auth.signOut(readSessionCookie(request.headers.get("cookie")));
      return jsonResponse({}, { headers: [...Object.entries(NO_STORE), ...clearedSessionCookies(context.secure)] });
    }
    if (request.method !== "POST") return methodNotAllowed("GET, POST, DELETE");
    const submission = await readSubmission(request);
    const language = submissionLanguage(submission.data, "de");
    const answer = await signIn(context, submission.data, language, request.headers.get("cookie"));
    if (answer.ok) return jsonResponse({ user: publicUser(answer.user) }, { headers: answer.headers });
    return jsonResponse({ ...answer.problem, statusCode: answer.status }, { status: answer.status, headers: answer.headers });
  } catch (error) {
    return errorResponse(error, context.requestId);
  }
}
