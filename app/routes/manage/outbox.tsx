import { data, Form, Link, useFetcher, useNavigation } from "react-router";
import type { Route } from "./+types/outbox";
import { admin, done, mailDelivers, mutate, readAdminForm, refused, type AdminResult } from "~/admin/admin.server";
import { isMessageId, OUTBOX_PAGE_SIZE, OUTBOX_STATUSES, outboxHref, parseOutboxParams, type OutboxParams } from "~/admin/content/outbox-params";
import { clientProblem } from "~/admin/content/schema-route.server";
import { AdminPage, buttonClass, EmptyState, inputClass, MailOffNotice, SaveNotice, useAdmin } from "~/admin/ui";
import { routeAccess } from "~/auth/access";
import { ContentError } from "~/content/errors";
import { mailKind } from "~/admin/mail-kinds";
import type { Language } from "~/i18n/languages";
import type { OutboxEntry } from "~/mail/outbox";
import { MASKED_SECRET } from "~/mail/readers";

/**
 * `/manage/outbox`: every mail the site sends goes through the outbox table first. Editors see
 * what is waiting, sent or failed, read a message's text and send a failed one again. Recipient
 * addresses are private: this screen is behind the admin layout's sign-in like all of /manage.
 * Everything here is read through `listFor`/`getFor` (app/mail/readers.ts): editors see no account
 * mails, and no one sees a link's secret, here or in the loader data of a client navigation.
 */
export const handle = routeAccess("auth");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

const texts = {
  de: {
    title: "Postausgang",
    intro: "Die neuesten E-Mails zuerst. Fehlgeschlagene lassen sich erneut senden.",
    status: "Status",
    any: "Alle",
    statuses: { pending: "wartend", sent: "gesendet", failed: "fehlgeschlagen" },
    show: "Anzeigen",
    created: "Erstellt",
    kind: "Art",
    to: "An",
    subject: "Betreff",
    attempts: "Versuche",
    lastError: "Letzter Fehler",
    sentAt: "Gesendet",
    open: "Öffnen",
    openLabel: (subject: string) => `Öffnen: ${subject}`,
    requeue: "Erneut senden",
    requeued: "Die E-Mail wird erneut gesendet.",
    requeuedQueued: "Die E-Mail liegt wieder im Postausgang. Der E-Mail-Versand ist nicht eingerichtet: Sie geht erst hinaus, wenn er eingerichtet ist.",
    notFailed: "Nur fehlgeschlagene E-Mails lassen sich erneut senden.",
    unknown: "Diese E-Mail gibt es nicht (mehr).",
    unknownIntent: "Unbekannte Aktion.",
    more: "Ältere anzeigen",
    newest: "Zu den neuesten",
    startGone: "Die E-Mail, ab der die Liste weitergehen sollte, gibt es nicht mehr.",
    close: "Schließen",
    message: "Nachricht",
    masked: "Schlüssel in Links (••••••) sind hier unkenntlich: Wer sie liest, könnte an Stelle des Empfängers handeln. Erneut gesendet erhält der Empfänger die E-Mail unverändert.",
    empty: "Keine E-Mails.",
    shown: (n: number, first: boolean) => (first ? `${n} neueste angezeigt` : `${n} ältere angezeigt`),
  },
  en: {
    title: "Outbox",
    intro: "Newest emails first. Failed ones can be sent again.",
    status: "Status",
    any: "All",
    statuses: { pending: "pending", sent: "sent", failed: "failed" },
    show: "Show",
    created: "Created",
    kind: "Kind",
    to: "To",
    subject: "Subject",
    attempts: "Attempts",
    lastError: "Last error",
    sentAt: "Sent",
    open: "Open",
    openLabel: (subject: string) => `Open: ${subject}`,
    requeue: "Send again",
    requeued: "The email will be sent again.",
    requeuedQueued: "The email is in the outbox again. Mail delivery is not set up: it goes out only once it is.",
    notFailed: "Only failed emails can be sent again.",
    unknown: "This email does not exist (any more).",
    unknownIntent: "Unknown action.",
    more: "Show older",
    newest: "To the newest",
    startGone: "The email the list should go on from no longer exists.",
    close: "Close",
    message: "Message",
    masked: "Keys in links (••••••) are hidden here: whoever reads one could act as the recipient. Sent again, the recipient gets the email unchanged.",
    empty: "No emails.",
    shown: (n: number, first: boolean) => (first ? `${n} newest shown` : `${n} older shown`),
  },
} satisfies Record<Language, unknown>;

