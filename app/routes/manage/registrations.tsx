import { data, Form, Link, redirect, useActionData, useNavigation } from "react-router";
import type { Route } from "./+types/registrations";
import { admin, done, mutate, readAdminForm, refused, writer, type AdminResult } from "~/admin/admin.server";
import { pageCount, parseListParams } from "~/admin/content/list-query";
import {
  approveRegistration,
  listRegistrations,
  pendingRegistration,
  rejectRegistration,
  type Decision,
  type RegistrationRow,
  type Visibility,
} from "~/admin/content/registrations.server";
import { MAX_REASON_LENGTH } from "~/admin/content/registration-rules";
import { clientProblem } from "~/admin/content/schema-route.server";
import { AdminPage, buttonClass, EmptyState, inputClass, Pager, SaveNotice, useAdmin } from "~/admin/ui";
import { routeAccess } from "~/auth/access";
import { isValidId } from "~/content/ids";
import type { Language } from "~/i18n/languages";
import { PRACTITIONERS } from "~/registration/registration.server";
import { originOf } from "~/site/seo";

/**
 * `/manage/registrations`: practitioners who registered through the public form and are not shown
 * yet (display off, not rejected). Each row says what is true of it: whether the practitioner
 * finished the registration and whether (and why not) it is on the site. Approving turns display on
 * and publishes the entry in one audited change and mails the practitioner; rejecting archives it
 * and mails the reason. Approving an unfinished registration, and every rejection, is a step of its
 * own (`?confirm=id`, `?reject=id`): plain links and forms, so they work without JavaScript, and
 * the server refuses an unconfirmed approval of an unfinished one, whatever the page sent.
 */
export const handle = routeAccess("auth");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

