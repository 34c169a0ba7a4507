import ical, { ICalCalendarMethod, ICalEventStatus } from "ical-generator";
import type { Language } from "~/i18n/languages";
import type { MailMessage } from "~/mail/outbox";
import { berlinDayLabel, berlinTime } from "./days";

/** What the booking mails say: the booker's own booking, nothing about anyone else. */
export interface BookingMailFacts {
  bookingId: string;
  to: string;
  name: string;
  language: Language;
  practitionerName: string;
  /** The practice's address, when the profile has one. */
  location: string | null;
  /** UTC ISO. */
  start: string;
  end: string;
  /** The site (SITE_NAME): names the product in the calendar file's PRODID. */
  siteName: string;
}

const BRAND = "Praxisnetz";

/**
 * The calendar entry's UID: the same in the confirmation and the cancellation, so a calendar
 * removes the entry it added. Made from the booking id, never from the booker.
 */
export const calendarUid = (bookingId: string) => `${bookingId}@praxisnetz`;

/**
 * The .ics attached to a booking mail. The confirmation is METHOD:PUBLISH, not REQUEST: a REQUEST
 * is an invitation that must name an organizer and the booker as attendee and asks for a reply,
 * and there is no one to reply to and no reason to put the booker's address into the file. The
 * cancellation is METHOD:CANCEL with STATUS:CANCELLED and a higher SEQUENCE, so calendars that
 * imported the entry drop (or strike through) it. Times are UTC; calendars show them locally.
 */
export function bookingCalendar(facts: BookingMailFacts, state: "booked" | "cancelled", now = new Date()): string {
  const de = facts.language === "de";
  const cal = ical({
    prodId: { company: BRAND, product: oneLine(facts.siteName) || BRAND, language: facts.language.toUpperCase() },
    method: state === "booked" ? ICalCalendarMethod.PUBLISH : ICalCalendarMethod.CANCEL,
  });
  cal.createEvent({
    id: calendarUid(facts.bookingId),
    sequence: state === "booked" ? 0 : 1,
    stamp: now,
    start: new Date(facts.start),
    end: new Date(facts.end),
    summary: `${de ? "Termin bei" : "Appointment with"} ${oneLine(facts.practitionerName)}`,
    ...(facts.location ? { location: oneLine(facts.location) } : {}),
    status: state === "booked" ? ICalEventStatus.CONFIRMED : ICalEventStatus.CANCELLED,
  });
  return cal.toString();
}

/** The confirmation with the cancel link and the calendar entry. */
export function confirmationMail(facts: BookingMailFacts, cancelUrl: string, now = new Date()): MailMessage {
  const de = facts.language === "de";
  return renderBookingMail(facts, {
    kind: "booking-confirmation",
    subject: de ? `Ihr Termin bei ${facts.practitionerName}: ${shortWhen(facts)}` : `Your appointment with ${facts.practitionerName}: ${shortWhen(facts)}`,
    intro: de ? "Ihr Termin ist gebucht:" : "your appointment is booked:",
    after: de
      ? ["Im Anhang finden Sie den Termin für Ihren Kalender.", "Falls Sie nicht kommen können, sagen Sie den Termin bitte ab, damit jemand anderes ihn buchen kann:"]
      : ["The attachment adds the appointment to your calendar.", "If you cannot come, please cancel the appointment so that someone else can book it:"],
    action: { label: de ? "Termin absagen" : "Cancel the appointment", url: cancelUrl },
    ics: bookingCalendar(facts, "booked", now),
    method: "PUBLISH",
  });
}

/** The confirmation of a cancellation, with the entry that takes the appointment off the calendar. */
export function cancellationMail(facts: BookingMailFacts, now = new Date()): MailMessage {
  const de = facts.language === "de";
  return renderBookingMail(facts, {
    kind: "booking-cancellation",
    subject: de ? `Abgesagt: Ihr Termin bei ${facts.practitionerName}: ${shortWhen(facts)}` : `Cancelled: your appointment with ${facts.practitionerName}: ${shortWhen(facts)}`,
    intro: de ? "Ihr Termin ist abgesagt:" : "your appointment is cancelled:",
    after: de ? ["Der Anhang entfernt den Termin aus Ihrem Kalender."] : ["The attachment removes the appointment from your calendar."],
    ics: bookingCalendar(facts, "cancelled", now),
    method: "CANCEL",
  });
}

/** "1. Dezember 2026, 09:00 Uhr" / "1 December 2026, 09:00" (Berlin), for subjects. */
function shortWhen(facts: BookingMailFacts): string {
  const label = berlinDayLabel(facts.start, facts.language).replace(/^[^,]+, /, "");
  return facts.language === "de" ? `${label}, ${berlinTime(facts.start)} Uhr` : `${label}, ${berlinTime(facts.start)}`;
}

/**
 * Plain text and HTML of one booking mail (every value escaped in the HTML). Kept here until the
 * shared mail templates take attachments; the wording is the booking flow's own either way.
 */
function renderBookingMail(
  facts: BookingMailFacts,
  parts: { kind: string; subject: string; intro: string; after: string[]; action?: { label: string; url: string }; ics: string; method: "PUBLISH" | "CANCEL" },
): MailMessage {
  const de = facts.language === "de";
  const greeting = de ? `Guten Tag ${facts.name},` : `Hello ${facts.name},`;
  const when = `${berlinDayLabel(facts.start, facts.language)}, ${berlinTime(facts.start)}–${berlinTime(facts.end)}${de ? " Uhr (deutsche Zeit)" : " (German time)"}`;
  const details = [facts.practitionerName, when, ...(facts.location ? [facts.location] : [])];
  const signature = de ? `Ihr ${BRAND}` : `Your ${BRAND} team`;
  const text = [
    greeting,
    "",
    parts.intro,
    "",
    ...details,
    "",
    ...parts.after.flatMap((p) => [p, ""]),
    ...(parts.action ? [parts.action.url, ""] : []),
    signature,
    "",
  ].join("\n");
  const html = [
    `<!doctype html><html lang="${facts.language}"><head><meta charset="utf-8"><title>${escapeHtml(parts.subject)}</title></head>`,
    `<body style="font-family:sans-serif;line-height:1.5;color:#1f2933">`,
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(parts.intro)}</p>`,
    `<p style="border-left:4px solid #0f5e63;padding-left:12px"><strong>${escapeHtml(facts.practitionerName)}</strong><br>${details.slice(1).map(escapeHtml).join("<br>")}</p>`,
    ...parts.after.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(parts.action
      ? [`<p><a href="${escapeHtml(parts.action.url)}" style="display:inline-block;background:#0f5e63;color:#fff;padding:10px 18px;border-radius:4px;text-decoration:none">${escapeHtml(parts.action.label)}</a></p>`, `<p style="font-size:small;word-break:break-all">${escapeHtml(parts.action.url)}</p>`]
      : []),
    `<p>${escapeHtml(signature)}</p>`,
    `</body></html>`,
  ].join("\n");
  return {
    kind: parts.kind,
    to: facts.to,
    subject: oneLine(parts.subject),
    text,
    html,
    attachments: [{ filename: de ? "termin.ics" : "appointment.ics", contentType: `text/calendar; charset=utf-8; method=${parts.method}`, content: parts.ics }],
  };
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** Header lines and calendar properties take one line: content never breaks out of them. */
function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, " ").trim();
}
