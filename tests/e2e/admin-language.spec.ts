import { expect, test, type Page } from "./fixtures";
import { ADMIN_SCREENS, signIn } from "./admin-helpers";
import { waitForHydration } from "./helpers";

/**
 * Every admin screen in both admin languages (issue 22): the German admin holds no English words of
 * an interface, the English admin no German ones. Only the admin's own words are read: content
 * (what editors wrote: titles, names, texts, input values) is marked `data-content` on the screens
 * or sits in form inputs, and is left out.
 */

/** Words of an English interface that never belong in the German one. */
const ENGLISH_UI_WORDS =
  /(?<![\p{L}-])(?:Save|Delete|Cancel|Edit|Search|Error|[Ff]ailed|[Rr]equired|Unknown|Unsupported|Sign out|Settings|Upload|Published|Draft|Changed|Invalid|Not found|Next|Previous|Back|Apply|Reset|Yes|No|Items?|Entries|Collections?|Practitioners?|Appointments?|Visible|Languages?|Pages?|Users?|Account|Password|Email|Title|Description|Created|Modified|Booked|Start|Duration|Field|Value|Show|Hide|New|All|Actions?|Preview|Tools|Folders?|Files?|Media|Content|Role|State|Who|When|and|the|with|of|for|is|not)(?![\p{L}-])/u;

/** Words of a German interface that never belong in the English one. */
const GERMAN_UI_WORDS =
  /(?<![\p{L}-])(?:Speichern|Löschen|Abbrechen|Zurück|Weiter|Seiten?|Veröffentlicht|Entwurf|Geändert|Sichtbar|Sprachen?|Behandelnde(?::r)?|Bearbeiten|Suche|Suchen|Fehler|Einträge|Eintrag|Sammlungen?|Termine?|Gebucht|Beginn|Dauer|Abmelden|Anmelden|Einstellungen|Hochladen|Alle|Ja|Nein|Zurücksetzen|Anwenden|Beschreibung|Ort|Straße|Benutzer(?:innen)?|Konto|Passwort|Farben?|Schriften|Bilder?|Neue[rs]?|Keine?|Akkordeon|Fließtext|Abschnitt|Spalten|Karte|Handlungsaufforderung|Hintergrundfarbe|Überschrift|Praxisstandort|Fachgebiet|Beschriftung|Reihenfolge|Standardsprache|Hauptfarbe|Verwaltung|Registrierungen?|Postausgang|Protokoll|Aktionen?|Zustand|Rolle|Vorschau|Werkzeuge|Ordner|Medien|Dateien?|Inhalte?|Hochgeladen|Wer|Wann|und|oder|der|das|mit|für|nicht|ist|wird|werden|zu|auf|im|aus|bei|nach|über)(?![\p{L}-])/u;

/** Words for whoever builds the site, in no admin language: time zones and standards by name. */
const TECHNICAL_WORDS = /(?<![\p{L}-])(?:UTC|ISO-?[0-9]+|Europe\/Berlin)(?![\p{L}-])/u;

const SCREENS: string[] = [...ADMIN_SCREENS];