type Row = Pick<OutboxEntry, "id" | "kind" | "to" | "subject" | "status" | "attempts" | "lastError" | "created" | "sentAt">;
const row = (e: OutboxEntry): Row => ({ id: e.id, kind: e.kind, to: e.to, subject: e.subject.slice(0, 200), status: e.status, attempts: e.attempts, lastError: e.lastError, created: e.created, sentAt: e.sentAt });

export async function loader(args: Route.LoaderArgs) {
  const { user, language, services } = admin(args);
  let params: OutboxParams;
  try {
    params = parseOutboxParams(new URL(args.request.url).searchParams, language);
  } catch (error) {
    const problem = clientProblem(error);
    if (!problem) throw error;
    return data({ language, mailOn: mailDelivers(args.context), params: { status: "", before: null, id: null } as OutboxParams, rows: [] as Row[], more: false, message: null, problem: problem.message }, { status: problem.status });
  }
  const [start, message] = await Promise.all([params.before ? services.mail.getFor(user, params.before) : undefined, params.id ? services.mail.getFor(user, params.id) : undefined]);
  if (params.id && !message) throw data(null, { status: 404 });
  // The page's start was purged meanwhile: say so (the link "to the newest" is on the page).
  if (params.before && !start) return data({ language, mailOn: mailDelivers(args.context), params, rows: [] as Row[], more: false, message: null, problem: texts[language].startGone }, { status: 404 });
  // One more than a page: whether there are older ones, without counting the whole table.
  const entries = await services.mail.listFor(user, {
    ...(params.status ? { status: params.status } : {}),
    ...(start ? { before: { created: start.created, id: start.id } } : {}),
    limit: OUTBOX_PAGE_SIZE + 1,
  });
  return {
    language,
    mailOn: mailDelivers(args.context),
    params,
    rows: entries.slice(0, OUTBOX_PAGE_SIZE).map(row),
    more: entries.length > OUTBOX_PAGE_SIZE,
    message: message ? { ...row(message), text: message.text.slice(0, 50_000) } : null,
    problem: null as string | null,
  };
}

export async function action(args: Route.ActionArgs) {
  const { user, language, services } = admin(args);
  const text = texts[language];
  const fields = await readAdminForm(args.request);
  if (fields.intent !== "requeue") return refused(text.unknownIntent);
  const id = fields.id;
  if (!isMessageId(id)) return refused(text.unknown, 400);
  return mutate(
    { ...args, user },
    { action: "requeue-mail", itemId: id },
    async () => {
      // A mail the user may not read is one that does not exist, for sending again too.
      const entry = await services.mail.getFor(user, id);
      if (!entry) throw new ContentError(404, text.unknown);
      if (!(await services.mail.requeue(id))) throw new ContentError(409, text.notFailed);
      return entry;
    },
    () => done(mailDelivers(args.context) ? text.requeued : text.requeuedQueued, 200, { id }),
  );
}

