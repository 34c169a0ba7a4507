import type { AppLoadContext } from "react-router";
import type { FormProblem } from "~/forms/definition";
import { submissionProblem, submissionStatus } from "~/forms/guard.server";
import { requireValid } from "~/forms/submission.server";
import type { Language } from "~/i18n/languages";
import { loginTexts, setPasswordForm } from "./login-form";

/** Sets a password through an invitation or reset link (page action and JSON API alike). */
export async function setPasswordWithToken(context: AppLoadContext, data: Record<string, unknown>, language: Language): Promise<{ ok: true } | { ok: false; status: number; problem: FormProblem }> {
  const t = loginTexts[language];
  const user = await context.services.auth.userForToken(data.token);
  if (!user) return { ok: false, status: 403, problem: { message: t.linkInvalid } };
  try {
    const values = await requireValid(setPasswordForm(language), data, language);
    const problem = await context.services.auth.setPassword(user, String(values.password));
    if (problem) return { ok: false, status: 400, problem: { message: t.passwordProblems[problem], errors: { password: [t.passwordProblems[problem]] } } };
  } catch (error) {
    return { ok: false, status: submissionStatus(error), problem: submissionProblem(error, language) };
  }
  await context.services.auth.audit.record(user, { action: "set-password" });
  return { ok: true };
}
