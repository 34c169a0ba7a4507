import type { DB } from "~/content/db";
import type { User } from "~/auth/users.server";

/**
 * Who else has a page open in edit mode. App nodes keep no state of their own, so each editor's
 * browser sends a heartbeat (every 20 s, see presence.tsx) that refreshes a row in the database;
 * whoever was seen within the window counts as present. A closed tab that could not say goodbye
 * just drops out of the window.
 */

/** Seen within this long: present. Two missed heartbeats (20 s apart) plus some slack for slow networks. */
export const PRESENCE_WINDOW_MS = 45_000;
/** Rows older than this are deleted: nobody is shown them any more, they only take room. */
export const PRESENCE_KEEP_MS = 60 * 60 * 1000;
/** How often one app node purges: every heartbeat would delete nothing almost every time. */
const PURGE_EVERY_MS = 10 * 60 * 1000;

export interface PresentEditor {
  /** Name, or e-mail for someone without a name; never an internal id. */
  name: string;
}

/** When this node last purged each database (a node may serve tests with several). */
const lastPurge = new WeakMap<DB, number>();

/**
 * Records that `user` has `pageId` open now and answers the others seen on that page within the
 * window, by name, in a stable order. Now and then old rows of every page go.
 */
export async function heartbeat(db: DB, pageId: string, user: Pick<User, "id" | "name" | "email">, now: Date = new Date()): Promise<PresentEditor[]> {
  const seenAt = now.toISOString();
  const name = user.name.trim() || user.email;
  await db
    .insertInto("editor_presence")
    .values({ page_id: pageId, user_id: user.id, name, seen_at: seenAt })
    .onConflict((oc) => oc.columns(["page_id", "user_id"]).doUpdateSet({ name, seen_at: seenAt }))
    .execute();
  await purgeNowAndThen(db, now);
  const since = new Date(now.getTime() - PRESENCE_WINDOW_MS).toISOString();
  const rows = await db
    .selectFrom("editor_presence")
    .select("name")
    .where("page_id", "=", pageId)
    .where("user_id", "!=", user.id)
    .where("seen_at", ">=", since)
    .orderBy("name")
    .execute();
  return rows.map((r) => ({ name: r.name }));
}

/** The user closed the page (or the tab): the others stop seeing them at once, not 45 s later. */
export async function leave(db: DB, pageId: string, userId: string): Promise<void> {
  await db.deleteFrom("editor_presence").where("page_id", "=", pageId).where("user_id", "=", userId).execute();
}

/** Deletes rows not refreshed for an hour; answers how many. */
export async function purgePresence(db: DB, now: Date = new Date()): Promise<number> {
  const before = new Date(now.getTime() - PRESENCE_KEEP_MS).toISOString();
  const result = await db.deleteFrom("editor_presence").where("seen_at", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

async function purgeNowAndThen(db: DB, now: Date): Promise<void> {
  const last = lastPurge.get(db);
  // A clock that went back (or a test's date from the past) purges again rather than never.
  if (last !== undefined && now.getTime() - last < PURGE_EVERY_MS && now.getTime() >= last) return;
  lastPurge.set(db, now.getTime());
  await purgePresence(db, now);
}
