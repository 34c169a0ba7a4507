import type { AppLoadContext } from "react-router";
import { requireUser } from "~/auth/require.server";
import type { User } from "~/auth/users.server";
import { BUSY_RETRY_AFTER_SECONDS, contentErrorOf } from "~/content/errors";
import { jsonResponse } from "~/lib/api.server";
import type { Language } from "~/i18n/languages";

const failed: Record<Language, { busy: string; failed: string }> = {
  de: { busy: "Der Server ist gerade ausgelastet. Bitte versuchen Sie es gleich noch einmal.", failed: "Die Suche ist fehlgeschlagen. Bitte versuchen Sie es noch einmal." },
  en: { busy: "The server is busy. Please try again in a moment.", failed: "The search failed. Please try again." },
};

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => jsonResponse(body, { status, headers: { "Cache-Control": "private, no-store", ...headers } });

/**
 * A picker's GET endpoint (api/editor/items, assets, geocode): signed-in people only (401 as JSON
 * otherwise), GET only, `run`'s answer as JSON; a refused query is its 4xx with `{ message }` in the
 * person's language, anything else logged and said plainly.
 */
export async function pickerAnswer(args: { request: Request; context: AppLoadContext }, what: string, run: (user: User, params: URLSearchParams) => Promise<unknown>): Promise<Response> {
  const user = requireUser(args);
  const t = failed[user.language];
  try {
    return answer(200, await run(user, new URL(args.request.url).searchParams));
  } catch (error) {
    const known = contentErrorOf(error);
    if (known && known.statusCode < 500) return answer(known.statusCode, { message: known.message });
    if (known?.statusCode === 503) return answer(503, { message: t.busy }, { "Retry-After": String(BUSY_RETRY_AFTER_SECONDS) });
    args.context.services.logger.error({ err: error, requestId: args.context.requestId, picker: what }, "picker search failed");
    return answer(500, { message: t.failed });
  }
}
