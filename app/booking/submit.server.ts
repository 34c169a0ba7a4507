import type { AppLoadContext } from "react-router";
import { guardSubmission } from "~/forms/guard.server";
import { requireValid, type Submission } from "~/forms/submission.server";
import type { Language } from "~/i18n/languages";
import { bookingForm } from "./form";

/**
 * A booking as the page's form (no JavaScript) and the JSON API both take it: the form's rules in
 * the visitor's language, the spam and rate checks, then the booking. Throws the 4xx to show.
 */
export async function submitBooking(context: AppLoadContext, slotId: string, submission: Submission, language: Language, opts: { origin: string; idempotencyKey?: string }) {
  const valid = await requireValid(bookingForm(language), submission.data, language);
  await guardSubmission(context, "booking", slotId, submission, language);
  return context.services.bookings.book(
    slotId,
    { name: String(valid.name), email: String(valid.email), phone: String(valid.phone), note: valid.note ? String(valid.note) : null, language },
    opts,
  );
}
