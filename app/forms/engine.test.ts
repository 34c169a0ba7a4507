import * as rules from "@formkit/rules";
import vm from "node:vm";
import v8 from "node:v8";
import { describe, expect, it, vi } from "vitest";
import { MAX_FIELD_CHARS, type FieldType, type FormDefinition, type FormField } from "./definition";
import { fieldProps, validateSubmission, withoutDebounce, type FormLanguage } from "./engine";

/**
 * The server's check of a submission (`validateSubmission`), in both languages, through FormKit's
 * real rules and our locale. Labels are written lower-case on purpose: every message must
 * capitalise them (spec §8).
 */

const LANGUAGES: FormLanguage[] = ["de", "en"];
const form = (fields: FormField[]): FormDefinition => ({ id: "probe", fields });
const check = (fields: FormField[], data: Record<string, unknown>, language: FormLanguage = "de") => validateSubmission(form(fields), data, language);

interface RuleCase {
  rule: string;
  fields: FormField[];
  /** The field whose message is checked. */
  target: string;
  pass: Record<string, unknown>;
  fail: Record<string, unknown>;
  de: string;
  en: string;
}

/** A one-field form: field `vorname`, label `vorname`, the given rules. */
const one = (rule: string, validation: string, pass: unknown, fail: unknown, de: string, en: string, type: FieldType = "text"): RuleCase => ({
  rule,
  fields: [{ name: "vorname", type, label: "vorname", validation }],
  target: "vorname",
  pass: { vorname: pass },
  fail: { vorname: fail },
  de,
  en,
});

