import type { FetcherWithComponents } from "react-router";
import { berlinToUtc, formatSlot } from "~/booking/days";
import type { Language } from "~/i18n/languages";
import { buttonClass, inputClass } from "~/admin/ui";

/**
 * The item screen's schedule (issue 23): publish or unpublish at a time given in Berlin's wall clock,
 * and the pending change with a way to cancel it. The store keeps one schedule per item
 * (store.scheduleStatus) and the scheduler applies it (content/scheduler.ts).
 */

export const scheduleTexts = {
  de: {
    heading: "Zeitplan",
    what: "Was",
    publishAt: "Zu einem Zeitpunkt veröffentlichen",
    unpublishAt: "Zu einem Zeitpunkt zurückziehen",
    when: "Zeitpunkt (deutsche Zeit)",
    plan: "Planen",
    cancel: "Zeitplan aufheben",
    pending: (what: "Published" | "other", at: string, by: string) => `${what === "Published" ? "Wird veröffentlicht" : "Wird zurückgezogen"} am ${at} (geplant von ${by}).`,
    scheduled: (at: string) => `Geplant für ${at}.`,
    cancelled: "Zeitplan aufgehoben.",
    badTime: "Bitte einen gültigen Zeitpunkt angeben (Datum und Uhrzeit).",
    pastTime: "Dieser Zeitpunkt ist schon vorbei. Bitte einen Zeitpunkt in der Zukunft angeben.",
    noSuchTime: "Diese Uhrzeit gibt es an diesem Tag nicht (Umstellung auf Sommerzeit). Bitte eine andere wählen.",
  },
  en: {
    heading: "Schedule",
    what: "What",
    publishAt: "Publish at a set time",
    unpublishAt: "Unpublish at a set time",
    when: "Time (German time)",
    plan: "Schedule",
    cancel: "Cancel schedule",
    pending: (what: "Published" | "other", at: string, by: string) => `${what === "Published" ? "Will be published" : "Will be unpublished"} on ${at} (scheduled by ${by}).`,
    scheduled: (at: string) => `Scheduled for ${at}.`,
    cancelled: "Schedule cancelled.",
    badTime: "Please give a valid time (date and time of day).",
    pastTime: "That time has passed. Please give a time in the future.",
    noSuchTime: "That time does not exist on that day (clocks go forward). Please choose another.",
  },
} satisfies Record<Language, unknown>;

/**
 * A `datetime-local` value ("2026-12-01T08:00") read as Berlin wall-clock time: the UTC instant, or
 * why not ("bad", "past", or "missing" for the hour skipped when the clocks go forward).
 */
export function parseBerlinTime(value: string | undefined, now = Date.now()): Date | "bad" | "past" | "missing" {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/.exec(value?.trim() ?? "");
  if (!m) return "bad";
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  const day = Date.UTC(y, mo - 1, d);
  const check = new Date(day);
  if (y < 2000 || y > 9999 || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59) return "bad";
  const utc = berlinToUtc(day / 86_400_000, h * 60 + mi);
  if (utc === undefined) return "missing";
  return utc <= now ? "past" : new Date(utc);
}

export interface PendingSchedule {
  status: string;
  dueTime: string;
  by: string;
}

export function ScheduleBox({ language, pending, mayUnpublish, isPublished, version, busy, Form }: {
  language: Language;
  pending: PendingSchedule | null;
  mayUnpublish: boolean;
  isPublished: boolean;
  version: string;
  busy: boolean;
  Form: FetcherWithComponents<unknown>["Form"];
}) {
  const text = scheduleTexts[language];
  return (
    <section aria-labelledby="schedule-heading" className="rounded border border-slate-300 p-4" data-schedule>
      <h2 id="schedule-heading" className="mb-2 text-base font-semibold">
        {text.heading}
      </h2>
      {pending ? (
        <Form method="post" className="flex flex-wrap items-center gap-4">
          <p data-schedule-pending>{text.pending(pending.status === "Published" ? "Published" : "other", formatSlot(language, pending.dueTime, "full"), pending.by)}</p>
          <input type="hidden" name="version" value={version} />
          <button type="submit" name="intent" value="cancel-schedule" className={buttonClass("secondary")} disabled={busy}>
            {text.cancel}
          </button>
        </Form>
      ) : (
        <Form method="post" className="flex flex-wrap items-end gap-4">
          <input type="hidden" name="version" value={version} />
          <div>
            <label htmlFor="schedule-target" className="mb-1 block text-sm font-semibold">
              {text.what}
            </label>
            <select id="schedule-target" name="target" className={inputClass} defaultValue={isPublished && mayUnpublish ? "Draft" : "Published"}>
              <option value="Published">{text.publishAt}</option>
              {mayUnpublish ? <option value="Draft">{text.unpublishAt}</option> : null}
            </select>
          </div>
          <div>
            <label htmlFor="schedule-when" className="mb-1 block text-sm font-semibold">
              {text.when}
            </label>
            <input id="schedule-when" name="when" type="datetime-local" required className={inputClass} lang={language} />
          </div>
          <button type="submit" name="intent" value="schedule" className={buttonClass("secondary")} disabled={busy}>
            {text.plan}
          </button>
        </Form>
      )}
    </section>
  );
}
