import type { Route } from "./+types/api.newsletter-subscribe";
import { guardSubmission, submissionErrorResponse } from "~/forms/guard.server";
import { readSubmission, requireValid, submissionLanguage } from "~/forms/submission.server";
import { jsonResponse, methodNotAllowed } from "~/lib/api.server";
import { newsletterApiForm } from "~/newsletter/form";
import { normalizeEmail } from "~/newsletter/newsletter.server";
import { originOf } from "~/site/seo";

/**
 * `POST {email, language}` → 202 for every valid address, whether new, pending or subscribed: the
 * answer never tells who subscribes. The owner gets a mail (a confirmation link, or a note that
 * they already receive the newsletter).
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  try {
    const submission = await readSubmission(request);
    const language = submissionLanguage(submission.data, "de");
    const values = await requireValid(newsletterApiForm(language), submission.data, language);
    const email = normalizeEmail(String(values.email));
    await guardSubmission(context, "newsletter", email, submission, language);
    await context.services.newsletter.subscribe(email, language, originOf(request, context));
    const message = language === "de" ? "Bitte bestätigen Sie die Anmeldung über den Link in der E-Mail." : "Please confirm with the link in the email.";
    return jsonResponse({ message, statusCode: 202 }, { status: 202, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return submissionErrorResponse(error, context);
  }
}

export const loader = () => methodNotAllowed();
