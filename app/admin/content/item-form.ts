import type { ContentData, Schema, SchemaField } from "~/content/types";
import { MAX_FIELD_CHARS, type FormDefinition, type FormField, type FormValues } from "~/forms/definition";
import { formFieldsFromSchema } from "~/forms/from-schema";
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "~/i18n/languages";
import { fieldHint, fieldLabel } from "./field-words";

/**
 * The admin editor's form of a content item, made from its schema with the same mapping as the
 * visitors' forms (forms/from-schema.ts), so browser and server check the same rules. Localised
 * fields get one input per language (`<field>__de`, `<field>__en`); only the master language keeps
 * the required rule, as the store requires only that one. Fields the visitors' mapping cannot hold
 * in one input are editable too: a place as latitude and longitude (`<field>__latitude`,
 * `<field>__longitude`), and lists, components, references, assets and JSON as JSON text per
 * language, checked by the store's own validation. Only a JSON value too long for one input
 * (MAX_FIELD_CHARS) is shown read-only, and kept as it is on save.
 */

const SEPARATOR = "__";
export const inputName = (field: string, language?: Language) => (language ? `${field}${SEPARATOR}${language}` : field);

/** What an input writes: a plain value, one half of a place, or a whole value as JSON text. */
type InputKind = "value" | "latitude" | "longitude" | "json";

interface InputSpec {
  field: SchemaField;
  /** The cell's partition: "iv" or a language. */
  partition: string;
  kind: InputKind;
}

export interface AdminItemForm {
  definition: FormDefinition;
  /** What every input of the definition writes. */
  inputs: ReadonlyMap<string, InputSpec>;
  /** Schema fields shown read-only (kept as they are on save): hidden ones, JSON too long to edit. */
  readOnly: string[];
}

/** An editor's input the store cannot take as it is (JSON that does not parse, half a place), by input. */
export class ItemInputError extends Error {
  constructor(readonly errors: Record<string, string[]>) {
    super("The item's input is not valid.");
  }
}

const words = {
  de: {
    latitude: "Breitengrad",
    longitude: "Längengrad",
    json: "JSON; ein leeres Feld entfernt den Wert.",
    entries: (names: string) => `JSON-Liste von Einträgen mit: ${names}. Ein leeres Feld entfernt den Wert.`,
    badJson: (why: string) => `Kein gültiges JSON: ${why}`,
    halfPlace: "Bitte Breiten- und Längengrad angeben (oder beide leer lassen).",
  },
  en: {
    latitude: "latitude",
    longitude: "longitude",
    json: "JSON; an empty field removes the value.",
    entries: (names: string) => `JSON list of entries with: ${names}. An empty field removes the value.`,
    badJson: (why: string) => `Not valid JSON: ${why}`,
    halfPlace: "Please give both latitude and longitude (or leave both empty).",
  },
} satisfies Record<Language, unknown>;

/** Stored choice values (the schema's `allowedValues`) as editors read them; others as stored. */
const CHOICES: Readonly<Record<string, Readonly<Record<string, Record<Language, string>>>>> = {
  code: { de: { de: "Deutsch", en: "German" }, en: { de: "Englisch", en: "English" } },
  type: {
    link: { de: "Link", en: "Link" },
    group: { de: "Gruppe (Untermenü)", en: "Group (submenu)" },
    divider: { de: "Trennlinie", en: "Divider" },
  },
  category: {
    layout: { de: "Aufbau", en: "Layout" },
    content: { de: "Inhalt", en: "Content" },
    practitioners: { de: "Behandelnde", en: "Practitioners" },
    forms: { de: "Formulare", en: "Forms" },
  },
  navigation: {
    none: { de: "Nicht im Menü", en: "Not in a menu" },
    header: { de: "Hauptmenü (oben)", en: "Main menu (top)" },
    footer: { de: "Menü in der Fußzeile", en: "Footer menu" },
  },
};