const texts = {
  de: {
    title: "Neue Registrierungen",
    intro: "Behandelnde, die noch nicht im Verzeichnis erscheinen. „Freigeben“ macht den Eintrag sichtbar, veröffentlicht ihn und schickt der Person eine E-Mail. „Ablehnen“ nimmt ihn aus dieser Liste und schickt ihr Ihre Begründung.",
    name: "Name",
    city: "Ort",
    registration: "Registrierung",
    site: "Auf der Website",
    finishedYes: "Abgeschlossen",
    finishedNo: "Nicht abgeschlossen",
    visibility: { visible: "Sichtbar", "hidden-published": "Nicht sichtbar (veröffentlicht, aber ausgeblendet)", "hidden-draft": "Nicht sichtbar (Entwurf)" } satisfies Record<Visibility, string>,
    created: "Eingegangen",
    actions: "Aktionen",
    edit: "Bearbeiten",
    approve: "Freigeben",
    reject: "Ablehnen",
    cancel: "Abbrechen",
    approveLabel: (name: string) => `${name} freigeben`,
    rejectLabel: (name: string) => `${name} ablehnen`,
    editLabel: (name: string) => `${name} bearbeiten`,
    confirmTitle: (name: string) => `${name} freigeben?`,
    confirmText: (name: string) =>
      `${name} hat die Registrierung noch nicht abgeschlossen: Die Angaben können unvollständig sein. Wenn Sie trotzdem freigeben, ist der Eintrag sofort im Verzeichnis sichtbar und ${name} bekommt eine E-Mail.`,
    confirmApprove: (name: string) => `Ja, ${name} freigeben`,
    rejectTitle: (name: string) => `${name} ablehnen`,
    rejectText: (name: string, email: string) =>
      email ? `Der Eintrag verschwindet aus dieser Liste und bleibt unsichtbar. ${name} bekommt Ihre Begründung per E-Mail an ${email}.` : `Der Eintrag verschwindet aus dieser Liste und bleibt unsichtbar. Für ${name} ist keine E-Mail-Adresse hinterlegt: Die Begründung wird nur im Protokoll gespeichert.`,
    reason: "Begründung",
    reasonHelp: `Sachlich und freundlich, höchstens ${MAX_REASON_LENGTH.toLocaleString("de-DE")} Zeichen.`,
    confirmReject: (name: string) => `${name} ablehnen`,
    approved: (name: string, mailed: boolean) => `Freigegeben: ${name} ist jetzt im Verzeichnis sichtbar. ${mailed ? "Eine E-Mail an die Person ist unterwegs." : "Keine E-Mail: Es ist keine Adresse hinterlegt."}`,
    rejected: (name: string, mailed: boolean) => `Abgelehnt: ${name}. ${mailed ? "Die Begründung geht per E-Mail an die Person." : "Keine E-Mail: Es ist keine Adresse hinterlegt."}`,
    needsConfirm: (name: string) => `${name} hat die Registrierung noch nicht abgeschlossen. Bitte bestätigen Sie die Freigabe.`,
    reasonMissing: "Bitte geben Sie eine Begründung an: Sie geht an die Person, die sich registriert hat.",
    reasonTooLong: `Die Begründung ist zu lang (höchstens ${MAX_REASON_LENGTH.toLocaleString("de-DE")} Zeichen).`,
    settled: "Diese Registrierung ist bereits bearbeitet oder gelöscht.",
    badId: "Unbekannter Eintrag.",
    badVersion: "Die Version fehlt oder ist ungültig. Bitte laden Sie die Seite neu.",
    unknownIntent: "Unbekannte Aktion.",
    empty: "Keine offenen Registrierungen.",
    unnamed: "(ohne Namen)",
  },
  en: {
    title: "New registrations",
    intro: "Practitioners not shown in the directory yet. “Approve” makes the entry visible, publishes it and sends the person an email. “Reject” takes it off this list and sends them your reason.",
    name: "Name",
    city: "City",
    registration: "Registration",
    site: "On the site",
    finishedYes: "Finished",
    finishedNo: "Not finished",
    visibility: { visible: "Visible", "hidden-published": "Not visible (published but hidden)", "hidden-draft": "Not visible (draft)" } satisfies Record<Visibility, string>,
    created: "Received",
    actions: "Actions",
    edit: "Edit",
    approve: "Approve",
    reject: "Reject",
    cancel: "Cancel",
    approveLabel: (name: string) => `Approve ${name}`,
    rejectLabel: (name: string) => `Reject ${name}`,
    editLabel: (name: string) => `Edit ${name}`,
    confirmTitle: (name: string) => `Approve ${name}?`,
    confirmText: (name: string) =>
      `${name} has not finished the registration: the details may be incomplete. If you approve anyway, the entry shows in the directory at once and ${name} gets an email.`,
    confirmApprove: (name: string) => `Yes, approve ${name}`,
    rejectTitle: (name: string) => `Reject ${name}`,
    rejectText: (name: string, email: string) =>
      email ? `The entry leaves this list and stays hidden. ${name} gets your reason by email to ${email}.` : `The entry leaves this list and stays hidden. There is no email address for ${name}: the reason is only kept in the log.`,
    reason: "Reason",
    reasonHelp: `Factual and friendly, at most ${MAX_REASON_LENGTH.toLocaleString("en-GB")} characters.`,
    confirmReject: (name: string) => `Reject ${name}`,
    approved: (name: string, mailed: boolean) => `Approved: ${name} now shows in the directory. ${mailed ? "An email to them is on its way." : "No email: there is no address."}`,
    rejected: (name: string, mailed: boolean) => `Rejected: ${name}. ${mailed ? "The reason goes to them by email." : "No email: there is no address."}`,
    needsConfirm: (name: string) => `${name} has not finished the registration. Please confirm the approval.`,
    reasonMissing: "Please give a reason: it goes to the person who registered.",
    reasonTooLong: `The reason is too long (at most ${MAX_REASON_LENGTH.toLocaleString("en-GB")} characters).`,
    settled: "This registration has been dealt with or deleted already.",
    badId: "Unknown entry.",
    badVersion: "The version is missing or invalid. Please reload the page.",
    unknownIntent: "Unknown action.",
    empty: "No open registrations.",
    unnamed: "(no name)",
  },
} satisfies Record<Language, unknown>;

type Step = { kind: "confirm" | "reject"; row: RegistrationRow };