export default function Outbox({ loaderData }: Route.ComponentProps) {
  const { language, params, rows, more, message, problem } = loaderData;
  const text = texts[language];
  const { t } = useAdmin();
  const fetcher = useFetcher<AdminResult>();
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/manage/outbox";
  const locale = language === "de" ? "de-DE" : "en-GB";
  const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString(locale, { timeZone: "Europe/Berlin" }) : "");
  const requeue = (id: string) => (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="requeue" />
      <input type="hidden" name="id" value={id} />
      <button type="submit" className={buttonClass("secondary")} disabled={fetcher.state !== "idle"}>
        {text.requeue}
      </button>
    </fetcher.Form>
  );
  return (
    <AdminPage title={text.title} intro={<p>{text.intro}</p>}>
      <MailOffNotice mailOn={loaderData.mailOn} />
      <SaveNotice result={fetcher.data as AdminResult | undefined} />
      <Form method="get" className="flex flex-wrap items-end gap-3 rounded border border-slate-300 bg-white p-4">
        <div>
          <label htmlFor="outbox-status" className="mb-1 block font-semibold">
            {text.status}
          </label>
          <select id="outbox-status" name="status" defaultValue={params.status} key={params.status} className={inputClass}>
            <option value="">{text.any}</option>
            {OUTBOX_STATUSES.map((s) => (
              <option key={s} value={s}>
                {text.statuses[s]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={buttonClass()}>
          {text.show}
        </button>
      </Form>
      {problem ? (
        <p role="alert" className="rounded border-l-4 border-red-700 bg-red-50 p-3 text-red-900">
          {problem}
        </p>
      ) : null}
      {message ? (
        <section aria-labelledby="outbox-message" className="space-y-3 rounded border border-slate-400 bg-white p-4" data-outbox-message={message.id}>
          <h2 id="outbox-message" className="text-lg font-bold">
            {text.message}: <span data-content>{message.subject}</span>
          </h2>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="font-semibold">{text.to}</dt>
            <dd>{message.to}</dd>
            <dt className="font-semibold">{text.kind}</dt>
            <dd>{mailKind(message.kind, language)}</dd>
            <dt className="font-semibold">{text.status}</dt>
            <dd>{text.statuses[message.status]}</dd>
            <dt className="font-semibold">{text.created}</dt>
            <dd>{when(message.created)}</dd>
            <dt className="font-semibold">{text.attempts}</dt>
            <dd>{message.attempts}</dd>
            {message.lastError ? (
              <>
                <dt className="font-semibold">{text.lastError}</dt>
                <dd className="break-all" data-content>
                  {message.lastError}
                </dd>
              </>
            ) : null}
          </dl>
          <pre className="max-h-96 overflow-auto rounded bg-slate-50 p-3 text-sm whitespace-pre-wrap" tabIndex={0} data-outbox-text>
            {message.text}
          </pre>
          {message.text.includes(MASKED_SECRET) ? <p className="text-sm text-slate-700">{text.masked}</p> : null}
          <div className="flex flex-wrap gap-2">
            {message.status === "failed" ? requeue(message.id) : null}
            <Link to={outboxHref(params, { id: null })} className={buttonClass("secondary")}>
              {text.close}
            </Link>
          </div>
        </section>
      ) : null}
      <p role="status" aria-live="polite" className="text-sm text-slate-700">
        {loading ? t.loading : text.shown(rows.length, !params.before)}
      </p>
      {rows.length === 0 ? (
        problem ? null : <EmptyState>{text.empty}</EmptyState>
      ) : (
        <div className={`overflow-x-auto ${loading ? "opacity-50" : ""}`} aria-busy={loading || undefined}>
          <table className="w-full border-collapse bg-white text-left text-sm" data-outbox>
            <thead>
              <tr className="border-b border-slate-400">
                {[text.created, text.kind, text.to, text.subject, text.status, text.attempts].map((h) => (
                  <th key={h} scope="col" className="p-2">
                    {h}
                  </th>
                ))}
                <th scope="col" className="p-2">
                  <span className="sr-only">{text.open}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} className="border-b border-slate-200 align-top" data-outbox-row={r.status} data-kind={r.kind}>
                  <td className="p-2 whitespace-nowrap">{when(r.created)}</td>
                  <td className="p-2">{mailKind(r.kind, language)}</td>
                  <td className="p-2 break-all">{r.to}</td>
                  <td className="p-2" data-content>
                    {r.subject}
                  </td>
                  <td className="p-2">
                    {text.statuses[r.status]}
                    {/* The mail server's words, not ours. */}
                    {r.lastError ? (
                      <span className="block text-xs text-red-800" data-content>
                        {r.lastError}
                      </span>
                    ) : null}
                  </td>
                  <td className="p-2 tabular-nums">{r.attempts}</td>
                  <td className="flex flex-wrap gap-2 p-2">
                    <Link to={outboxHref(params, { id: r.id })} className="font-semibold text-[#0f5e63] underline" aria-label={text.openLabel(r.subject)}>
                      {text.open}
                    </Link>
                    {r.status === "failed" ? requeue(r.id) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {more || params.before ? (
        <nav aria-label={text.title} className="flex flex-wrap gap-2">
          {params.before ? (
            <Link to={outboxHref(params, { before: null, id: null })} className={buttonClass("secondary")}>
              {text.newest}
            </Link>
          ) : null}
          {more ? (
            <Link to={outboxHref(params, { before: rows.at(-1)!.id, id: null })} className={buttonClass("secondary")} data-outbox-more>
              {text.more}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </AdminPage>
  );
}
