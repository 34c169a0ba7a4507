import type { ContentStore } from "~/content/store";
import type { ContentData, SchemaField } from "~/content/types";
import type { FormDefinition, FormField, FormValues } from "~/forms/definition";
import { formFieldsFromSchema } from "~/forms/from-schema";
import { localizedPath, type Language } from "~/i18n/languages";
import type { TokenSigner } from "~/lib/tokens.server";
import type { Outbox } from "~/mail/outbox";
import { renderMail } from "~/mail/templates";
import { PRIVACY_PATH } from "~/newsletter/form";
import { registrationDictionary } from "./dictionary";

export const PRACTITIONERS = "gm-content-practitioners";
/** How long a continue link works. */
export const CONTINUE_TTL_SECONDS = 30 * 24 * 3600;

export const registerPath = (language: Language, id?: string) => localizedPath(language, id ? `/practitioners/register/${encodeURIComponent(id)}` : "/practitioners/register");

export type ContinueState =
  | { ok: true; id: string; values: FormValues; language: Language }
  | { ok: false; reason: "invalid" | "expired" | "gone" | "finished" };

const texts = {
  de: {
    privacy: "Ich bin einverstanden, dass meine Angaben für die Aufnahme ins Verzeichnis gespeichert und von der Redaktion geprüft werden.",
    privacyLink: "Datenschutzerklärung",
    finish: "Registrierung abschließen: Meine Angaben sind vollständig. Danach sind über den Link keine Änderungen mehr möglich.",
  },
  en: {
    privacy: "I agree that my details are stored for the directory and reviewed by the editors.",
    privacyLink: "Privacy policy",
    finish: "Finish the registration: my details are complete. After that, the link no longer allows changes.",
  },
};

const NO_FIELDS: readonly SchemaField[] = [];
const forms = new WeakMap<readonly SchemaField[], Map<string, FormDefinition>>();

function makeForm(schemaFields: readonly SchemaField[], language: Language, continuing: boolean): FormDefinition {
  const fields = formFieldsFromSchema(schemaFields, registrationDictionary[language]).map((f) =>
    f.name === "email" ? { ...f, validation: ["required:trim", f.validation].filter(Boolean).join("|"), autocomplete: "email" } : f,
  );
  const t = texts[language];
  const extra: FormField[] = [{ name: "privacy", type: "checkbox", label: t.privacy, validation: "accepted", link: { href: PRIVACY_PATH[language], text: t.privacyLink } }];
  if (continuing) extra.push({ name: "finish", type: "checkbox", label: t.finish });
  return { id: "registration", fields: [...fields, ...extra] };
}

/**
 * Practitioner registration (§1, §2): the form is made from the practitioner schema (§5), a
 * submission becomes a Draft practitioner that no visitor sees (display off, not finished), and the
 * registrant gets a signed link to continue it until they finish. Editors review and publish.
 */
export class RegistrationService {
  constructor(
    private readonly store: ContentStore,
    private readonly mail: Outbox,
    private readonly tokens: TokenSigner,
    private readonly siteName: string,
  ) {}

  private async schemaFields(): Promise<readonly SchemaField[]> {
    const schema = await this.store.getSchema(PRACTITIONERS);
    return schema?.fields ?? NO_FIELDS;
  }

  /**
   * The form: the schema's visitor fields, the contact address required (the link goes there), the
   * consent. Made once per schema version and language (the store keeps a schema's object until it
   * changes), not per request — and the same object lets the engine reuse its checking trees.
   */
  async form(language: Language, opts: { continuing?: boolean } = {}): Promise<FormDefinition> {
    const fields = await this.schemaFields();
    let made = forms.get(fields);
    if (!made) forms.set(fields, (made = new Map()));
    const key = `${language}:${opts.continuing === true}`;
    let form = made.get(key);
    if (!form) made.set(key, (form = makeForm(fields, language, opts.continuing === true)));
    return form;
  }

  /** Schema data from valid form values: localised fields in the form's language, tags split, the rest invariant. */
  private async toData(values: FormValues, language: Language, finished: boolean): Promise<ContentData> {
    const data: Record<string, Record<string, unknown>> = {};
    for (const field of await this.schemaFields()) {
      if (!Object.hasOwn(values, field.name)) continue;
      const raw = values[field.name];
      let value: unknown = typeof raw === "string" && raw === "" ? null : raw;
      if (field.properties.fieldType === "Tags" && typeof raw === "string")
        value = raw
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
          .slice(0, 20);
      if (field.properties.fieldType === "Number" && typeof raw === "string") value = raw === "" ? null : Number(raw);
      if (value === null) continue;
      data[field.name] = field.partitioning === "language" ? { [language]: value } : { iv: value };
    }
    data.display = { iv: false };
    data.websites = { iv: [this.siteName.toUpperCase()] };
    data.finishedPractitioner = { iv: finished };
    return data as ContentData;
  }