const CASES: RuleCase[] = [
  one("accepted", "accepted", true, false, "Bitte vorname akzeptieren.", "Please accept the vorname.", "checkbox"),
  one("alpha", "alpha", "Jürgen", "abc1", "Vorname darf nur Buchstaben enthalten.", "Vorname can only contain alphabetical characters."),
  one("alpha_spaces", "alpha_spaces", "Anna Lena", "ab 1", "Vorname darf nur Buchstaben und Leerzeichen enthalten.", "Vorname can only contain letters and spaces."),
  one("alphanumeric", "alphanumeric", "abc123", "ab-1", "Vorname darf nur Buchstaben und Zahlen enthalten.", "Vorname can only contain letters and numbers."),
  one("between", "between:1,10", "5", "42", "Vorname muss zwischen 1 und 10 sein.", "Vorname must be between 1 and 10."),
  {
    rule: "confirm",
    fields: [
      { name: "password", type: "text", label: "passwort", validation: "required" },
      { name: "password_confirm", type: "text", label: "passwort bestätigen", validation: "confirm" },
    ],
    target: "password_confirm",
    pass: { password: "geheim", password_confirm: "geheim" },
    fail: { password: "geheim", password_confirm: "geheim2" },
    de: "Passwort bestätigen stimmt nicht überein.",
    en: "Passwort bestätigen does not match.",
  },
  one("contains_alpha", "contains_alpha", "12a", "123", "Vorname muss alphabetische Zeichen enthalten.", "Vorname must contain alphabetical characters."),
  one("contains_alpha_spaces", "contains_alpha_spaces", "12 3", "123", "Vorname muss Buchstaben oder Leerzeichen enthalten.", "Vorname must contain letters or spaces."),
  one("contains_alphanumeric", "contains_alphanumeric", "-a-", "---", "Vorname muss Buchstaben oder Zahlen enthalten.", "Vorname must contain letters or numbers."),
  one("contains_lowercase", "contains_lowercase", "ABc", "ABC", "Vorname muss Kleinbuchstaben enthalten.", "Vorname must contain a lowercase letter."),
  one("contains_numeric", "contains_numeric", "abc1", "abc", "Vorname muss Zahlen enthalten.", "Vorname must contain numbers."),
  one("contains_symbol", "contains_symbol", "abc!", "abc", "Vorname muss ein Symbol enthalten.", "Vorname must contain a symbol."),
  one("contains_uppercase", "contains_uppercase", "abC", "abc", "Vorname muss Großbuchstaben enthalten.", "Vorname must contain an uppercase letter."),
  one("date_after", "date_after:2030-01-01", "2030-01-02", "2029-12-31", "Vorname muss nach dem 01.01.2030 liegen.", "Vorname must be after 1 Jan 2030.", "date"),
  {
    rule: "date_after_node",
    fields: [
      { name: "start", type: "date", label: "beginn" },
      { name: "ende", type: "date", label: "ende", validation: "date_after_node:start" },
    ],
    target: "ende",
    pass: { start: "2030-01-10", ende: "2030-01-11" },
    fail: { start: "2030-01-10", ende: "2030-01-05" },
    // The other field's label is used as written (mid-sentence), like every other label there.
    de: "Ende muss nach beginn liegen.",
    en: "Ende must be after beginn.",
  },
  one(
    "date_after_or_equal",
    "date_after_or_equal:2030-01-01",
    "2030-01-01",
    "2029-12-31",
    "Vorname darf nicht vor dem 01.01.2030 liegen.",
    "Vorname must not be before 1 Jan 2030.",
    "date",
  ),
  one("date_before", "date_before:2030-01-01", "2029-12-31", "2030-01-02", "Vorname muss vor dem 01.01.2030 liegen.", "Vorname must be before 1 Jan 2030.", "date"),
  {
    rule: "date_before_node",
    fields: [
      { name: "start", type: "date", label: "beginn" },
      { name: "ende", type: "date", label: "ende", validation: "date_before_node:start" },
    ],
    target: "ende",
    pass: { start: "2030-01-10", ende: "2030-01-05" },
    fail: { start: "2030-01-10", ende: "2030-01-15" },
    de: "Ende muss vor beginn liegen.",
    en: "Ende must be before beginn.",
  },
  one(
    "date_before_or_equal",
    "date_before_or_equal:2030-01-01",
    "2030-01-01",
    "2030-01-02",
    "Vorname darf nicht nach dem 01.01.2030 liegen.",
    "Vorname must not be after 1 Jan 2030.",
    "date",
  ),
  one(
    "date_between",
    "date_between:2030-01-01,2030-12-31",
    "2030-06-01",
    "2031-01-01",
    "Vorname muss zwischen dem 01.01.2030 und dem 31.12.2030 liegen.",
    "Vorname must be between 1 Jan 2030 and 31 Dec 2030.",
    "date",
  ),
  one(
    "date_format",
    "date_format:DD.MM.YYYY",
    "01.01.2030",
    "2030-01-01",
    "Vorname ist kein gültiges Datum im Format DD.MM.YYYY.",
    "Vorname is not a valid date, please use the format DD.MM.YYYY.",
  ),
  one("email", "email", "anna@example.de", "foo@", "E-Mail Adresse ist ungültig.", "Please enter a valid email address.", "email"),
  one("ends_with", "ends_with:.de,.at", "praxis.at", "praxis.com", "Vorname endet nicht mit .de oder .at.", "Vorname doesn’t end with .de or .at."),
  one("is", "is:a,b", "b", "c", "Vorname enthält einen ungültigen Wert.", "Vorname is not an allowed value."),
  one("length", "length:3,10", "Anna", "Al", "Vorname muss zwischen 3 und 10 Zeichen enthalten.", "Vorname must be between 3 and 10 characters."),
  one("lowercase", "lowercase", "abc", "Abc", "Vorname kann nur Kleinbuchstaben enthalten.", "Vorname can only contain lowercase letters."),
  one("matches", "matches:/^[0-9]+$/", "123", "12a", "Vorname enthält einen ungültigen Wert.", "Vorname is not an allowed value."),
  one("max", "max:5", "5", "9", "Vorname darf maximal 5 sein.", "Vorname must be no more than 5."),
  one("min", "min:5", "5", "3", "Vorname muss mindestens 5 sein.", "Vorname must be at least 5."),
  one("not", "not:admin", "anna", "admin", "„admin“ ist kein gültiger Wert für vorname.", "“admin” is not an allowed vorname."),
  one("number", "number", "42", "abc", "Vorname muss eine Zahl sein.", "Vorname must be a number."),
  {
    rule: "require_one",
    // Capitalised labels here: see the `it.fails` below for a lower-case first label.
    fields: [
      { name: "vorname", type: "text", label: "Vorname", validation: "require_one:telefon" },
      { name: "telefon", type: "tel", label: "Telefon" },
    ],
    target: "vorname",
    pass: { vorname: "", telefon: "030 123456" },
    fail: { vorname: "", telefon: "" },
    de: "Vorname oder Telefon ist erforderlich.",
    en: "Vorname or Telefon is required.",
  },
  one("required", "required", "Anna", "", "Vorname ist erforderlich.", "Vorname is required."),
  one("starts_with", "starts_with:abc,def", "defg", "xyz", "Vorname beginnt nicht mit abc oder def.", "Vorname doesn’t start with abc or def."),
  one("symbol", "symbol", "!", "abc", "Vorname muss ein Symbol sein.", "Vorname must be a symbol."),
  one("uppercase", "uppercase", "ABC", "Abc", "Vorname kann nur Großbuchstaben enthalten.", "Vorname can only contain uppercase letters."),
  one("url", "url", "https://example.com/praxis", "example.com", "Bitte geben Sie eine gültige URL ein.", "Please enter a valid URL.", "url"),
];

