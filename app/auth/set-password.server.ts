import type { AppLoadContext } from "react-router";
import type { FormProblem } from "~/forms/definition";
import { submissionProblem, submissionStatus } from "~/forms/guard.server";
import { requireValid } from "~/forms/submission.server";
import type { Language } from "~/i18n/languages";
import { deviceCookie } from "./device.server";
import { loginTexts, setPasswordForm } from "./login-form";

/**
 * Sets a password through an invitation or reset link (page action and JSON API alike). The browser
 * that opened the mailed link gets a device cookie for the account: the owner can sign in from it
 * even while strangers keep the account locked (device.server.ts).
 */
export async function setPasswordWithToken(
  context: AppLoadContext,
  data: Record<string, unknown>,
  language: Language,
): Promise<{ ok: true; headers: Array<[string, string]> } | { ok: false; status: number; problem: FormProblem }> {
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
  const device = context.services.auth.devices.issue({ id: user.id, sessionGeneration: user.sessionGeneration + 1 });
  return { ok: true, headers: [["Set-Cookie", deviceCookie(device.value, device.maxAge, context.secure)]] };
}
