import type { AppLoadContext } from "react-router";
import type { DB } from "~/content/db";
import type { FormDefinition } from "~/forms/definition";
import { guardSubmission } from "~/forms/guard.server";
import { requireValid, type Submission } from "~/forms/submission.server";
import { isUniqueViolation } from "~/content/db";
import type { Language } from "~/i18n/languages";
import { newsletterPath, normalizeEmail, presentPath } from "./form";
import type { TokenSigner } from "~/lib/tokens.server";
import type { Outbox } from "~/mail/outbox";
import { renderMail } from "~/mail/templates";

/** How long a confirmation link works; an address not confirmed by then is deleted. */
export const CONFIRM_TTL_SECONDS = 7 * 24 * 3600;

export { newsletterPath, normalizeEmail, presentPath } from "./form";

/**
 * A sign-up as the page's form (address and consent) and the JSON API (the address) take it: the
 * form's rules in the visitor's language, the spam and rate checks, then the mail.
 */
export async function submitNewsletter(context: AppLoadContext, definition: FormDefinition, submission: Submission, language: Language, origin: string): Promise<string> {
  const valid = await requireValid(definition, submission.data, language);
  const email = normalizeEmail(String(valid.email));
  await guardSubmission(context, "newsletter", email, submission, language);
  await context.services.newsletter.subscribe(email, language, origin);
  return email;
}

export type LinkCheck = { ok: true; email: string } | { ok: false; reason: "invalid" | "expired" };

/**
 * The newsletter with double opt-in: an address is stored as pending and gets a confirmation link;
 * only a confirmed address is subscribed. Nothing a visitor sees depends on whether an address was
 * already known (every valid sign-up gets the same answer), so the form cannot be used to find out
 * who subscribes; what differs goes into the mail, which only the address's owner reads.
 */
export class NewsletterService {
  constructor(
    private readonly db: DB,
    private readonly mail: Outbox,
    private readonly tokens: TokenSigner,
  ) {}

  async subscribe(rawEmail: string, language: Language, origin: string, now = new Date()): Promise<void> {
    const email = normalizeEmail(rawEmail);
    await this.db.transaction().execute(async (trx) => {
      const existing = await trx.selectFrom("subscribers").select(["status"]).where("email", "=", email).executeTakeFirst();
      if (existing?.status === "confirmed") {
        await this.mail.enqueue(this.alreadySubscribedMail(email, language, origin), trx, now);
        return;
      }
      if (!existing) {
        try {
          await trx.insertInto("subscribers").values({ email, status: "pending", language, created: now.toISOString(), confirmed_at: null }).execute();
        } catch (error) {
          // Two sign-ups of one address at once: the other one stored it; ours still mails a link.
          if (!isUniqueViolation(error)) throw error;
        }
      } else {
        await trx.updateTable("subscribers").set({ language }).where("email", "=", email).execute();
      }
      await this.mail.enqueue(this.confirmMail(email, language, origin), trx, now);
    });
  }

  check(purpose: "newsletter-confirm" | "newsletter-unsubscribe" | "present", token: unknown, pathEmail: string): LinkCheck {
    const result = this.tokens.verify(purpose, token, normalizeEmail(pathEmail));
    return result.ok ? { ok: true, email: result.subject } : { ok: false, reason: result.reason };
  }

