import { de as fkDe, en as fkEn, sentence } from "@formkit/i18n";
import { createMessageName } from "@formkit/validation";
import type { FormKitNode } from "@formkit/core";

/**
 * The validation texts: FormKit's German and English, with its gaps fixed (see
 * ../shared/notes/formkit.md §3): German lists join with "oder", dates are written the German (or
 * British) way whatever the runtime's locale is — so server and browser render the same text — and
 * the four date rules FormKit has no text for get one. The §8 texts (required, email, confirm,
 * number, url, incomplete) are FormKit's own and stay exactly as they are.
 */
type Args = { name: string; args: unknown[]; node: FormKitNode };
type MessageFn = (a: Args) => string;

const formatters = {
  de: new Intl.DateTimeFormat("de-DE", { day: "2-digit", month: "2-digit", year: "numeric", timeZone: "UTC" }),
  en: new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }),
};

/** A rule argument as a date (rule arguments are strings like 2030-01-01, read as that day in UTC). */
function day(language: "de" | "en", value: unknown): string {
  const parsed = value instanceof Date ? value : new Date(Date.parse(String(value)));
  return Number.isNaN(parsed.getTime()) ? String(value) : formatters[language].format(parsed);
}

/** The label of another field a rule names (date_after_node:start), or the address itself. */
function otherName(node: FormKitNode, address: unknown): string {
  const other = typeof address === "string" ? node.at(address) : undefined;
  return other ? createMessageName(other) : String(address ?? "");
}

/** "a, b oder c": German puts no comma before the conjunction. */
function oder(items: unknown[]): string {
  const words = items.map(String);
  return words.length < 2 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} oder ${words.at(-1)}`;
}

/** require_one's names: this field's and the other fields' labels, the first capitalised. */
function requireOneNames(name: string, node: FormKitNode, args: unknown[]): string[] {
  const others = args.map((a) => (typeof a === "string" ? node.at(a) : undefined)).filter((n): n is FormKitNode => !!n);
  return [name, ...others.map((n) => createMessageName(n))];
}

const deValidation: Record<string, MessageFn | string> = {
  ...(fkDe.validation as Record<string, MessageFn | string>),
  starts_with: ({ name, args }) => `${sentence(name)} beginnt nicht mit ${oder(args)}.`,
  ends_with: ({ name, args }) => `${sentence(name)} endet nicht mit ${oder(args)}.`,
  require_one: ({ name, args, node }) => `${sentence(oder(requireOneNames(name, node, args)))} ist erforderlich.`,
  alpha_spaces: ({ name }) => `${sentence(name)} darf nur Buchstaben und Leerzeichen enthalten.`,
  not: ({ name, node }) => `„${String(node.value)}“ ist kein gültiger Wert für ${name}.`,
  date_after: ({ name, args }) =>
    args.length ? `${sentence(name)} muss nach dem ${day("de", args[0])} liegen.` : `${sentence(name)} muss in der Zukunft liegen.`,
  date_before: ({ name, args }) =>
    args.length ? `${sentence(name)} muss vor dem ${day("de", args[0])} liegen.` : `${sentence(name)} muss in der Vergangenheit liegen.`,
  date_between: ({ name, args }) => `${sentence(name)} muss zwischen dem ${day("de", args[0])} und dem ${day("de", args[1])} liegen.`,
  date_after_or_equal: ({ name, args }) =>
    args.length ? `${sentence(name)} darf nicht vor dem ${day("de", args[0])} liegen.` : `${sentence(name)} darf nicht in der Vergangenheit liegen.`,
  date_before_or_equal: ({ name, args }) =>
    args.length ? `${sentence(name)} darf nicht nach dem ${day("de", args[0])} liegen.` : `${sentence(name)} darf nicht in der Zukunft liegen.`,
  date_after_node: ({ name, args, node }) => `${sentence(name)} muss nach ${otherName(node, args[0])} liegen.`,
  date_before_node: ({ name, args, node }) => `${sentence(name)} muss vor ${otherName(node, args[0])} liegen.`,
};

const enValidation: Record<string, MessageFn | string> = {
  ...(fkEn.validation as Record<string, MessageFn | string>),
  require_one: ({ name, args, node }) => `${sentence(requireOneNames(name, node, args).join(" or "))} is required.`,
  date_after: ({ name, args }) => (args.length ? `${sentence(name)} must be after ${day("en", args[0])}.` : `${sentence(name)} must be in the future.`),
  date_before: ({ name, args }) => (args.length ? `${sentence(name)} must be before ${day("en", args[0])}.` : `${sentence(name)} must be in the past.`),
  date_between: ({ name, args }) => `${sentence(name)} must be between ${day("en", args[0])} and ${day("en", args[1])}.`,
  date_format: ({ name, args }) =>
    args.length ? `${sentence(name)} is not a valid date, please use the format ${String(args[0])}.` : "This field was configured incorrectly and can’t be submitted.",
  date_after_or_equal: ({ name, args }) =>
    args.length ? `${sentence(name)} must not be before ${day("en", args[0])}.` : `${sentence(name)} must not be in the past.`,
  date_before_or_equal: ({ name, args }) =>
    args.length ? `${sentence(name)} must not be after ${day("en", args[0])}.` : `${sentence(name)} must not be in the future.`,
  date_after_node: ({ name, args, node }) => `${sentence(name)} must be after ${otherName(node, args[0])}.`,
  date_before_node: ({ name, args, node }) => `${sentence(name)} must be before ${otherName(node, args[0])}.`,
};

export const formLocales = {
  de: { ui: fkDe.ui, validation: deValidation },
  en: { ui: fkEn.ui, validation: enValidation },
};

/** UI texts of a form, taken directly (a bare node on the server has no i18n plugin to ask). */
export function uiText(language: "de" | "en", key: "incomplete" | "submit" | "isLoading"): string {
  return String((formLocales[language].ui as Record<string, unknown>)[key]);
}
