import { date as fkDate, de as fkDe, en as fkEn } from "@formkit/i18n";
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { FormField } from "./definition";
import type { FormLanguage } from "./engine";
import { formLocales, uiText } from "./locale";

/**
 * Our fixes to FormKit's German and English texts (../shared/notes/formkit.md §3). Dates in
 * messages must read the same whatever the process's default locale and time zone are: FormKit's
 * own formatter uses the runtime's default locale, so server and browser would disagree.
 */

interface Probe {
  what: string;
  fields: FormField[];
  data: Record<string, unknown>;
  target: string;
  de: string;
  en: string;
}

const text = (label: string, validation: string): FormField[] => [{ name: "feld", type: "text", label, validation }];
const probe = (what: string, validation: string, value: string, de: string, en: string, label = "termin"): Probe => ({
  what,
  fields: text(label, validation),
  data: { feld: value },
  target: "feld",
  de,
  en,
});

const PROBES: Probe[] = [
  probe("date_after", "date_after:2030-01-01", "2029-12-31", "Termin muss nach dem 01.01.2030 liegen.", "Termin must be after 1 Jan 2030."),
  probe("date_after, no argument", "date_after", "2000-01-01", "Termin muss in der Zukunft liegen.", "Termin must be in the future."),
  probe("date_before", "date_before:2030-01-01", "2030-01-02", "Termin muss vor dem 01.01.2030 liegen.", "Termin must be before 1 Jan 2030."),
  probe("date_before, no argument", "date_before", "2999-01-01", "Termin muss in der Vergangenheit liegen.", "Termin must be in the past."),
  probe(
    "date_between",
    "date_between:2030-01-01,2030-12-31",
    "2031-01-01",
    "Termin muss zwischen dem 01.01.2030 und dem 31.12.2030 liegen.",
    "Termin must be between 1 Jan 2030 and 31 Dec 2030.",
  ),
  probe(
    "date_between, late in the year",
    "date_between:2030-11-09,2030-12-31",
    "2030-01-01",
    "Termin muss zwischen dem 09.11.2030 und dem 31.12.2030 liegen.",
    "Termin must be between 9 Nov 2030 and 31 Dec 2030.",
  ),
  probe("date_after_or_equal", "date_after_or_equal:2030-01-01", "2029-12-31", "Termin darf nicht vor dem 01.01.2030 liegen.", "Termin must not be before 1 Jan 2030."),
  probe("date_after_or_equal, no argument", "date_after_or_equal", "2000-01-01", "Termin darf nicht in der Vergangenheit liegen.", "Termin must not be in the past."),
  probe("date_before_or_equal", "date_before_or_equal:2030-01-01", "2030-01-02", "Termin darf nicht nach dem 01.01.2030 liegen.", "Termin must not be after 1 Jan 2030."),
  probe("date_before_or_equal, no argument", "date_before_or_equal", "2999-01-01", "Termin darf nicht in der Zukunft liegen.", "Termin must not be in the future."),
  {
    what: "date_after_node",
    fields: [
      { name: "start", type: "date", label: "Beginn" },
      { name: "ende", type: "date", label: "ende", validation: "date_after_node:start" },
    ],
    data: { start: "2030-01-10", ende: "2030-01-09" },
    target: "ende",
    de: "Ende muss nach Beginn liegen.",
    en: "Ende must be after Beginn.",
  },
  {
    what: "date_before_node",
    fields: [
      { name: "start", type: "date", label: "Beginn" },
      { name: "ende", type: "date", label: "ende", validation: "date_before_node:start" },
    ],
    data: { start: "2030-01-10", ende: "2030-01-11" },
    target: "ende",
    de: "Ende muss vor Beginn liegen.",
    en: "Ende must be before Beginn.",
  },
  probe("date_format", "date_format:DD.MM.YYYY", "2030-01-01", "Termin ist kein gültiges Datum im Format DD.MM.YYYY.", "Termin is not a valid date, please use the format DD.MM.YYYY."),
  probe("starts_with, two", "starts_with:abc,def", "xyz", "Code beginnt nicht mit abc oder def.", "Code doesn’t start with abc or def.", "code"),
  probe("ends_with, two", "ends_with:.de,.at", "x.com", "Adresse endet nicht mit .de oder .at.", "Adresse doesn’t end with .de or .at.", "adresse"),
  probe("starts_with, one", "starts_with:abc", "xyz", "Code beginnt nicht mit abc.", "Code doesn’t start with abc.", "code"),
  probe("alpha_spaces", "alpha_spaces", "Anna 2", "Vorname darf nur Buchstaben und Leerzeichen enthalten.", "Vorname can only contain letters and spaces.", "vorname"),
  probe("not", "not:admin,root", "root", "„root“ ist kein gültiger Wert für benutzername.", "“root” is not an allowed benutzername.", "benutzername"),
  probe("required (§8)", "required", "", "Vorname ist erforderlich.", "Vorname is required.", "vorname"),
  probe("email (§8)", "email", "foo@", "E-Mail Adresse ist ungültig.", "Please enter a valid email address.", "vorname"),
  probe("number (§8)", "number", "abc", "Vorname muss eine Zahl sein.", "Vorname must be a number.", "vorname"),
  probe("url (§8)", "url", "example.com", "Bitte geben Sie eine gültige URL ein.", "Please enter a valid URL.", "vorname"),
  {
    what: "confirm (§8)",
    fields: [
      { name: "password", type: "text", label: "Passwort" },
      { name: "password_confirm", type: "text", label: "passwort bestätigen", validation: "confirm" },
    ],
    data: { password: "a", password_confirm: "b" },
    target: "password_confirm",
    de: "Passwort bestätigen stimmt nicht überein.",
    en: "Passwort bestätigen does not match.",
  },
];

