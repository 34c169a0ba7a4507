import type { ContentData, Schema, SchemaField } from "~/content/types";
import { MAX_FIELD_CHARS, type FormDefinition, type FormField, type FormValues } from "~/forms/definition";
import { formFieldsFromSchema } from "~/forms/from-schema";
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "~/i18n/languages";
import { fieldHint, fieldLabel, nestedFieldHint, nestedFieldLabel } from "./field-words";

/**
 * The admin editor's form of a content item, made from its schema with the same mapping as the
 * visitors' forms (forms/from-schema.ts), so browser and server check the same rules. Localised
 * fields get one input per language (`<field>__de`, `<field>__en`); only the master language keeps
 * the required rule, as the store requires only that one. Fields the visitors' mapping cannot hold
 * in one input (places, lists, components, references, assets, JSON) hold their value as JSON text,
 * shown by a control of ours (FormField.control: a map, rows, a picker) and checked by the store's
 * own validation. Only a JSON value too long for one input
 * (MAX_FIELD_CHARS) is shown read-only, and kept as it is on save.
 */

const SEPARATOR = "__";
export const inputName = (field: string, language?: Language) => (language ? `${field}${SEPARATOR}${language}` : field);

/** What an input writes: a plain value, or a whole value as JSON text (what our controls send). */
type InputKind = "value" | "json";

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
    json: "JSON; ein leeres Feld entfernt den Wert.",
    entries: (names: string) => `JSON-Liste von Einträgen mit: ${names}. Ein leeres Feld entfernt den Wert.`,
    badJson: (why: string) => `Kein gültiges JSON: ${why}`,
    badPlace: "Bitte einen Ort auf der Karte wählen oder Breitengrad (−90 bis 90) und Längengrad (−180 bis 180) angeben.",
  },
  en: {
    json: "JSON; an empty field removes the value.",
    entries: (names: string) => `JSON list of entries with: ${names}. An empty field removes the value.`,
    badJson: (why: string) => `Not valid JSON: ${why}`,
    badPlace: "Please choose a place on the map or give latitude (−90 to 90) and longitude (−180 to 180).",
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
    // A third-party script's consent category (global settings).
    necessary: { de: "Notwendig", en: "Necessary" },
    functional: { de: "Funktional", en: "Functional" },
    statistic: { de: "Statistik", en: "Statistics" },
    marketing: { de: "Marketing", en: "Marketing" },
    unclassified: { de: "Nicht zugeordnet", en: "Unclassified" },
  },
  mission: {
    main: { de: "Hauptschrift", en: "Main font" },
    support: { de: "Zweitschrift", en: "Secondary font" },
    navbar: { de: "Navigation", en: "Navigation" },
    flowingtext: { de: "Fließtext", en: "Body text" },
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

/** Kinds written as JSON text (the input's text is the value as JSON; a control of ours shows it). */
const AS_JSON = new Set(["Array", "Component", "Components", "References", "Assets", "Json"]);

/** A nested field of a list's entry, as its control needs it (plain data: it goes through loader data). */
export interface NestedSpec {
  name: string;
  label: string;
  fieldType: string;
  editor?: string;
  tags?: string[];
  isRequired?: boolean;
  /** The allowed values in words (a dropdown). */
  options?: Array<{ value: string; label: string }>;
  maxLength?: number;
  minValue?: number;
  maxValue?: number;
  hints?: string;
}

export function nestedSpec(f: { name: string; properties: SchemaField["properties"] }, language: Language, place: { schema: string; field?: string }): NestedSpec {
  const p = f.properties;
  // A list entry's field is named by its list's words; a component's fields are its schema's own fields.
  const label = place.field ? nestedFieldLabel(place.schema, place.field, f, language) : fieldLabel(place.schema, f, language);
  const hints = place.field ? nestedFieldHint(place.schema, place.field, f, language) : fieldHint(place.schema, f, language);
  return {
    name: f.name,
    label,
    fieldType: p.fieldType,
    ...(p.editor ? { editor: p.editor } : {}),
    ...(p.tags?.length ? { tags: [...p.tags] } : {}),
    ...(p.isRequired ? { isRequired: true } : {}),
    ...(p.allowedValues?.length ? { options: p.allowedValues.map((v) => ({ value: String(v), label: choiceLabel(f.name, String(v), language) })) } : {}),
    ...(p.maxLength !== undefined ? { maxLength: p.maxLength } : {}),
    ...(p.minValue !== undefined ? { minValue: p.minValue } : {}),
    ...(p.maxValue !== undefined ? { maxValue: p.maxValue } : {}),
    ...(hints ? { hints } : {}),
  };
}

/**
 * The control a structured field gets in the admin (app/admin/content/controls): editors pick,
 * click and fill rows; nobody types JSON. Only a free JSON field (and, for superusers, the
 * "advanced" switch every control has) shows the JSON itself.
 */
function controlOf(schemaName: string, field: SchemaField, language: Language): NonNullable<FormField["control"]> {
  const p = field.properties;
  const max = p.maxItems !== undefined ? { maxItems: p.maxItems } : {};
  switch (p.fieldType) {
    case "Geolocation":
      return { kind: "geo" };
    case "References":
      return { kind: "reference", props: { schemaIds: p.schemaIds ?? [], ...max } };
    case "Assets":
      return { kind: "assets", props: { ...(p.tags?.includes("image") ? { images: true } : {}), ...max } };
    case "Array":
      return { kind: "list", props: { fields: (field.nested ?? []).map((n) => nestedSpec(n, language, { schema: schemaName, field: field.name })), ...(p.minItems !== undefined ? { minItems: p.minItems } : {}), ...max } };
    case "Component":
      return { kind: "component", props: { schemaIds: p.schemaIds ?? [] } };
    case "Components":
      return { kind: "components", props: { schemaIds: p.schemaIds ?? [] } };
    default:
      return { kind: "json" };
  }
}

/** Languages editors choose from by name (a practitioner's languages): ISO 639-1 codes, stored as such. */
const LANGUAGE_CODES = ["de", "en", "tr", "ar", "ru", "pl", "uk", "fr", "es", "it", "pt", "el", "hr", "sr", "bs", "ro", "bg", "hu", "cs", "nl", "fa", "ku", "vi", "zh", "ja", "ko", "hi", "ur", "he", "sq", "da", "sv", "no", "fi", "sgn"];

const displayNames = new Map<string, Intl.DisplayNames>();
function named(type: "language" | "region", code: string, language: Language): string {
  if (code === "sgn") return language === "de" ? "Gebärdensprache" : "Sign language";
  const key = `${type}:${language}`;
  let names = displayNames.get(key);
  if (!names) displayNames.set(key, (names = new Intl.DisplayNames([language], { type, fallback: "code" })));
  try {
    return names.of(type === "region" ? code.toUpperCase() : code) ?? code;
  } catch {
    return code;
  }
}

/** Every region code Intl knows by a name: the countries a practitioner may practise in. */
let regionCodes: string[] | undefined;
function countryCodes(): string[] {
  if (regionCodes) return regionCodes;
  const names = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
  const codes: string[] = [];
  for (let a = 65; a <= 90; a++)
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      const name = names.of(code);
      // Old codes (DD, SU, YU…) name today's countries again: only the current code of each.
      if (name && name !== code && !/^(EU|EZ|UN|QO|XA|XB|ZZ)$/.test(code) && Intl.getCanonicalLocales(`und-${code}`)[0] === `und-${code}`) codes.push(code);
    }
  return (regionCodes = codes);
}

