import type { Language } from "~/i18n/languages";

/**
 * The content store answers in the Squidex API's English ("Field is required.", "Not an allowed
 * value."): right for API clients, wrong for a German-speaking editor. The admin says them in the
 * editor's language and in plain words; a message not known here is shown as it is (and is the
 * place to add it).
 */
const MESSAGES: ReadonlyArray<[RegExp, (m: RegExpExecArray) => Record<Language, string>]> = [
  [/^Field is required\.$/, () => ({ de: "Bitte ausfüllen.", en: "Please fill this in." })],
  [/^Not a known field\.$/, () => ({ de: "Dieses Feld gibt es hier nicht.", en: "There is no such field here." })],
  [/^Not a known language\.$/, () => ({ de: "Diese Sprache ist nicht eingerichtet.", en: "This language is not set up." })],
  [/^Must follow the pattern\.$/, () => ({ de: "Die Eingabe hat nicht die verlangte Form.", en: "This is not in the required form." })],
  [/^"?(.*?)"? ?is not an allowed value\.$|^Not an allowed value\.$/, () => ({ de: "Dieser Wert ist hier nicht erlaubt.", en: "This value is not allowed here." })],
  [/^Must be greater or equal to (.+)\.$/, (m) => ({ de: `Mindestens ${m[1]}.`, en: `At least ${m[1]}.` })],
  [/^Must be less or equal to (.+)\.$/, (m) => ({ de: `Höchstens ${m[1]}.`, en: `At most ${m[1]}.` })],
  [/^Latitude must be between -90 and 90\.$/, () => ({ de: "Der Breitengrad liegt zwischen -90 und 90.", en: "Latitude lies between -90 and 90." })],
  [/^Longitude must be between -180 and 180\.$/, () => ({ de: "Der Längengrad liegt zwischen -180 und 180.", en: "Longitude lies between -180 and 180." })],
  [/^Invalid json type, expected (.+)\.$/, (m) => expected(m[1]!)],
  [/^Unknown component schema/, () => ({ de: "Diese Art von Baustein gibt es hier nicht.", en: "There is no component of this kind here." })],
  [/^Component schema "(.+)" is not allowed here\.$/, () => ({ de: "Diese Art von Baustein ist hier nicht erlaubt.", en: "This kind of component is not allowed here." })],
  [/^Component must name its schema/, () => ({ de: "Beim Baustein fehlt, welcher Art er ist.", en: "The component does not say what kind it is." })],
  [/^Unsupported or unrecognised file type/, () => ({ de: "Diese Datei ist kein unterstütztes Bild oder Dokument.", en: "This file is not a supported image or document." })],
];

/** "Invalid json type, expected …": what belongs there, in words. */
function expected(kind: string): Record<Language, string> {
  if (/^array/.test(kind)) return { de: "Hier gehört eine Liste von Einträgen hin.", en: "A list of entries belongs here." };
  if (/component object/.test(kind)) return { de: "Hier gehört ein Baustein hin.", en: "A component belongs here." };
  if (/latitude/.test(kind)) return { de: "Hier gehört ein Ort (Breiten- und Längengrad) hin.", en: "A place (latitude and longitude) belongs here." };
  if (/date/.test(kind)) return { de: "Hier gehört ein Datum mit Uhrzeit hin.", en: "A date and time belong here." };
  if (/number/.test(kind)) return { de: "Hier gehört eine Zahl hin.", en: "A number belongs here." };
  if (/boolean/.test(kind)) return { de: "Hier gehört Ja oder Nein hin.", en: "Yes or no belongs here." };
  if (/rich text/.test(kind)) return { de: "Hier gehört formatierter Text hin.", en: "Formatted text belongs here." };
  return { de: "Hier gehört ein Text hin.", en: "A text belongs here." };
}

/** One store message in the editor's language; unknown ones unchanged. */
export function storeMessage(message: string, language: Language): string {
  for (const [pattern, say] of MESSAGES) {
    const match = pattern.exec(message.trim());
    if (match) return say(match)[language];
  }
  return message;
}

/**
 * A store message with its place (`name.iv: Field is required.`, `[2].label: …`): the place as the
 * admin names it (`field` → its label, list entries counted from 1, as the store counts them), the message translated.
 */
export function storeDetail(detail: string, language: Language): string {
  const match = /^([^:]*):\s*(.*)$/.exec(detail);
  if (!match) return storeMessage(detail, language);
  const entry = language === "de" ? "Eintrag" : "entry";
  const place = match[1]!
    .replace(/\[(\d+)\]/g, (_, i: string) => `.${entry} ${Number(i)}`)
    .split(".")
    .map((part) => part.trim())
    .filter((part) => part && part !== "iv")
    .join(" › ");
  return `${place ? `${place}: ` : ""}${storeMessage(match[2]!, language)}`;
}
