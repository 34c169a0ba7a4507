import { orBadRequest, parsePage, parseSearch } from "~/admin/content/list-query";
import { askFirst, done, refused, writer, ADMIN_FORM_LIMIT, type AdminArgs } from "~/admin/admin.server";
import type { User } from "~/auth/users.server";
import { formatSlot } from "~/booking/days";
import { BatchItemError } from "~/content/store";
import { ContentError } from "~/content/errors";
import type { Language } from "~/i18n/languages";
import { readForm } from "~/lib/body";
import { berlinToday, berlinToUtc, dayNumber, expandSeries, expandSingle, MAX_RANGE_DAYS, type Expansion, type SlotProblem } from "./series";
import { APPOINTMENTS, createSlots, findPractitioner, listSlots, PRACTITIONER_PAGE_SIZE, removeFreeSlots, searchPractitioners, SLOT_PAGE_SIZE, type Paged, type PractitionerChoice } from "./slots.server";
import { appointmentTexts, problemMessage, type AppointmentTexts } from "./texts";
import type { SlotView } from "./view";

/**
 * What /manage/appointments loads and does, apart from the route module: the route starts every
 * loader and action with `admin(args)` and hands the signed-in user here.
 */

/** The range shown when none (or a wrong one) is asked for: the next four weeks. */
const DEFAULT_RANGE_DAYS = 28;
const dayString = (n: number) => new Date(n * 86_400_000).toISOString().slice(0, 10);
type Services = AdminArgs["context"]["services"];

export interface ScreenData {
  language: Language;
  search: { q: string; results: Paged<PractitionerChoice> };
  view: SlotView | null;
  /** A message about the query (a wrong range, an unknown practitioner): the defaults are shown instead. */
  notice: string | null;
}

/** The search, the chosen practitioner and their slots in the asked range (Berlin dates), one page. */
export async function loadScreen(services: Services, language: Language, url: URL, now = new Date()): Promise<ScreenData> {
  const t = appointmentTexts[language];
  // Search text and page numbers are checked as on every admin list: nonsense is a 400 with a message.
  const [q, practitionerPage, slotPage] = orBadRequest(() => [
    parseSearch(url.searchParams.get("q"), language),
    parsePage(url.searchParams.get("pp"), language, PRACTITIONER_PAGE_SIZE),
    parsePage(url.searchParams.get("page"), language, SLOT_PAGE_SIZE),
  ] as const);
  const results = await searchPractitioners(services.store, q, practitionerPage);
  const id = url.searchParams.get("practitioner");
  const practitioner = id ? await findPractitioner(services.store, id) : undefined;
  let notice = id && !practitioner ? t.unknownPractitioner : null;
  if (!practitioner) return { language, search: { q, results }, view: null, notice };

  const today = berlinToday(now);
  let from = dayNumber(url.searchParams.get("from") ?? "") ?? today;
  let to = dayNumber(url.searchParams.get("to") ?? "") ?? from + DEFAULT_RANGE_DAYS - 1;
  if (to < from || to - from + 1 > MAX_RANGE_DAYS) {
    notice = t.badRange;
    [from, to] = [today, today + DEFAULT_RANGE_DAYS - 1];
  }
  // Midnight exists on every Berlin day (the clocks change at 02:00 and 03:00).
  const range = { fromMs: berlinToUtc(from, 0)!, toMs: berlinToUtc(to + 1, 0)! };
  const slots = await listSlots(services.store, practitioner.id, range, slotPage);
  return { language, search: { q, results }, view: { language, practitioner, from: dayString(from), to: dayString(to), slots }, notice };
}

const fieldErrors = (t: AppointmentTexts, problems: SlotProblem[]) => {
  const errors: Record<string, string[]> = {};
  for (const p of problems) (errors[p.field] ??= []).push(problemMessage(t, p));
  return errors;
};

