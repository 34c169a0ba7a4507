import { createMessage, createNode, type FormKitNode, type FormKitPlugin } from "@formkit/core";
import { createI18nPlugin } from "@formkit/i18n";
import * as rules from "@formkit/rules";
import { createValidationPlugin, type FormKitValidationRule } from "@formkit/validation";
import { MAX_FIELD_CHARS, initialValue, type FormDefinition, type FormField, type FormValues } from "./definition";
import { formLocales } from "./locale";

/**
 * The validation engine: FormKit's core, rules and messages (see docs/decisions/0011-forms-engine.md),
 * the same in the browser and on the server. Plugins are installed i18n first: added to live nodes
 * in the other order, the first messages stay FormKit's untranslated fallback.
 */
/**
 * §5: confirm equals the field with a `_confirm` suffix *or prefix* (FormKit's own rule knows only
 * the suffix): `password_confirm` and `confirm_password` both compare with `password`, and
 * `password` with `password_confirm`. An explicit address (`confirm:other`) wins.
 */
const confirm: FormKitValidationRule = (node, address?: string, comparison = "loose") => {
  const name = node.name;
  const other = address || (name.endsWith("_confirm") ? name.slice(0, -"_confirm".length) : name.startsWith("confirm_") ? name.slice("confirm_".length) : `${name}_confirm`);
  const foreign = node.at(other)?.value;
  return comparison === "strict" ? node.value === foreign : node.value == foreign;
};

export const basePlugins: FormKitPlugin[] = [createI18nPlugin(formLocales), createValidationPlugin({ ...rules, confirm })];

export type FormLanguage = "de" | "en";

/** Debounce hints `(200)` only make sense while someone types; the server runs each rule at once. */
export const withoutDebounce = (validation: string) => validation.replace(/(^|\|)([*+?]*)\(\d+\)/g, "$1$2");

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
  // The rules check what is kept: the trimmed text.
  for (const [name, value] of Object.entries(values)) if (typeof value === "string") values[name] = value.trim();
  const tree = acquire(definition, language);
  try {
    // Fields with a type problem get their empty value: their rules' messages are not reported.
    // Committed at once (no input delay: nobody is typing).
    for (const [name, node] of tree.fields) void node.input(Object.hasOwn(values, name) ? values[name] : "", false);
    await tree.form.settled;
    await tree.form.ledger.settled("validating");
    for (const [name, node] of tree.fields) {
      if (errors[name]) continue;
      const messages = Object.values(node.store)
        .filter((m) => m.type === "validation" && m.blocking)
        .map((m) => String(m.value));
      if (messages.length) errors[name] = messages;
    }
    release(tree);
  } catch (error) {
    destroyDeep(tree.form);
    throw error;
  }
  return { valid: Object.keys(errors).length === 0, errors, values };
}

/**
 * Checking trees, kept per form and language: making a FormKit tree (nodes, plugins, observers)
 * costs more than validating with it, so each request borrows one, gives it values, reads the
 * messages and puts it back. A tree is only ever used by one request at a time.
 */
interface CheckTree {
  key: string;
  form: FormKitNode;
  fields: Array<[string, FormKitNode]>;
}

const POOL_PER_FORM = 16;
const MAX_POOLED_FORMS = 64;
const pools = new Map<string, CheckTree[]>();
/** Definitions are immutable once made; their key is computed once per object. */
const keys = new WeakMap<FormDefinition, string>();

function acquire(definition: FormDefinition, language: FormLanguage): CheckTree {
  let key = keys.get(definition);
  if (!key) keys.set(definition, (key = JSON.stringify(definition)));
  key = `${language}:${key}`;
  const pooled = pools.get(key)?.pop();
  if (pooled) return pooled;
  const form = createNode({ type: "group", name: definition.id, value: {}, config: { locale: language, delay: 0 }, plugins: basePlugins });
  countLedger(form);
  const fields: Array<[string, FormKitNode]> = [];
  for (const field of definition.fields) {
    if (field.type === "hidden") continue;
    const empty = field.type === "checkbox" ? false : "";
    fields.push([field.name, createNode({ type: "input", name: field.name, parent: form, value: empty, props: { ...fieldProps(field, true), delay: 0 } })]);
  }
  if (definition.fields.some((f) => TODAY_RULE.test(f.validation ?? ""))) unpooled.add(form);
  return { key, form, fields };
}

/** Date rules without an argument compare with today: a tree given the same value again would not re-check them. */
const TODAY_RULE = /(^|\|)[*+?]*(\(\d+\))?[*+?]*date_(after|before)(_or_equal)?(\||$)/;
const unpooled = new WeakSet<FormKitNode>();

function release(tree: CheckTree) {
  if (unpooled.has(tree.form)) return destroyDeep(tree.form);
  let pool = pools.get(tree.key);
  if (!pool) {
    // A bounded number of distinct forms (schemas change rarely): past it, the oldest pool goes.
    if (pools.size >= MAX_POOLED_FORMS) {
      const [oldest, trees] = pools.entries().next().value as [string, CheckTree[]];
      for (const t of trees) destroyDeep(t.form);
      pools.delete(oldest);
    }
    pools.set(tree.key, (pool = []));
  }
  if (pool.length < POOL_PER_FORM) pool.push(tree);
  else destroyDeep(tree.form);
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