describe("every rule of the library, through validateSubmission", () => {
  it("covers each rule FormKit ships, once", () => {
    const covered = CASES.map((c) => c.rule);
    expect(new Set(covered).size).toBe(covered.length);
    expect([...covered].sort()).toEqual(Object.keys(rules).sort());
    expect(covered).toHaveLength(37);
  });

  describe.each(CASES)("$rule", (c) => {
    it.each(LANGUAGES)("passes a valid value (%s)", async (language) => {
      const result = await check(c.fields, c.pass, language);
      expect(result.errors).toEqual({});
      expect(result.valid).toBe(true);
    });

    it("refuses an invalid value with the exact German text", async () => {
      const result = await check(c.fields, c.fail, "de");
      expect(result.valid).toBe(false);
      expect(result.errors).toEqual({ [c.target]: [c.de] });
    });

    it("refuses an invalid value with the exact English text", async () => {
      const result = await check(c.fields, c.fail, "en");
      expect(result.valid).toBe(false);
      expect(result.errors).toEqual({ [c.target]: [c.en] });
    });
  });

  it("never answers with FormKit's fallback, never says “or” in German, writes dates the local way", async () => {
    for (const c of CASES) {
      for (const language of LANGUAGES) {
        const [message] = (await check(c.fields, c.fail, language)).errors[c.target] ?? [];
        expect(message, `${c.rule} (${language})`).toBeTruthy();
        expect(message).not.toBe("This field is not valid.");
        expect(message).not.toMatch(/Dieses Feld|configured incorrectly/);
        if (language === "de") {
          expect(message, c.rule).not.toMatch(/ or /);
          expect(message, c.rule).not.toMatch(/Jan|Dec|2030-|\/2030/);
        } else {
          expect(message, c.rule).not.toMatch(/\d\d\.\d\d\.\d{4}|[A-Z][a-z]{2} \d{1,2},|2030-/);
        }
      }
    }
  });

  it("lists three alternatives with “oder” in German, “or” in English", async () => {
    const fields: FormField[] = [{ name: "code", type: "text", label: "code", validation: "starts_with:abc,def,ghi" }];
    expect((await check(fields, { code: "xyz" }, "de")).errors.code?.[0]).toMatch(/^Code beginnt nicht mit abc, def,? oder ghi\.$/);
    expect((await check(fields, { code: "xyz" }, "en")).errors.code).toEqual(["Code doesn’t start with abc, def, or ghi."]);
  });

  // BUG (reported): German lists get FormKit's English serial comma: "abc, def, oder ghi.".
  it("writes German lists of three without a comma before “oder”", async () => {
    const fields: FormField[] = [{ name: "code", type: "text", label: "code", validation: "ends_with:.de,.at,.ch" }];
    expect((await check(fields, { code: "x.com" }, "de")).errors.code).toEqual(["Code endet nicht mit .de, .at oder .ch."]);
  });

  // BUG (reported): require_one puts the label first without capitalising it (§8: the label is capitalised).
  it("capitalises a lower-case label at the start of the require_one message", async () => {
    const fields: FormField[] = [
      { name: "vorname", type: "text", label: "vorname", validation: "require_one:telefon" },
      { name: "telefon", type: "tel", label: "telefon" },
    ];
    expect((await check(fields, {}, "de")).errors.vorname).toEqual(["Vorname oder telefon ist erforderlich."]);
  });

  it("date rules without an argument compare with today", async () => {
    const past: FormField[] = [{ name: "termin", type: "date", label: "termin", validation: "date_after" }];
    expect((await check(past, { termin: "2000-01-01" }, "de")).errors).toEqual({ termin: ["Termin muss in der Zukunft liegen."] });
    expect((await check(past, { termin: "2000-01-01" }, "en")).errors).toEqual({ termin: ["Termin must be in the future."] });
    const future: FormField[] = [{ name: "termin", type: "date", label: "termin", validation: "date_before" }];
    expect((await check(future, { termin: "2999-01-01" }, "de")).errors).toEqual({ termin: ["Termin muss in der Vergangenheit liegen."] });
    expect((await check(future, { termin: "2999-01-01" }, "en")).errors).toEqual({ termin: ["Termin must be in the past."] });
  });

  it("url accepts http and https only", async () => {
    const fields: FormField[] = [{ name: "website", type: "url", label: "website", validation: "url" }];
    expect((await check(fields, { website: "http://praxis.example" })).valid).toBe(true);
    for (const bad of ["ftp://praxis.example", "javascript:alert(1)", "praxis.example"])
      expect((await check(fields, { website: bad })).errors, bad).toEqual({ website: ["Bitte geben Sie eine gültige URL ein."] });
  });
});

