import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/appointment-cancel";
import { bookingTexts } from "~/booking/form";
import { readSubmission } from "~/forms/submission.server";
import { localizedPath, splitLanguage, type Language } from "~/i18n/languages";
import { formatSlot } from "~/booking/days";
import { originOf, seoMeta } from "~/site/seo";

const PRIVATE = { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex" };
export const headers = () => PRIVATE;

type View = "confirm" | "cancelled" | "invalid" | "expired" | "gone";

/**
 * The cancel link from a booking mail. Opening it only asks (mail scanners open links too); the
 * button posts, and the slot is free again.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const { language } = splitLanguage(url.pathname);
  const token = url.searchParams.get("token") ?? "";
  const base = {
    language,
    token,
    path: url.pathname,
    origin: originOf(request, context),
    alternates: { de: "/appointments/cancel", en: "/en/appointments/cancel" } as Record<Language, string>,
    start: null as string | null,
    practitionerName: null as string | null,
  };
  // Where the cancelling POST sends the browser: no token needed to say it is done.
  if (url.searchParams.get("cancelled") === "1") return data({ ...base, view: "cancelled" as View }, { headers: PRIVATE });
  const described = await context.services.bookings.describeCancellation(token);
  if (!described.ok) return data({ ...base, view: described.reason as View }, { status: described.reason === "invalid" ? 403 : 410, headers: PRIVATE });
  return data({ ...base, view: "confirm" as View, start: described.start, practitionerName: described.practitionerName }, { headers: PRIVATE });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { language } = splitLanguage(new URL(request.url).pathname);
  const submission = await readSubmission(request).catch(() => ({ data: {} as Record<string, unknown>, isForm: true }));
  const result = await context.services.bookings.cancel(String(submission.data.token ?? ""));
  if (!result.ok) return data({ view: result.reason as View }, { status: result.reason === "invalid" ? 403 : 410, headers: PRIVATE });
  // Post/redirect/get: a reload does not post again, and the page after it needs no token.
  return redirect(`${localizedPath(language, "/appointments/cancel")}?cancelled=1`, { status: 303, headers: PRIVATE });
}

export const meta: Route.MetaFunction = ({ loaderData: d }) =>
  d ? seoMeta({ title: bookingTexts[d.language].cancelTitle, language: d.language, origin: d.origin, canonical: d.path, alternates: d.alternates, noindex: true }) : [];

export default function CancelPage({ loaderData: d, actionData }: Route.ComponentProps) {
  const t = bookingTexts[d.language];
  const view: View = actionData?.view ?? d.view;
  const message = { cancelled: t.cancelled, invalid: t.cancelInvalid, expired: t.cancelExpired, gone: t.cancelGone, confirm: "" }[view];
  return (
    <div className="mx-auto max-w-2xl px-4 py-12" data-cancel-view={view}>
      <h1 className="text-4xl font-bold tracking-tight">{t.cancelTitle}</h1>
      {view === "confirm" && d.start ? (
        <Form method="post" className="mt-6 space-y-4">
          <p>{t.cancelQuestion}</p>
          <p className="text-lg font-semibold">
            <time dateTime={d.start}>{formatSlot(d.language, d.start, "full")}</time> · {d.practitionerName}
          </p>
          <input type="hidden" name="token" value={d.token} />
          <button type="submit" className="rounded bg-red-800 px-5 py-3 font-semibold text-white">
            {t.cancelButton}
          </button>
        </Form>
      ) : (
        <p role="status" className="mt-6 rounded border-l-4 border-[var(--color-main,#0f5e63)] bg-neutral-50 p-4" data-cancel-result>
          {message}
        </p>
      )}
    </div>
  );
}
