/**
 * The design screens' writes, each through `mutate` (admin.server): audited, and store errors
 * (a version conflict, an item gone meanwhile) answered as refusals instead of a 500.
 */
import { type AdminArgs, askFirst, done, isConfirmed, mutate, refused, writer } from "~/admin/admin.server";
import { can, userPrincipal } from "~/content/policy";
import type { User } from "~/auth/users.server";
import { isValidId } from "~/content/ids";
import type { ContentItem } from "~/content/types";
import { type Checked, expectedVersion, writeDesignItem } from "./design.server";

const refusals = {
  de: {
    badVersion: "Die Version fehlt oder ist ungültig. Bitte laden Sie die Seite neu.",
    gone: "Diesen Eintrag gibt es nicht (mehr).",
    confirm: (name: string) => `„${name}“ wirklich löschen?`,
    detail: "Gelöschte Einträge lassen sich nicht wiederherstellen. Wo die Website ihn noch verwendet, fehlt er danach.",
    yes: (name: string) => `Ja, „${name}“ löschen`,
  },
  en: {
    badVersion: "The version is missing or invalid. Please reload the page.",
    gone: "This item does not exist (any more).",
    confirm: (name: string) => `Really delete “${name}”?`,
    detail: "Deleted items cannot be brought back. Where the site still uses it, it will be missing.",
    yes: (name: string) => `Yes, delete “${name}”`,
  },
};

export interface SaveTexts {
  created: string;
  saved: string;
}

/** Stores a checked form (new without `fields.id`: 201; changed: 200), or refuses it with its messages (400). */
export async function saveChecked(args: AdminArgs, user: User, schema: string, fields: Record<string, string>, checked: Checked, texts: SaveTexts, extra: Record<string, unknown> = {}) {
  if (!checked.ok) return refused(checked.message, 400, checked.errors);
  const id = fields.id?.trim() || undefined;
  // A change names the item and the version the editor saw: without it a stale form would overwrite.
  if (id !== undefined && !isValidId(id)) return refused(refusals[user.language].gone, 404);
  if (id !== undefined && expectedVersion(fields) === undefined) return refused(refusals[user.language].badVersion, 400);
  return mutate(
    { ...args, user },
    null,
    () => writeDesignItem(args.context.services.store, schema, id, checked.data, { ...writer(user), expectedVersion: expectedVersion(fields) }),
    (item) => done(id ? texts.saved : texts.created, id ? 200 : 201, { id: (item as ContentItem).id, ...extra }),
  );
}

/**
 * Deletes an item; only superusers delete content (the policy: 403 for everybody else). The server
 * asks first (issue 22, point 4): a post without `confirmed=yes` gets the question naming the item
 * back and changes nothing.
 */
export async function deleteItem(args: AdminArgs, user: User, schema: string, fields: Record<string, string>, texts: { deleted: string; superuserOnly: string; missing: string }) {
  if (!can(userPrincipal(user), "delete", schema)) return refused(texts.superuserOnly, 403);
  const id = fields.id?.trim();
  if (!id) return refused(texts.missing, 400);
  if (!isValidId(id)) return refused(refusals[user.language].gone, 404);
  if (!isConfirmed(fields)) {
    const item = await args.context.services.store.get(schema, id, { unpublished: true });
    if (!item) return refused(refusals[user.language].gone, 404);
    const name = String((item.data.name as { iv?: unknown } | undefined)?.iv ?? "") || id;
    const words = refusals[user.language];
    return askFirst({ question: words.confirm(name), detail: words.detail, confirmLabel: words.yes(name), fields: { intent: fields.intent ?? "", id } });
  }
  return mutate(
    { ...args, user },
    null,
    () => args.context.services.store.delete(schema, id, writer(user)),
    () => done(texts.deleted),
  );
}