function choiceLabel(field: string, value: string, language: Language): string {
  const known = Object.hasOwn(CHOICES, field) && Object.hasOwn(CHOICES[field]!, value) ? CHOICES[field]![value] : undefined;
  return known ? known[language] : value;
}

/** Kinds written as JSON text. */
const AS_JSON = new Set(["Array", "Component", "Components", "References", "Assets", "Json"]);

/** Fields editors set by hand that the visitor mapping hides with the "internal" tag. */
const unhideInternal = (field: SchemaField): SchemaField =>
  field.properties.tags?.includes("internal") && !field.isHidden ? { ...field, properties: { ...field.properties, tags: field.properties.tags.filter((t) => t !== "internal") } } : field;

const made = new WeakMap<Schema, Map<Language, AdminItemForm>>();

/**
 * The form of `schema` in `language`: one object per schema version and language (the store keeps a
 * schema's object until it changes), so the server's checking trees are reused (forms/engine.ts
 * finds them by identity).
 */
export function adminItemForm(schema: Schema, language: Language = DEFAULT_LANGUAGE): AdminItemForm {
  let forms = made.get(schema);
  if (!forms) made.set(schema, (forms = new Map()));
  let form = forms.get(language);
  if (!form) forms.set(language, (form = makeForm(schema, language)));
  return form;
}

/** The partitions a field's inputs write: the languages of a localised field, else "iv". */
const partitionsOf = (field: SchemaField): (Language | undefined)[] => (field.partitioning === "language" ? [...LANGUAGES] : [undefined]);

function makeForm(schema: Schema, language: Language): AdminItemForm {
  const w = words[language];
  const fields: FormField[] = [];
  const inputs = new Map<string, InputSpec>();
  const readOnly: string[] = [];
  const add = (field: SchemaField, lang: Language | undefined, kind: InputKind, input: FormField) => {
    fields.push(input);
    inputs.set(input.name, { field, partition: lang ?? "iv", kind });
  };
  for (const schemaField of schema.fields) {
    const p = schemaField.properties;
    const label = fieldLabel(schema.name, schemaField, language);
    const help = fieldHint(schema.name, schemaField, language);
    const withLanguage = (text: string, lang: Language | undefined) => (lang ? `${text} (${lang.toUpperCase()})` : text);
    const required = (lang: Language | undefined) => p.isRequired === true && (lang === undefined || lang === DEFAULT_LANGUAGE);
    if (p.fieldType === "UI") continue; // a separator in Squidex's editor: it holds no value
    const hidden = schemaField.isHidden || p.tags?.includes("isHidden");
    if (!hidden && p.fieldType === "Geolocation") {
      for (const lang of partitionsOf(schemaField)) {
        const rule = (min: number, max: number) => [...(required(lang) ? ["required"] : []), "number", `between:${min},${max}`].join("|");
        add(schemaField, lang, "latitude", { name: `${inputName(schemaField.name, lang)}${SEPARATOR}latitude`, type: "number", label: withLanguage(`${label}: ${w.latitude}`, lang), validation: rule(-90, 90), ...(help ? { help } : {}) });
        add(schemaField, lang, "longitude", { name: `${inputName(schemaField.name, lang)}${SEPARATOR}longitude`, type: "number", label: withLanguage(`${label}: ${w.longitude}`, lang), validation: rule(-180, 180) });
      }
      continue;
    }
    if (!hidden && AS_JSON.has(p.fieldType)) {
      const nested = schemaField.nested?.map((n) => n.name).join(", ");
      const jsonHelp = [help, nested ? w.entries(nested) : w.json].filter(Boolean).join(" ");
      for (const lang of partitionsOf(schemaField)) {
        add(schemaField, lang, "json", { name: inputName(schemaField.name, lang), type: "textarea", label: withLanguage(`${label} (JSON)`, lang), validation: required(lang) ? "required:trim" : "", help: jsonHelp, rows: 8 });
      }
      continue;
    }
    const [mapped] = formFieldsFromSchema([unhideInternal(schemaField)]);
    if (!mapped) {
      readOnly.push(schemaField.name);
      continue;
    }
    // Editors see the schema's hints (visitors never do), and choices in words, not stored values.
    const options = mapped.options?.map((o) => ({ ...o, label: choiceLabel(schemaField.name, o.value, language) }));
    const base: FormField = { ...mapped, label, ...(options ? { options } : {}), ...(help ? { help } : {}) };
    if (schemaField.partitioning !== "language") {
      add(schemaField, undefined, "value", base);
      continue;
    }
    for (const lang of LANGUAGES) {
      const validation = lang === DEFAULT_LANGUAGE ? base.validation : withoutRequired(base.validation ?? "");
      add(schemaField, lang, "value", { ...base, name: inputName(schemaField.name, lang), label: withLanguage(base.label, lang), validation });
    }
  }
  return { definition: { id: `content-${schema.name}`, fields }, inputs, readOnly };
}

