import { redirect } from "react-router";
import type { Route } from "./+types/api.consent";
import { OPTIONAL_CATEGORIES, serializeConsent } from "~/consent/consent";
import { ContentError } from "~/content/errors";
import { isLanguage, localizedPath } from "~/i18n/languages";
import { errorResponse, methodNotAllowed } from "~/lib/api.server";
import { readForm } from "~/lib/body";
import { sameSitePath } from "~/lib/input";

/** A consent form is a handful of fields; nothing legitimate comes near this. */
const FORM_LIMIT = 16 * 1024;

/**
 * Stores the visitor's consent choice in its cookie and goes back to the page they were on. Only a
 * form posted by this site itself gets here (the cross-site check runs for every mutation).
 */
export async function action({ request, context }: Route.ActionArgs) {
  try {
    if (request.method !== "POST") throw new ContentError(405, "Use POST for this endpoint.");
    const form = await readForm(request, FORM_LIMIT);
    const intent = form.get("intent") ?? "save";
    const granted = intent === "all" ? [...OPTIONAL_CATEGORIES] : intent === "necessary" ? [] : form.getAll("category");
    const language = form.get("language");
    const home = localizedPath(isLanguage(language) ? language : "de", "/");
    const target = sameSitePath(form.get("redirectTo") ?? home, home);
    const secure = new URL(request.url).protocol === "https:";
    return redirect(target, { status: 303, headers: { "Set-Cookie": serializeConsent(granted, { secure }), "Cache-Control": "no-store" } });
  } catch (error) {
    const response = errorResponse(error, context.requestId);
    if (response.status === 405) response.headers.set("Allow", "POST");
    return response;
  }
}

export const loader = () => methodNotAllowed();
