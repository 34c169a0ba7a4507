import type { AppLoadContext } from "react-router";

/**
 * Actor ref (`subject:<user id>`) → the person's name, or e-mail when they gave none: how editors are
 * shown who changed something, never by an internal id. One read of the (small) users table.
 */
export async function peopleNames(context: AppLoadContext): Promise<ReadonlyMap<string, string>> {
  return new Map((await context.services.auth.users.list()).map((p) => [`subject:${p.id}`, p.name || p.email]));
}