/** A rule string without its required rule (other languages of a localised field may stay empty). */
export const withoutRequired = (validation: string) =>
  validation
    .split("|")
    .filter((rule) => !/^[*+?]*required(:|$)/.test(rule))
    .join("|");

/** A stored value as the JSON text its input shows. */
const asJsonText = (value: unknown) => (value === undefined || value === null ? "" : JSON.stringify(value, null, 2));

/**
 * The form for one item: the schema's form without the JSON inputs whose value is too long for an
 * input (those fields are shown read-only and kept on save). The same object as `adminItemForm`
 * when nothing is too long, which is nearly always.
 */
export function itemForm(schema: Schema, language: Language, data: ContentData | undefined): AdminItemForm {
  const form = adminItemForm(schema, language);
  if (!data) return form;
  const tooLong = new Set<string>();
  for (const [name, spec] of form.inputs) {
    if (spec.kind === "json" && asJsonText(data[spec.field.name]?.[spec.partition]).length > MAX_FIELD_CHARS) tooLong.add(spec.field.name);
  }
  if (!tooLong.size) return form;
  const keep = (name: string) => !tooLong.has(form.inputs.get(name)!.field.name);
  return {
    definition: { ...form.definition, fields: form.definition.fields.filter((f) => keep(f.name)) },
    inputs: new Map([...form.inputs].filter(([name]) => keep(name))),
    readOnly: [...form.readOnly, ...tooLong],
  };
}

/** Text an input shows for a stored value. */
function asInput(spec: InputSpec, value: unknown): string | boolean | undefined {
  if (value === undefined || value === null) return undefined;
  const type = spec.field.properties.fieldType;
  if (spec.kind === "json") return asJsonText(value);
  if (spec.kind === "latitude" || spec.kind === "longitude") {
    const coordinate = (value as Record<string, unknown>)[spec.kind];
    return typeof coordinate === "number" ? String(coordinate) : undefined;
  }
  if (type === "Boolean") return value === true;
  if (Array.isArray(value)) return value.join(", ");
  if (type === "DateTime" && typeof value === "string") return value.slice(0, 10);
  if (typeof value === "string" || typeof value === "number") return String(value);
  return undefined;
}

/** The form's starting values from an item's data. */
export function valuesFromData(schema: Schema, data: ContentData, form: AdminItemForm = adminItemForm(schema)): Record<string, string | boolean> {
  const values: Record<string, string | boolean> = {};
  for (const [name, spec] of form.inputs) {
    const v = asInput(spec, data[spec.field.name]?.[spec.partition]);
    if (v !== undefined) values[name] = v;
  }
  return values;
}

/** A stored value from checked form text; `undefined` removes the value. `previous` keeps a DateTime's time. */
function fromInput(field: SchemaField, raw: string | boolean | undefined, previous: unknown): unknown {
  const type = field.properties.fieldType;
  if (type === "Boolean") return raw === true;
  if (typeof raw !== "string" || raw === "") return undefined;
  if (type === "Number") return Number(raw);
  if (type === "Tags")
    return raw
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  if (type === "DateTime") return typeof previous === "string" && previous.startsWith(raw) ? previous : `${raw}T00:00:00Z`;
  return raw;
}

