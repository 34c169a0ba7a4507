import { ContentError } from "~/content/errors";
import { firstValues, readForm, readJson } from "~/lib/body";
import { HONEYPOT_FIELD, STAMP_FIELD, type FormDefinition, type FormProblem, type FormValues } from "./definition";
import { validateSubmission, type FormLanguage } from "./engine";
import { uiText } from "./locale";

/** A visitor's form is a few fields of text; nothing legitimate comes near this. */
export const FORM_BODY_LIMIT = 64 * 1024;

/** A submission the rules refused: 400 with the form's message and one list of messages per field. */
export class FormRejected extends ContentError {
  constructor(
    message: string,
    readonly errors: Record<string, string[]>,
  ) {
    super(400, message);
  }

  override toJSON() {
    return { ...super.toJSON(), errors: this.errors };
  }

  get problem(): FormProblem {
    return { message: this.message, errors: this.errors };
  }
}

export interface Submission {
  /** Every field as sent (strings from a form; any JSON value from an API client). */
  data: Record<string, unknown>;
  /** The form was posted by a browser as a form (no JavaScript), not as JSON. */
  isForm: boolean;
}

/** Reads a form post or a JSON object (the body readers of lib/body.ts: limits, 415 for other types). */
export async function readSubmission(request: Request, limit = FORM_BODY_LIMIT): Promise<Submission> {
  if (/^application\/x-www-form-urlencoded\s*(;|$)/i.test(request.headers.get("content-type") ?? "")) {
    return { data: firstValues(await readForm(request, limit)), isForm: true };
  }
  const parsed = await readJson(request, limit);
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new ContentError(400, "Send a JSON object.");
  return { data: parsed as Record<string, unknown>, isForm: false };
}

/** The language a submission asks for: its `language` field when it names one, else the page's. */
export function submissionLanguage(data: Record<string, unknown>, fallback: FormLanguage): FormLanguage {
  return data.language === "en" || data.language === "de" ? data.language : fallback;
}

/** Checks a submission with the form's rules; throws FormRejected (400) with the messages. */
export async function requireValid(definition: FormDefinition, data: Record<string, unknown>, language: FormLanguage): Promise<FormValues> {
  const result = await validateSubmission(definition, data, language);
  if (!result.valid) throw new FormRejected(uiText(language, "incomplete"), result.errors);
  return result.values;
}

/** The spam fields of a submission (see forms/spam.server.ts). */
export function spamFields(data: Record<string, unknown>) {
  const text = (v: unknown) => (typeof v === "string" ? v : null);
  return { honeypot: text(data[HONEYPOT_FIELD]), stamp: text(data[STAMP_FIELD]) };
}

/** Messages for refusals that are not about one field, in the visitor's language. */
export const refusalTexts = {
  de: {
    tooMany: (seconds: number) => `Zu viele Versuche. Bitte warten Sie ${Math.max(1, Math.ceil(seconds / 60))} Minute(n) und versuchen Sie es dann noch einmal.`,
    spam: "Das Formular wurde zu schnell oder unvollständig gesendet. Bitte versuchen Sie es noch einmal.",
  },
  en: {
    tooMany: (seconds: number) => `Too many attempts. Please wait ${Math.max(1, Math.ceil(seconds / 60))} minute(s) and try again.`,
    spam: "The form was sent too quickly or incompletely. Please try again.",
  },
};

