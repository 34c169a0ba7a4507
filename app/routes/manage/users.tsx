import { Form, useActionData, useNavigation } from "react-router";
import type { Route } from "./+types/users";
import { admin, askFirst, type Confirmation, done, isConfirmed, mailDelivers, readAdminForm, refused } from "~/admin/admin.server";
import { AdminPage, buttonClass, ConfirmStep, MailOffNotice, SaveNotice, TextField } from "~/admin/ui";
import { routeAccess } from "~/auth/access";
import { inviteForm } from "~/auth/login-form";
import type { User } from "~/auth/users.server";
import { ContentError } from "~/content/errors";
import { FormRejected, requireValid } from "~/forms/submission.server";
import type { Language } from "~/i18n/languages";
import { renderMail } from "~/mail/templates";
import { originOf } from "~/site/seo";

/**
 * `/manage/users` (superusers): invite people by a signed link (they choose their password), send
 * a password-reset link (which also ends their sessions), grant or take back superuser rights,
 * remove. The last superuser cannot be removed or demoted, and nobody removes themselves.
 */
export const handle = routeAccess("superuser");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

const texts = {
  de: {
    title: "Benutzer:innen",
    intro: "Eingeladene legen ihr Passwort über einen Link fest, der 7 Tage gilt.",
    inviteTitle: "Einladen",
    email: "E-Mail-Adresse",
    name: "Name",
    superuser: "Administrationsrechte",
    invite: "Einladen",
    invited: (email: string) => `Einladung an ${email} verschickt.`,
    invitedQueued: (email: string) => `Die Einladung an ${email} liegt im Postausgang: Der E-Mail-Versand ist nicht eingerichtet, sie geht nicht hinaus.`,
    linkHint: "Es ist kein E-Mail-Versand eingerichtet. Bitte geben Sie diesen Link selbst weiter:",
    pending: "eingeladen",
    lastSignIn: "Zuletzt angemeldet",
    never: "nie",
    actions: "Aktionen",
    reset: "Passwort zurücksetzen",
    resetDone: (email: string) => `Link zum Zurücksetzen an ${email} verschickt; die Sitzungen sind beendet.`,
    resetQueued: (email: string) => `Die Sitzungen von ${email} sind beendet. Der Link zum Zurücksetzen liegt im Postausgang: Der E-Mail-Versand ist nicht eingerichtet, er geht nicht hinaus.`,
    grant: "Zu Administrator:in machen",
    revoke: "Administrationsrechte entziehen",
    changed: "Rechte geändert.",
    remove: "Entfernen",
    removed: "Entfernt.",
    confirmRemove: (email: string) => `${email} wirklich entfernen?`,
    removeDetail: "Die Person kann sich danach nicht mehr anmelden, ihre Sitzungen enden. Was sie geändert hat, bleibt im Änderungsprotokoll. Später lässt sie sich neu einladen.",
    yesRemove: (email: string) => `Ja, ${email} entfernen`,
    notSelf: "Das eigene Konto lässt sich hier nicht entfernen oder herabstufen.",
    lastSuperuser: "Die letzte Administrator:in bleibt.",
    unknownUser: "Diese Person gibt es nicht (mehr).",
    unknownIntent: "Unbekannte Aktion.",
    mailSubject: "Ihr Zugang zur Verwaltung",
    mailInvite: "Sie wurden zur Verwaltung der Website eingeladen. Legen Sie über den Knopf Ihr Passwort fest; der Link gilt 7 Tage.",
    mailReset: "Für Ihr Konto wurde ein neues Passwort angefordert. Legen Sie es über den Knopf fest; der Link gilt 7 Tage.",
    mailAction: "Passwort festlegen",
  },
  en: {
    title: "Users",
    intro: "Invited people set their password through a link valid for 7 days.",
    inviteTitle: "Invite",
    email: "Email address",
    name: "Name",
    superuser: "Administrator rights",
    invite: "Invite",
    invited: (email: string) => `Invitation sent to ${email}.`,
    invitedQueued: (email: string) => `The invitation to ${email} is in the outbox: mail delivery is not set up, so it does not go out.`,
    linkHint: "No mail delivery is set up. Please pass this link on yourself:",
    pending: "invited",
    lastSignIn: "Last signed in",
    never: "never",
    actions: "Actions",
    reset: "Reset password",
    resetDone: (email: string) => `Reset link sent to ${email}; their sessions have ended.`,
    resetQueued: (email: string) => `The sessions of ${email} have ended. The reset link is in the outbox: mail delivery is not set up, so it does not go out.`,
    grant: "Make administrator",
    revoke: "Remove administrator rights",
    changed: "Rights changed.",
    remove: "Remove",
    removed: "Removed.",
    confirmRemove: (email: string) => `Really remove ${email}?`,
    removeDetail: "They can no longer sign in and their sessions end. What they changed stays in the audit log. They can be invited again later.",
    yesRemove: (email: string) => `Yes, remove ${email}`,
    notSelf: "Your own account cannot be removed or demoted here.",
    lastSuperuser: "The last administrator stays.",
    unknownUser: "This user does not exist (any more).",
    unknownIntent: "Unknown action.",
    mailSubject: "Your access to the admin area",
    mailInvite: "You have been invited to manage the website. Set your password with the button; the link is valid for 7 days.",
    mailReset: "A new password was requested for your account. Set it with the button; the link is valid for 7 days.",
    mailAction: "Set password",
  },
} satisfies Record<Language, unknown>;

