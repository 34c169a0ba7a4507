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
    // Pickers (reference.tsx, assets.tsx, geo.tsx)
    pickNone: "Noch nichts ausgewählt.",
    pickRemove: (t: string) => `„${t}“ entfernen`,
    pickSearchHint: "Titel eintippen; mit Pfeiltasten wählen, Eingabetaste übernimmt.",
    pickCount: (n: number) => (n === 0 ? "Keine Treffer." : n === 1 ? "1 Treffer." : `${n.toLocaleString("de-DE")} Treffer.`),
    pickMore: "Weitere anzeigen",
    pickDraft: "Entwurf",
    pickSearching: "Suche läuft …",
    pickFailed: "Die Suche hat nicht geklappt. Bitte versuchen Sie es noch einmal.",
    pickMax: (n: number) => (n === 1 ? "Es ist nur ein Eintrag möglich; die Wahl ersetzt ihn." : `Höchstens ${n} Einträge; entfernen Sie erst einen.`),
    pickCollection: "Sammlung",
    pickUnknown: "Unbekannter Eintrag (gelöscht?)",
    pickChosen: "ausgewählt",
    pickChosenList: "Ausgewählt",
    fileLibrary: "Aus der Mediathek wählen",
    fileUpload: "Datei hochladen",
    fileUploading: "Wird hochgeladen …",
    fileUploaded: (name: string) => `„${name}“ hochgeladen und ausgewählt.`,
    fileUploadFailed: (why: string) => `Hochladen fehlgeschlagen: ${why}`,
    fileUploadStatus: (status: number) =>
      status === 0
        ? "Keine Verbindung zum Server."
        : status === 413
          ? "Die Datei ist zu groß."
          : status === 400 || status === 415
            ? "Diese Datei wird nicht angenommen (Dateityp oder Inhalt)."
            : status === 401 || status === 403
              ? "Sie sind nicht (mehr) angemeldet oder dürfen keine Dateien hochladen."
              : `Der Server hat mit Fehler ${status} geantwortet. Bitte versuchen Sie es noch einmal.`,
    fileSearch: "Dateiname suchen",
    fileClose: "Mediathek schließen",
    fileChoose: (name: string) => `„${name}“ wählen`,
    fileNone: "Keine Datei ausgewählt.",
    fileUnknown: "Unbekannte Datei (gelöscht?)",
    fileCount: (n: number) => (n === 0 ? "Keine Dateien gefunden." : n === 1 ? "1 Datei." : `${n.toLocaleString("de-DE")} Dateien.`),
    geoLatitude: "Breitengrad",
    geoLongitude: "Längengrad",
    geoAddress: "Adresse suchen",
    geoAddressButton: "Adresse finden",
    geoFromGeocoder: "Gefunden über den Adressdienst.",
    geoFromDirectory: "Der Adressdienst antwortet nicht; diese Orte kennt unser eigenes Verzeichnis.",
    geoNoPlaces: "Keine passenden Orte gefunden.",
    geoUse: (label: string) => `Übernehmen: ${label}`,
    geoMapHint: "Ein Klick in die Karte setzt den Ort.",
    geoMapOffline: "Der Kartenhintergrund ist nicht erreichbar; ein Klick setzt den Ort trotzdem.",
    geoMapFailed: "Die Karte kann in diesem Browser nicht angezeigt werden; bitte geben Sie die Koordinaten ein.",
    geoMapLoading: "Karte wird geladen …",
    geoMap: "Karte zum Setzen des Orts",
    geoClear: "Ort entfernen",
    geoSet: (lat: number, lon: number) => `Ort gesetzt: ${lat.toFixed(5)}, ${lon.toFixed(5)}`,
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
    // Pickers (reference.tsx, assets.tsx, geo.tsx)
    pickNone: "Nothing chosen yet.",
    pickRemove: (t: string) => `Remove “${t}”`,
    pickSearchHint: "Type a title; choose with the arrow keys, Enter takes it.",
    pickCount: (n: number) => (n === 0 ? "No results." : n === 1 ? "1 result." : `${n.toLocaleString("en-GB")} results.`),
    pickMore: "Show more",
    pickDraft: "Draft",
    pickSearching: "Searching …",
    pickFailed: "The search did not work. Please try again.",
    pickMax: (n: number) => (n === 1 ? "Only one entry is possible; choosing replaces it." : `At most ${n} entries; remove one first.`),
    pickCollection: "Collection",
    pickUnknown: "Unknown item (deleted?)",
    pickChosen: "chosen",
    pickChosenList: "Chosen",
    fileLibrary: "Choose from the library",
    fileUpload: "Upload a file",
    fileUploading: "Uploading …",
    fileUploaded: (name: string) => `“${name}” uploaded and chosen.`,
    fileUploadFailed: (why: string) => `Upload failed: ${why}`,
    fileUploadStatus: (status: number) =>
      status === 0
        ? "No connection to the server."
        : status === 413
          ? "The file is too large."
          : status === 400 || status === 415
            ? "This file is not accepted (its type or content)."
            : status === 401 || status === 403
              ? "You are not signed in (any more) or may not upload files."
              : `The server answered with error ${status}. Please try again.`,
    fileSearch: "Search file names",
    fileClose: "Close the library",
    fileChoose: (name: string) => `Choose “${name}”`,
    fileNone: "No file chosen.",
    fileUnknown: "Unknown file (deleted?)",
    fileCount: (n: number) => (n === 0 ? "No files found." : n === 1 ? "1 file." : `${n.toLocaleString("en-GB")} files.`),
    geoLatitude: "Latitude",
    geoLongitude: "Longitude",
    geoAddress: "Search an address",
    geoAddressButton: "Find address",
    geoFromGeocoder: "Found by the address service.",
    geoFromDirectory: "The address service does not answer; these places are known in our own directory.",
    geoNoPlaces: "No matching places found.",
    geoUse: (label: string) => `Use: ${label}`,
    geoMapHint: "A click on the map sets the place.",
    geoMapOffline: "The map background cannot be reached; a click still sets the place.",
    geoMapFailed: "The map cannot be shown in this browser; please enter the coordinates.",
    geoMapLoading: "Loading the map …",
    geoMap: "Map to set the place",
    geoClear: "Remove the place",
    geoSet: (lat: number, lon: number) => `Place set: ${lat.toFixed(5)}, ${lon.toFixed(5)}`,
  },
} satisfies Record<Language, unknown>;
