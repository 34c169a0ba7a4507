import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/newsletter";
import { withLink, type FormProblem } from "~/forms/definition";
import { EngineForm, postJson } from "~/forms/react";
import { readSubmission } from "~/forms/submission.server";
import { formStampFor, submissionProblem, submissionStatus } from "~/forms/guard.server";
import { localizedPath, splitLanguage, type Language } from "~/i18n/languages";
import { PRIVACY_PATH, newsletterForm, newsletterPath, newsletterTexts } from "~/newsletter/form";
import { submitNewsletter } from "~/newsletter/newsletter.server";
import { originOf, seoMeta } from "~/site/seo";
import { privacyPath } from "~/site/site.server";

/** The page's answers carry the visitor's address: never stored by a cache, never indexed. */
const PRIVATE = { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex" };
export const headers = () => PRIVATE;

type View = "form" | "sent" | "confirm" | "confirmed" | "unsubscribe" | "unsubscribed" | "invalid" | "expired";

/** An address from the path, to pre-fill the form (anything not plausibly one starts it empty). */
function pathEmail(value: string | undefined): string {
  return value && value.length <= 254 && /^[^\s/]+@[^\s/]+$/.test(value) ? value : "";
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const { language } = splitLanguage(url.pathname);
  const email = pathEmail(params.email);
  const { newsletter, tokens } = context.services;
  let view: View = url.searchParams.get("sent") === "1" ? "sent" : "form";
  let token = "";
  for (const [param, purpose, next] of [
    ["confirm", "newsletter-confirm", "confirm"],
    ["unsubscribe", "newsletter-unsubscribe", "unsubscribe"],
  ] as const) {
    const given = url.searchParams.get(param);
    if (given === null) continue;
    const check = newsletter.check(purpose, given, email);
    view = check.ok ? next : check.reason;
    token = check.ok ? given : "";
  }
  const body = {
    language,
    view,
    email,
    token,
    stamp: formStampFor(tokens),
    privacyHref: await privacyPath(context, language, PRIVACY_PATH[language]),
    path: url.pathname,
    alternates: { de: newsletterPath("de", email), en: newsletterPath("en", email) } as Record<Language, string>,
    origin: originOf(request, context),
  };
  // A link that is forged or too old: its page says so, with a 4xx like every refused input.
  return data(body, { status: view === "invalid" || view === "expired" ? 403 : 200 });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const url = new URL(request.url);
  const { language } = splitLanguage(url.pathname);
  const email = pathEmail(params.email);
  const { newsletter } = context.services;
  let submission: Awaited<ReturnType<typeof readSubmission>>;
  try {
    submission = await readSubmission(request);
  } catch (error) {
    return data({ view: "form" as View, problem: submissionProblem(error, language), values: {} }, { status: 400, headers: PRIVATE });
  }
  const intent = submission.data.intent;
  if (intent === "confirm" || intent === "unsubscribe") {
    const check = newsletter.check(intent === "confirm" ? "newsletter-confirm" : "newsletter-unsubscribe", submission.data.token, email);
    if (!check.ok) return data({ view: check.reason as View, problem: null, values: {} }, { status: 400, headers: PRIVATE });
    if (intent === "confirm") {
      const known = await newsletter.confirm(check.email, originOf(request, context));
      return data({ view: (known ? "confirmed" : "expired") as View, problem: null, values: {} }, { headers: PRIVATE });
    }
    await newsletter.unsubscribe(check.email);
    return data({ view: "unsubscribed" as View, problem: null, values: {} }, { headers: PRIVATE });
  }
  const values = { email: typeof submission.data.email === "string" ? submission.data.email : "", privacy: submission.data.privacy === "on" || submission.data.privacy === true };
  try {
    await submitNewsletter(context, newsletterForm(language), submission, language, originOf(request, context));
  } catch (error) {
    const status = submissionStatus(error);
    return data({ view: "form" as View, problem: submissionProblem(error, language), values }, { status, headers: PRIVATE });
  }
  // Post/redirect/get: a reload does not sign up again. The address stays in the path only.
  return redirect(`${newsletterPath(language, String(values.email).trim())}?sent=1`, { status: 303, headers: PRIVATE });
}

export const meta: Route.MetaFunction = ({ loaderData: d }) =>
  d ? seoMeta({ title: newsletterTexts[d.language].title, language: d.language, origin: d.origin, canonical: d.path, alternates: d.alternates, noindex: true }) : [];

export default function NewsletterPage({ loaderData, actionData }: Route.ComponentProps) {
  const { language, email, token, stamp } = loaderData;
  const t = newsletterTexts[language];
  const view: View = actionData?.view ?? loaderData.view;
  const problem = (actionData?.problem ?? null) as FormProblem | null;
  return (
    <div className="mx-auto max-w-2xl px-4 py-12" data-newsletter-view={view}>
      <h1 className="text-4xl font-bold tracking-tight">{view === "confirm" ? t.confirmTitle : view === "unsubscribe" ? t.unsubscribeTitle : t.title}</h1>
      {view === "form" ? (
        <>
          <p className="mt-4 mb-8">{t.intro}</p>
          <EngineForm
            definition={withLink(newsletterForm(language), "privacy", loaderData.privacyHref)}
            language={language}
            action=""
            initial={{ email, ...(actionData?.values ?? {}) }}
            problem={problem}
            hidden={{ intent: "subscribe", language, form_stamp: stamp }}
            submitLabel={t.submit}
            onSubmit={(values) => postJson("/api/newsletter/subscribe", { ...values, language, form_stamp: stamp }, language)}
            success={() => <Sent language={language} />}
          />
        </>
      ) : view === "sent" ? (
        <Sent language={language} />
      ) : view === "confirm" || view === "unsubscribe" ? (
        <Form method="post" className="mt-6">
          <input type="hidden" name="intent" value={view} />
          <input type="hidden" name="token" value={token} />
          <button type="submit" className="rounded bg-[var(--color-main,#0f5e63)] px-5 py-3 font-semibold text-white">
            {view === "confirm" ? t.confirmButton : t.unsubscribeButton}
          </button>
        </Form>
      ) : (
        <p role="status" className="mt-6 rounded border-l-4 border-[var(--color-main,#0f5e63)] bg-neutral-50 p-4" data-newsletter-result>
          {view === "confirmed" ? t.confirmed : view === "unsubscribed" ? t.unsubscribed : view === "expired" ? t.expiredLink : t.invalidLink}
        </p>
      )}
      {view === "invalid" || view === "expired" ? (
        <p className="mt-6">
          <a className="underline" href={newsletterPath(language, email)}>
            {t.title}
          </a>
        </p>
      ) : null}
    </div>
  );
}

function Sent({ language }: { language: Language }) {
  const t = newsletterTexts[language];
  return (
    <div role="status" className="mt-6 rounded border-l-4 border-[var(--color-main,#0f5e63)] bg-neutral-50 p-4" data-newsletter-sent>
      <p className="font-semibold">{t.sent}</p>
      <p className="mt-2 text-sm">{t.sentHint}</p>
      <p className="mt-4 text-sm">
        <a className="underline" href={localizedPath(language, "/")}>
          {language === "de" ? "Zur Startseite" : "Back to the home page"}
        </a>
      </p>
    </div>
  );
}
