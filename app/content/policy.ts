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

/** Collections that shape the whole site or the admin itself: only superusers change them. */
export const SUPERUSER_COLLECTIONS: ReadonlySet<string> = new Set(["core-global-settings", "core-backend-navigation"]);

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
 * but the superuser collections, deleting (but free slots), and the app's own schemas.
 */
export function can(principal: Principal, action: Action, collection = ""): boolean {
  const role = roleOf(principal);
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
      return !SUPERUSER_COLLECTIONS.has(collection);
  }
}

/** Throws a 403 (401 for a visitor) with the reason when the policy refuses. */
export function authorize(principal: Principal, action: Action, collection = ""): void {
  if (can(principal, action, collection)) return;
  if (principal.kind === "visitor") throw new ContentError(401, "Sign in first.");
  throw new ContentError(403, REASONS[action], undefined, "FORBIDDEN");
}

/** The actor ref token a write records (as in Squidex): `subject:<user id>` or `client:<client id>`. */
export function actorOf(principal: Principal): string {
  return principal.kind === "user" ? `subject:${principal.userId}` : principal.kind === "client" ? `client:${principal.clientId}` : "anonymous";
}

export function userPrincipal(user: { id: string; email: string; superuser: boolean }): Principal {
  return { kind: "user", userId: user.id, email: user.email, superuser: user.superuser };
}