/**
 * The item's new data: the stored data (fields not in the form stay as they are) with the form's
 * inputs written over it. An emptied input removes the value. JSON that does not parse and half a
 * place are refused per input (ItemInputError); what the JSON holds is the store's to check.
 */
export function dataFromValues(schema: Schema, values: FormValues, stored: ContentData = {}, form: AdminItemForm = adminItemForm(schema), language: Language = DEFAULT_LANGUAGE): ContentData {
  const w = words[language];
  const cells = new Map<string, Record<string, unknown>>();
  const errors: Record<string, string[]> = {};
  const places = new Map<string, { latitude?: string; longitude?: string; inputs: string[] }>();
  for (const [name, spec] of form.inputs) {
    const fieldName = spec.field.name;
    let cell = cells.get(fieldName);
    if (!cell) cells.set(fieldName, (cell = { ...(stored[fieldName] ?? {}) }));
    const raw = values[name];
    if (spec.kind === "latitude" || spec.kind === "longitude") {
      const key = `${fieldName}.${spec.partition}`;
      const place = places.get(key) ?? { inputs: [] };
      if (typeof raw === "string" && raw.trim() !== "") place[spec.kind] = raw.trim();
      place.inputs.push(name);
      places.set(key, place);
      continue;
    }
    let value: unknown;
    if (spec.kind === "json") {
      const text = typeof raw === "string" ? raw.trim() : "";
      if (text) {
        try {
          value = JSON.parse(text);
        } catch (error) {
          errors[name] = [w.badJson((error as Error).message)];
          continue;
        }
      }
    } else {
      value = fromInput(spec.field, raw, cell[spec.partition]);
    }
    if (value === undefined || value === null) delete cell[spec.partition];
    else cell[spec.partition] = value;
  }
  for (const [key, place] of places) {
    const [fieldName, partition] = key.split(".") as [string, string];
    const cell = cells.get(fieldName)!;
    if (place.latitude === undefined && place.longitude === undefined) delete cell[partition];
    else if (place.latitude === undefined || place.longitude === undefined) errors[place.inputs[place.latitude === undefined ? 0 : 1]!] = [w.halfPlace];
    else cell[partition] = { ...(cell[partition] as object | undefined), latitude: Number(place.latitude), longitude: Number(place.longitude) };
  }
  if (Object.keys(errors).length) throw new ItemInputError(errors);
  const data: ContentData = { ...stored };
  for (const [fieldName, cell] of cells) {
    if (Object.keys(cell).length) data[fieldName] = cell;
    else delete data[fieldName];
  }
  return data;
}

/**
 * The store's validation messages (`name.iv: Field is required.`, `children.de[2].label: …`) as
 * messages per form input, so they show beside the field; messages for fields outside the form stay
 * in `rest`.
 */
export function storeErrorsByField(schema: Schema, details: readonly string[], form: AdminItemForm = adminItemForm(schema)): { errors: Record<string, string[]>; rest: string[] } {
  const firstInput = new Map<string, string>();
  for (const [name, spec] of form.inputs) {
    const key = `${spec.field.name}.${spec.partition}`;
    if (!firstInput.has(key)) firstInput.set(key, name);
  }
  const errors: Record<string, string[]> = {};
  const rest: string[] = [];
  for (const detail of details) {
    const match = /^([A-Za-z0-9_-]+)(?:\.([A-Za-z-]+))?([^:]*):\s*(.*)$/.exec(detail);
    const name = match ? firstInput.get(`${match[1]}.${match[2] ?? "iv"}`) : undefined;
    // A message about a part of a JSON value keeps its path (`[2].label`), so the editor finds it.
    if (name) (errors[name] ??= []).push(`${match![3] ? `${match![3].replace(/^\./, "")}: ` : ""}${match![4] || detail}`);
    else rest.push(detail);
  }
  return { errors, rest };
}
