import { perLanguage, type FormDefinition } from "~/forms/definition";
import type { Language } from "~/i18n/languages";

/** The sign-in form: the same rules in the browser and in the action (which also takes a plain POST). */
export const loginForm = perLanguage((language: Language): FormDefinition => {
  const de = language === "de";
  return {
    id: "login",
    fields: [
      { name: "email", type: "email", label: de ? "E-Mail-Adresse" : "Email address", validation: "required:trim|email|length:0,320", autocomplete: "username" },
      { name: "password", type: "password", label: de ? "Passwort" : "Password", validation: "required|length:0,200", autocomplete: "current-password" },
    ],
  };
});

/** A new user (the invitation on /manage/users, and `npm run user:create`). */
export const inviteForm = perLanguage((language: Language): FormDefinition => {
  const de = language === "de";
  return {
    id: "invite",
    fields: [
      { name: "email", type: "email", label: de ? "E-Mail-Adresse" : "Email address", validation: "required:trim|email|length:0,254", autocomplete: "off" },
      { name: "name", type: "text", label: "Name", validation: "length:0,100" },
      { name: "superuser", type: "checkbox", label: de ? "Administrationsrechte" : "Administrator rights" },
    ],
  };
});

/** Set a password (invitation, reset): new password twice. */
export const setPasswordForm = perLanguage((language: Language): FormDefinition => {
  const de = language === "de";
  return {
    id: "set-password",
    fields: [
      { name: "password", type: "password", label: de ? "Neues Passwort" : "New password", validation: "required|length:10,200", autocomplete: "new-password", help: de ? "Mindestens 10 Zeichen." : "At least 10 characters." },
      { name: "password_confirm", type: "password", label: de ? "Passwort wiederholen" : "Repeat password", validation: "required|confirm", autocomplete: "new-password" },
    ],
  };
});

export const loginTexts = {
  de: {
    title: "Anmelden",
    intro: "Melden Sie sich an, um Seiten, Blöcke und Inhalte zu bearbeiten.",
    submit: "Anmelden",
    invalid: "E-Mail-Adresse oder Passwort ist falsch.",
    throttled: (seconds: number) => `Zu viele Fehlversuche. Bitte warten Sie ${Math.max(1, Math.ceil(seconds / 60))} Minute(n).`,
    signedIn: "Sie sind angemeldet.",
    toAdmin: "Zur Verwaltung",
    setPasswordTitle: "Passwort festlegen",
    setPasswordIntro: (email: string) => `Legen Sie ein Passwort für ${email} fest.`,
    setPasswordSubmit: "Passwort speichern",
    passwordSet: "Ihr Passwort ist gespeichert. Sie können sich jetzt anmelden.",
    linkInvalid: "Dieser Link ist ungültig oder schon benutzt. Bitten Sie eine:n Administrator:in um einen neuen.",
    passwordProblems: {
      tooShort: "Das Passwort muss mindestens 10 Zeichen lang sein.",
      tooLong: "Das Passwort darf höchstens 200 Zeichen lang sein.",
      sameAsEmail: "Das Passwort darf nicht die E-Mail-Adresse sein.",
    },
  },
  en: {
    title: "Sign in",
    intro: "Sign in to edit pages, blocks and content.",
    submit: "Sign in",
    invalid: "Email address or password is wrong.",
    throttled: (seconds: number) => `Too many failed attempts. Please wait ${Math.max(1, Math.ceil(seconds / 60))} minute(s).`,
    signedIn: "You are signed in.",
    toAdmin: "Go to the admin area",
    setPasswordTitle: "Set your password",
    setPasswordIntro: (email: string) => `Choose a password for ${email}.`,
    setPasswordSubmit: "Save password",
    passwordSet: "Your password is saved. You can sign in now.",
    linkInvalid: "This link is not valid or was used already. Ask an administrator for a new one.",
    passwordProblems: {
      tooShort: "The password must be at least 10 characters long.",
      tooLong: "The password may be at most 200 characters long.",
      sameAsEmail: "The password must not be the email address.",
    },
  },
} satisfies Record<Language, unknown>;
