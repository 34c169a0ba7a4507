/**
 * What a form is, as plain data: made once (from a content schema or by hand), rendered by the
 * browser and checked by the server with the same rules. It goes through loader data, so it holds
 * nothing but JSON.
 */
export type FieldType = "text" | "textarea" | "email" | "password" | "tel" | "url" | "number" | "date" | "checkbox" | "select" | "radio" | "hidden";

/** When a field's messages show (§4): after leaving it (default), after changing it (checkboxes), at once, or only on submit. */
export type Visibility = "blur" | "dirty" | "live" | "submit";

export interface FieldOption {
  value: string;
  label: string;
}

export interface FormField {
  name: string;
  type: FieldType;
  label: string;
  /** FormKit rule string: `required|length:3,100`, with the `* + ? (ms)` hints. */
  validation?: string;
  /** A text used for every failing rule of this field instead of the rule's own (dictionary `error-<name>`). */
  errorMessage?: string;
  placeholder?: string;
  help?: string;
  options?: FieldOption[];
  /** The value a new form starts with (schema defaultValue). */
  value?: string | boolean;
  visibility?: Visibility;
  autocomplete?: string;
  /** A link after the label (the privacy policy of a consent checkbox). */
  link?: { href: string; text: string };
  /** Lines of a textarea. */
  rows?: number;
  /**
   * A control of the page's own instead of a plain input (a picker, a map, rows of a list): named by
   * `kind`, found in the `controls` the form is rendered with, with `props` as plain data. The engine
   * still holds and checks the field's value as text; without that control a textarea shows it.
   */
  control?: { kind: string; props?: Record<string, unknown> };
}

export interface FormDefinition {
  /** Unique on the page: ids of inputs and messages are made from it. */
  id: string;
  fields: FormField[];
}

/** Field values as a form holds them: text as strings, checkboxes as booleans. */
export type FormValues = Record<string, string | boolean>;

/** A server's answer to a submission that was not taken: messages per field and for the form. */
export interface FormProblem {
  message: string;
  errors?: Record<string, string[]>;
}

/** The visibility a field gets when its definition names none (§9: blur, dirty for checkboxes). */
export const defaultVisibility = (field: FormField): Visibility => field.visibility ?? (field.type === "checkbox" ? "dirty" : "blur");

/** The longest text any field takes, whatever its rules: nothing legitimate comes near it. */
export const MAX_FIELD_CHARS = 10_000;

/** The value a field starts with in an empty form. */
export function initialValue(field: FormField, given?: unknown): string | boolean {
  if (field.type === "checkbox") return given === undefined ? field.value === true : given === true || given === "true" || given === "on";
  if (typeof given === "string") return given;
  if (typeof given === "number" && Number.isFinite(given)) return String(given);
  return typeof field.value === "string" ? field.value : "";
}

/** The honeypot: a field people never see or fill; bots that fill every input give themselves away. */
export const HONEYPOT_FIELD = "website_url";
/** A hidden field with the signed time the form was made (a minimum fill time against bots). */
export const STAMP_FIELD = "form_stamp";

/**
 * A form made once per language: the same object every time, so the server's checking trees are
 * found by identity (see engine.ts) and nothing is rebuilt per request. Definitions are not changed
 * after they are made.
 */
export function perLanguage(make: (language: "de" | "en") => FormDefinition): (language: "de" | "en") => FormDefinition {
  const made = new Map<string, FormDefinition>();
  return (language) => {
    let form = made.get(language);
    if (!form) made.set(language, (form = make(language)));
    return form;
  };
}

/** The definition with one field's link pointing elsewhere (the privacy page where editors put it). */
export function withLink(definition: FormDefinition, fieldName: string, href: string): FormDefinition {
  return { ...definition, fields: definition.fields.map((f) => (f.name === fieldName && f.link && f.link.href !== href ? { ...f, link: { ...f.link, href } } : f)) };
}
