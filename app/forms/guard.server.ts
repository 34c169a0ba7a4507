import type { AppLoadContext } from "react-router";
import { ContentError } from "~/content/errors";
import { errorResponse } from "~/lib/api.server";
import { RateLimitedError } from "~/lib/rate-limit.server";
import type { TokenSigner } from "~/lib/tokens.server";
import type { FormProblem } from "./definition";
import type { FormLanguage } from "./engine";
import { checkSpam, formStamp } from "./spam.server";
import { FormRejected, refusalTexts, spamFields, type Submission } from "./submission.server";

/** Too many attempts: 429 with a message in the visitor's language and when to try again. */
export class TooManyAttempts extends ContentError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message);
  }
}

/** The signed time a form is made at (a hidden field; see forms/spam.server.ts). */
export const formStampFor = (tokens: TokenSigner) => formStamp(tokens, Date.now());

/**
 * What every public mutation passes before it changes anything: the spam checks (honeypot, minimum
 * fill time for browser forms) and the rate limits per address and per target (a slot, an e-mail
 * address), shared by all app nodes through the database. The cross-site check ran before (server/security.ts).
 */
export async function guardSubmission(context: AppLoadContext, kind: string, target: string, submission: Submission, language: FormLanguage): Promise<void> {
  const spam = checkSpam(spamFields(submission.data), context.services.tokens, Date.now(), {
    requireStamp: submission.isForm,
    minSeconds: context.services.env.FORM_MIN_FILL_SECONDS,
  });
  if (spam) {
    context.services.logger.info({ kind, reason: spam, requestId: context.requestId }, "form submission refused as spam");
    throw new ContentError(400, refusalTexts[language].spam);
  }
  try {
    await context.services.limits.consume(kind, context.clientIp, target);
  } catch (error) {
    if (error instanceof RateLimitedError) throw new TooManyAttempts(refusalTexts[language].tooMany(error.retryAfterSeconds), error.retryAfterSeconds);
    throw error;
  }
}

const UNEXPECTED = {
  de: "Das hat nicht geklappt. Bitte versuchen Sie es noch einmal.",
  en: "That did not work. Please try again.",
};

/** The status a page answers a refused submission with (an unexpected error stays a 500, logged by the caller's error path). */
export function submissionStatus(error: unknown): number {
  return error instanceof ContentError ? error.statusCode : 500;
}

/** What a page shows for a refused submission (the input stays in the form). */
/** The content service (a remote Squidex) could not be reached: nothing was kept, and it is no one's fault here. */
const UNAVAILABLE = {
  de: "Der Dienst ist gerade nicht erreichbar, es wurde nichts gespeichert. Bitte versuchen Sie es in ein paar Minuten noch einmal.",
  en: "The service cannot be reached just now, so nothing was saved. Please try again in a few minutes.",
};

export function submissionProblem(error: unknown, language: FormLanguage): FormProblem {
  if (error instanceof FormRejected) return error.problem;
  if (error instanceof ContentError && error.errorCode === "UPSTREAM_UNAVAILABLE") return { message: UNAVAILABLE[language] };
  if (error instanceof ContentError && error.statusCode < 500) return { message: error.message };
  return { message: UNEXPECTED[language] };
}

/** A JSON answer for a refused API request: the one error shape, plus Retry-After on a 429. */
export function submissionErrorResponse(error: unknown, context: AppLoadContext): Response {
  const response = errorResponse(error, context.requestId);
  if (error instanceof TooManyAttempts) response.headers.set("Retry-After", String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
  response.headers.set("Cache-Control", "no-store");
  return response;
}
