import { describe, expect, it } from "vitest";
import { demoSchemas } from "~/content/seed/schemas";
import type { FieldProperties, FieldType as SchemaFieldType, SchemaField } from "~/content/types";
import { initialValue, type FormField } from "./definition";
import { validateSubmission, type FormLanguage } from "./engine";
import { fieldRules, formFieldsFromSchema, inputType, type FormDictionary } from "./from-schema";

/** The §5 mapping: content schema fields → form fields, and what the generated rules do on the server. */

let nextId = 1;
function sf(name: string, fieldType: SchemaFieldType, props: Omit<FieldProperties, "fieldType"> = {}, extra: Partial<SchemaField> = {}): SchemaField {
  return { fieldId: nextId++, name, partitioning: "invariant", properties: { fieldType, ...props }, ...extra };
}

const only = (field: SchemaField, dictionary?: FormDictionary): FormField => {
  const fields = formFieldsFromSchema([field], dictionary);
  expect(fields).toHaveLength(1);
  return fields[0]!;
};

const check = (fields: FormField[], data: Record<string, unknown>, language: FormLanguage = "de") => validateSubmission({ id: "schema-form", fields }, data, language);

function practitionerFields(): SchemaField[] {
  const schema = demoSchemas.find((s) => s.name === "gm-content-practitioners");
  expect(schema).toBeDefined();
  return schema!.fields as SchemaField[];
}

describe("input types (§5)", () => {
  it.each<[string, SchemaField, FormField["type"]]>([
    ["text by default", sf("city", "String", { editor: "Input" }), "text"],
    ["text without an editor", sf("street", "String"), "text"],
    ["textarea for a TextArea editor", sf("description", "String", { editor: "TextArea" }), "textarea"],
    ["date for a DateTime field", sf("start", "DateTime", { editor: "DateTime" }), "date"],
    ["date for a Date editor", sf("birthday", "DateTime", { editor: "Date" }), "date"],
    ["date for a String with a Date editor", sf("day", "String", { editor: "Date" }), "date"],
    ["email for a field named email", sf("email", "String"), "email"],
    ["email for a field named EMail", sf("EMail", "String"), "email"],
    ["email for a field named Email", sf("Email", "String", { editor: "Input" }), "email"],
    ["number for Number", sf("order", "Number", { editor: "Input" }), "number"],
    ["checkbox for Boolean", sf("isDefault", "Boolean", { editor: "Toggle" }), "checkbox"],
    ["checkbox for a Boolean Checkbox", sf("ok", "Boolean", { editor: "Checkbox" }), "checkbox"],
    ["select for Dropdown", sf("code", "String", { editor: "Dropdown", allowedValues: ["de", "en"] }), "select"],
    ["radio for Radio", sf("salutation", "String", { editor: "Radio", allowedValues: ["Frau", "Herr", "divers"] }), "radio"],
    ["url for a url tag", sf("website", "String", { tags: ["url"] }), "url"],
    ["tel for phone", sf("phone", "String", { tags: ["private"] }), "tel"],
  ])("%s", (_what, field, type) => {
    expect(inputType(field)).toBe(type);
    expect(only(field).type).toBe(type);
  });

  it("email only for the field named email, not for names containing it", () => {
    expect(inputType(sf("emailConsent", "String"))).toBe("text");
    expect(inputType(sf("contactEmail", "String"))).toBe("text");
  });

  // BUG (reported): a Number field with a Dropdown/Radio editor (Squidex's way to pick a number
  // from allowedValues) becomes a number input: the options are not offered as a choice and any
  // number passes the server check.
  it("select for a Number field with a Dropdown editor", async () => {
    const field = only(sf("stars", "Number", { editor: "Dropdown", allowedValues: [1, 2, 3] }));
    expect(field.type).toBe("select");
    expect((await check([field], { stars: "7" })).valid).toBe(false);
  });
});