export async function loader(args: Route.LoaderArgs) {
  const { user, language, services } = admin(args, "superuser");
  const users = await services.auth.users.list();
  return {
    text: texts[language],
    locale: language === "de" ? "de-DE" : "en-GB",
    mailOn: mailDelivers(args.context),
    me: user.id,
    users: users.map((u) => ({ id: u.id, email: u.email, name: u.name, superuser: u.superuser, pending: u.pending, lastSignIn: u.lastSignIn })),
  };
}

/**
 * A set-password link is shown to the superuser who made it only where no mail can carry it (no
 * SMTP_URL: mail stays in the outbox): no one else reads a live link in the admin area (the outbox
 * masks them), and with mail delivery not even its maker.
 */
function handOver(args: { context: Route.ActionArgs["context"] }, link: string): string | undefined {
  return args.context.services.env.SMTP_URL ? undefined : link;
}

/** Mails a set-password link (invitation or reset) and returns it, for the superuser to pass on by hand. */
async function mailLink(args: Route.ActionArgs, user: User, kind: "invite" | "reset"): Promise<string> {
  const { services } = args.context;
  const text = texts[user.language];
  const link = `${originOf(args.request, args.context)}/login?token=${encodeURIComponent(services.auth.setPasswordToken(user))}`;
  await services.mail.enqueue(
    renderMail({ kind: `user-${kind}`, to: user.email, language: user.language, subject: text.mailSubject, paragraphs: [kind === "invite" ? text.mailInvite : text.mailReset], action: { label: text.mailAction, url: link } }),
  );
  return link;
}

export async function action(args: Route.ActionArgs) {
  const { user: me, language, services } = admin(args, "superuser");
  const text = texts[language];
  const { users, audit } = services.auth;
  const fields = await readAdminForm(args.request);
  if (fields.intent === "invite") {
    let created: User;
    try {
      // The one engine's rules, as everywhere else (email, lengths).
      const values = await requireValid(inviteForm(language), fields, language);
      created = await users.create({ email: String(values.email), name: String(values.name), superuser: values.superuser === true, language });
    } catch (error) {
      if (error instanceof FormRejected) return refused(error.message, 400, error.errors);
      if (error instanceof ContentError) return refused(error.message, error.statusCode);
      throw error;
    }
    const link = handOver(args, await mailLink(args, created, "invite"));
    await audit.record(me, { action: "invite-user", itemId: created.id, detail: created.email });
    return done((mailDelivers(args.context) ? text.invited : text.invitedQueued)(created.email), 201, { id: created.id, link } as never);
  }
  const target = fields.id ? await users.get(fields.id) : undefined;
  if (!target) return refused(text.unknownUser, 404);
  if (fields.intent === "reset") {
    await users.endSessions(target.id);
    const fresh = (await users.get(target.id))!;
    const link = handOver(args, await mailLink(args, fresh, "reset"));
    await audit.record(me, { action: "reset-password", itemId: target.id, detail: target.email });
    return done((mailDelivers(args.context) ? text.resetDone : text.resetQueued)(target.email), 200, { link } as never);
  }
  if (fields.intent === "remove" || fields.intent === "revoke") {
    if (target.id === me.id) return refused(text.notSelf, 409);
    if (target.superuser && (await users.superuserCount()) <= 1) return refused(text.lastSuperuser, 409);
    if (fields.intent === "remove") {
      // Asked first, by the server (issue 22, point 4): a post without confirmed=yes removes nobody.
      if (!isConfirmed(fields)) return askFirst({ question: text.confirmRemove(target.email), detail: text.removeDetail, confirmLabel: text.yesRemove(target.email), fields: { intent: "remove", id: target.id } });
      await users.remove(target.id);
      await audit.record(me, { action: "remove-user", itemId: target.id, detail: target.email });
      return done(text.removed);
    }
    await users.update(target.id, { superuser: false });
    await users.endSessions(target.id);
    await audit.record(me, { action: "revoke-superuser", itemId: target.id, detail: target.email });
    return done(text.changed);
  }
  if (fields.intent === "grant") {
    await users.update(target.id, { superuser: true });
    await audit.record(me, { action: "grant-superuser", itemId: target.id, detail: target.email });
    return done(text.changed);
  }
  return refused(text.unknownIntent);
}