type Answers = Record<string, Record<FormLanguage, string[] | undefined>>;
type Validate = typeof import("./engine").validateSubmission;

async function answer(validate: Validate): Promise<Answers> {
  const out: Answers = {};
  for (const p of PROBES) {
    const de = await validate({ id: "probe", fields: p.fields }, p.data, "de");
    const en = await validate({ id: "probe", fields: p.fields }, p.data, "en");
    out[p.what] = { de: de.errors[p.target], en: en.errors[p.target] };
  }
  return out;
}

const EXPECTED: Answers = Object.fromEntries(PROBES.map((p) => [p.what, { de: [p.de], en: [p.en] }]));

describe("the fixed texts", () => {
  it("read exactly as intended in this process", async () => {
    const { validateSubmission } = await import("./engine");
    expect(await answer(validateSubmission)).toEqual(EXPECTED);
  });

  it("German never joins with the English “or”", async () => {
    const { validateSubmission } = await import("./engine");
    const answers = await answer(validateSubmission);
    for (const [what, { de }] of Object.entries(answers)) expect(de?.join(" "), what).not.toMatch(/\bor\b/);
  });

  it("the §8 texts and FormKit's other texts are FormKit's own", () => {
    for (const key of ["required", "email", "confirm", "number", "url", "length", "min", "max", "between", "matches", "is"]) {
      expect(formLocales.de.validation[key], `de ${key}`).toBe((fkDe.validation as Record<string, unknown>)[key]);
      expect(formLocales.en.validation[key], `en ${key}`).toBe((fkEn.validation as Record<string, unknown>)[key]);
    }
    expect(formLocales.de.ui).toBe(fkDe.ui);
    expect(formLocales.en.ui).toBe(fkEn.ui);
  });

  it("every rule FormKit has a text for, and the four it lacks, have one in both languages", () => {
    for (const key of ["date_after_or_equal", "date_before_or_equal", "date_after_node", "date_before_node"]) {
      expect(typeof formLocales.de.validation[key], key).toBe("function");
      expect(typeof formLocales.en.validation[key], key).toBe("function");
    }
    for (const key of Object.keys(fkDe.validation)) expect(formLocales.de.validation, key).toHaveProperty(key);
    for (const key of Object.keys(fkEn.validation)) expect(formLocales.en.validation, key).toHaveProperty(key);
  });

  it("UI texts (§8: the incomplete form)", () => {
    expect(uiText("de", "incomplete")).toBe("Entschuldigung, nicht alle Felder wurden korrekt ausgefüllt.");
    expect(uiText("en", "incomplete")).toBe("Sorry, not all fields are filled out correctly.");
    expect(uiText("de", "submit")).toBe("Senden");
    expect(uiText("en", "submit")).toBe("Submit");
    expect(uiText("de", "isLoading")).toBe("Wird geladen...");
    expect(uiText("en", "isLoading")).toBe("Loading...");
  });
});

