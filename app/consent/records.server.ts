import { createHash, randomUUID } from "node:crypto";
import type { DB } from "~/content/db";
import { messages } from "~/i18n/messages";
import { LANGUAGES } from "~/i18n/languages";
import { OPTIONAL_CATEGORIES } from "./consent";

/**
 * The version of the consent text: a hash of every word the banner shows, in every language. When
 * an editor or a developer changes the text, new choices are recorded against the new version.
 */
export const CONSENT_TEXT_VERSION = createHash("sha256")
  .update(
    JSON.stringify(
      LANGUAGES.map((l) => {
        const m = messages(l);
        return [m.consentTitle, m.consentText, m.consentAcceptAll, m.consentNecessaryOnly, m.consentSave, m.consentCategories];
      }),
    ),
  )
  .digest("hex")
  .slice(0, 16);

export const CONSENT_PROOF_COOKIE = "pn_consent_proof";

/** Proof of consent (issue 24): one row per choice; its id goes into the visitor's cookie, nothing about them into the row. */
export class ConsentRecords {
  constructor(private readonly db: DB) {}

  async record(granted: readonly string[], now = new Date()): Promise<{ id: string; textVersion: string }> {
    const id = randomUUID();
    const categories = OPTIONAL_CATEGORIES.filter((c) => granted.includes(c)).join(",") || "necessary";
    await this.db.insertInto("consent_records").values({ id, at: now.toISOString(), text_version: CONSENT_TEXT_VERSION, categories }).execute();
    return { id, textVersion: CONSENT_TEXT_VERSION };
  }

  async find(id: string): Promise<{ id: string; at: string; textVersion: string; categories: string[] } | undefined> {
    const row = await this.db.selectFrom("consent_records").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? { id: row.id, at: row.at, textVersion: row.text_version, categories: row.categories.split(",") } : undefined;
  }
}