describe("rules (§5)", () => {
  it.each<[string, SchemaField, string]>([
    ["nothing for a free field", sf("street", "String"), ""],
    ["required:trim for a required field", sf("city", "String", { isRequired: true }), "required:trim"],
    ["accepted for a required Boolean", sf("privacy", "Boolean", { isRequired: true }), "accepted"],
    ["nothing for an optional Boolean", sf("newsletter", "Boolean"), ""],
    ["length:min,max (between) for minLength and maxLength", sf("title", "String", { minLength: 3, maxLength: 10 }), "length:3,10"],
    ["length:min (minimum) for minLength only", sf("title", "String", { minLength: 3 }), "length:3"],
    ["length:0,max (maximum) for maxLength only", sf("title", "String", { maxLength: 70 }), "length:0,70"],
    ["email for a field named email", sf("email", "String"), "email"],
    ["email after required for EMail", sf("EMail", "String", { isRequired: true, maxLength: 254 }), "required:trim|email|length:0,254"],
    ["url for a url tag", sf("website", "String", { tags: ["url"] }), "url"],
    ["number for a Number", sf("order", "Number"), "number"],
    ["between for minValue and maxValue", sf("durationMinutes", "Number", { minValue: 5, maxValue: 240 }), "number|between:5,240"],
    ["min for minValue only", sf("age", "Number", { minValue: 0 }), "number|min:0"],
    ["max for maxValue only", sf("age", "Number", { maxValue: 120 }), "number|max:120"],
    ["no length rule for a Number", sf("age", "Number", { minLength: 1, maxLength: 3, isRequired: true }), "required:trim|number"],
    ["matches for a pattern", sf("zip", "String", { pattern: "^[0-9]{5}$" }), "matches:/^[0-9]{5}$/"],
    // A comma or a pipe would split the rule string: such a pattern is left to the admin area.
    ["no matches for a pattern with a comma", sf("zip", "String", { pattern: "^[0-9]{4,5}$" }), ""],
    ["no matches for a pattern with a pipe", sf("hex", "String", { pattern: "^#([0-9a-f]{3}|[0-9a-f]{6})$", isRequired: true }), "required:trim"],
  ])("%s", (_what, field, rules) => {
    expect(fieldRules(field)).toBe(rules);
    expect(only(field).validation).toBe(rules);
  });

  it("gives the translated between / minimum / maximum messages for text lengths", async () => {
    const between = only(sf("title", "String", { label: "titel", minLength: 3, maxLength: 10 }));
    const minimum = only(sf("title", "String", { label: "titel", minLength: 3 }));
    const maximum = only(sf("title", "String", { label: "titel", maxLength: 5 }));
    const exact = only(sf("title", "String", { label: "titel", minLength: 5, maxLength: 5 }));
    const cases: Array<[FormField, string, string, string]> = [
      [between, "Al", "Titel muss zwischen 3 und 10 Zeichen enthalten.", "Titel must be between 3 and 10 characters."],
      [between, "Alexandra Maria", "Titel muss zwischen 3 und 10 Zeichen enthalten.", "Titel must be between 3 and 10 characters."],
      [minimum, "Al", "Titel muss mindestens 3 Zeichen enthalten.", "Titel must be greater than or equal to 3 characters."],
      [maximum, "Alexa", "", ""],
      [maximum, "Alexandra", "Titel darf maximal 5 Zeichen enthalten.", "Titel must be less than or equal to 5 characters."],
      [exact, "Anna", "Titel sollte 5 Zeichen lang sein.", "Titel should be 5 characters long."],
    ];
    for (const [field, value, de, en] of cases) {
      expect((await check([field], { title: value }, "de")).errors.title, `${field.validation} ${value}`).toEqual(de ? [de] : undefined);
      expect((await check([field], { title: value }, "en")).errors.title, `${field.validation} ${value}`).toEqual(en ? [en] : undefined);
    }
    // Words are not numbers: a length rule never says "must be a number" or compares values.
    expect((await check([between], { title: "Anna" })).valid).toBe(true);
  });

  it("checks numbers by value", async () => {
    const duration = only(sf("durationMinutes", "Number", { label: "Dauer (Minuten)", minValue: 5, maxValue: 240 }));
    expect((await check([duration], { durationMinutes: "30" })).valid).toBe(true);
    expect((await check([duration], { durationMinutes: 30 })).valid).toBe(true);
    expect((await check([duration], { durationMinutes: "300" })).errors).toEqual({ durationMinutes: ["Dauer (Minuten) muss zwischen 5 und 240 sein."] });
    expect((await check([duration], { durationMinutes: "viel" })).errors).toEqual({ durationMinutes: ["Dauer (Minuten) muss eine Zahl sein."] });
    expect((await check([duration], { durationMinutes: "viel" }, "en")).errors).toEqual({ durationMinutes: ["Dauer (Minuten) must be a number."] });
    const min = only(sf("age", "Number", { label: "alter", minValue: 18 }));
    expect((await check([min], { age: "17" })).errors).toEqual({ age: ["Alter muss mindestens 18 sein."] });
    const max = only(sf("age", "Number", { label: "alter", maxValue: 120 }));
    expect((await check([max], { age: "121" }, "en")).errors).toEqual({ age: ["Alter must be no more than 120."] });
  });

  it("refuses blank text for a required field and an unticked required Boolean", async () => {
    const city = only(sf("city", "String", { label: "Ort", isRequired: true }));
    for (const value of ["", "   ", undefined]) expect((await check([city], value === undefined ? {} : { city: value })).errors).toEqual({ city: ["Ort ist erforderlich."] });
    expect((await check([city], {}, "en")).errors).toEqual({ city: ["Ort is required."] });
    const consent = only(sf("privacy", "Boolean", { label: "Datenschutz", isRequired: true }));
    expect((await check([consent], {})).errors).toEqual({ privacy: ["Bitte Datenschutz akzeptieren."] });
    expect((await check([consent], { privacy: "on" })).valid).toBe(true);
  });

  it("email and url fields check their format", async () => {
    const fields = formFieldsFromSchema([sf("EMail", "String", { label: "E-Mail" }), sf("website", "String", { label: "Website", tags: ["url"] })]);
    expect(await check(fields, { EMail: "praxis@example.de", website: "https://praxis.example" })).toMatchObject({ valid: true });
    expect((await check(fields, { EMail: "praxis@", website: "praxis.example" }, "de")).errors).toEqual({
      EMail: ["E-Mail Adresse ist ungültig."],
      website: ["Bitte geben Sie eine gültige URL ein."],
    });
    expect((await check(fields, { EMail: "praxis@", website: "praxis.example" }, "en")).errors).toEqual({
      EMail: ["Please enter a valid email address."],
      website: ["Please enter a valid URL."],
    });
  });
});

