import { perLanguage, type FormDefinition } from "~/forms/definition";
import type { Language } from "~/i18n/languages";
import { PRIVACY_PATH } from "~/newsletter/form";

/** The booking form (§1, book appointment, standard variant): the same rules in the browser, the page action and the JSON API. */
export const bookingForm = perLanguage((language: Language): FormDefinition => {
  const de = language === "de";
  return {
    id: "booking",
    fields: [
      { name: "name", type: "text", label: "Name", validation: "required:trim|length:2,100", autocomplete: "name" },
      { name: "email", type: "email", label: de ? "E-Mail" : "Email", validation: "required:trim|email|length:0,254", autocomplete: "email" },
      { name: "phone", type: "tel", label: de ? "Telefon" : "Phone", validation: "required:trim|length:6,30|matches:/^[+]?[0-9 ()/-]+$/", autocomplete: "tel" },
      { name: "note", type: "textarea", label: de ? "Nachricht an die Praxis (freiwillig)" : "Message to the practice (optional)", validation: "length:0,1000", rows: 3 },
      {
        name: "privacy",
        type: "checkbox",
        label: de
          ? "Ich bin einverstanden, dass meine Angaben für diesen Termin gespeichert und an die Praxis weitergegeben werden."
          : "I agree that my details are stored for this appointment and passed on to the practice.",
        validation: "accepted",
        link: { href: PRIVACY_PATH[language], text: de ? "Datenschutzerklärung" : "Privacy policy" },
      },
    ],
  };
});

export const bookingTexts = {
  de: {
    title: "Termin buchen",
    chooseSlot: "Wählen Sie einen freien Termin:",
    slotLabel: "Ihr Termin",
    with: "bei",
    submit: "Verbindlich buchen",
    booked: "Ihr Termin ist gebucht. Die Bestätigung mit Kalendereintrag und einem Link zum Absagen ist per E-Mail unterwegs.",
    taken: "Dieser Termin ist leider nicht mehr frei.",
    past: "Dieser Termin liegt in der Vergangenheit.",
    missing: "Diesen Termin gibt es nicht.",
    otherSlots: "Andere freie Termine ansehen",
    noSlots: "Zurzeit keine freien Termine.",
    cancelTitle: "Termin absagen",
    cancelQuestion: "Möchten Sie diesen Termin absagen?",
    cancelButton: "Termin absagen",
    cancelled: "Ihr Termin ist abgesagt. Sie erhalten eine Bestätigung per E-Mail.",
    cancelInvalid: "Dieser Link ist ungültig.",
    cancelExpired: "Dieser Termin liegt in der Vergangenheit und kann nicht mehr abgesagt werden.",
    cancelGone: "Dieser Termin ist bereits abgesagt.",
  },
  en: {
    title: "Book an appointment",
    chooseSlot: "Choose a free appointment:",
    slotLabel: "Your appointment",
    with: "with",
    submit: "Book now",
    booked: "Your appointment is booked. The confirmation with a calendar entry and a link to cancel is on its way by email.",
    taken: "Sorry, this appointment is no longer free.",
    past: "This appointment is in the past.",
    missing: "This appointment does not exist.",
    otherSlots: "See other free appointments",
    noSlots: "No free appointments at the moment.",
    cancelTitle: "Cancel the appointment",
    cancelQuestion: "Do you want to cancel this appointment?",
    cancelButton: "Cancel the appointment",
    cancelled: "Your appointment is cancelled. You receive a confirmation by email.",
    cancelInvalid: "This link is not valid.",
    cancelExpired: "This appointment is in the past and can no longer be cancelled.",
    cancelGone: "This appointment has already been cancelled.",
  },
} as const;
