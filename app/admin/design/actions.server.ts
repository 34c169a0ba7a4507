/**
 * The design screens' writes, each through `mutate` (admin.server): audited, and store errors
 * (a version conflict, an item gone meanwhile) answered as refusals instead of a 500.
 */
import { type AdminArgs, done, mutate, refused, writer } from "~/admin/admin.server";
import { can, userPrincipal } from "~/content/policy";
import type { User } from "~/auth/users.server";
import { isValidId } from "~/content/ids";
import type { ContentItem } from "~/content/types";
import { type Checked, expectedVersion, writeDesignItem } from "./design.server";

const refusals = {
  de: { badVersion: "Die Version fehlt oder ist ungültig. Bitte laden Sie die Seite neu.", gone: "Diesen Eintrag gibt es nicht (mehr)." },
  en: { badVersion: "The version is missing or invalid. Please reload the page.", gone: "This item does not exist (any more)." },
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

/** Deletes an item; only superusers delete content (the policy: 403 for everybody else). */
export async function deleteItem(args: AdminArgs, user: User, schema: string, fields: Record<string, string>, texts: { deleted: string; superuserOnly: string; missing: string }) {
  if (!can(userPrincipal(user), "delete", schema)) return refused(texts.superuserOnly, 403);
  const id = fields.id?.trim();
  if (!id) return refused(texts.missing, 400);
  if (!isValidId(id)) return refused(refusals[user.language].gone, 404);
  return mutate(
    { ...args, user },
    null,
    () => args.context.services.store.delete(schema, id, writer(user)),
    () => done(texts.deleted),
  );
}
