import type { Route } from "./+types/api.appointments-book";
import { bookingForm } from "~/booking/form";
import { ContentError } from "~/content/errors";
import { guardSubmission, submissionErrorResponse } from "~/forms/guard.server";
import { readSubmission, requireValid, submissionLanguage } from "~/forms/submission.server";
import { jsonResponse, methodNotAllowed } from "~/lib/api.server";
import { originOf } from "~/site/seo";

const SLOT_ID = /^[A-Za-z0-9_-]{1,100}$/;
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
    if (!SLOT_ID.test(params.id)) throw new ContentError(404, language === "de" ? "Diesen Termin gibt es nicht." : "This appointment does not exist.");
    const key = request.headers.get("idempotency-key");
    if (key !== null && !IDEMPOTENCY_KEY.test(key)) throw new ContentError(400, "The Idempotency-Key header must be 8 to 200 visible ASCII characters.");
    const valid = await requireValid(bookingForm(language), submission.data, language);
    await guardSubmission(context, "booking", params.id, submission, language);
    const { booking, created } = await context.services.bookings.book(
      params.id,
      { name: String(valid.name), email: String(valid.email), phone: String(valid.phone), note: valid.note ? String(valid.note) : null, language },
      { origin: originOf(request, context), ...(key ? { idempotencyKey: key } : {}) },
    );
    return jsonResponse({ booking, created }, { status: created ? 201 : 200, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return submissionErrorResponse(error, context);
  }
}

export const loader = () => methodNotAllowed();