describe("which fields a form gets", () => {
  it("skips fields hidden by flag or tag, internal fields and kinds no single input holds", () => {
    const fields = formFieldsFromSchema([
      sf("name", "String", { label: "Name" }),
      sf("secret", "String", {}, { isHidden: true }),
      sf("flagged", "String", { tags: ["isHidden"] }),
      sf("display", "Boolean", { tags: ["internal"] }),
      sf("coords", "Geolocation", { editor: "Map" }),
      sf("practitioner", "References", { editor: "List" }),
      sf("image", "Assets"),
      sf("items", "Array"),
      sf("block", "Component"),
      sf("blocks", "Components"),
      sf("raw", "Json"),
      sf("separator", "UI"),
      sf("notes", "String", { editor: "TextArea" }),
    ]);
    expect(fields.map((f) => f.name)).toEqual(["name", "notes"]);
  });

  it("keeps the schema's order and gives a textarea five rows", () => {
    const fields = formFieldsFromSchema([sf("b", "String"), sf("a", "String", { editor: "TextArea" }), sf("c", "Boolean")]);
    expect(fields.map((f) => [f.name, f.type, f.rows])).toEqual([
      ["b", "text", undefined],
      ["a", "textarea", 5],
      ["c", "checkbox", undefined],
    ]);
  });
});

describe("words from the dictionary (§5 keys label-, placeholder-, error-, help-)", () => {
  const field = sf("zip", "String", { label: "Postleitzahl", placeholder: "12345", hints: "Für Redakteur:innen: fünfstellig.", pattern: "^[0-9]{5}$" });

  it("uses the dictionary's words", () => {
    const dictionary = { "label-zip": "PLZ", "placeholder-zip": "z. B. 10115", "error-zip": "Die PLZ hat fünf Ziffern.", "help-zip": "Fünf Ziffern." };
    expect(only(field, dictionary)).toEqual({
      name: "zip",
      type: "text",
      label: "PLZ",
      validation: "matches:/^[0-9]{5}$/",
      placeholder: "z. B. 10115",
      errorMessage: "Die PLZ hat fünf Ziffern.",
      help: "Fünf Ziffern.",
    });
  });

  it("falls back to the schema's label and placeholder, then to the field name; hints never become help", () => {
    expect(only(field)).toEqual({ name: "zip", type: "text", label: "Postleitzahl", validation: "matches:/^[0-9]{5}$/", placeholder: "12345" });
    expect(only(field, { "label-city": "Ort" })).toMatchObject({ label: "Postleitzahl", placeholder: "12345" });
    const bare = only(sf("zip", "String"));
    expect(bare.label).toBe("zip");
    expect(bare).not.toHaveProperty("placeholder");
    expect(bare).not.toHaveProperty("help");
    expect(bare).not.toHaveProperty("errorMessage");
  });

  it("reads only the dictionary's own keys", () => {
    const inherited = Object.create({ "label-zip": "Geerbt", "error-zip": "Geerbt" }) as FormDictionary;
    const made = only(field, inherited);
    expect(made.label).toBe("Postleitzahl");
    expect(made).not.toHaveProperty("errorMessage");
    expect(only(sf("constructor", "String", { label: "Feld" }), {}).label).toBe("Feld");
  });

  it("the error- text replaces every rule's message on the server", async () => {
    const zip = only(sf("zip", "String", { label: "PLZ", isRequired: true, pattern: "^[0-9]{5}$" }), { "error-zip": "Die PLZ hat fünf Ziffern." });
    expect((await check([zip], { zip: "123" })).errors).toEqual({ zip: ["Die PLZ hat fünf Ziffern."] });
    expect((await check([zip], { zip: "" })).errors).toEqual({ zip: ["Die PLZ hat fünf Ziffern."] });
    expect((await check([zip], { zip: "10115" })).valid).toBe(true);
  });
});