export async function loader(args: Route.LoaderArgs) {
  const { language, services } = admin(args);
  const params = new URL(args.request.url).searchParams;
  let page = 1;
  try {
    page = parseListParams(params, language).page;
  } catch (error) {
    const problem = clientProblem(error);
    if (!problem) throw error;
    return data(
      { schema: PRACTITIONERS, language, page, total: 0, rows: [] as RegistrationRow[], problem: problem.message, step: null as Step | null, settled: false },
      { status: problem.status },
    );
  }
  // The confirm and reject steps: one registration, named, still open (else a note that it is settled).
  const kind = params.has("confirm") ? "confirm" : params.has("reject") ? "reject" : null;
  const stepId = kind ? params.get(kind) : null;
  const stepRow = kind && isValidId(stepId) ? await pendingRegistration(services.store, stepId) : undefined;
  const step: Step | null = kind && stepRow ? { kind, row: stepRow } : null;
  const { total, rows } = await listRegistrations(services.store, page);
  // Past the end (a stale link after approvals): the last page, never "page 9 of 2".
  if (page > pageCount(total) && page > 1) throw redirect(pageCount(total) > 1 ? `?page=${pageCount(total)}` : "?");
  return { schema: PRACTITIONERS, language, page, total, rows, problem: null as string | null, step, settled: kind !== null && !step };
}

export async function action(args: Route.ActionArgs) {
  const { user, language, services } = admin(args);
  const text = texts[language];
  const fields = await readAdminForm(args.request);
  if (fields.intent !== "approve" && fields.intent !== "reject") return refused(text.unknownIntent);
  if (!isValidId(fields.id)) return refused(text.badId, 400);
  if (!/^[0-9]{1,9}$/.test(fields.version ?? "")) return refused(text.badVersion, 400);
  const id = fields.id;
  const row = await pendingRegistration(services.store, id);
  if (!row) return refused(text.settled, 404);
  const name = row.name || text.unnamed;
  const opts = { ...writer(user), expectedVersion: Number(fields.version), origin: originOf(args.request, args.context) };
  if (fields.intent === "approve") {
    // Asked on the page; checked here too, so a stale page or a hand-made post cannot skip it.
    if (!row.finished && fields.confirmed !== "yes") return refused(text.needsConfirm(name), 409);
    return mutate(
      { ...args, user },
      null,
      () => approveRegistration(services.store, services.mail, id, opts),
      (result) => done(text.approved(name, (result as Decision).mailed), 200, { id }),
    );
  }
  const reason = (fields.reason ?? "").trim();
  if (!reason) return refused(text.reasonMissing, 400, { reason: [text.reasonMissing] });
  if (reason.length > MAX_REASON_LENGTH) return refused(text.reasonTooLong, 400, { reason: [text.reasonTooLong] });
  return mutate(
    { ...args, user },
    null,
    () => rejectRegistration(services.store, services.mail, id, reason, opts),
    (result) => done(text.rejected(name, (result as Decision).mailed), 200, { id }),
  );
}

const stepHref = (kind: Step["kind"], id: string) => `/manage/registrations?${kind}=${encodeURIComponent(id)}`;