export default function Users({ loaderData }: Route.ComponentProps) {
  const { text, users, me, mailOn, locale } = loaderData;
  const result = useActionData<typeof action>() as { ok: boolean; message: string; link?: string; errors?: Record<string, string[]>; confirm?: Confirmation } | undefined;
  const busy = useNavigation().state === "submitting";
  return (
    <AdminPage title={text.title} intro={<p>{text.intro}</p>}>
      <MailOffNotice mailOn={mailOn} />
      <ConfirmStep confirm={result?.confirm} Form={Form} cancelHref="/manage/users" />
      <SaveNotice result={result} />
      {result?.ok && result.link ? (
        <p className="break-all text-sm">
          {text.linkHint} <code data-set-password-link>{result.link}</code>
        </p>
      ) : null}
      <div className="overflow-x-auto">
        <table className="w-full border-collapse bg-white text-left text-sm">
          <thead>
            <tr className="border-b border-slate-400">
              <th scope="col" className="p-2">{text.email}</th>
              <th scope="col" className="p-2">{text.name}</th>
              <th scope="col" className="p-2">{text.lastSignIn}</th>
              <th scope="col" className="p-2"><span className="sr-only">{text.actions}</span></th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr key={u.id} className="border-b border-slate-200 align-top" data-user={u.email}>
                <td className="p-2">
                  {u.email}
                  {u.superuser ? <span className="ml-2 rounded bg-[#0f5e63] px-1.5 py-0.5 text-xs text-white">{text.superuser}</span> : null}
                  {u.pending ? <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs">{text.pending}</span> : null}
                </td>
                <td className="p-2" data-content>
                  {u.name}
                </td>
                <td className="p-2">{u.lastSignIn ? new Date(u.lastSignIn).toLocaleString(locale, { timeZone: "Europe/Berlin" }) : text.never}</td>
                <td className="flex flex-wrap gap-2 p-2">
                  {(
                    [
                      ["reset", text.reset, "secondary"],
                      ...(u.id === me ? [] : ([[u.superuser ? "revoke" : "grant", u.superuser ? text.revoke : text.grant, "secondary"], ["remove", text.remove, "secondary"]] as const)),
                    ] as const
                  ).map(([intent, label, tone]) => (
                    // Remove is not red here: the server asks first (ConfirmStep), where the button that removes is.
                    <Form method="post" key={intent}>
                      <input type="hidden" name="intent" value={intent} />
                      <input type="hidden" name="id" value={u.id} />
                      <button type="submit" className={buttonClass(tone)} disabled={busy}>
                        {label}
                      </button>
                    </Form>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Form method="post" className="max-w-xl space-y-3 rounded border border-slate-300 bg-white p-4">
        <h2 className="text-lg font-bold">{text.inviteTitle}</h2>
        <input type="hidden" name="intent" value="invite" />
        <TextField label={text.email} name="email" type="email" required autoComplete="off" error={result?.errors?.email?.[0]} />
        <TextField label={text.name} name="name" />
        <label className="flex items-center gap-2">
          <input type="checkbox" name="superuser" className="h-5 w-5" /> {text.superuser}
        </label>
        <button type="submit" className={buttonClass()} disabled={busy}>
          {text.invite}
        </button>
      </Form>
    </AdminPage>
  );
}