/** The paths of the links in `main` on `from` that match `pattern`, in order. */
async function links(page: Page, from: string, pattern: RegExp): Promise<string[]> {
  await page.goto(from);
  const hrefs = await page.locator("main a[href]").evaluateAll((as) => as.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  return [...new Set(hrefs.filter((h) => pattern.test(h)))];
}

async function firstLink(page: Page, from: string, pattern: RegExp): Promise<string> {
  const [found] = await links(page, from, pattern);
  expect(found, `a link matching ${pattern} on ${from}`).toBeTruthy();
  return found!;
}

/** Every screen to read: the fixed ones, every collection's list, one item of each, one page, one block. */
async function allScreens(page: Page): Promise<string[]> {
  const screens = [...SCREENS];
  screens.push(await firstLink(page, "/manage/pages", /^\/manage\/pages\/[^/]+$/));
  screens.push(...(await links(page, "/manage/blocks", /^\/manage\/blocks\/[^/]+$/)));
  for (const collection of await links(page, "/manage/content", /^\/manage\/content\/[^/]+$/)) {
    screens.push(collection);
    const [item] = await links(page, collection, /^\/manage\/content\/[^/]+\/(?!new$)[^/]+$/);
    if (item) screens.push(item);
    screens.push(`${collection}/new`);
  }
  for (const needed of ["gm-content-practitioners/", "core-pages/", "core-global-settings/", "gm-appointments/"]) {
    expect(screens.some((s) => s.includes(needed) && !s.endsWith("/new")), `an item of ${needed}`).toBe(true);
  }
  return screens;
}

/** The admin's own words on the page (headings, labels, buttons, messages, hints, names read out). */
async function interfaceText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const skip = "[data-content], [data-content-list] tbody, script, style, pre, code, textarea, input, [hidden], [aria-hidden=true]";
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest(skip) || !node.textContent?.trim()) continue;
      texts.push(node.textContent.trim());
    }
    // Names read out often name content too ("Öffnen: <subject>", "Löschen: <colour>"): the content
    // shown on the page (marked, or in an input) is taken out of them first.
    const content = [
      ...[...document.body.querySelectorAll<HTMLElement>("[data-content], [data-content-list] tbody td")].map((el) => el.innerText.trim()),
      ...[...document.body.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>("input:not([type=hidden]), textarea")].map((el) => el.value.trim()),
    ]
      .filter((t) => t.length > 1)
      .sort((a, b) => b.length - a.length);
    for (const el of document.body.querySelectorAll("[aria-label], [placeholder], [title]")) {
      if (el.closest("[data-content]")) continue;
      for (const name of ["aria-label", "placeholder", "title"]) {
        let value = el.getAttribute(name) ?? "";
        for (const c of content) value = value.split(c).join(" ");
        if (value.trim()) texts.push(value);
      }
    }
    return texts;
  });
}

async function setLanguage(page: Page, language: "de" | "en"): Promise<void> {
  await page.goto("/manage/account");
  await waitForHydration(page);
  await page.locator("#admin-language").selectOption(language);
  await page.getByRole("button", { name: /^(Sprache speichern|Save language)$/ }).click();
  await expect(page.locator("[data-save-result=ok]")).toHaveText(language === "de" ? "Sprache gespeichert." : "Language saved.");
}

/** Names of places that read as the other language's words in both (a country list holds them). */
const PLACE_NAMES = /\bIsle of Man\b/g;

async function wrongWords(page: Page, screens: string[], words: RegExp): Promise<string[]> {
  const problems: string[] = [];
  for (const path of screens) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await waitForHydration(page);
    const found = new Map<string, string>();
    for (const text of (await interfaceText(page)).map((t) => t.replace(PLACE_NAMES, " "))) {
      for (const pattern of [words, TECHNICAL_WORDS]) {
        for (const m of text.matchAll(new RegExp(pattern.source, `g${pattern.flags}`))) if (!found.has(m[0])) found.set(m[0], text.slice(0, 100));
      }
    }
    if (found.size) problems.push(`${path}\n${[...found].map(([word, text]) => `    ${word}: “${text}”`).join("\n")}`);
  }
  return problems;
}

test("every admin screen speaks the admin's language: no English in German, no German in English", async ({ page }) => {
  test.setTimeout(300_000);
  await signIn(page);
  const screens = await allScreens(page);
  const practitioner = screens.find((s) => /^\/manage\/content\/gm-content-practitioners\/(?!new$)/.test(s))!;
  // The reading itself works: the form's own words are found, in the language in use.
  const labels = async () => (await page.goto(practitioner), (await interfaceText(page)).join(" | "));
  expect(await labels()).toMatch(/Sichtbar.*Praxisstandort.*Sprachen.*Türkisch/);
  const german = await wrongWords(page, screens, ENGLISH_UI_WORDS);
  await setLanguage(page, "en");
  let english: string[];
  try {
    expect(await labels()).toMatch(/Visible.*Practice location.*Languages.*Turkish/);
    english = await wrongWords(page, screens, GERMAN_UI_WORDS);
  } finally {
    // The other specs share this store and sign in as the same admin: leave it German.
    await setLanguage(page, "de");
  }
  const problems = [...german.map((p) => `German admin, English words: ${p}`), ...english.map((p) => `English admin, German words: ${p}`)];
  expect(problems.join("\n\n"), "words of the other language").toBe("");
});