  /** Confirms a pending address (again: nothing happens) and sends the welcome mail with the gift. */
  async confirm(email: string, origin: string, now = new Date()): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom("subscribers").select(["status", "language"]).where("email", "=", email).executeTakeFirst();
      if (!row) return false;
      if (row.status === "confirmed") return true;
      const changed = await trx
        .updateTable("subscribers")
        .set({ status: "confirmed", confirmed_at: now.toISOString() })
        .where("email", "=", email)
        .where("status", "=", "pending")
        .executeTakeFirst();
      if (Number(changed.numUpdatedRows) === 1) await this.mail.enqueue(this.welcomeMail(email, row.language === "en" ? "en" : "de", origin), trx, now);
      return true;
    });
  }

  /** Deletes the address (data minimisation: nothing is kept of someone who left). */
  async unsubscribe(email: string): Promise<void> {
    await this.db.deleteFrom("subscribers").where("email", "=", email).execute();
  }

  async isConfirmed(email: string): Promise<boolean> {
    const row = await this.db.selectFrom("subscribers").select("status").where("email", "=", email).executeTakeFirst();
    return row?.status === "confirmed";
  }

  /** Addresses never confirmed within the link's lifetime are deleted. */
  async purgePending(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - CONFIRM_TTL_SECONDS * 1000).toISOString();
    const result = await this.db.deleteFrom("subscribers").where("status", "=", "pending").where("created", "<", before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** What every newsletter mail ends with: the unsubscribe page in the footer, one-click unsubscribe in the headers. */
  private unsubscribeParts(email: string, language: Language, origin: string) {
    const token = this.tokens.sign("newsletter-unsubscribe", email, null);
    const page = `${origin}${newsletterPath(language, email)}?unsubscribe=${encodeURIComponent(token)}`;
    const oneClick = `${origin}/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}`;
    return {
      footer: [language === "de" ? `Abmelden: ${page}` : `Unsubscribe: ${page}`],
      headers: { "List-Unsubscribe": `<${oneClick}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    };
  }

  private confirmMail(email: string, language: Language, origin: string) {
    const token = this.tokens.sign("newsletter-confirm", email, CONFIRM_TTL_SECONDS);
    const url = `${origin}${newsletterPath(language, email)}?confirm=${encodeURIComponent(token)}`;
    const de = language === "de";
    return renderMail({
      kind: "newsletter-confirm",
      to: email,
      language,
      subject: de ? "Bitte bestätigen Sie Ihre Newsletter-Anmeldung" : "Please confirm your newsletter subscription",
      paragraphs: de
        ? ["Sie (oder jemand mit Ihrer Adresse) möchten den Newsletter des Praxisnetzes erhalten.", "Bitte bestätigen Sie das mit dem Link unten. Ohne Bestätigung senden wir nichts und löschen die Adresse nach sieben Tagen."]
        : ["You (or someone using your address) asked to receive the Praxisnetz newsletter.", "Please confirm with the link below. Without confirmation we send nothing and delete the address after seven days."],
      action: { label: de ? "Anmeldung bestätigen" : "Confirm subscription", url },
      ...this.unsubscribeParts(email, language, origin),
    });
  }

  private welcomeMail(email: string, language: Language, origin: string) {
    const present = `${origin}${presentPath(language, email)}?token=${encodeURIComponent(this.tokens.sign("present", email, null))}`;
    const de = language === "de";
    return renderMail({
      kind: "newsletter-welcome",
      to: email,
      language,
      subject: de ? "Willkommen beim Praxisnetz-Newsletter" : "Welcome to the Praxisnetz newsletter",
      paragraphs: de
        ? ["Danke für Ihre Bestätigung! Ab jetzt erhalten Sie einmal im Monat unseren Newsletter.", "Als Dankeschön wartet ein kleines Geschenk auf Sie."]
        : ["Thank you for confirming! From now on you receive our newsletter once a month.", "As a thank-you, a small gift is waiting for you."],
      action: { label: de ? "Zum Geschenk" : "Get your gift", url: present },
      ...this.unsubscribeParts(email, language, origin),
    });
  }

  private alreadySubscribedMail(email: string, language: Language, origin: string) {
    const de = language === "de";
    return renderMail({
      kind: "newsletter-already-subscribed",
      to: email,
      language,
      subject: de ? "Sie erhalten unseren Newsletter bereits" : "You already receive our newsletter",
      paragraphs: de
        ? ["Jemand hat diese Adresse noch einmal für den Newsletter angemeldet. Sie erhalten ihn bereits; es ist nichts zu tun."]
        : ["Someone signed this address up for the newsletter again. You already receive it; there is nothing to do."],
      ...this.unsubscribeParts(email, language, origin),
    });
  }
}
