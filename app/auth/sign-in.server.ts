import { setTimeout as sleep } from "node:timers/promises";
import type { AppLoadContext } from "react-router";
import type { FormProblem } from "~/forms/definition";
import { requireValid } from "~/forms/submission.server";
import { submissionProblem } from "~/forms/guard.server";
import type { Language } from "~/i18n/languages";
import { loginForm, loginTexts } from "./login-form";
import { DEVICE_COOKIE, deviceCookie } from "./device.server";
import { readCookie, sessionCookies } from "./session.server";
import type { User } from "./users.server";

type HeaderList = Array<[string, string]>;
export type SignInAnswer = { ok: true; user: User; headers: HeaderList } | { ok: false; status: number; problem: FormProblem; headers: HeaderList };

/** What the browser may know of the signed-in user. */
export function publicUser(user: User) {
  return { id: user.id, email: user.email, name: user.name, role: user.role, superuser: user.superuser, language: user.language };
}

/**
 * One sign-in, for the login page's action (a plain form post) and for `POST /api/_auth/session`:
 * the form's rules, the throttle (429 with Retry-After), the same answer for an unknown address
 * and a wrong password (held back by the progressive delay), and on success a new sealed session
 * cookie (a new one at every sign-in, whatever the request brought) and a new device cookie.
 * `cookieHeader`: the request's Cookie header, for the device cookie it may carry.
 */
export async function signIn(context: AppLoadContext, data: Record<string, unknown>, language: Language, cookieHeader: string | null): Promise<SignInAnswer> {
  const t = loginTexts[language];
  const noStore: HeaderList = [["Cache-Control", "no-store"]];
  let values;
  try {
    values = await requireValid(loginForm(language), data, language);
  } catch (error) {
    return { ok: false, status: 400, problem: submissionProblem(error, language), headers: noStore };
  }
  const result = await context.services.auth.signIn(String(values.email), String(values.password), context.clientIp, readCookie(cookieHeader, DEVICE_COOKIE));
  if (result.ok) {
    const device: [string, string] = ["Set-Cookie", deviceCookie(result.device.value, result.device.maxAge, context.secure)];
    return { ok: true, user: result.user, headers: [...noStore, ...sessionCookies(result.cookie.value, result.cookie.maxAge, context.secure), device] };
  }
  if (result.reason === "throttled") {
    return { ok: false, status: 429, problem: { message: t.throttled(result.retryAfterSeconds) }, headers: [...noStore, ["Retry-After", String(result.retryAfterSeconds)]] };
  }
  if (result.delayMs) await sleep(result.delayMs);
  return { ok: false, status: 401, problem: { message: t.invalid }, headers: noStore };
}
