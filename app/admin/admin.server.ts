import { data, type AppLoadContext } from "react-router";
import { requireUser } from "~/auth/require.server";
import type { User } from "~/auth/users.server";
import type { AuditRecord } from "~/auth/audit.server";
import { ContentError, contentErrorOf } from "~/content/errors";
import { SINGLETON_ERROR, userPrincipal, type Principal } from "~/content/policy";
import type { AuditNote } from "~/content/types";
import { firstValues, readForm } from "~/lib/body";
import { adminTexts } from "./texts";

/** Form posts to admin actions: 1 MB is far above any form the admin area has (uploads go to the asset API). */
export const ADMIN_FORM_LIMIT = 1024 * 1024;

export interface AdminArgs {
  context: AppLoadContext;
  request: Request;
}

/**
 * What every admin loader and action starts with: the signed-in user (redirect to /login or 401
 * without one, 403 where a superuser is needed), the user's language and texts.
 */
export function admin(args: AdminArgs, level: "editor" | "superuser" = "editor") {
  const user = requireUser(args, level);
  const language = user.language;
  return { user, language, t: adminTexts[language], services: args.context.services };
}

/**
 * Whether mail goes out: without SMTP_URL it waits in the outbox for good (app/mail/delivery.ts),
 * and the screens must not say "sent" (issue 22, point 6).
 */
export function mailDelivers(context: AppLoadContext): boolean {
  return Boolean(context.services.env.SMTP_URL);
}

/**
 * Who a store write is by: the store asks the policy (content/policy.ts) and writes the audit line,
 * named by `note` where the screen knows the better name ("rename-page", a new slug).
 */
export function writer(user: User, note?: AuditNote): { by: Principal; note?: AuditNote } {
  return { by: userPrincipal(user), ...(note ? { note } : {}) };
}

/**
 * An admin form post as plain fields (the first value of each name). A body that is no form (another
 * type: 415) or too large (413) is thrown as that status with its message, for the admin error
 * boundary: never a 500.
 */
export async function readAdminForm(request: Request): Promise<Record<string, string>> {
  let form: URLSearchParams;
  try {
    form = await readForm(request, ADMIN_FORM_LIMIT);
  } catch (error) {
    if (error instanceof ContentError) throw data({ message: error.message }, { status: error.statusCode });
    throw error;
  }
  return firstValues(form);
}

/** What an admin action answers: the UI shows `message`, and treats 200/201 as success (§8). */
export interface AdminResult {
  ok: boolean;
  message: string;
  errors?: Record<string, string[]>;
  /** Id of what was created or changed. */
  id?: string;
}

/**
 * The question a destructive action asks before it acts (issue 22, point 4): what goes, named.
 * `fields` are posted again with `confirmed=yes` by the confirm step's button (ui.tsx, ConfirmStep).
 */
export interface Confirmation {
  question: string;
  /** Further words: what cannot be undone, what to do instead. */
  detail?: string;
  confirmLabel: string;
  fields: Record<string, string>;
}

/**
 * Whether a destructive post was confirmed. The server asks itself, not the browser: a post without
 * `confirmed=yes` (a script, a stray click, no JavaScript) gets the question back and changes nothing.
 */
export const isConfirmed = (fields: Record<string, string>) => fields.confirmed === "yes";

/** The answer that asks first: a 200 carrying the question; nothing was changed. */
export const askFirst = (confirm: Confirmation) => data<AdminResult & { confirm: Confirmation }>({ ok: true, message: confirm.question, confirm });

export const done = (message: string, status: 200 | 201 = 200, extra: Partial<AdminResult> = {}) => data<AdminResult>({ ok: true, message, ...extra }, { status });
export const refused = (message: string, status = 400, errors?: Record<string, string[]>) => data<AdminResult>({ ok: false, message, ...(errors ? { errors } : {}) }, { status });

/**
 * Runs an admin mutation and turns store errors (validation, a version conflict, not found, the
 * policy's refusal) into a refusal with their message instead of a 500. Store writes are audited by
 * the store itself (`writer`); `audit` is for what is not in the store (the outbox, users): null for
 * store writes.
 */
export async function mutate(
  args: AdminArgs & { user: User },
  audit: AuditRecord | ((result: unknown) => AuditRecord) | null,
  run: () => Promise<unknown>,
  success: (result: unknown) => ReturnType<typeof done>,
) {
  try {
    const result = await run();
    if (audit) await args.context.services.auth.audit.record(args.user, typeof audit === "function" ? audit(result) : audit);
    return success(result);
  } catch (error) {
    // The policy's refusal, and a store busy past its wait (nothing written), in the editor's language.
    if (error instanceof ContentError && error.statusCode === 403) return refused(adminTexts[args.user.language].forbidden, 403);
    if (error instanceof ContentError && error.errorCode === SINGLETON_ERROR) return refused(adminTexts[args.user.language].singletonKept, 400);
    if (contentErrorOf(error)?.statusCode === 503) return refused(adminTexts[args.user.language].busy, 503);
    if (error instanceof ContentError) {
      const message = error.details?.length ? `${error.message} ${error.details.join(" ")}` : error.message;
      return refused(message, error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400);
    }
    args.context.services.logger.error({ err: error, requestId: args.context.requestId }, "admin mutation failed");
    return refused(adminTexts[args.user.language].saveFailed(500), 500);
  }
}
