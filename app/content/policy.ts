import { ContentError } from "./errors";

/**
 * The one authorization policy of the content service: role × collection × action. Every path that
 * writes content, schemas or assets asks it — the admin screens, the Squidex API (with a session or a
 * client token), each bulk job, the internal flows — because the store itself asks it for every write
 * that names who is writing (`WriteOptions.by`), and screens ask `can` to decide what to offer.
 * A rule kept in a screen alone would be walked around through the API (issue 20, finding 2).
 */

/** Who is writing. */
export type Principal =
  /** A signed-in person of the admin area. */
  | { kind: "user"; userId: string; email: string; superuser: boolean }
  /** A Squidex client token: the site owner's integration (as a Squidex client with the Owner role). */
  | { kind: "client"; clientId: string }
  /** Nobody signed in. */
  | { kind: "visitor" };

export type Role = "visitor" | "editor" | "superuser" | "client";

export const ACTIONS = ["readDraft", "create", "update", "publish", "unpublish", "delete", "changeSchema"] as const;
export type ContentAction = (typeof ACTIONS)[number];

export const ASSET_ACTIONS = ["uploadAsset", "changeAsset", "deleteAsset", "changeFolder", "deleteFolder"] as const;
export type AssetAction = (typeof ASSET_ACTIONS)[number];

export type Action = ContentAction | AssetAction;

/**
 * The system collections: they shape the whole site or the admin itself — the global settings, the
 * admin menu, the editors' block palette, the site's languages — and one wrong field breaks every
 * page. Only superusers change them (issue 22, point 4).
 */
export const SUPERUSER_COLLECTIONS: ReadonlySet<string> = new Set(["core-global-settings", "core-backend-navigation", "core-settings-blocks", "core-theme-languages"]);

/**
 * System collections with a screen of their own that checks every value it writes (the themes:
 * six valid colours on the colours screen). Editors change them there; as plain items — the item
 * screen, the Squidex API, bulk jobs, where any text goes into a colour field — only superusers.
 */
export const SCREEN_ONLY_COLLECTIONS: ReadonlySet<string> = new Set(["core-theme-settings"]);

/**
 * Collections of one item the site cannot do without (the global settings: site name, default
 * theme, scripts). Nobody deletes or unpublishes it, not even a superuser or a client token: the
 * site would lose its settings in one click. It is changed instead.
 */
export const SINGLETON_COLLECTIONS: ReadonlySet<string> = new Set(["core-global-settings"]);

/** Whether the policy refuses `action` on `collection` to everyone: the singleton's item stays. */
export const keepsItem = (action: Action, collection: string): boolean => SINGLETON_COLLECTIONS.has(collection) && (action === "delete" || action === "unpublish");

/**
 * Through which door a write comes: "plain" for item writes that take any valid data (the item
 * screen, the Squidex API, bulk jobs), or a screen that checks what it writes (SCREEN_ONLY_COLLECTIONS).
 */
export type Channel = "plain" | "design-screen";

/**
 * Collections editors may delete items of: free appointment slots are removed by editors (the
 * appointments screen refuses booked ones). Everything else is deleted by superusers only.
 */
export const EDITOR_DELETABLE: ReadonlySet<string> = new Set(["gm-appointments"]);

/** Schemas editors may change: the blocks' own (the blocks screen); the rest are the app's data model. */
const EDITOR_SCHEMA = /^block-/;

export const roleOf = (principal: Principal): Role =>
  principal.kind === "user" ? (principal.superuser ? "superuser" : "editor") : principal.kind === "client" ? "client" : "visitor";

/** What a refusal says, by the action refused (the screens show their own texts in de/en). */
const REASONS: Record<Action, string> = {
  readDraft: "Sign in to read unpublished content.",
  create: "Only a superuser may create items in this collection.",
  update: "Only a superuser may change this collection.",
  publish: "Only a superuser may publish items of this collection.",
  unpublish: "Only a superuser may unpublish items of this collection.",
  delete: "Only a superuser may delete content.",
  changeSchema: "Only a superuser may change this schema.",
  uploadAsset: "Sign in to upload assets.",
  changeAsset: "Sign in to change assets.",
  deleteAsset: "Only a superuser may delete assets.",
  changeFolder: "Sign in to change asset folders.",
  deleteFolder: "Sign in to delete asset folders.",
};

/**
 * Whether `principal` may do `action` to `collection` (a schema name; for asset actions, ignored).
 * Client tokens and superusers may do everything; visitors nothing here (their flows — bookings,
 * registrations — are the app's own writes, checked by their signed tokens); editors everything
 * but the superuser collections, the themes as plain items, deleting (but free slots), and the app's
 * own schemas. The singleton's item is deleted or unpublished by nobody (SINGLETON_COLLECTIONS).
 */
export function can(principal: Principal, action: Action, collection = "", channel: Channel = "plain"): boolean {
  const role = roleOf(principal);
  if (keepsItem(action, collection)) return false;
  if (role === "client" || role === "superuser") return true;
  if (role === "visitor") return false;
  switch (action) {
    case "readDraft":
    case "uploadAsset":
    case "changeAsset":
    case "changeFolder":
    case "deleteFolder":
      return true;
    case "deleteAsset":
      return false;
    case "changeSchema":
      return EDITOR_SCHEMA.test(collection);
    case "delete":
      return EDITOR_DELETABLE.has(collection);
    case "create":
    case "update":
    case "publish":
    case "unpublish":
      if (SCREEN_ONLY_COLLECTIONS.has(collection)) return channel === "design-screen";
      return !SUPERUSER_COLLECTIONS.has(collection);
  }
}

/**
 * Throws a 403 (401 for a visitor) with the reason when the policy refuses; 400 for the singleton's
 * item, which is refused to everyone (no role would help, so it is no question of rights).
 */
export function authorize(principal: Principal, action: Action, collection = "", channel: Channel = "plain"): void {
  if (can(principal, action, collection, channel)) return;
  if (principal.kind === "visitor") throw new ContentError(401, "Sign in first.");
  if (keepsItem(action, collection)) throw new ContentError(400, SINGLETON_REASONS[action as "delete" | "unpublish"], undefined, SINGLETON_ERROR);
  throw new ContentError(403, REASONS[action], undefined, "FORBIDDEN");
}

/** The error code of the singleton refusal: screens answer it in the editor's language. */
export const SINGLETON_ERROR = "SINGLETON_KEPT";

const SINGLETON_REASONS = {
  delete: "This collection holds the site's one settings item: it cannot be deleted. Change it instead.",
  unpublish: "This collection holds the site's one settings item: it cannot be unpublished, the site needs it. Change it instead.",
};

/** The actor ref token a write records (as in Squidex): `subject:<user id>` or `client:<client id>`. */
export function actorOf(principal: Principal): string {
  return principal.kind === "user" ? `subject:${principal.userId}` : principal.kind === "client" ? `client:${principal.clientId}` : "anonymous";
}

export function userPrincipal(user: { id: string; email: string; superuser: boolean }): Principal {
  return { kind: "user", userId: user.id, email: user.email, superuser: user.superuser };
}
