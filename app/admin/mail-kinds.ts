import type { Language } from "~/i18n/languages";

/** The outbox's mail kinds (as the code queues them) in editors' words; an unknown kind shows as stored. */
export const MAIL_KINDS: Readonly<Record<string, Record<Language, string>>> = {
  "booking-confirmation": { de: "Buchungsbestätigung", en: "Booking confirmation" },
  "booking-cancellation": { de: "Stornierung einer Buchung", en: "Booking cancellation" },
  "newsletter-confirm": { de: "Newsletter: Anmeldung bestätigen", en: "Newsletter: confirm sign-up" },
  "newsletter-welcome": { de: "Newsletter: Willkommen", en: "Newsletter: welcome" },
  "newsletter-already-subscribed": { de: "Newsletter: schon angemeldet", en: "Newsletter: already signed up" },
  "registration-received": { de: "Registrierung eingegangen", en: "Registration received" },
  "registration-finished": { de: "Registrierung abgeschlossen", en: "Registration finished" },
  "registration-approved": { de: "Registrierung freigegeben", en: "Registration approved" },
  "registration-rejected": { de: "Registrierung abgelehnt", en: "Registration declined" },
  "user-invite": { de: "Einladung in die Verwaltung", en: "Invitation to the admin" },
  "user-reset": { de: "Passwort zurücksetzen", en: "Password reset" },
  "test-mail": { de: "Testmail", en: "Test mail" },
};

export function mailKind(kind: string, language: Language): string {
  return Object.hasOwn(MAIL_KINDS, kind) ? MAIL_KINDS[kind]![language] : kind;
}