const collators = new Map<Language, Intl.Collator>();
function sortByLabel<T extends { label: string }>(list: T[], language: Language): T[] {
  let collator = collators.get(language);
  if (!collator) collators.set(language, (collator = new Intl.Collator(language)));
  return list.sort((a, b) => collator.compare(a.label, b.label));
}

/**
 * Controls of plain-valued fields: a colour with the theme's swatches, languages and countries by
 * name, tags as chips. The stored value stays what it was (a hex code, ISO codes, a list of words).
 */
function valueControl(field: SchemaField, language: Language): Partial<Pick<FormField, "control" | "type" | "options">> {
  const p = field.properties;
  if (p.fieldType === "String" && (p.editor === "Color" || p.tags?.includes("color") || field.name === "hexcode")) return { control: { kind: "color" } };
  if (p.fieldType === "Tags" && field.name === "languages") {
    const options = LANGUAGE_CODES.map((code) => ({ value: code, label: named("language", code, language) }));
    return { control: { kind: "choices", props: { options: sortByLabel(options, language) } } };
  }
  if (p.fieldType === "Tags" && p.allowedValues?.length) return { control: { kind: "choices", props: { options: p.allowedValues.map((v) => ({ value: String(v), label: choiceLabel(field.name, String(v), language) })) } } };
  if (p.fieldType === "Tags") return { control: { kind: "tags" } };
  if (p.fieldType === "String" && field.name === "country" && !p.allowedValues?.length) {
    const options = countryCodes().map((code) => ({ value: code, label: named("region", code, language) }));
    return { type: "select", options: sortByLabel(options, language) };
  }
  return {};
}

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
    // Disabled in Squidex's sense (`…/fields/{id}/disable`): shown, kept on save, not edited.
    if (schemaField.isDisabled) {
      readOnly.push(schemaField.name);
      continue;
    }
    const hidden = schemaField.isHidden || p.tags?.includes("isHidden");
    if (!hidden && (p.fieldType === "Geolocation" || AS_JSON.has(p.fieldType))) {
      const control = controlOf(schema.name, schemaField, language);
      const nested = schemaField.nested?.map((n) => n.name).join(", ");
      const jsonHelp = control.kind === "json" ? [help, nested ? w.entries(nested) : w.json].filter(Boolean).join(" ") : help;
      for (const lang of partitionsOf(schemaField)) {
        add(schemaField, lang, "json", { name: inputName(schemaField.name, lang), type: "textarea", label: withLanguage(label, lang), validation: required(lang) ? "required:trim" : "", ...(jsonHelp ? { help: jsonHelp } : {}), rows: 8, control });
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
    const base: FormField = { ...mapped, label, ...(options ? { options } : {}), ...(help ? { help } : {}), ...valueControl(schemaField, language) };
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

/** A place as the store keeps it: latitude and longitude in range (an address may come with it). */
function isPlace(value: unknown): boolean {
  if (!value || typeof value !== "object" || Array.isArray(value)) return false;
  const { latitude, longitude } = value as Record<string, unknown>;
  return typeof latitude === "number" && typeof longitude === "number" && Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180;
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
  for (const [name, spec] of form.inputs) {
    const fieldName = spec.field.name;
    let cell = cells.get(fieldName);
    if (!cell) cells.set(fieldName, (cell = { ...(stored[fieldName] ?? {}) }));
    const raw = values[name];
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
        if (spec.field.properties.fieldType === "Geolocation" && !isPlace(value)) {
          errors[name] = [w.badPlace];
          continue;
        }
      }
    } else {
      value = fromInput(spec.field, raw, cell[spec.partition]);
    }
    if (value === undefined || value === null) delete cell[spec.partition];
    else cell[spec.partition] = value;
  }
  if (Object.keys(errors).length) throw new ItemInputError(errors);
  const data: ContentData = { ...stored };
  for (const [fieldName, cell] of cells) {
    if (Object.keys(cell).length) data[fieldName] = cell;
    else delete data[fieldName];
  }
  return data;
}

