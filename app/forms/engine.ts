import { createMessage, createNode, type FormKitNode, type FormKitPlugin } from "@formkit/core";
import { createI18nPlugin } from "@formkit/i18n";
import * as rules from "@formkit/rules";
import { createValidationPlugin } from "@formkit/validation";
import { MAX_FIELD_CHARS, initialValue, type FormDefinition, type FormField, type FormValues } from "./definition";
import { formLocales } from "./locale";

/**
 * The validation engine: FormKit's core, rules and messages (see docs/decisions/0011-forms-engine.md),
 * the same in the browser and on the server. Plugins are installed i18n first: added to live nodes
 * in the other order, the first messages stay FormKit's untranslated fallback.
 */
export const basePlugins: FormKitPlugin[] = [createI18nPlugin(formLocales), createValidationPlugin(rules)];

export type FormLanguage = "de" | "en";

/** Debounce hints `(200)` only make sense while someone types; the server runs each rule at once. */
export const withoutDebounce = (validation: string) => validation.replace(/\(\d+\)/g, "");

/** Node props of a field: its rules, label and the field's own message for every rule when it has one. */
export function fieldProps(field: FormField, server = false) {
  const validation = server ? withoutDebounce(field.validation ?? "") : (field.validation ?? "");
  const ruleNames = [...validation.matchAll(/(?:^|\|)[*+?]*(?:\(\d+\))?[*+?]*([a-z_]+)/g)].map((m) => m[1]!);
  return {
    validation,
    label: field.label,
    validationLabel: field.label,
    ...(field.errorMessage ? { validationMessages: Object.fromEntries(ruleNames.map((r) => [r, field.errorMessage!])) } : {}),
  };
}

/**
 * Counters FormKit's own bindings register and a bare setup must register itself: without them
 * `ledger.value('blocking')` is always 0 and an invalid form would submit.
 */
export function countLedger(node: FormKitNode) {
  node.ledger.count("blocking", (m) => m.blocking);
  node.ledger.count("validating", (m) => m.key === "validating");
}

/** Destroys children before their parent: FormKit's i18n keeps every node until it is destroyed itself. */
export function destroyDeep(node: FormKitNode) {
  for (const child of [...node.children]) destroyDeep(child as FormKitNode);
  node.destroy();
}

export const submittedMessage = () => createMessage({ key: "submitted", value: true, visible: false });

export interface ValidationResult {
  valid: boolean;
  /** Blocking messages per field, in the request's language. */
  errors: Record<string, string[]>;
  /** The defined fields' values (nothing else from the input), strings trimmed. */
  values: FormValues;
}

/**
 * The server's check of a submission: the form's own rules over the fields it defines, in the
 * request's language. Anything not a string (or, for a checkbox, a boolean) is refused with a
 * message, and no text may be longer than MAX_FIELD_CHARS, whatever its rules say.
 */
export async function validateSubmission(definition: FormDefinition, data: Record<string, unknown>, language: FormLanguage): Promise<ValidationResult> {
  const errors: Record<string, string[]> = {};
  const values: FormValues = {};
  for (const field of definition.fields) {
    const given = Object.hasOwn(data, field.name) ? data[field.name] : undefined;
    const typeProblem = checkType(field, given, language);
    if (typeProblem) errors[field.name] = [typeProblem];
    else values[field.name] = initialValue(field, given === undefined || given === null ? (field.type === "checkbox" ? false : "") : given);
  }
  const form = createNode({ type: "group", name: definition.id, value: {}, config: { locale: language }, plugins: basePlugins });
  countLedger(form);
  try {
    for (const field of definition.fields) {
      if (errors[field.name] || field.type === "hidden") continue;
      createNode({ type: "input", name: field.name, parent: form, value: values[field.name], props: fieldProps(field, true) });
    }
    await form.settled;
    await form.ledger.settled("validating");
    form.walk((node) => {
      const messages = Object.values(node.store)
        .filter((m) => m.type === "validation" && m.blocking)
        .map((m) => String(m.value));
      if (messages.length && node.name) errors[node.name] = messages;
    });
  } finally {
    destroyDeep(form);
  }
  for (const [name, value] of Object.entries(values)) if (typeof value === "string") values[name] = value.trim();
  return { valid: Object.keys(errors).length === 0, errors, values };
}

const TYPE_MESSAGES = {
  de: { text: "Bitte geben Sie einen Text ein.", long: (n: number) => `Bitte höchstens ${n} Zeichen eingeben.`, choice: "Bitte wählen Sie einen der angebotenen Werte." },
  en: { text: "Please enter text.", long: (n: number) => `Please enter at most ${n} characters.`, choice: "Please choose one of the offered values." },
};

function checkType(field: FormField, value: unknown, language: FormLanguage): string | null {
  const t = TYPE_MESSAGES[language];
  if (value === undefined || value === null) return null;
  if (field.type === "checkbox") return typeof value === "boolean" || value === "on" || value === "true" || value === "false" ? null : t.choice;
  if (field.type === "number" && typeof value === "number") return Number.isFinite(value) ? null : t.text;
  if (typeof value !== "string") return t.text;
  if (value.length > MAX_FIELD_CHARS) return t.long(MAX_FIELD_CHARS);
  if (value.includes("\u0000")) return t.text;
  if ((field.type === "select" || field.type === "radio") && value !== "" && field.options && !field.options.some((o) => o.value === value)) return t.choice;
  return null;
}
