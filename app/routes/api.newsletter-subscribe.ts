import type { Route } from "./+types/api.newsletter-subscribe";
import { submissionErrorResponse } from "~/forms/guard.server";
import { readSubmission, submissionLanguage } from "~/forms/submission.server";
import { jsonResponse, methodNotAllowed } from "~/lib/api.server";
import { newsletterApiForm } from "~/newsletter/form";
import { submitNewsletter } from "~/newsletter/newsletter.server";
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
    await submitNewsletter(context, newsletterApiForm(language), submission, language, originOf(request, context));
    const message = language === "de" ? "Bitte bestätigen Sie die Anmeldung über den Link in der E-Mail." : "Please confirm with the link in the email.";
    return jsonResponse({ message, statusCode: 202 }, { status: 202, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return submissionErrorResponse(error, context);
  }
}

export const loader = () => methodNotAllowed();