/** The labels of a schema's nested fields (list entries) by name. */
export function nestedLabelsOf(schema: Schema, extra: Readonly<Record<string, string>> = {}, language: Language = DEFAULT_LANGUAGE): Record<string, string> {
  const labels: Record<string, string> = { ...extra };
  for (const f of schema.fields) for (const n of f.nested ?? []) labels[n.name] = nestedFieldLabel(schema.name, f.name, n, language);
  return labels;
}

/**
 * The store's validation messages (`name.iv: Field is required.`, `children.de[2].label: …`) as
 * messages per form input, so they show beside the field; messages for fields outside the form stay
 * in `rest`.
 */
export function storeErrorsByField(
  schema: Schema,
  details: readonly string[],
  form: AdminItemForm = adminItemForm(schema),
  /** Labels of nested fields (a list entry's, a component's) by name: the place is said in words. */
  nestedLabels: Readonly<Record<string, string>> = nestedLabelsOf(schema),
): { errors: Record<string, string[]>; rest: string[] } {
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
    if (name) {
      const place = match![3]!.replace(/^\./, "").replace(/(^|\.)([A-Za-z0-9_-]+)/g, (all, dot: string, part: string) => (Object.hasOwn(nestedLabels, part) ? `${dot}${nestedLabels[part]}` : all));
      (errors[name] ??= []).push(`${place ? `${place}: ` : ""}${match![4] || detail}`);
    }
    else rest.push(detail);
  }
  return { errors, rest };
}