  /** A new Draft practitioner from a valid submission; mails the continue link. */
  async register(values: FormValues, language: Language, origin: string, now = new Date()): Promise<string> {
    const data = await this.toData(values, language, false);
    return this.store.sequence(async (tx) => {
      const item = await tx.create(PRACTITIONERS, data, { publish: false, actor: "registration" });
      await this.mail.enqueue(this.receivedMail(item.id, String(values.email), String(values.name), language, origin), tx.db, now);
      return item.id;
    });
  }

  /** What a continue link opens: the stored draft's values, or why not. */
  async open(id: string, token: unknown, language: Language): Promise<ContinueState> {
    const check = this.tokens.verify("registration", token, id);
    if (!check.ok) return { ok: false, reason: check.reason };
    const item = await this.store.get(PRACTITIONERS, id, { unpublished: true });
    if (!item) return { ok: false, reason: "gone" };
    const data = item.data as Record<string, Record<string, unknown> | undefined>;
    if (data.finishedPractitioner?.iv === true || item.status === "Published") return { ok: false, reason: "finished" };
    const values: FormValues = {};
    for (const field of await this.schemaFields()) {
      const cell = data[field.name];
      if (!cell) continue;
      const value = field.partitioning === "language" ? (cell[language] ?? cell.de ?? cell.en) : cell.iv;
      if (Array.isArray(value)) values[field.name] = value.join(", ");
      else if (typeof value === "string" || typeof value === "boolean") values[field.name] = value;
      else if (typeof value === "number") values[field.name] = String(value);
    }
    return { ok: true, id, values, language };
  }

  /**
   * Saves a continued registration. The finished check and the write happen in one transaction, so
   * a link cannot change a registration that was finished a moment before.
   */
  async update(id: string, token: unknown, values: FormValues, language: Language, origin: string, now = new Date()): Promise<ContinueState> {
    const check = this.tokens.verify("registration", token, id);
    if (!check.ok) return { ok: false, reason: check.reason };
    const finish = values.finish === true;
    const data = await this.toData(values, language, finish);
    return this.store.sequence(async (tx): Promise<ContinueState> => {
      const item = await tx.get(PRACTITIONERS, id, { unpublished: true });
      if (!item) return { ok: false, reason: "gone" };
      const stored = item.data as Record<string, Record<string, unknown> | undefined>;
      if (stored.finishedPractitioner?.iv === true || item.status === "Published") return { ok: false, reason: "finished" };
      // Localised fields keep their other languages.
      const merged: Record<string, unknown> = { ...data };
      for (const [name, cell] of Object.entries(data as Record<string, Record<string, unknown>>)) {
        if (!("iv" in cell) && stored[name]) merged[name] = { ...stored[name], ...cell };
      }
      await tx.update(PRACTITIONERS, id, merged, { actor: "registration" });
      if (finish) await this.mail.enqueue(this.finishedMail(String(values.email), language), tx.db, now);
      return { ok: true, id, values, language };
    });
  }

  continueUrl(id: string, language: Language, origin: string): string {
    return `${origin}${registerPath(language, id)}?token=${encodeURIComponent(this.tokens.sign("registration", id, CONTINUE_TTL_SECONDS))}`;
  }

  private receivedMail(id: string, email: string, name: string, language: Language, origin: string) {
    const de = language === "de";
    return renderMail({
      kind: "registration-received",
      to: email,
      language,
      subject: de ? "Ihre Registrierung im Praxisnetz" : "Your Praxisnetz registration",
      greeting: de ? `Guten Tag ${name},` : `Hello ${name},`,
      paragraphs: de
        ? [
            "vielen Dank für Ihre Registrierung. Ihre Angaben sind gespeichert, aber noch nicht öffentlich.",
            "Mit dem Link unten können Sie sie 30 Tage lang ergänzen und die Registrierung abschließen. Danach prüft unsere Redaktion Ihren Eintrag.",
          ]
        : [
            "thank you for registering. Your details are saved but not yet public.",
            "With the link below you can complete them for 30 days and finish the registration. Our editors then review your entry.",
          ],
      action: { label: de ? "Registrierung fortsetzen" : "Continue the registration", url: this.continueUrl(id, language, origin) },
    });
  }

  private finishedMail(email: string, language: Language) {
    const de = language === "de";
    return renderMail({
      kind: "registration-finished",
      to: email,
      language,
      subject: de ? "Registrierung abgeschlossen" : "Registration finished",
      paragraphs: de
        ? ["Ihre Registrierung ist abgeschlossen. Unsere Redaktion prüft Ihren Eintrag und meldet sich, sobald er sichtbar ist."]
        : ["Your registration is finished. Our editors review your entry and let you know once it is visible."],
    });
  }
}