describe("the §8 texts, exactly", () => {
  it.each([
    ["required", "required", "", "Vorname ist erforderlich.", "Vorname is required."],
    ["email", "email", "foo@", "E-Mail Adresse ist ungültig.", "Please enter a valid email address."],
    ["number", "number", "abc", "Vorname muss eine Zahl sein.", "Vorname must be a number."],
    ["url", "url", "example.com", "Bitte geben Sie eine gültige URL ein.", "Please enter a valid URL."],
  ])("%s", async (_rule, validation, value, de, en) => {
    const fields: FormField[] = [{ name: "vorname", type: "text", label: "vorname", validation }];
    expect((await check(fields, { vorname: value }, "de")).errors.vorname).toEqual([de]);
    expect((await check(fields, { vorname: value }, "en")).errors.vorname).toEqual([en]);
  });

  it("confirm", async () => {
    const fields: FormField[] = [
      { name: "password", type: "text", label: "Passwort" },
      { name: "password_confirm", type: "text", label: "passwort wiederholen", validation: "required|confirm" },
    ];
    expect((await check(fields, { password: "a", password_confirm: "b" }, "de")).errors).toEqual({ password_confirm: ["Passwort wiederholen stimmt nicht überein."] });
  });

  it("confirm on the first field compares with the _confirm field", async () => {
    const fields: FormField[] = [
      { name: "password", type: "text", label: "passwort", validation: "confirm" },
      { name: "password_confirm", type: "text", label: "Passwort wiederholen" },
    ];
    expect((await check(fields, { password: "geheim", password_confirm: "geheim" })).valid).toBe(true);
    expect((await check(fields, { password: "geheim", password_confirm: "x" }, "en")).errors).toEqual({ password: ["Passwort does not match."] });
  });

  // §5: confirm equals the field with a _confirm suffix *or prefix* (FormKit's own rule knows only the suffix).
  it("confirm with a confirm_ prefix compares with the field without it", async () => {
    const fields: FormField[] = [
      { name: "password", type: "text", label: "Passwort" },
      { name: "confirm_password", type: "text", label: "Passwort wiederholen", validation: "confirm" },
    ];
    expect((await check(fields, { password: "geheim", confirm_password: "geheim" })).valid).toBe(true);
    expect((await check(fields, { password: "geheim", confirm_password: "geheimer" })).errors).toEqual({ confirm_password: ["Passwort wiederholen stimmt nicht überein."] });
  });

  it("a field's own error text replaces every rule's text", async () => {
    const fields: FormField[] = [{ name: "email", type: "email", label: "E-Mail", validation: "required|email", errorMessage: "Bitte Ihre Adresse prüfen." }];
    expect((await check(fields, { email: "" })).errors).toEqual({ email: ["Bitte Ihre Adresse prüfen."] });
    expect((await check(fields, { email: "foo@" })).errors).toEqual({ email: ["Bitte Ihre Adresse prüfen."] });
    expect((await check(fields, { email: "a@b.de" })).valid).toBe(true);
  });
});

