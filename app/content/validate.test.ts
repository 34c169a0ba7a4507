import { describe, expect, it } from "vitest";
import type { Schema, SchemaField } from "./types";
import { isPlainObject, patternProblem, validateData, type ValidationContext } from "./validate";

/** Pure unit tests of validateData against hand-built schemas (no database). */

function schema(name: string, fields: SchemaField[], type: Schema["type"] = "Default"): Schema {
  return {
    id: `id-${name}`,
    name,
    type,
    isPublished: true,
    properties: {},
    fields,
    version: 0,
    created: "2024-01-01T00:00:00Z",
    createdBy: "client:test",
    lastModified: "2024-01-01T00:00:00Z",
    lastModifiedBy: "client:test",
  };
}

let nextId = 1;
const field = (name: string, partitioning: SchemaField["partitioning"], properties: SchemaField["properties"], extra: Partial<SchemaField> = {}): SchemaField => ({
  fieldId: nextId++,
  name,
  partitioning,
  properties,
  ...extra,
});

const BLOCK = schema(
  "test-block",
  [
    field("heading", "invariant", { fieldType: "String", isRequired: true }),
    field("level", "invariant", { fieldType: "Number", minValue: 1, maxValue: 6 }),
  ],
  "Component",
);
const OTHER_COMPONENT = schema("test-other", [field("x", "invariant", { fieldType: "String" })], "Component");
const NOT_A_COMPONENT = schema("test-plain", [field("x", "invariant", { fieldType: "String" })]);

const ARTICLE = schema("test-articles", [
  field("title", "language", { fieldType: "String", isRequired: true, minLength: 3, maxLength: 50 }),
  field("slug", "invariant", { fieldType: "String", pattern: "^[a-z0-9-]+$" }),
  field("kind", "invariant", { fieldType: "String", allowedValues: ["news", "blog"] }),
  field("summary", "language", { fieldType: "String", minLength: 5 }),
  field("views", "invariant", { fieldType: "Number", minValue: 0, maxValue: 1000 }),
  field("rating", "invariant", { fieldType: "Number", allowedValues: [1, 2, 3] }),
  field("tags", "invariant", { fieldType: "Tags", maxItems: 3 }),
  field("colors", "invariant", { fieldType: "Tags", allowedValues: ["red", "blue"] }),
  field("published", "invariant", { fieldType: "Boolean" }),
  field("date", "invariant", { fieldType: "DateTime" }),
  field("meta", "invariant", { fieldType: "Json" }),
  field("body", "language", { fieldType: "RichText" }),
  field("location", "invariant", { fieldType: "Geolocation" }),
  field("images", "invariant", { fieldType: "Assets", minItems: 1 }),
  field("related", "invariant", { fieldType: "References" }),
  field("links", "invariant", { fieldType: "Array", maxItems: 2 }, {
    nested: [
      { fieldId: 1, name: "label", properties: { fieldType: "String", isRequired: true } },
      { fieldId: 2, name: "url", properties: { fieldType: "String", pattern: "^https://" } },
    ],
  }),
  field("hero", "invariant", { fieldType: "Component", schemaIds: ["test-block"] }),
  field("blocks", "language", { fieldType: "Components", schemaIds: ["test-block"] }),
  field("separator", "invariant", { fieldType: "UI" }),
]);

const SCHEMAS = new Map([BLOCK, OTHER_COMPONENT, NOT_A_COMPONENT].map((s) => [s.name, s]));
const ctx: ValidationContext = {
  languages: ["de", "en"],
  masterLanguage: "de",
  componentSchema: (ref) => SCHEMAS.get(ref) ?? [...SCHEMAS.values()].find((s) => s.id === ref),
};

const check = (data: unknown, s: Schema = ARTICLE) => validateData(s, data, ctx);
const minimal = { title: { de: "Hallo" } };

