import type { Language } from "~/i18n/languages";

/** The words of the offline page, the install prompt and the offline form notice (kept apart from the site dictionary: they load lazily). */
export const PWA_TEXTS = {
  de: {
    offlineTitle: "Sie sind offline",
    offlineText: "Diese Seite ist ohne Internetverbindung nicht verfügbar. Seiten, die Sie schon besucht haben, können Sie weiter lesen.",
    offlineRetry: "Erneut versuchen",
    installTitle: "Als App installieren",
    installText: "Legen Sie diese Website auf Ihren Startbildschirm – sie öffnet sich dann wie eine App.",
    install: "Installieren",
    dismiss: "Nein, danke",
    manifestDescription: "Behandelnde finden und Termine buchen",
  },
  en: {
    offlineTitle: "You are offline",
    offlineText: "This page is not available without an internet connection. Pages you have visited before can still be read.",
    offlineRetry: "Try again",
    installTitle: "Install as an app",
    installText: "Add this website to your home screen – it then opens like an app.",
    install: "Install",
    dismiss: "No, thanks",
    manifestDescription: "Find practitioners and book appointments",
  },
} satisfies Record<Language, Record<string, string>>;