describe("modifiers", () => {
  it("+ runs a rule on an empty value; without it the rule skips empty values", async () => {
    const plain: FormField[] = [{ name: "alter", type: "text", label: "alter", validation: "min:5" }];
    const plus: FormField[] = [{ name: "alter", type: "text", label: "alter", validation: "+min:5" }];
    expect(await check(plain, { alter: "" })).toMatchObject({ valid: true, errors: {} });
    expect(await check(plus, { alter: "" })).toMatchObject({ valid: false, errors: { alter: ["Alter muss mindestens 5 sein."] } });
    expect((await check([{ name: "x", type: "text", label: "x", validation: "+length:1" }], { x: "" }, "en")).errors).toEqual({
      x: ["X must be at least one character."],
    });
  });

  it("? makes a rule non-blocking: the form is valid and the field lists nothing", async () => {
    const soft: FormField[] = [
      { name: "hinweis", type: "text", label: "hinweis", validation: "?length:10" },
      { name: "name", type: "text", label: "name", validation: "required" },
    ];
    const hard: FormField[] = [soft[0]!, soft[1]!].map((f) => (f.name === "hinweis" ? { ...f, validation: "length:10" } : f));
    expect(await check(soft, { hinweis: "kurz", name: "Anna" })).toMatchObject({ valid: true, errors: {} });
    expect(await check(hard, { hinweis: "kurz", name: "Anna" })).toMatchObject({ valid: false, errors: { hinweis: ["Hinweis muss mindestens 10 Zeichen enthalten."] } });
    // A non-blocking failure does not hide another field's blocking one.
    expect(await check(soft, { hinweis: "kurz", name: "" })).toMatchObject({ valid: false, errors: { name: ["Name ist erforderlich."] } });
    expect(await check([{ name: "hinweis", type: "text", label: "hinweis", validation: "?required" }], {})).toMatchObject({ valid: true, errors: {} });
  });

  it("stops at the first failing rule by default; * forces a rule to run anyway", async () => {
    const plain: FormField[] = [{ name: "code", type: "text", label: "code", validation: "length:10|starts_with:abc" }];
    const forced: FormField[] = [{ name: "code", type: "text", label: "code", validation: "length:10|*starts_with:abc" }];
    expect((await check(plain, { code: "xyz" })).errors).toEqual({ code: ["Code muss mindestens 10 Zeichen enthalten."] });
    expect((await check(forced, { code: "xyz" })).errors).toEqual({ code: ["Code muss mindestens 10 Zeichen enthalten.", "Code beginnt nicht mit abc."] });
    expect((await check(forced, { code: "xyz" }, "en")).errors).toEqual({ code: ["Code must be greater than or equal to 10 characters.", "Code doesn’t start with abc."] });
    expect((await check(plain, { code: "" })).valid).toBe(true);
  });

  it("debounce hints are removed for the server, all others kept", () => {
    expect(withoutDebounce("required|(200)starts_with:abc")).toBe("required|starts_with:abc");
    expect(withoutDebounce("(2000)starts_with:abc|*(20)+length:2|?(5)email")).toBe("starts_with:abc|*+length:2|?email");
    const field: FormField = { name: "code", type: "text", label: "Code", validation: "required|(500)starts_with:abc" };
    expect(fieldProps(field, true).validation).toBe("required|starts_with:abc");
    expect(fieldProps(field).validation).toBe("required|(500)starts_with:abc");
  });

  it("a debounced rule runs at once on the server, and still refuses", async () => {
    const fields: FormField[] = [{ name: "code", type: "text", label: "code", validation: "required|(2000)starts_with:abc" }];
    const started = performance.now();
    const refused = await check(fields, { code: "xyz" });
    const accepted = await check(fields, { code: "abc1" });
    const elapsed = performance.now() - started;
    expect(refused.errors).toEqual({ code: ["Code beginnt nicht mit abc."] });
    expect(accepted.valid).toBe(true);
    expect(elapsed).toBeLessThan(1000);
  });

  // BUG (reported): withoutDebounce removes "(digits)" anywhere, also inside a matches pattern:
  // `matches:/^(49)?[0-9]+$/` becomes `/^?[0-9]+$/` on the server, and FormKit throws on it.
  it("keeps a digit group inside a matches pattern on the server", async () => {
    expect(withoutDebounce("matches:/^(49)?[0-9]+$/")).toBe("matches:/^(49)?[0-9]+$/");
    const fields: FormField[] = [{ name: "tel", type: "tel", label: "telefon", validation: "matches:/^(49)?[0-9]+$/" }];
    await expect(check(fields, { tel: "49301234" })).resolves.toMatchObject({ valid: true });
  });
});

