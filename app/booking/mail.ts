import ical, { ICalCalendarMethod, ICalEventStatus } from "ical-generator";
import type { Language } from "~/i18n/languages";
import type { MailMessage } from "~/mail/outbox";
import { MAIL_BRAND, renderMail } from "~/mail/templates";
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

const BRAND = MAIL_BRAND;

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
  const time = berlinTime(facts.start, facts.language);
  return facts.language === "de" ? `${label}, ${time} Uhr` : `${label}, ${time}`;
}

/** One booking mail through the shared template: the booking's facts as one block, the .ics attached. */
function renderBookingMail(
  facts: BookingMailFacts,
  parts: { kind: string; subject: string; intro: string; after: string[]; action?: { label: string; url: string }; ics: string; method: "PUBLISH" | "CANCEL" },
): MailMessage {
  const de = facts.language === "de";
  const when = `${berlinDayLabel(facts.start, facts.language)}, ${berlinTime(facts.start, facts.language)}–${berlinTime(facts.end, facts.language)}${de ? " Uhr (deutsche Zeit)" : " (German time)"}`;
  return renderMail({
    kind: parts.kind,
    to: facts.to,
    language: facts.language,
    subject: parts.subject,
    greeting: de ? `Guten Tag ${facts.name},` : `Hello ${facts.name},`,
    paragraphs: [parts.intro, [facts.practitionerName, when, ...(facts.location ? [facts.location] : [])].join("\n"), ...parts.after],
    ...(parts.action ? { action: parts.action } : {}),
    attachments: [{ filename: de ? "termin.ics" : "appointment.ics", contentType: `text/calendar; charset=utf-8; method=${parts.method}`, content: parts.ics }],
  });
}

/** Calendar properties take one line: content never breaks out of them. */
function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, " ").trim();
}
