import type { AppLoadContext } from "react-router";
import { ContentError } from "~/content/errors";
import { guardSubmission } from "~/forms/guard.server";
import { requireValid, type Submission } from "~/forms/submission.server";
import type { Language } from "~/i18n/languages";
import { registrationTexts } from "./texts";

/** A continue link that can no longer save: finished, expired, forged (403) or gone (404). */
export class RegistrationClosed extends ContentError {
  constructor(
    readonly reason: "invalid" | "expired" | "gone" | "finished",
    message: string,
  ) {
    super(reason === "gone" ? 404 : 403, message);
  }
}

export type RegistrationOutcome = { kind: "created" | "saved" | "finished"; id: string; message: string };

/**
 * A registration as the page's form (no JavaScript) and the JSON API both take it: without an id a
 * new hidden draft, with the continue link's id and token a save of that draft (403 once finished,
 * 404 when gone). The form's rules in the visitor's language, the spam and rate checks first.
 */
export async function submitRegistration(context: AppLoadContext, id: string | undefined, submission: Submission, language: Language, origin: string): Promise<RegistrationOutcome> {
  const { registration } = context.services;
  const t = registrationTexts[language];
  const valid = await requireValid(await registration.form(language, { continuing: id !== undefined }), submission.data, language);
  await guardSubmission(context, "registration", id ?? String(valid.email).toLowerCase(), submission, language);
  if (id === undefined) return { kind: "created", id: await registration.register(valid, language, origin), message: t.sent };
  const state = await registration.update(id, submission.data.token, valid, language, origin);
  if (!state.ok) throw new RegistrationClosed(state.reason, t[state.reason]);
  return valid.finish === true ? { kind: "finished", id, message: t.finishedNow } : { kind: "saved", id, message: t.saved };
}
