import { redirect } from "react-router";
import type { Route } from "./+types/api.consent";
import { OPTIONAL_CATEGORIES, parseConsent, serializeConsent } from "~/consent/consent";
import { CONSENT_PROOF_COOKIE } from "~/consent/records.server";
import { cookieDeletions } from "~/consent/scripts";
import { ContentError } from "~/content/errors";
import { isLanguage, localizedPath } from "~/i18n/languages";
import { errorResponse, methodNotAllowed } from "~/lib/api.server";
import { readForm } from "~/lib/body";
import { RateLimitedError } from "~/lib/rate-limit.server";
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
    const granted = (intent === "all" ? [...OPTIONAL_CATEGORIES] : intent === "necessary" ? [] : form.getAll("category")).filter((c) => (OPTIONAL_CATEGORIES as readonly string[]).includes(c));
    const language = form.get("language");
    const home = localizedPath(isLanguage(language) ? language : "de", "/");
    const target = sameSitePath(form.get("redirectTo") ?? home, home);
    const url = new URL(request.url);
    const secure = url.protocol === "https:";
    const headers = new Headers({ "Cache-Control": "no-store" });
    headers.append("Set-Cookie", serializeConsent(granted, { secure }));
    // Proof of consent: the record's id in a cookie of its own; the record holds no personal data.
    // An address that posts choices in a loop gets its choice (the cookie), but no more records.
    const recorded = await context.services.limits.consume("consent", context.clientIp, "consent").then(
      () => true,
      (error: unknown) => {
        if (error instanceof RateLimitedError) return false;
        throw error;
      },
    );
    if (recorded) {
      const proof = await context.services.consent.record(granted);
      headers.append("Set-Cookie", `${CONSENT_PROOF_COOKIE}=${proof.id}; Path=/; Max-Age=${365 * 24 * 3600}; SameSite=Lax; HttpOnly${secure ? "; Secure" : ""}`);
    }
    // A category taken back: its scripts are gone from the next page on, and the cookies they left
    // behind (any cookie that is not ours) are deleted, as far as a server can.
    const before = parseConsent(request.headers.get("cookie"));
    const withdrawn = OPTIONAL_CATEGORIES.some((c) => before[c] && !granted.includes(c));
    if (withdrawn) for (const cookie of cookieDeletions(request.headers.get("cookie"), url.host)) headers.append("Set-Cookie", cookie);
    return redirect(target, { status: 303, headers });
  } catch (error) {
    const response = errorResponse(error, context.requestId);
    if (response.status === 405) response.headers.set("Allow", "POST");
    return response;
  }
}

export const loader = () => methodNotAllowed();