describe("choices and defaults", () => {
  it("allowedValues become options of a select or radio, and other values are refused", async () => {
    const code = only(sf("code", "String", { label: "Code", isRequired: true, editor: "Dropdown", allowedValues: ["de", "en"] }));
    expect(code).toMatchObject({
      type: "select",
      validation: "required:trim",
      options: [
        { value: "de", label: "de" },
        { value: "en", label: "en" },
      ],
    });
    expect((await check([code], { code: "en" })).valid).toBe(true);
    expect((await check([code], { code: "fr" })).errors).toEqual({ code: ["Bitte wählen Sie einen der angebotenen Werte."] });
    expect((await check([code], { code: "" })).errors).toEqual({ code: ["Code ist erforderlich."] });

    const salutation = only(sf("salutation", "String", { label: "Anrede", editor: "Radio", allowedValues: ["Frau", "Herr", "divers"] }));
    expect(salutation.type).toBe("radio");
    expect(salutation.options?.map((o) => o.value)).toEqual(["Frau", "Herr", "divers"]);
    expect((await check([salutation], { salutation: "Herr" })).valid).toBe(true);
    expect((await check([salutation], { salutation: "Dr." }, "en")).errors).toEqual({ salutation: ["Please choose one of the offered values."] });
  });

  it("a text field with allowedValues becomes a select", () => {
    expect(only(sf("level", "String", { allowedValues: ["low", "high"] }))).toMatchObject({ type: "select", options: [{ value: "low" }, { value: "high" }] });
    expect(only(sf("level", "String", { allowedValues: [] })).type).toBe("text");
  });

  it("option labels come from the dictionary when it has them", () => {
    const dictionary = { "label-code": "Sprache", "option-code-de": "Deutsch", "option-code-en": "Englisch" };
    expect(only(sf("code", "String", { editor: "Dropdown", allowedValues: ["de", "en", "fr"] }), dictionary).options).toEqual([
      { value: "de", label: "Deutsch" },
      { value: "en", label: "Englisch" },
      { value: "fr", label: "fr" },
    ]);
  });

  it("defaultValue prefills a new form", () => {
    const country = only(sf("country", "String", { defaultValue: "DE" }));
    const duration = only(sf("durationMinutes", "Number", { defaultValue: 30 }));
    const booked = only(sf("booked", "Boolean", { defaultValue: false }));
    const visible = only(sf("visible", "Boolean", { defaultValue: true }));
    const none = only(sf("city", "String", { defaultValue: null }));
    expect([country.value, duration.value, booked.value, visible.value]).toEqual(["DE", "30", false, true]);
    expect(none).not.toHaveProperty("value");
    expect([initialValue(country), initialValue(duration), initialValue(booked), initialValue(visible), initialValue(none)]).toEqual(["DE", "30", false, true, ""]);
  });
});