describe("type checks before the rules", () => {
  const text: FormField[] = [{ name: "vorname", type: "text", label: "Vorname", validation: "required" }];

  it.each([
    ["an object", { a: 1 }],
    ["an array", ["Anna"]],
    ["a number", 42],
    ["a boolean", true],
  ])("refuses %s for a text field with a message, without throwing", async (_what, value) => {
    const de = await check(text, { vorname: value }, "de");
    expect(de).toEqual({ valid: false, errors: { vorname: ["Bitte geben Sie einen Text ein."] }, values: {} });
    expect((await check(text, { vorname: value }, "en")).errors).toEqual({ vorname: ["Please enter text."] });
  });

  it(`refuses text longer than ${MAX_FIELD_CHARS} characters, whatever the rules say`, async () => {
    const free: FormField[] = [{ name: "text", type: "textarea", label: "Text" }];
    expect((await check(free, { text: "a".repeat(MAX_FIELD_CHARS) })).valid).toBe(true);
    expect((await check(free, { text: "a".repeat(MAX_FIELD_CHARS + 1) }, "de")).errors).toEqual({ text: ["Bitte höchstens 10000 Zeichen eingeben."] });
    expect((await check(free, { text: "a".repeat(MAX_FIELD_CHARS + 1) }, "en")).errors).toEqual({ text: ["Please enter at most 10000 characters."] });
  });

  it("refuses NUL characters", async () => {
    expect((await check(text, { vorname: "An\u0000na" })).errors).toEqual({ vorname: ["Bitte geben Sie einen Text ein."] });
  });

  it("refuses a select or radio value that is not among the options", async () => {
    const options = [
      { value: "de", label: "Deutsch" },
      { value: "en", label: "English" },
    ];
    for (const type of ["select", "radio"] as const) {
      const fields: FormField[] = [{ name: "sprache", type, label: "Sprache", options }];
      expect(await check(fields, { sprache: "en" })).toEqual({ valid: true, errors: {}, values: { sprache: "en" } });
      expect(await check(fields, { sprache: "" })).toMatchObject({ valid: true });
      expect((await check(fields, { sprache: "fr" }, "de")).errors).toEqual({ sprache: ["Bitte wählen Sie einen der angebotenen Werte."] });
      expect((await check(fields, { sprache: "EN" }, "en")).errors).toEqual({ sprache: ["Please choose one of the offered values."] });
      expect((await check(fields, { sprache: "fr" })).values).toEqual({});
    }
  });

  it("ignores fields it does not define", async () => {
    const data = JSON.parse('{"vorname":"Anna","isAdmin":true,"__proto__":{"polluted":1},"constructor":"x"}') as Record<string, unknown>;
    const result = await check(text, data);
    expect(result).toEqual({ valid: true, errors: {}, values: { vorname: "Anna" } });
    expect(Object.keys(result.values)).toEqual(["vorname"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // Inherited properties are not the caller's data.
    const inherited = Object.create({ vorname: "Anna" }) as Record<string, unknown>;
    expect((await check(text, inherited)).errors).toEqual({ vorname: ["Vorname ist erforderlich."] });
  });

  it("trims the values it returns", async () => {
    const fields: FormField[] = [
      { name: "vorname", type: "text", label: "Vorname", validation: "required:trim" },
      { name: "notiz", type: "textarea", label: "Notiz" },
    ];
    expect(await check(fields, { vorname: "  Anna \n", notiz: "\tHallo  " })).toEqual({ valid: true, errors: {}, values: { vorname: "Anna", notiz: "Hallo" } });
    expect((await check(fields, { vorname: "   " })).errors).toEqual({ vorname: ["Vorname ist erforderlich."] });
  });

  // BUG (reported): rules see the untrimmed value, the caller gets the trimmed one, so a stored value can break its rules.
  it("validates the trimmed value it returns", async () => {
    const fields: FormField[] = [{ name: "code", type: "text", label: "Code", validation: "length:3" }];
    const result = await check(fields, { code: "a    " });
    expect(result.values).toEqual({ code: "a" });
    expect(result.valid).toBe(false);
  });

  it("reads checkboxes as booleans", async () => {
    const fields: FormField[] = [{ name: "ok", type: "checkbox", label: "Einverständnis" }];
    for (const [given, value] of [
      ["on", true],
      [true, true],
      ["true", true],
      [false, false],
      ["false", false],
      [undefined, false],
      [null, false],
    ] as const)
      expect((await check(fields, given === undefined ? {} : { ok: given })).values, String(given)).toEqual({ ok: value });
    for (const bad of ["yes", 1, {}, ["on"]])
      expect((await check(fields, { ok: bad })).errors, JSON.stringify(bad)).toEqual({ ok: ["Bitte wählen Sie einen der angebotenen Werte."] });
    const consent: FormField[] = [{ name: "ok", type: "checkbox", label: "Datenschutz", validation: "accepted" }];
    expect((await check(consent, { ok: "on" })).valid).toBe(true);
    expect((await check(consent, {})).errors).toEqual({ ok: ["Bitte Datenschutz akzeptieren."] });
  });

  it("takes finite numbers for number fields, as text", async () => {
    const fields: FormField[] = [{ name: "dauer", type: "number", label: "Dauer", validation: "number|between:5,240" }];
    expect(await check(fields, { dauer: 30 })).toEqual({ valid: true, errors: {}, values: { dauer: "30" } });
    expect((await check(fields, { dauer: "300" })).errors).toEqual({ dauer: ["Dauer muss zwischen 5 und 240 sein."] });
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY]) expect((await check(fields, { dauer: bad })).errors).toEqual({ dauer: ["Bitte geben Sie einen Text ein."] });
  });

  it("reports a type problem and other fields' rule messages together", async () => {
    const fields: FormField[] = [
      { name: "vorname", type: "text", label: "Vorname", validation: "required" },
      { name: "email", type: "email", label: "E-Mail", validation: "required|email" },
    ];
    expect(await check(fields, { vorname: ["x"], email: "foo@" })).toEqual({
      valid: false,
      errors: { vorname: ["Bitte geben Sie einen Text ein."], email: ["E-Mail Adresse ist ungültig."] },
      values: { email: "foo@" },
    });
  });
});