describe("validateData", () => {
  it("accepts minimal and complete valid data", () => {
    expect(check(minimal)).toEqual([]);
    expect(
      check({
        title: { de: "Hallo Welt", en: "Hello world" },
        slug: { iv: "hallo-welt" },
        kind: { iv: "news" },
        summary: { de: "Eine Zusammenfassung" },
        views: { iv: 0 },
        rating: { iv: 2 },
        tags: { iv: ["a", "b", "c"] },
        colors: { iv: ["red"] },
        published: { iv: false },
        date: { iv: "2024-03-01T09:15:00Z" },
        meta: { iv: { anything: [1, "two", null] } },
        body: { de: "<p>x</p>", en: { type: "doc", content: [] } },
        location: { iv: { latitude: 48.1, longitude: 11.5 } },
        images: { iv: ["asset-1"] },
        related: { iv: [] },
        links: { iv: [{ label: "Home", url: "https://example.org" }] },
        hero: { iv: { schemaId: "test-block", heading: "Hi", level: 1 } },
        blocks: { de: [{ schemaName: "test-block", heading: "A" }, { schemaId: "id-test-block", heading: "B", id: "x1" }] },
      }),
    ).toEqual([]);
  });

  it("accepts null values and date-only DateTimes", () => {
    expect(check({ ...minimal, views: { iv: null }, summary: null, date: { iv: "2024-03-01" } })).toEqual([]);
  });

  it("rejects data that is not an object", () => {
    for (const bad of [null, undefined, "x", 3, [minimal]])
      expect(check(bad)).toEqual(["Request body has an invalid format: data must be an object."]);
  });

  it("reports missing required fields under the master language (or iv)", () => {
    const reqIv = schema("req", [field("code", "invariant", { fieldType: "String", isRequired: true })]);
    expect(check({})).toEqual(["title.de: Field is required."]);
    expect(check({ title: null })).toEqual(["title.de: Field is required."]);
    expect(check({ title: { en: "Only English" } })).toEqual(["title.de: Field is required."]);
    expect(check({ title: { de: "" } })).toEqual(["title.de: Field is required."]);
    expect(check({}, reqIv)).toEqual(["code.iv: Field is required."]);
    expect(check({ code: { iv: "" } }, reqIv)).toEqual(["code.iv: Field is required."]);
  });

  it("reports unknown fields, unknown languages and non-iv invariant keys", () => {
    expect(check({ ...minimal, bogus: { iv: 1 } })).toEqual(["bogus: Not a known field."]);
    expect(check({ title: { de: "Hallo", fr: "Bonjour" } })).toEqual(["title.fr: Not a known language."]);
    expect(check({ ...minimal, views: { de: 3 } })).toEqual(["views.de: Not a known invariant value."]);
    expect(check({ ...minimal, views: 3 })).toEqual(["views: Must be an object with the key iv."]);
    expect(check({ title: "Hallo" })).toEqual(["title: Must be an object with language keys."]);
  });

  it("reports wrong JSON types per field type", () => {
    const errors = check({
      ...minimal,
      slug: { iv: 5 },
      views: { iv: "5" },
      tags: { iv: "a,b" },
      colors: { iv: [1] },
      published: { iv: "yes" },
      date: { iv: "yesterday" },
      body: { de: 5 },
      location: { iv: [48, 11] },
      links: { iv: ["x"] },
      blocks: { de: { schemaId: "test-block", heading: "x" } },
    });
    expect(errors).toEqual(
      expect.arrayContaining([
        "slug.iv: Invalid json type, expected string.",
        "views.iv: Invalid json type, expected number.",
        "tags.iv: Invalid json type, expected array of strings.",
        "colors.iv: Invalid json type, expected array of strings.",
        "published.iv: Invalid json type, expected boolean.",
        "date.iv: Invalid json type, expected ISO-8601 date time string.",
        "body.de: Invalid json type, expected rich text.",
        "location.iv: Invalid json type, expected latitude/longitude object.",
        "links.iv: Invalid json type, expected array of objects.",
        "blocks.de: Invalid json type, expected array of components.",
      ]),
    );
    expect(errors).toHaveLength(10);
  });

  it("rejects non-finite numbers and impossible dates", () => {
    expect(check({ ...minimal, views: { iv: Number.NaN } })).toEqual(["views.iv: Invalid json type, expected number."]);
    expect(check({ ...minimal, date: { iv: "2024-13-45T00:00:00Z" } })).toEqual([
      "date.iv: Invalid json type, expected ISO-8601 date time string.",
    ]);
  });

  it("checks string length, pattern and allowed values", () => {
    expect(check({ title: { de: "ab" } })).toEqual(["title.de: Must have between 3 and 50 character(s)."]);
    expect(check({ title: { de: "x".repeat(51) } })).toEqual(["title.de: Must have between 3 and 50 character(s)."]);
    expect(check({ title: { de: "abc", en: "ab" } })).toEqual(["title.en: Must have between 3 and 50 character(s)."]);
    expect(check({ title: { de: "x".repeat(50) } })).toEqual([]);
    expect(check({ ...minimal, summary: { de: "kurz" } })).toEqual(["summary.de: Must have at least 5 character(s)."]);
    expect(check({ ...minimal, slug: { iv: "Not A Slug" } })).toEqual(["slug.iv: Must follow the pattern."]);
    expect(check({ ...minimal, kind: { iv: "rumour" } })).toEqual(["kind.iv: Not an allowed value."]);
    expect(check({ ...minimal, kind: { iv: "" } })).toEqual([]);
  });

  it("checks number ranges and allowed values", () => {
    expect(check({ ...minimal, views: { iv: -1 } })).toEqual(["views.iv: Must be greater or equal to 0."]);
    expect(check({ ...minimal, views: { iv: 1001 } })).toEqual(["views.iv: Must be less or equal to 1000."]);
    expect(check({ ...minimal, views: { iv: 1000 } })).toEqual([]);
    expect(check({ ...minimal, rating: { iv: 4 } })).toEqual(["rating.iv: Not an allowed value."]);
  });

  it("checks item counts and allowed tags", () => {
    expect(check({ ...minimal, tags: { iv: ["a", "b", "c", "d"] } })).toEqual(["tags.iv: Must not have more than 3 item(s)."]);
    expect(check({ ...minimal, images: { iv: [] } })).toEqual(["images.iv: Must have at least 1 item(s)."]);
    expect(check({ ...minimal, colors: { iv: ["red", "green", "pink"] } })).toEqual([
      'colors.iv: "green" is not an allowed value.',
      'colors.iv: "pink" is not an allowed value.',
    ]);
  });

  it("checks geolocation ranges", () => {
    expect(check({ ...minimal, location: { iv: { latitude: 91, longitude: -181 } } })).toEqual([
      "location.iv: Latitude must be between -90 and 90.",
      "location.iv: Longitude must be between -180 and 180.",
    ]);
    expect(check({ ...minimal, location: { iv: { latitude: "48" , longitude: 11 } } })).toEqual([
      "location.iv: Latitude must be between -90 and 90.",
    ]);
  });

  it("validates nested array entries with 1-based indexes", () => {
    expect(
      check({
        ...minimal,
        links: { iv: [{ label: "ok", url: "https://x" }, { url: "http://insecure", extra: 1 }] },
      }),
    ).toEqual(["links.iv[2].extra: Not a known field.", "links.iv[2].label: Field is required.", "links.iv[2].url: Must follow the pattern."]);
    expect(check({ ...minimal, links: { iv: [{ label: "a" }, { label: "b" }, { label: "c" }] } })).toEqual([
      "links.iv: Must not have more than 2 item(s).",
    ]);
  });

  it("validates components and their schemas", () => {
    expect(check({ ...minimal, hero: { iv: "block" } })).toEqual(["hero.iv: Invalid json type, expected component object."]);
    expect(check({ ...minimal, hero: { iv: { heading: "x" } } })).toEqual(["hero.iv: Component must name its schema (schemaId)."]);
    expect(check({ ...minimal, hero: { iv: { schemaId: "nope", heading: "x" } } })).toEqual([
      'hero.iv: Unknown component schema "nope".',
    ]);
    expect(check({ ...minimal, hero: { iv: { schemaId: "test-plain", x: "x" } } })).toEqual([
      'hero.iv: Unknown component schema "test-plain".',
    ]);
    expect(check({ ...minimal, hero: { iv: { schemaId: "test-other", x: "x" } } })).toEqual([
      'hero.iv: Component schema "test-other" is not allowed here.',
    ]);
    expect(check({ ...minimal, hero: { iv: { schemaId: "test-block", level: 9, color: "red" } } })).toEqual([
      "hero.iv.color: Not a known field.",
      "hero.iv.heading: Field is required.",
      "hero.iv.level: Must be less or equal to 6.",
    ]);
    expect(
      check({
        ...minimal,
        blocks: { de: [{ schemaId: "test-block", heading: "ok" }, { schemaId: "test-block" }], en: ["x"] },
      }),
    ).toEqual(["blocks.de[2].heading: Field is required.", "blocks.en[1]: Invalid json type, expected component object."]);
  });

  it("refuses values in UI fields", () => {
    expect(check({ ...minimal, separator: { iv: "x" } })).toEqual(["separator.iv: UI fields hold no value."]);
    expect(check({ ...minimal, separator: { iv: null } })).toEqual([]);
  });

  it("reports every problem at once", () => {
    const errors = check({ title: { de: "ab", ru: "x" }, views: { iv: -5, de: 1 }, bogus: { iv: true } });
    expect(errors).toEqual(
      expect.arrayContaining([
        "bogus: Not a known field.",
        "title.ru: Not a known language.",
        "title.de: Must have between 3 and 50 character(s).",
        "views.de: Not a known invariant value.",
        "views.iv: Must be greater or equal to 0.",
      ]),
    );
    expect(errors).toHaveLength(5);
  });
});

