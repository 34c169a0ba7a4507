import type { Language } from "~/i18n/languages";

/** The admin's input style, shared by every control. */
export const controlInput =
  "block w-full rounded border border-neutral-400 bg-white px-3 py-2 text-base text-neutral-900 focus:outline-2 focus:outline-offset-2 focus:outline-[var(--color-main,#0f5e63)] aria-[invalid=true]:border-red-700";
export const smallButton =
  "rounded border border-slate-500 bg-white px-2 py-1 text-sm text-slate-900 hover:bg-slate-100 disabled:opacity-50";

/** Words of the structured-field controls, in the admin's language. */
export const controlWords = {
  de: {
    advanced: "Erweitert: als JSON bearbeiten",
    technicalSet:
      "Technischer Wert ist gesetzt; nur Administrator:innen können ihn ändern.",
    technicalEmpty: "Kein Wert gesetzt.",
    addRow: "Eintrag hinzufügen",
    row: (n: number) => `Eintrag ${n}`,
    moveUp: "nach oben",
    moveDown: "nach unten",
    removeRow: "entfernen",
    noRows: "Noch keine Einträge.",
    none: "Keine",
    noColor: "Keine Farbe",
    themeColors: "Farben des Themes",
    otherColor: "Andere Farbe",
    hexCode: "Farbcode",
    addTag: "Hinzufügen",
    removeTag: (t: string) => `„${t}“ entfernen`,
    newTag: "Neuer Eintrag",
    chooseSearch: "Suchen",
    nothingFound: "Nichts gefunden.",
    pagesEditor:
      "Die Blöcke dieser Seite werden im Bearbeitungsmodus auf der Seite selbst bearbeitet.",
    openEditor: "Im Bearbeitungsmodus öffnen",
    blocksCount: (n: number) => (n === 1 ? "1 Block" : `${n} Blöcke`),
  },
  en: {
    advanced: "Advanced: edit as JSON",
    technicalSet:
      "A technical value is set; only administrators can change it.",
    technicalEmpty: "No value set.",
    addRow: "Add entry",
    row: (n: number) => `Entry ${n}`,
    moveUp: "move up",
    moveDown: "move down",
    removeRow: "remove",
    noRows: "No entries yet.",
    none: "None",
    noColor: "No colour",
    themeColors: "Theme colours",
    otherColor: "Other colour",
    hexCode: "Colour code",
    addTag: "Add",
    removeTag: (t: string) => `Remove “${t}”`,
    newTag: "New entry",
    chooseSearch: "Search",
    nothingFound: "Nothing found.",
    pagesEditor:
      "This page's blocks are edited in edit mode, on the page itself.",
    openEditor: "Open in edit mode",
    blocksCount: (n: number) => (n === 1 ? "1 block" : `${n} blocks`),
  },
} satisfies Record<Language, unknown>;
