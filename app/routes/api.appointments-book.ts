import type { Route } from "./+types/api.appointments-book";
import { submitBooking } from "~/booking/submit.server";
import { ContentError } from "~/content/errors";
import { submissionErrorResponse } from "~/forms/guard.server";
import { readSubmission, submissionLanguage } from "~/forms/submission.server";
import { jsonResponse, methodNotAllowed } from "~/lib/api.server";
import { originOf } from "~/site/seo";

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{8,200}$/;

/**
 * `POST /api/appointments/{id}/book` with `{name, email, phone, note?, language, privacy: true}`
 * (the booking form's fields and rules) and an optional `Idempotency-Key` header → 201 with the
 * booking; the same request again → 200 with the same booking; 409 when the slot is taken or past.
 * The answer goes only to the booker (no-store).
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  try {
    const submission = await readSubmission(request);
    const language = submissionLanguage(submission.data, "de");
    const key = request.headers.get("idempotency-key");
    if (key !== null && !IDEMPOTENCY_KEY.test(key)) throw new ContentError(400, "The Idempotency-Key header must be 8 to 200 visible ASCII characters.");
    const { booking, created } = await submitBooking(context, params.id, submission, language, { origin: originOf(request, context), ...(key ? { idempotencyKey: key } : {}) });
    return jsonResponse({ booking, created }, { status: created ? 201 : 200, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return submissionErrorResponse(error, context);
  }
}

export const loader = () => methodNotAllowed();