describe("isPlainObject", () => {
  it("is true only for non-null, non-array objects", () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject({ a: 1 })).toBe(true);
    expect(isPlainObject([])).toBe(false);
    expect(isPlainObject(null)).toBe(false);
    expect(isPlainObject("x")).toBe(false);
    expect(isPlainObject(undefined)).toBe(false);
  });
});

describe("field patterns that may run on every write", () => {
  it("lets ordinary patterns through", () => {
    for (const p of ["^[a-z0-9-]+$", "^\\d{5}$", "^[A-Z]{2}\\d{2}( ?\\d{4}){4}$", "^(https?://)?[\\w.-]+$", "^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$", "^(?:Herr|Frau|Divers)$", "^[a-z]+(-[a-z]+)?$"])
      expect(patternProblem(p), p).toBeNull();
  });
  it("refuses patterns that can backtrack catastrophically, back-references, overlong ones and broken ones", () => {
    for (const p of ["(a+)+$", "^(a|aa)*$", "(\\w+\\s?)*$", "^(([a-z])+.)+[A-Z]([a-z])+$", "(.*a){12}", "(a)\\1", "(?<x>a)\\k<x>", "a".repeat(201), "(", "[z-a]"])
      expect(patternProblem(p), p).not.toBeNull();
  });
  it("a stored pattern that is not safe is not run: the value is refused with a message (run, it would not return for minutes)", () => {
    const schema = { name: "t", fields: [{ fieldId: 1, name: "code", partitioning: "invariant", properties: { fieldType: "String", pattern: "^(a+)+$" } }] };
    const errors = validateData(schema as never, { code: { iv: "a".repeat(40) + "!" } }, ctx);
    expect(errors.join(" ")).toMatch(/cannot be checked safely/);
  });
});
