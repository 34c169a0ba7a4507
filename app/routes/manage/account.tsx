import { data, Form, redirect, useActionData, useNavigation } from "react-router";
import type { Route } from "./+types/account";
import { admin, askFirst, isConfirmed, readAdminForm, refused, done, type AdminResult, type Confirmation } from "~/admin/admin.server";
import { AdminPage, buttonClass, ConfirmStep, inputClass, SaveNotice, TextField } from "~/admin/ui";
import { routeAccess } from "~/auth/access";
import { loginTexts } from "~/auth/login-form";
import { DEVICE_COOKIE, deviceCookie } from "~/auth/device.server";
import { clearedSessionCookies, readCookie, readSessionCookie, sessionCookies } from "~/auth/session.server";
import type { Language } from "~/i18n/languages";

/**
 * `/manage/account`: the signed-in user's own settings: the admin language, a new password (which
 * ends every other session), signing out here or everywhere.
 */
export const handle = routeAccess("auth");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

const texts = {
  de: {
    title: "Mein Konto",
    email: "E-Mail-Adresse",
    role: "Rolle",
    language: "Sprache der Verwaltung",
    saveLanguage: "Sprache speichern",
    passwordTitle: "Passwort ändern",
    currentPassword: "Aktuelles Passwort",
    newPassword: "Neues Passwort",
    passwordHelp: "Mindestens 10 Zeichen. Alle anderen Sitzungen werden beendet.",
    changePassword: "Passwort ändern",
    wrongPassword: "Das aktuelle Passwort stimmt nicht.",
    passwordThrottled: (seconds: number) => `Zu viele falsche Passwörter. Bitte warten Sie ${Math.max(1, Math.ceil(seconds / 60))} Minute(n) und versuchen Sie es dann erneut.`,
    passwordChanged: "Passwort geändert. Andere Sitzungen sind beendet.",
    languageSaved: "Sprache gespeichert.",
    sessionsTitle: "Sitzungen",
    sessionsIntro: "Melden Sie sich auf allen Geräten ab, etwa wenn Sie ein Gerät verloren haben.",
    signOutEverywhere: "Überall abmelden",
    confirmEverywhere: "Wirklich auf allen Geräten abmelden?",
    confirmEverywhereDetail: "Alle Ihre Sitzungen enden, auch diese hier und die auf Ihren anderen Geräten: Sie müssen sich überall neu anmelden. Nicht gespeicherte Eingaben in anderen Fenstern gehen verloren.",
    yesEverywhere: "Ja, überall abmelden",
    unknownIntent: "Unbekannte Aktion.",
  },
  en: {
    title: "My account",
    email: "Email address",
    role: "Role",
    language: "Admin language",
    saveLanguage: "Save language",
    passwordTitle: "Change password",
    currentPassword: "Current password",
    newPassword: "New password",
    passwordHelp: "At least 10 characters. Every other session ends.",
    changePassword: "Change password",
    wrongPassword: "The current password is wrong.",
    passwordThrottled: (seconds: number) => `Too many wrong passwords. Please wait ${Math.max(1, Math.ceil(seconds / 60))} minute(s) and try again.`,
    passwordChanged: "Password changed. Other sessions have ended.",
    languageSaved: "Language saved.",
    sessionsTitle: "Sessions",
    sessionsIntro: "Sign out on every device, for example after losing one.",
    signOutEverywhere: "Sign out everywhere",
    confirmEverywhere: "Really sign out on every device?",
    confirmEverywhereDetail: "All your sessions end, this one and those on your other devices: you will have to sign in again everywhere. Unsaved input in other windows is lost.",
    yesEverywhere: "Yes, sign out everywhere",
    unknownIntent: "Unknown action.",
  },
} satisfies Record<Language, unknown>;

/** Private, as every admin page (the layout's headers); a refusal's Retry-After (429) passes through from the action. */
export const headers: Route.HeadersFunction = ({ parentHeaders, actionHeaders }) => {
  const headers = new Headers(parentHeaders);
  const retry = actionHeaders.get("Retry-After");
  if (retry) headers.set("Retry-After", retry);
  return headers;
};

export function loader(args: Route.LoaderArgs) {
  const { user, language, t } = admin(args);
  return { text: texts[language], email: user.email, role: user.superuser ? t.superuser : t.editor, language };
}

