import { data, redirect } from "react-router";
import type { Route } from "./+types/login";
import { safeRedirect } from "~/auth/access";
import { loginForm, loginTexts, setPasswordForm } from "~/auth/login-form";
import { signIn } from "~/auth/sign-in.server";
import type { FormProblem } from "~/forms/definition";
import { EngineForm, postJson } from "~/forms/react";
import { readSubmission } from "~/forms/submission.server";
import { setPasswordWithToken } from "~/auth/set-password.server";
import { submissionProblem, submissionStatus } from "~/forms/guard.server";
import { localizedPath, splitLanguage, type Language } from "~/i18n/languages";
import { originOf, seoMeta } from "~/site/seo";

/**
 * `/login` (also `/en/login`): sign in, then back to where the editor came from (`?redirect=`, a
 * path on this site only). With `?token=` from an invitation or reset mail: set a password.
 * Works without JavaScript (a plain POST with `email` and `password`).
 */
const PRIVATE = { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex" };
/** Private always; a refusal's Retry-After (429) passes through from the action. */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers(PRIVATE);
  const retry = actionHeaders.get("Retry-After");
  if (retry) headers.set("Retry-After", retry);
  return headers;
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const { language, path } = splitLanguage(url.pathname);
  const target = safeRedirect(url.searchParams.get("redirect"));
  const token = url.searchParams.get("token");
  const base = {
    language,
    target,
    origin: originOf(request, context),
    alternates: { de: localizedPath("de", path), en: localizedPath("en", path) } as Record<Language, string>,
    canonical: url.pathname,
    passwordSet: url.searchParams.get("password") === "set",
  };
  if (token !== null) {
    const user = await context.services.auth.userForToken(token);
    return data({ ...base, view: user ? ("set-password" as const) : ("link-invalid" as const), email: user?.email ?? "", token: user ? token : "" }, { status: user ? 200 : 403 });
  }
  if (context.user) throw redirect(target, { headers: PRIVATE });
  return { ...base, view: "login" as const, email: "", token: "" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const url = new URL(request.url);
  const { language } = splitLanguage(url.pathname);
  let submission;
  try {
    submission = await readSubmission(request);
  } catch (error) {
    return data({ problem: submissionProblem(error, language), email: "" }, { status: submissionStatus(error), headers: PRIVATE });
  }
  const email = typeof submission.data.email === "string" ? submission.data.email.slice(0, 320) : "";
  if (submission.data.intent === "set-password") {
    const answer = await setPasswordWithToken(context, submission.data, language);
    if (!answer.ok) return data({ problem: answer.problem, email }, { status: answer.status, headers: PRIVATE });
    return redirect(`${localizedPath(language, "/login")}?password=set`, { status: 303, headers: [...Object.entries(PRIVATE), ...answer.headers] });
  }
  const answer = await signIn(context, submission.data, language, request.headers.get("cookie"));
  if (!answer.ok) return data({ problem: answer.problem, email }, { status: answer.status, headers: [...Object.entries(PRIVATE), ...answer.headers] });
  return redirect(safeRedirect(url.searchParams.get("redirect") ?? submission.data.redirect), { status: 303, headers: [...Object.entries(PRIVATE), ...answer.headers] });
}

export const meta: Route.MetaFunction = ({ loaderData: d }) =>
  d ? seoMeta({ title: loginTexts[d.language].title, language: d.language, origin: d.origin, canonical: d.canonical, alternates: d.alternates, noindex: true }) : [];

export default function LoginPage({ loaderData, actionData }: Route.ComponentProps) {
  const { language, view, target } = loaderData;
  const t = loginTexts[language];
  const problem = (actionData?.problem ?? null) as FormProblem | null;
  const action = `${localizedPath(language, "/login")}${view === "set-password" ? `?token=${encodeURIComponent(loaderData.token)}` : `?redirect=${encodeURIComponent(target)}`}`;
  return (
    <div className="mx-auto max-w-md px-4 py-12" data-login-view={view}>
      <h1 className="text-3xl font-bold tracking-tight">{view === "login" ? t.title : t.setPasswordTitle}</h1>
      {view === "link-invalid" ? (
        <p role="alert" className="mt-6 rounded border-l-4 border-red-700 bg-red-50 p-4">
          {t.linkInvalid}
        </p>
      ) : view === "set-password" ? (
        <>
          <p className="mt-4 mb-6">{t.setPasswordIntro(loaderData.email)}</p>
          <EngineForm
            definition={setPasswordForm(language)}
            language={language}
            action={action}
            problem={problem}
            hidden={{ intent: "set-password", token: loaderData.token }}
            submitLabel={t.setPasswordSubmit}
            onSubmit={async (values) => {
              const outcome = await postJson("/api/_auth/password", { ...values, token: loaderData.token, language }, language);
              if (outcome.ok) window.location.assign(`${localizedPath(language, "/login")}?password=set`);
              return outcome;
            }}
          />
        </>
      ) : (
        <>
          {loaderData.passwordSet ? (
            <p role="status" className="mt-4 rounded border-l-4 border-green-700 bg-green-50 p-4">
              {t.passwordSet}
            </p>
          ) : null}
          <p className="mt-4 mb-6">{t.intro}</p>
          <EngineForm
            definition={loginForm(language)}
            language={language}
            action={action}
            initial={{ email: actionData?.email ?? "" }}
            problem={problem}
            hidden={{ redirect: target, language }}
            submitLabel={t.submit}
            onSubmit={async (values) => {
              const outcome = await postJson("/api/_auth/session", { ...values, language }, language);
              // Signed in: the whole app loads again with the session (a document navigation).
              if (outcome.ok) window.location.assign(target);
              return outcome;
            }}
            success={() => <p role="status">{t.signedIn}</p>}
          />
        </>
      )}
    </div>
  );
}
