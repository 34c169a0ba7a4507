import type { Language } from "~/i18n/languages";
import { formatCount } from "~/i18n/numbers";

/**
 * The admin area's common texts (layout, navigation, lists, save notices), once per language.
 * Each screen keeps its own texts beside it (app/admin/<screen>.ts).
 */
const de = {
  adminArea: "Verwaltung",
  skipToContent: "Zum Inhalt springen",
  navigation: "Verwaltungsmenü",
  openMenu: "Menü öffnen",
  closeMenu: "Menü schließen",
  dashboard: "Übersicht",
  viewSite: "Website ansehen",
  signedInAs: (name: string) => `Angemeldet als ${name}`,
  account: "Mein Konto",
  users: "Benutzer:innen",
  audit: "Änderungsprotokoll",
  system: "System",
  signOut: "Abmelden",
  language: "Sprache",
  loading: "Wird geladen …",
  saved: "Gespeichert.",
  created: "Angelegt.",
  deleted: "Gelöscht.",
  save: "Speichern",
  delete: "Löschen",
  edit: "Bearbeiten",
  create: "Anlegen",
  search: "Suchen",
  searchPlaceholder: "Suchbegriff",
  empty: "Noch nichts vorhanden.",
  noMatches: "Keine Treffer. Ändern Sie die Suche oder die Filter.",
  confirmDelete: "Wirklich löschen? Das lässt sich nicht rückgängig machen.",
  cancel: "Abbrechen",
  close: "Schließen",
  colorPicker: "Farbwähler",
  shown: (n: number, of: number) => `${formatCount(n, "de")} von ${formatCount(of, "de")} angezeigt`,
  confirmDeleteItem: (what: string) => `„${what}“ wirklich löschen?`,
  deleteForGood: "Gelöschte Einträge lassen sich nicht wiederherstellen: Es gibt keinen Papierkorb und keine frühere Fassung. Soll der Eintrag nur nicht mehr öffentlich sein, ziehen Sie ihn stattdessen zurück.",
  yesDelete: (what: string) => `Ja, „${what}“ löschen`,
  status: "Status",
  statusPublished: "Veröffentlicht",
  statusDraft: "Entwurf",
  statusChanged: "Geändert",
  statusArchived: "Archiviert",
  publish: "Veröffentlichen",
  unpublish: "Zurückziehen",
  previous: "Zurück",
  next: "Weiter",
  pageOf: (page: number, pages: number) => `Seite ${formatCount(page, "de")} von ${formatCount(pages, "de")}`,
  first: "Erste Seite",
  last: "Letzte Seite",
  jumpToPage: "Gehe zu Seite",
  go: "Los",
  total: (n: number) => (n === 1 ? "1 Eintrag" : `${formatCount(n, "de")} Einträge`),
  saveFailed: (status: number): string =>
    status === 0
      ? "Nicht gespeichert: keine Verbindung zum Server. Ihre Eingaben stehen noch im Formular."
      : status >= 500
        ? "Nicht gespeichert: auf dem Server ging etwas schief. Bitte versuchen Sie es gleich noch einmal."
        : "Nicht gespeichert: bitte prüfen Sie die markierten Angaben.",
  forbidden: "Dafür brauchen Sie Administrationsrechte.",
  singletonKept: "Das ist der eine Einstellungs-Eintrag der Website: Er lässt sich weder löschen noch zurückziehen, und ein zweiter lässt sich nicht anlegen. Nichts wurde geändert; ändern Sie ihn stattdessen.",
  busy: "Gerade wird viel gespeichert. Nichts wurde geändert: bitte versuchen Sie es in einem Moment noch einmal.",
  notFound: "Diese Verwaltungsseite gibt es nicht.",
  errorTitle: "Fehler",
  backToDashboard: "Zur Übersicht",
  welcome: (name: string) => `Willkommen, ${name}.`,
  superuser: "Administrator:in",
  editor: "Redakteur:in",
  mailOff:
    "Der E-Mail-Versand ist nicht eingerichtet: E-Mails der Website (Einladungen, Bestätigungen, Terminmails) warten im Postausgang und gehen nicht hinaus. Eingerichtet wird er auf dem Server (Einstellung SMTP_URL).",
};

type AdminTexts = typeof de;

const en: AdminTexts = {
  adminArea: "Admin",
  skipToContent: "Skip to content",
  navigation: "Admin menu",
  openMenu: "Open menu",
  closeMenu: "Close menu",
  dashboard: "Dashboard",
  viewSite: "View site",
  signedInAs: (name) => `Signed in as ${name}`,
  account: "My account",
  users: "Users",
  audit: "Audit log",
  system: "System",
  signOut: "Sign out",
  language: "Language",
  loading: "Loading …",
  saved: "Saved.",
  created: "Created.",
  deleted: "Deleted.",
  save: "Save",
  delete: "Delete",
  edit: "Edit",
  create: "Create",
  search: "Search",
  searchPlaceholder: "Search term",
  empty: "Nothing here yet.",
  noMatches: "No matches. Change the search or the filters.",
  confirmDelete: "Really delete? This cannot be undone.",
  cancel: "Cancel",
  close: "Close",
  colorPicker: "Colour picker",
  shown: (n, of) => `${formatCount(n, "en")} of ${formatCount(of, "en")} shown`,
  confirmDeleteItem: (what) => `Really delete “${what}”?`,
  deleteForGood: "Deleted items cannot be brought back: there is no bin and no earlier version. If the item should only stop being public, unpublish it instead.",
  yesDelete: (what) => `Yes, delete “${what}”`,
  status: "Status",
  statusPublished: "Published",
  statusDraft: "Draft",
  statusChanged: "Changed",
  statusArchived: "Archived",
  publish: "Publish",
  unpublish: "Unpublish",
  previous: "Previous",
  next: "Next",
  pageOf: (page, pages) => `Page ${formatCount(page, "en")} of ${formatCount(pages, "en")}`,
  first: "First page",
  last: "Last page",
  jumpToPage: "Go to page",
  go: "Go",
  total: (n) => (n === 1 ? "1 entry" : `${formatCount(n, "en")} entries`),
  saveFailed: (status) =>
    status === 0
      ? "Not saved: no connection to the server. What you entered is still in the form."
      : status >= 500
        ? "Not saved: something went wrong on the server. Please try again in a moment."
        : "Not saved: please check the marked entries.",
  forbidden: "You need administrator rights for this.",
  singletonKept: "This is the site's one settings item: it can be neither deleted nor unpublished, and a second one cannot be created. Nothing was changed; change it instead.",
  busy: "A lot is being saved right now. Nothing was changed: please try again in a moment.",
  notFound: "There is no such admin page.",
  errorTitle: "Error",
  backToDashboard: "Back to the dashboard",
  welcome: (name) => `Welcome, ${name}.`,
  superuser: "Administrator",
  editor: "Editor",
  mailOff:
    "Mail delivery is not set up: the site's emails (invitations, confirmations, appointment mails) wait in the outbox and do not go out. It is set up on the server (the SMTP_URL setting).",
};

export const adminTexts: Record<Language, AdminTexts> = { de, en };
export type { AdminTexts };
