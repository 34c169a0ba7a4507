import { perLanguage, type FormDefinition } from "~/forms/definition";
import { localizedPath, type Language } from "~/i18n/languages";

export { normalizeEmail } from "~/lib/input";

/** `/newsletter/{email}` in a language, the address encoded as one path segment. */
export const newsletterPath = (language: Language, email: string) => localizedPath(language, `/newsletter/${encodeURIComponent(email)}`);
export const presentPath = (language: Language, email: string) => localizedPath(language, `/present/${encodeURIComponent(email)}`);

export const PRIVACY_PATH: Record<Language, string> = { de: "/datenschutz", en: "/en/privacy" };

/** The sign-up form: the address and the privacy consent, nothing else (data minimisation). */
export const newsletterForm = perLanguage((language: Language): FormDefinition => {
  const de = language === "de";
  return {
    id: "newsletter",
    fields: [
      { name: "email", type: "email", label: de ? "E-Mail-Adresse" : "Email address", validation: "required:trim|email|length:0,254", autocomplete: "email" },
      {
        name: "privacy",
        type: "checkbox",
        label: de ? "Ich bin einverstanden, dass meine E-Mail-Adresse für den Newsletter gespeichert wird." : "I agree that my email address is stored for the newsletter.",
        validation: "accepted",
        link: { href: PRIVACY_PATH[language], text: de ? "Datenschutzerklärung" : "Privacy policy" },
      },
    ],
  };
});

/** What the JSON API checks: the address (consent is given by confirming the mailed link). */
export const newsletterApiForm = perLanguage((language: Language): FormDefinition => {
  const form = newsletterForm(language);
  return { ...form, fields: form.fields.filter((f) => f.name === "email") };
});

export const newsletterTexts = {
  de: {
    title: "Newsletter",
    intro: "Einmal im Monat: Neues aus dem Praxisnetz, Gesundheitstipps und neue Behandelnde in Ihrer Nähe. Als Dankeschön erhalten Sie nach der Bestätigung ein kleines Geschenk.",
    submit: "Anmelden",
    sent: "Fast geschafft! Wir haben Ihnen eine E-Mail geschickt. Bitte bestätigen Sie Ihre Anmeldung über den Link darin.",
    sentHint: "Keine E-Mail erhalten? Sehen Sie im Spam-Ordner nach oder melden Sie sich in einigen Minuten noch einmal an.",
    confirmTitle: "Anmeldung bestätigen",
    confirmButton: "Ja, Newsletter erhalten",
    confirmed: "Vielen Dank! Ihre Anmeldung ist bestätigt. Den Link zu Ihrem Geschenk finden Sie in der Willkommens-E-Mail.",
    unsubscribeTitle: "Newsletter abbestellen",
    unsubscribeButton: "Abbestellen",
    unsubscribed: "Sie erhalten den Newsletter nicht mehr. Ihre Adresse ist gelöscht.",
    invalidLink: "Dieser Link ist ungültig. Bitte melden Sie sich noch einmal an.",
    expiredLink: "Dieser Link ist abgelaufen. Bitte melden Sie sich noch einmal an.",
  },
  en: {
    title: "Newsletter",
    intro: "Once a month: news from Praxisnetz, health tips and new practitioners near you. As a thank-you, you receive a small gift once you confirm.",
    submit: "Subscribe",
    sent: "Almost done! We have sent you an email. Please confirm your subscription with the link in it.",
    sentHint: "No email? Check your spam folder, or sign up again in a few minutes.",
    confirmTitle: "Confirm your subscription",
    confirmButton: "Yes, send me the newsletter",
    confirmed: "Thank you! Your subscription is confirmed. The link to your gift is in the welcome email.",
    unsubscribeTitle: "Unsubscribe from the newsletter",
    unsubscribeButton: "Unsubscribe",
    unsubscribed: "You will no longer receive the newsletter. Your address has been deleted.",
    invalidLink: "This link is not valid. Please sign up again.",
    expiredLink: "This link has expired. Please sign up again.",
  },
} as const;