describe("the practitioner schema (gm-content-practitioners)", () => {
  it("leaves out the internal, hidden and map fields", () => {
    const names = formFieldsFromSchema(practitionerFields()).map((f) => f.name);
    for (const skipped of ["display", "websites", "finishedPractitioner", "coords", "coords2"]) expect(names).not.toContain(skipped);
    expect(names.filter((n) => n !== "languages")).toEqual(["name", "country", "city", "street", "zip", "adress2", "speciality", "description", "website", "email", "phone"]);
  });

  it("maps each visitor field", () => {
    const byName = Object.fromEntries(formFieldsFromSchema(practitionerFields()).map((f) => [f.name, f]));
    expect(byName.name).toMatchObject({ type: "text", label: "Name", validation: "required:trim|length:0,100" });
    expect(byName.city).toMatchObject({ type: "text", label: "Ort", validation: "required:trim" });
    expect(byName.zip).toMatchObject({ type: "text", label: "PLZ", validation: "matches:/^[0-9]{5}$/" });
    expect(byName.email).toMatchObject({ type: "email", label: "E-Mail", validation: "email" });
    expect(byName.website).toMatchObject({ type: "url", label: "Website", validation: "url" });
    expect(byName.phone).toMatchObject({ type: "tel", label: "Telefon", validation: "" });
    expect(byName.description).toMatchObject({ type: "textarea", rows: 5, validation: "" });
    expect(byName.street).toMatchObject({ type: "text", label: "Straße und Hausnummer", validation: "" });
    // Editors' hints are not shown to visitors.
    expect(byName.email).not.toHaveProperty("help");
  });

  it("checks a registration with those rules", async () => {
    const fields = formFieldsFromSchema(practitionerFields());
    const good = { name: "Dr. Anna Beispiel", city: "Berlin", zip: "10115", email: "anna@praxis.example", website: "https://praxis.example", phone: "030 123456" };
    expect(await check(fields, good)).toMatchObject({ valid: true, errors: {} });

    expect((await check(fields, { ...good, zip: "123" })).errors).toEqual({ zip: ["PLZ enthält einen ungültigen Wert."] });
    expect((await check(fields, { ...good, zip: "123" }, "en")).errors).toEqual({ zip: ["PLZ is not an allowed value."] });
    expect((await check(fields, { ...good, zip: "1011a" })).valid).toBe(false);

    expect((await check(fields, { ...good, name: "a".repeat(100) })).valid).toBe(true);
    expect((await check(fields, { ...good, name: "a".repeat(101) })).errors).toEqual({ name: ["Name darf maximal 100 Zeichen enthalten."] });
    expect((await check(fields, { ...good, name: "a".repeat(101) }, "en")).errors).toEqual({ name: ["Name must be less than or equal to 100 characters."] });

    expect(await check(fields, { ...good, name: "  ", city: "", email: "anna@", website: "praxis.example" })).toMatchObject({
      valid: false,
      errors: {
        name: ["Name ist erforderlich."],
        city: ["Ort ist erforderlich."],
        email: ["E-Mail Adresse ist ungültig."],
        website: ["Bitte geben Sie eine gültige URL ein."],
      },
    });
  });

  it("sends nothing back that the form does not define", async () => {
    const fields = formFieldsFromSchema(practitionerFields());
    const result = await check(fields, { name: "Anna", city: "Berlin", display: true, finishedPractitioner: true, websites: ["EVIL"], coords: { lat: 1, lng: 2 } });
    expect(result.valid).toBe(true);
    for (const internal of ["display", "finishedPractitioner", "websites", "coords"]) expect(result.values).not.toHaveProperty(internal);
  });
});

describe("other demo schemas", () => {
  it("languages: the Dropdown code becomes a required select of de/en", () => {
    const schema = demoSchemas.find((s) => s.name === "core-theme-languages");
    const byName = Object.fromEntries(formFieldsFromSchema(schema!.fields as SchemaField[]).map((f) => [f.name, f]));
    expect(byName.code).toMatchObject({
      type: "select",
      validation: "required:trim",
      options: [
        { value: "de", label: "de" },
        { value: "en", label: "en" },
      ],
    });
    expect(byName.isDefault).toMatchObject({ type: "checkbox", validation: "" });
    expect(byName.order).toMatchObject({ type: "number", validation: "number" });
  });

  it("appointments: the reference is left out, the duration is a bounded number with a default", () => {
    const schema = demoSchemas.find((s) => s.name === "gm-appointments");
    const fields = formFieldsFromSchema(schema!.fields as SchemaField[]);
    expect(fields.map((f) => f.name)).toEqual(["start", "durationMinutes", "booked"]);
    expect(fields[0]).toMatchObject({ type: "date", validation: "required:trim" });
    expect(fields[1]).toMatchObject({ type: "number", validation: "number|between:5,240", value: "30" });
    expect(fields[2]).toMatchObject({ type: "checkbox", validation: "", value: false });
  });
});