export default function Registrations({ loaderData }: Route.ComponentProps) {
  const { schema, language, page, total, rows, problem, step, settled } = loaderData;
  const text = texts[language];
  const { t } = useAdmin();
  const result = useActionData<typeof action>() as AdminResult | undefined;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const loading = navigation.state === "loading" && navigation.location.pathname === "/manage/registrations";
  const locale = language === "de" ? "de-DE" : "en-GB";
  return (
    <AdminPage title={text.title} intro={<p>{text.intro}</p>}>
      <SaveNotice result={result} />
      {problem ? (
        <p role="alert" className="rounded border-l-4 border-red-700 bg-red-50 p-3 text-red-900">
          {problem}
        </p>
      ) : null}
      {settled && !result ? (
        <p role="status" className="rounded border-l-4 border-slate-500 bg-slate-50 p-3" data-registration-settled>
          {text.settled}
        </p>
      ) : null}
      {step ? <StepPanel step={step} text={text} busy={busy} /> : null}
      <p role="status" aria-live="polite" className="text-sm text-slate-700">
        {loading ? t.loading : t.total(total)}
      </p>
      {rows.length === 0 ? (
        problem ? null : <EmptyState>{text.empty}</EmptyState>
      ) : (
        <div className={`overflow-x-auto ${loading ? "opacity-50" : ""}`} aria-busy={loading || undefined}>
          <table className="w-full border-collapse bg-white text-left text-sm" data-registrations>
            <thead>
              <tr className="border-b border-slate-400">
                {[text.name, text.city, text.registration, text.site, text.created, text.actions].map((h) => (
                  <th key={h} scope="col" className="p-2">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const name = r.name || text.unnamed;
                return (
                  <tr key={r.id} className="border-b border-slate-200 align-top" data-registration={r.id}>
                    <td className="p-2">
                      <span className="font-semibold" data-content={r.name ? "" : undefined}>
                        {name}
                      </span>
                      {r.email ? <span className="block break-all text-slate-700">{r.email}</span> : null}
                    </td>
                    <td className="p-2" data-content>
                      {r.city}
                    </td>
                    <td className="p-2" data-finished={r.finished}>
                      <span className={`inline-block rounded px-2 py-0.5 text-xs font-semibold ${r.finished ? "bg-slate-200 text-slate-900" : "bg-amber-100 text-amber-900"}`}>
                        {r.finished ? text.finishedYes : text.finishedNo}
                      </span>
                    </td>
                    <td className="p-2" data-visibility={r.visibility}>
                      {text.visibility[r.visibility]}
                    </td>
                    <td className="p-2 whitespace-nowrap">{new Date(r.created).toLocaleString(locale, { timeZone: "Europe/Berlin" })}</td>
                    <td className="flex flex-wrap gap-2 p-2">
                      <Link to={`/manage/content/${schema}/${encodeURIComponent(r.id)}`} className={buttonClass("secondary")} aria-label={text.editLabel(name)}>
                        {text.edit}
                      </Link>
                      {r.finished ? (
                        <Form method="post" action="/manage/registrations">
                          <input type="hidden" name="intent" value="approve" />
                          <input type="hidden" name="id" value={r.id} />
                          <input type="hidden" name="version" value={r.version} />
                          <button type="submit" className={buttonClass()} disabled={busy} aria-label={text.approveLabel(name)}>
                            {text.approve}
                          </button>
                        </Form>
                      ) : (
                        // Not finished: the approval asks first, on a step of its own.
                        <Link to={stepHref("confirm", r.id)} className={buttonClass()} aria-label={text.approveLabel(name)} data-needs-confirm>
                          {text.approve} …
                        </Link>
                      )}
                      <Link to={stepHref("reject", r.id)} className={buttonClass("secondary")} aria-label={text.rejectLabel(name)}>
                        {text.reject} …
                      </Link>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} pages={pageCount(total)} href={(p) => (p > 1 ? `?page=${p}` : "?")} />
    </AdminPage>
  );
}

/** The confirm or reject step for one registration, naming the person, above the list. */
function StepPanel({ step, text, busy }: { step: Step; text: (typeof texts)[Language]; busy: boolean }) {
  const { row } = step;
  const name = row.name || text.unnamed;
  const headingId = `step-${step.kind}`;
  return (
    <section aria-labelledby={headingId} className="space-y-3 rounded border-2 border-amber-600 bg-amber-50 p-4" data-registration-step={step.kind}>
      <h2 id={headingId} className="text-lg font-bold">
        {step.kind === "confirm" ? text.confirmTitle(name) : text.rejectTitle(name)}
      </h2>
      <p>{step.kind === "confirm" ? text.confirmText(name) : text.rejectText(name, row.email)}</p>
      {/* Posts back to this step: a refusal keeps it open, success leaves it settled (and the list without the row). */}
      <Form method="post" action={stepHref(step.kind, row.id)} className="space-y-3">
        <input type="hidden" name="intent" value={step.kind === "confirm" ? "approve" : "reject"} />
        <input type="hidden" name="id" value={row.id} />
        <input type="hidden" name="version" value={row.version} />
        {step.kind === "confirm" ? <input type="hidden" name="confirmed" value="yes" /> : null}
        {step.kind === "reject" ? (
          <div>
            <label htmlFor="reject-reason" className="block font-semibold">
              {text.reason}
            </label>
            <p id="reject-reason-help" className="text-sm text-slate-700">
              {text.reasonHelp}
            </p>
            <textarea id="reject-reason" name="reason" required maxLength={MAX_REASON_LENGTH} rows={4} aria-describedby="reject-reason-help" className={inputClass} />
          </div>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <button type="submit" className={buttonClass(step.kind === "confirm" ? "primary" : "danger")} disabled={busy}>
            {step.kind === "confirm" ? text.confirmApprove(name) : text.confirmReject(name)}
          </button>
          <Link to="/manage/registrations" className={buttonClass("secondary")}>
            {text.cancel}
          </Link>
        </div>
      </Form>
    </section>
  );
}