/** create-single, create-series, remove (selected free slots), cancel (a booking; the booker is mailed). */
export async function handleAction(args: AdminArgs, user: User, now = new Date()) {
  const { services } = args.context;
  const t = appointmentTexts[user.language];
  const form = await readForm(args.request, ADMIN_FORM_LIMIT);
  const practitioner = await findPractitioner(services.store, form.get("practitioner") ?? "");
  if (!practitioner) return refused(t.unknownPractitioner, 404, { practitioner: [t.unknownPractitioner] });
  try {
    switch (form.get("intent")) {
      case "create-single":
      case "create-series": {
        const duration = Number(form.get("duration"));
        const time = form.get("time") ?? "";
        const expansion: Expansion =
          form.get("intent") === "create-single"
            ? expandSingle({ date: form.get("date") ?? "", time, durationMinutes: duration }, now)
            : expandSeries({ weekdays: form.getAll("weekday").map(Number), time, until: form.get("until") ?? "", durationMinutes: duration, from: form.get("from") ?? "", to: form.get("to") ?? "" }, now);
        if (!expansion.ok) return refused(expansion.problems.map((p) => problemMessage(t, p)).join(" "), 400, fieldErrors(t, expansion.problems));
        const outcome = await createSlots(services.store, practitioner.id, expansion.slots, writer(user, { action: "create-appointment", detail: practitioner.id }));
        if (!outcome.ok) {
          const times = outcome.overlaps.slice(0, 5).map((s) => formatSlot(user.language, s.start));
          return refused(t.overlap(outcome.overlaps.length > 5 ? [...times, "…"] : times), 409, { from: [t.overlap(times)] });
        }
        return done(t.created(outcome.ids.length), 201);
      }
      case "remove": {
        // The question's button sends the chosen slots back as one list (ConfirmStep posts single values).
        const ids = [...form.getAll("slot"), ...(form.get("slots") ?? "").split(",")].filter(Boolean);
        if (!ids.length) return refused(t.noneSelected, 400);
        // Asked first, by the server (issue 22, point 4): nothing is deleted before confirmed=yes.
        if (form.get("confirmed") !== "yes")
          return askFirst({ question: t.confirmRemove(ids.length), detail: t.removeDetail, confirmLabel: t.yesRemove(ids.length), fields: { intent: "remove", practitioner: practitioner.id, slots: ids.join(",") } });
        const outcome = await removeFreeSlots(services.store, practitioner.id, ids, writer(user, { action: "delete-appointment", detail: practitioner.id }));
        if (!outcome.ok) return outcome.reason === "booked" ? refused(t.removeBooked, 409) : refused(t.unknownSlot, 404);
        return done(t.removed(outcome.removed.length));
      }
      case "cancel": {
        const slotId = form.get("slot") ?? "";
        const slot = slotId ? await services.store.get(APPOINTMENTS, slotId, { unpublished: true }) : undefined;
        const owner = slot?.data.practitioner?.iv;
        if (!slot || !Array.isArray(owner) || owner[0] !== practitioner.id) return refused(t.unknownSlot, 404);
        if (form.get("confirmed") !== "yes") {
          const time = formatSlot(user.language, String(slot.data.start?.iv), "full");
          return askFirst({ question: t.confirmCancel(time), detail: t.cancelDetail, confirmLabel: t.yesCancel, fields: { intent: "cancel", practitioner: practitioner.id, slot: slot.id } });
        }
        const outcome = await services.bookings.cancelBySlot(slot.id, { now });
        if (!outcome.ok) return outcome.reason === "past" ? refused(t.cancelPast, 409) : refused(t.cancelGone, 404);
        // The audit names the slot, never the booker.
        await services.auth.audit.record(user, { action: "cancel-booking", schema: APPOINTMENTS, itemId: slot.id, version: slot.version });
        return done(t.cancelled(outcome.email));
      }
      default:
        return refused(t.unknownIntent);
    }
  } catch (error) {
    // Store refusals (validation, a version conflict, an id taken meanwhile): the editor's to fix.
    const cause = error instanceof BatchItemError ? error.error : error;
    if (cause instanceof ContentError && cause.statusCode < 500) return refused(cause.message, cause.statusCode);
    throw error;
  }
}