describe("under another default locale in this process", () => {
  const Original = Intl.DateTimeFormat;

  /** Makes `new Intl.DateTimeFormat()` without a locale use `locale`, as a runtime with that default would. */
  function defaultLocale(locale: string) {
    const Patched = function (locales?: string | string[], options?: Intl.DateTimeFormatOptions) {
      return new Original(locales ?? locale, options);
    } as unknown as typeof Intl.DateTimeFormat;
    Object.assign(Patched, { supportedLocalesOf: Original.supportedLocalesOf });
    Intl.DateTimeFormat = Patched;
  }

  afterAll(() => {
    Intl.DateTimeFormat = Original;
    vi.resetModules();
  });

  it.each([
    ["ja-JP", "2030/01/01"],
    ["fr-FR", "1 janv. 2030"],
    ["de-DE", "01.01.2030"],
    ["en-US", "Jan 1, 2030"],
  ])("%s", async (locale, formkitsOwn) => {
    defaultLocale(locale);
    try {
      vi.resetModules();
      const { validateSubmission } = await import("./engine");
      // The runtime's default really changed: FormKit's own date formatter follows it.
      expect(fkDate("2030-01-01")).toBe(formkitsOwn);
      expect(await answer(validateSubmission)).toEqual(EXPECTED);
    } finally {
      Intl.DateTimeFormat = Original;
    }
  });
});

describe("in processes with other locales and time zones", () => {
  let dir = "";
  let script = "";

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "forms-locale-"));
    script = path.join(dir, "probe.mjs");
    const engine = path.resolve(import.meta.dirname, "engine.ts");
    const result = await build({
      stdin: {
        contents: [
          `import { validateSubmission } from ${JSON.stringify(engine)};`,
          `const probes = ${JSON.stringify(PROBES)};`,
          "const answers = {};",
          "for (const p of probes) {",
          '  const de = await validateSubmission({ id: "probe", fields: p.fields }, p.data, "de");',
          '  const en = await validateSubmission({ id: "probe", fields: p.fields }, p.data, "en");',
          "  answers[p.what] = { de: de.errors[p.target], en: en.errors[p.target] };",
          "}",
          "const locale = Intl.DateTimeFormat().resolvedOptions().locale;",
          "const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;",
          "process.stdout.write(JSON.stringify({ locale, timeZone, answers }));",
        ].join("\n"),
        resolveDir: import.meta.dirname,
        loader: "ts",
      },
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      write: false,
      logLevel: "silent",
      alias: { "~": path.resolve(import.meta.dirname, "..") },
    });
    writeFileSync(script, result.outputFiles[0]!.text);
  }, 60_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ["de_DE.UTF-8", "de-DE", "Europe/Berlin"],
    ["ja_JP.UTF-8", "ja-JP", "Asia/Tokyo"],
    ["fr_FR.UTF-8", "fr-FR", "Pacific/Kiritimati"],
    ["en_US.UTF-8", "en-US", "America/Los_Angeles"],
    ["C", "en-US", "UTC"],
  ])("LC_ALL=%s", (lcAll, locale, timeZone) => {
    const output = execFileSync(process.execPath, [script], {
      env: { ...process.env, LC_ALL: lcAll, LANG: lcAll, TZ: timeZone },
      encoding: "utf8",
      timeout: 30_000,
    });
    const child = JSON.parse(output) as { locale: string; timeZone: string; answers: Answers };
    expect({ locale: child.locale, timeZone: child.timeZone }).toEqual({ locale, timeZone });
    expect(child.answers).toEqual(EXPECTED);
  });
});
