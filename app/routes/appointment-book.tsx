import { useMemo } from "react";
import { data, Link } from "react-router";
import type { Route } from "./+types/appointment-book";
import { bookingForm, bookingTexts } from "~/booking/form";
import { submitBooking } from "~/booking/submit.server";
import { withLink, type FormProblem } from "~/forms/definition";
import { formStampFor, submissionProblem, submissionStatus } from "~/forms/guard.server";
import { EngineForm, postJson } from "~/forms/react";
import { readSubmission } from "~/forms/submission.server";
import { localizedPath, splitLanguage, type Language } from "~/i18n/languages";
import { formatSlot } from "~/booking/days";
import { profilePath } from "~/practitioners/paths";
import { PRIVACY_PATH } from "~/newsletter/form";
import { originOf, seoMeta } from "~/site/seo";
import { privacyPath } from "~/site/site.server";

/** The answer of a booking holds the booker's details: never cached, never indexed. */
const PRIVATE = { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex" };
export const headers = () => PRIVATE;

/** `/appointments/book/{id}`: one free slot and the form to book it (works without JavaScript). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const { language } = splitLanguage(url.pathname);
  const id = params.appointmentid;
  const slot = await context.services.bookings.slot(id);
  const t = bookingTexts[language];
  const state = !slot ? t.missing : slot.booked ? t.taken : Date.parse(slot.start) <= Date.now() ? t.past : null;
  return data(
    {
      language,
      id,
      slot: slot ? { start: slot.start, practitionerName: slot.practitionerName, practitionerHref: profilePath(language, slot.practitionerSlug) } : null,
      unavailable: state,
      stamp: formStampFor(context.services.tokens),
      privacyHref: await privacyPath(context, language, PRIVACY_PATH[language]),
      path: url.pathname,
      origin: originOf(request, context),
      alternates: { de: localizedPath("de", `/appointments/book/${id}`), en: localizedPath("en", `/appointments/book/${id}`) } as Record<Language, string>,
    },
    { status: slot ? 200 : 404, headers: PRIVATE },
  );
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const url = new URL(request.url);
  const { language } = splitLanguage(url.pathname);
  let values: Record<string, unknown> = {};
  try {
    const submission = await readSubmission(request);
    values = submission.data;
    const { booking } = await submitBooking(context, params.appointmentid, submission, language, { origin: originOf(request, context) });
    return data({ booked: { start: booking.start, practitionerName: booking.practitionerName }, problem: null, values: {} }, { status: 201, headers: PRIVATE });
  } catch (error) {
    const status = submissionStatus(error);
    return data({ booked: null, problem: submissionProblem(error, language), values }, { status, headers: PRIVATE });
  }
}

export const meta: Route.MetaFunction = ({ loaderData: d }) =>
  d ? seoMeta({ title: bookingTexts[d.language].title, language: d.language, origin: d.origin, canonical: d.path, alternates: d.alternates, noindex: true }) : [];

export default function BookAppointmentPage({ loaderData: d, actionData }: Route.ComponentProps) {
  const { language } = d;
  const t = bookingTexts[language];
  const booked = actionData?.booked ?? null;
  const idempotencyKey = useMemo(newIdempotencyKey, [d.id]);
  const done = (start: string, name: string) => (
    <div role="status" className="mt-6 rounded border-l-4 border-[var(--color-main,#0f5e63)] bg-neutral-50 p-4" data-booking-done>
      <p className="font-semibold">{t.booked}</p>
      <p className="mt-2">
        {formatSlot(language, start, "full")} · {name}
      </p>
    </div>
  );
  return (
    <div className="mx-auto max-w-2xl px-4 py-12" data-booking-page>
      <h1 className="text-4xl font-bold tracking-tight">{t.title}</h1>
      {d.slot ? (
        <p className="mt-4 text-lg" data-booking-slot>
          <span className="font-semibold">{t.slotLabel}:</span> <time dateTime={d.slot.start}>{formatSlot(language, d.slot.start, "full")}</time> {t.with}{" "}
          <Link to={d.slot.practitionerHref} className="underline">
            {d.slot.practitionerName}
          </Link>
        </p>
      ) : null}
      {booked ? (
        done(booked.start, booked.practitionerName)
      ) : d.unavailable || !d.slot ? (
        <p role="status" className="mt-6 rounded border-l-4 border-red-700 bg-red-50 p-4" data-booking-unavailable>
          {d.unavailable}{" "}
          <Link to={localizedPath(language, "/practitioners")} className="underline">
            {t.otherSlots}
          </Link>
        </p>
      ) : (
        <div className="mt-8">
          <EngineForm
            definition={withLink(bookingForm(language), "privacy", d.privacyHref)}
            language={language}
            action=""
            initial={actionData?.values}
            problem={(actionData?.problem ?? null) as FormProblem | null}
            hidden={{ language, form_stamp: d.stamp }}
            submitLabel={t.submit}
            onSubmit={(values) => postJson(`/api/appointments/${encodeURIComponent(d.id)}/book`, { ...values, language }, language, { "Idempotency-Key": idempotencyKey })}
            success={() => done(d.slot!.start, d.slot!.practitionerName)}
          />
        </div>
      )}
    </div>
  );
}

/** One key per booking form shown: a double click or a retry of that form is the same booking, another form (another slot, a later visit) is not. */
const newIdempotencyKey = () => (typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`);
