import { data, redirect } from "react-router";
import type { Route } from "./+types/register";
import { withLink, type FormProblem, type FormValues } from "~/forms/definition";
import { formStampFor, submissionProblem, submissionStatus } from "~/forms/guard.server";
import { EngineForm, postJson } from "~/forms/react";
import { readSubmission } from "~/forms/submission.server";
import { splitLanguage, type Language } from "~/i18n/languages";
import { registerPath } from "~/registration/registration.server";
import { RegistrationClosed, submitRegistration } from "~/registration/submit.server";
import { registrationTexts } from "~/registration/texts";
import { PRIVACY_PATH } from "~/newsletter/form";
import { originOf, seoMeta } from "~/site/seo";
import { privacyPath } from "~/site/site.server";

/** Continue pages show a registrant's stored details: never cached, never indexed. */
const PRIVATE = { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex" };
export const headers = () => PRIVATE;

type View = "form" | "sent" | "saved" | "finished-now" | "invalid" | "expired" | "gone" | "finished";

/**
 * `/practitioners/register`: the registration form made from the practitioner schema.
 * `/practitioners/register/{id}?token=…`: continues an unfinished registration (signed link from the mail).
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const { language } = splitLanguage(url.pathname);
  const { registration, tokens } = context.services;
  const id = params.practitionerid;
  const base = {
    language,
    stamp: formStampFor(tokens),
    privacyHref: await privacyPath(context, language, PRIVACY_PATH[language]),
    path: url.pathname,
    origin: originOf(request, context),
    alternates: { de: registerPath("de", id), en: registerPath("en", id) } as Record<Language, string>,
  };
  if (id === undefined) {
    const view: View = url.searchParams.get("sent") === "1" ? "sent" : url.searchParams.get("finished") === "1" ? "finished-now" : "form";
    return data({ ...base, view, id: null, token: "", definition: await registration.form(language), values: {} as FormValues });
  }
  const token = url.searchParams.get("token") ?? "";
  const state = await registration.open(id, token, language);
  if (!state.ok) return data({ ...base, view: state.reason as View, id, token: "", definition: null, values: {} as FormValues }, { status: state.reason === "gone" ? 404 : 403, headers: PRIVATE });
  return data({ ...base, view: "form" as View, id, token, definition: await registration.form(language, { continuing: true }), values: state.values });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const url = new URL(request.url);
  const { language } = splitLanguage(url.pathname);
  const id = params.practitionerid;
  let values: Record<string, unknown> = {};
  try {
    const submission = await readSubmission(request);
    values = submission.data;
    const outcome = await submitRegistration(context, id, submission, language, originOf(request, context));
    // Post/redirect/get where the link's page would no longer show the form (and answer 403 for it).
    if (outcome.kind === "created") return redirect(`${registerPath(language)}?sent=1`, { status: 303 });
    if (outcome.kind === "finished") return redirect(`${registerPath(language)}?finished=1`, { status: 303 });
    return data({ view: "saved" as View, problem: null, values }, { headers: PRIVATE });
  } catch (error) {
    const status = submissionStatus(error);
    // A closed or gone registration shows its page; anything else the form with its messages.
    if (error instanceof RegistrationClosed) return data({ view: error.reason as View, problem: null, values }, { status, headers: PRIVATE });
    return data({ view: "form" as View, problem: submissionProblem(error, language), values }, { status, headers: PRIVATE });
  }
}

export const meta: Route.MetaFunction = ({ loaderData: d }) =>
  d ? seoMeta({ title: registrationTexts[d.language].title, language: d.language, origin: d.origin, canonical: d.path, alternates: d.alternates, noindex: true }) : [];

export default function RegisterPage({ loaderData: d, actionData }: Route.ComponentProps) {
  const t = registrationTexts[d.language];
  const view: View = actionData?.view ?? d.view;
  const problem = (actionData?.problem ?? null) as FormProblem | null;
  const continuing = d.id !== null;
  const language = d.language;
  const notice = (text: string) => (
    <p role="status" className="mt-6 rounded border-l-4 border-[var(--color-main,#0f5e63)] bg-neutral-50 p-4" data-registration-result>
      {text}
    </p>
  );
  return (
    <div className="mx-auto max-w-3xl px-4 py-12" data-registration-view={view}>
      <h1 className="text-4xl font-bold tracking-tight">{continuing ? t.continueTitle : t.title}</h1>
      {view === "form" && d.definition ? (
        <>
          <p className="mt-4 mb-8">{continuing ? t.continueIntro : t.intro}</p>
          <EngineForm
            definition={withLink(d.definition, "privacy", d.privacyHref)}
            language={language}
            action=""
            initial={{ ...d.values, ...(actionData?.values ?? {}) }}
            problem={problem}
            hidden={{ language, form_stamp: d.stamp, ...(continuing ? { token: d.token } : {}) }}
            submitLabel={continuing ? t.save : t.submit}
            onSubmit={(values) =>
              postJson("/api/practitioners/register", { ...values, language, form_stamp: d.stamp, ...(continuing ? { id: d.id, token: d.token } : {}) }, language)
            }
            success={(result) => notice((result as { finished?: boolean } | undefined)?.finished ? t.finishedNow : continuing ? t.saved : t.sent)}
          />
        </>
      ) : (
        notice(
          view === "sent" ? t.sent : view === "saved" ? t.saved : view === "finished-now" ? t.finishedNow : view === "finished" ? t.finished : view === "expired" ? t.expired : view === "gone" ? t.gone : t.invalid,
        )
      )}
    </div>
  );
}
