import type { SchemaField } from "~/content/types";
import type { FieldType, FormField } from "./definition";

/** Field kinds a visitor's form cannot hold as one input: edited in the admin area only. */
const NOT_FOR_FORMS = new Set(["Geolocation", "References", "Assets", "Array", "Component", "Components", "Json", "UI"]);
/** Tags that keep a field out of generated forms: §5's isHidden, and ours for fields only editors set. */
const HIDDEN_TAGS = new Set(["isHidden", "internal"]);

/** Texts a form looks up by key (`label-<field>`, `placeholder-<field>`, `error-<field>`), per language. */
export type FormDictionary = Readonly<Record<string, string>>;

const looksLikeEmail = (name: string) => name.toLowerCase() === "email";

/** §5: the input a schema field becomes. */
export function inputType(field: SchemaField): FieldType {
  const p = field.properties;
  if (p.editor === "TextArea") return "textarea";
  if (p.fieldType === "DateTime" || p.editor === "Date" || p.editor === "DateTime") return "date";
  if (p.editor === "Dropdown") return "select";
  if (p.editor === "Radio") return "radio";
  if (looksLikeEmail(field.name)) return "email";
  if (p.fieldType === "Number") return "number";
  if (p.fieldType === "Boolean") return "checkbox";
  if (p.tags?.includes("url")) return "url";
  if (field.name.toLowerCase() === "phone") return "tel";
  return "text";
}

/**
 * §5: the rule string of a schema field. Text lengths use FormKit's `length` rule, which carries
 * exactly the three translated messages the spec names (between, at least, at most — FormKit's
 * `between`/`min`/`max` compare numbers, and would refuse every word); numbers use those.
 */
export function fieldRules(field: SchemaField): string {
  const p = field.properties;
  const rules: string[] = [];
  if (p.isRequired) rules.push(p.fieldType === "Boolean" ? "accepted" : "required:trim");
  if (looksLikeEmail(field.name)) rules.push("email");
  if (p.tags?.includes("url")) rules.push("url");
  if (p.fieldType === "Number") {
    rules.push("number");
    if (p.minValue !== undefined && p.maxValue !== undefined) rules.push(`between:${p.minValue},${p.maxValue}`);
    else if (p.minValue !== undefined) rules.push(`min:${p.minValue}`);
    else if (p.maxValue !== undefined) rules.push(`max:${p.maxValue}`);
  } else if (p.fieldType !== "Boolean") {
    if (p.minLength !== undefined && p.maxLength !== undefined) rules.push(`length:${p.minLength},${p.maxLength}`);
    else if (p.minLength !== undefined) rules.push(`length:${p.minLength}`);
    else if (p.maxLength !== undefined) rules.push(`length:0,${p.maxLength}`);
  }
  // A pattern with , or | cannot be written in a rule string (those separate arguments and rules).
  if (p.pattern && !/[,|]/.test(p.pattern)) rules.push(`matches:/${p.pattern}/`);
  return rules.join("|");
}

/**
 * The form of a content schema (§5): hidden fields and fields no single input can hold are left
 * out; labels, placeholders and error texts come from the dictionary, the schema's label is the
 * fallback.
 */
export function formFieldsFromSchema(fields: readonly SchemaField[], dictionary: FormDictionary = {}): FormField[] {
  const out: FormField[] = [];
  for (const field of fields) {
    const p = field.properties;
    if (field.isHidden || p.tags?.some((t) => HIDDEN_TAGS.has(t)) || NOT_FOR_FORMS.has(p.fieldType)) continue;
    const type = inputType(field);
    const word = (kind: "label" | "placeholder" | "error") => (Object.hasOwn(dictionary, `${kind}-${field.name}`) ? dictionary[`${kind}-${field.name}`] : undefined);
    const options = p.allowedValues?.map((v) => ({ value: String(v), label: word("label") && dictionary[`option-${field.name}-${v}`] ? dictionary[`option-${field.name}-${v}`]! : String(v) }));
    const value = p.defaultValue === undefined || p.defaultValue === null ? undefined : typeof p.defaultValue === "boolean" ? p.defaultValue : String(p.defaultValue);
    const placeholder = word("placeholder") ?? p.placeholder;
    const errorMessage = word("error");
    // Schema hints are written for editors; a visitor's help text comes from the dictionary only.
    const help = Object.hasOwn(dictionary, `help-${field.name}`) ? dictionary[`help-${field.name}`] : undefined;
    out.push({
      name: field.name,
      type: type === "text" && options?.length ? "select" : type,
      label: word("label") ?? p.label ?? field.name,
      validation: fieldRules(field),
      ...(placeholder ? { placeholder } : {}),
      ...(errorMessage ? { errorMessage } : {}),
      ...(help ? { help } : {}),
      ...(options?.length ? { options } : {}),
      ...(value !== undefined ? { value } : {}),
      ...(type === "textarea" ? { rows: 5 } : {}),
    });
  }
  return out;
}