describe("checking trees reused between requests", () => {
  it("gives concurrent submissions of one form their own results", async () => {
    const definition = form([
      { name: "vorname", type: "text", label: "vorname", validation: "required:trim|length:2,20" },
      { name: "password", type: "text", label: "passwort", validation: "required" },
      { name: "password_confirm", type: "text", label: "passwort wiederholen", validation: "confirm" },
    ]);
    const inputs = Array.from({ length: 60 }, (_, i) => ({
      vorname: i % 3 === 0 ? "" : `Anna${i}`,
      password: `pw${i}`,
      password_confirm: i % 4 === 0 ? `pw${i + 1}` : `pw${i}`,
    }));
    const results = await Promise.all(inputs.map((data, i) => validateSubmission(definition, data, i % 2 ? "en" : "de")));
    results.forEach((result, i) => {
      const en = i % 2 === 1;
      const expected: Record<string, string[]> = {};
      if (i % 3 === 0) expected.vorname = [en ? "Vorname is required." : "Vorname ist erforderlich."];
      if (i % 4 === 0) expected.password_confirm = [en ? "Passwort wiederholen does not match." : "Passwort wiederholen stimmt nicht überein."];
      expect(result.errors, `submission ${i}`).toEqual(expected);
      expect(result.values.vorname).toBe(inputs[i]!.vorname);
    });
  });

  it("answers the same value the same way, after a different one and after a type problem", async () => {
    const definition = form([{ name: "code", type: "text", label: "code", validation: "required|starts_with:abc" }]);
    const sequence: Array<[unknown, string[] | undefined]> = [
      ["xyz", ["Code beginnt nicht mit abc."]],
      ["xyz", ["Code beginnt nicht mit abc."]],
      ["abc", undefined],
      ["abc", undefined],
      [["abc"], ["Bitte geben Sie einen Text ein."]],
      ["", ["Code ist erforderlich."]],
      ["xyz", ["Code beginnt nicht mit abc."]],
    ];
    for (const [value, messages] of sequence) expect((await validateSubmission(definition, { code: value }, "de")).errors.code, JSON.stringify(value)).toEqual(messages);
  });

  // BUG (reported): a reused tree keeps the last result for an unchanged value, so a rule that
  // compares with today (date_after without an argument) is not re-run when the date has passed.
  it("re-checks a date against today on every submission", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const definition = form([{ name: "termin", type: "date", label: "termin", validation: "date_after" }]);
      vi.setSystemTime(new Date("2030-01-01T12:00:00Z"));
      expect((await validateSubmission(definition, { termin: "2030-06-01" }, "de")).valid).toBe(true);
      vi.setSystemTime(new Date("2031-01-01T12:00:00Z"));
      expect((await validateSubmission(definition, { termin: "2030-06-01" }, "de")).errors).toEqual({ termin: ["Termin muss in der Zukunft liegen."] });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("resources", () => {
  // Many distinct forms in both languages, so checking trees are made and thrown away all along.
  it("2 000 validations of 150 forms leave the heap about where it was", { timeout: 120_000 }, async () => {
    v8.setFlagsFromString("--expose-gc");
    const gc = ((globalThis as { gc?: () => void }).gc ?? vm.runInNewContext("gc")) as () => void;
    const fields: FormField[] = [
      { name: "vorname", type: "text", label: "Vorname", validation: "required:trim|length:2,50" },
      { name: "email", type: "email", label: "E-Mail", validation: "required|email" },
      { name: "alter", type: "number", label: "Alter", validation: "number|between:18,120" },
      { name: "ok", type: "checkbox", label: "Datenschutz", validation: "accepted" },
    ];
    const run = (i: number) =>
      validateSubmission({ id: `form${i % 150}`, fields }, { vorname: i % 2 ? "Anna" : "", email: "a@b.de", alter: "40", ok: true }, i % 3 ? "de" : "en");
    for (let i = 0; i < 300; i++) await run(i); // warm up
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 2000; i++) await run(i);
    gc();
    const growth = process.memoryUsage().heapUsed - before;
    // Destroying a form without its children first leaks ~80 KB per form in FormKit's i18n: > 150 MB here.
    expect(growth).toBeLessThan(20 * 1024 * 1024);
  });
});