export async function action(args: Route.ActionArgs) {
  const { context } = args;
  const fields = await readAdminForm(args.request);
  // Signing out needs no valid session (an expired one still gets its cookie cleared).
  if (fields.intent === "sign-out") {
    await context.services.auth.signOut(readSessionCookie(args.request.headers.get("cookie")));
    return redirect("/login", { headers: [...clearedSessionCookies(context.secure), ["Cache-Control", "no-store"]] });
  }
  const { user, language, services } = admin(args);
  const text = texts[language];
  const { auth } = services;
  // This browser keeps its trust as a device of the account under the new generation; every other device loses it.
  const newDevice = (): [string, string] => {
    const device = auth.devices.issue({ id: user.id, sessionGeneration: user.sessionGeneration + 1 });
    return ["Set-Cookie", deviceCookie(device.value, device.maxAge, context.secure)];
  };
  if (fields.intent === "sign-out-everywhere") {
    // Asked first, by the server: a post that was not confirmed signs nobody out.
    if (!isConfirmed(fields)) return askFirst({ question: text.confirmEverywhere, detail: text.confirmEverywhereDetail, confirmLabel: text.yesEverywhere, fields: { intent: "sign-out-everywhere" } });
    await auth.users.endSessions(user.id);
    await auth.audit.record(user, { action: "sign-out-everywhere" });
    return redirect("/login", { headers: [...clearedSessionCookies(context.secure), newDevice(), ["Cache-Control", "no-store"]] });
  }
  if (fields.intent === "language") {
    const next = fields.language === "en" ? "en" : fields.language === "de" ? "de" : null;
    if (!next) return refused(text.unknownIntent);
    await auth.users.update(user.id, { language: next });
    await auth.audit.record(user, { action: "change-language", detail: next });
    return done(texts[next].languageSaved);
  }
  if (fields.intent === "password") {
    // Throttled and counted as sign-ins to the account: a stolen session cannot guess the password here.
    const check = await auth.confirmPassword(user, fields.current ?? "", context.clientIp, readCookie(args.request.headers.get("cookie"), DEVICE_COOKIE));
    if (!check.ok && check.reason === "throttled") {
      const message = text.passwordThrottled(check.retryAfterSeconds);
      return data<AdminResult>({ ok: false, message, errors: { current: [message] } }, { status: 429, headers: { "Retry-After": String(check.retryAfterSeconds) } });
    }
    if (!check.ok) {
      // Held back like a failed sign-in (progressive delay).
      if (check.delayMs) await new Promise((resolve) => setTimeout(resolve, check.delayMs));
      return refused(text.wrongPassword, 400, { current: [text.wrongPassword] });
    }
    const problem = await auth.setPassword(user, fields.password ?? "");
    if (problem) {
      const message = loginTexts[language].passwordProblems[problem];
      return refused(message, 400, { password: [message] });
    }
    await auth.audit.record(user, { action: "change-password" });
    // This session goes on under the new generation; every other one has ended.
    const cookie = await auth.sealer.seal({ uid: user.id, gen: user.sessionGeneration + 1, auth: Math.floor(Date.now() / 1000) });
    return data({ ok: true, message: text.passwordChanged }, { headers: [...sessionCookies(cookie.value, cookie.maxAge, context.secure), newDevice()] });
  }
  return refused(text.unknownIntent);
}

export default function Account({ loaderData }: Route.ComponentProps) {
  const { text, email, role, language } = loaderData;
  const result = useActionData<typeof action>() as { ok: boolean; message: string; errors?: Record<string, string[]>; confirm?: Confirmation } | undefined;
  const busy = useNavigation().state === "submitting";
  return (
    <AdminPage title={text.title}>
      <SaveNotice result={result} />
      <dl className="grid max-w-xl grid-cols-[auto_1fr] gap-x-6 gap-y-2">
        <dt className="font-semibold">{text.email}</dt>
        <dd>{email}</dd>
        <dt className="font-semibold">{text.role}</dt>
        <dd>{role}</dd>
      </dl>
      <Form method="post" className="max-w-xl space-y-3 rounded border border-slate-300 bg-white p-4">
        <input type="hidden" name="intent" value="language" />
        <label htmlFor="admin-language" className="block font-semibold">
          {text.language}
        </label>
        <select id="admin-language" name="language" defaultValue={language} className={inputClass}>
          <option value="de">Deutsch</option>
          <option value="en">English</option>
        </select>
        <button type="submit" className={buttonClass()} disabled={busy}>
          {text.saveLanguage}
        </button>
      </Form>
      <Form method="post" className="max-w-xl space-y-3 rounded border border-slate-300 bg-white p-4">
        <h2 className="text-lg font-bold">{text.passwordTitle}</h2>
        <input type="hidden" name="intent" value="password" />
        <TextField label={text.currentPassword} name="current" type="password" required autoComplete="current-password" error={result?.errors?.current?.[0]} />
        <TextField label={text.newPassword} name="password" type="password" required autoComplete="new-password" help={text.passwordHelp} error={result?.errors?.password?.[0]} />
        <button type="submit" className={buttonClass()} disabled={busy}>
          {text.changePassword}
        </button>
      </Form>
      <section className="max-w-xl space-y-3 rounded border border-slate-300 bg-white p-4" aria-labelledby="sessions-title">
        <h2 id="sessions-title" className="text-lg font-bold">
          {text.sessionsTitle}
        </h2>
        <p>{text.sessionsIntro}</p>
        {/* The server answers with its question first (ConfirmStep); the confirmed post reloads the document, to the sign-in page. */}
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="sign-out-everywhere" />
          <button type="submit" className={buttonClass("danger")} data-sign-out-everywhere>
            {text.signOutEverywhere}
          </button>
        </Form>
        <ConfirmStep confirm={result?.confirm} Form={Form} cancelHref="/manage/account" reloadDocument />
      </section>
    </AdminPage>
  );
}
