import type { AppLoadContext } from "react-router";

/**
 * Actor ref (`subject:<user id>`) → the person's name, or e-mail when they gave none: how editors are
 * shown who changed something, never by an internal id. One read of the (small) users table.
 */
export async function peopleNames(context: AppLoadContext): Promise<ReadonlyMap<string, string>> {
  return new Map((await context.services.auth.users.list()).map((p) => [`subject:${p.id}`, p.name || p.email]));
}

/**
 * Who an actor ref is, in words: a person by name (or e-mail), a connected program (a Squidex API
 * client) as such, anyone else as "someone" (a removed account). Never the ref itself.
 */
export function personName(names: ReadonlyMap<string, string>, actor: string, language: "de" | "en"): string {
  const known = names.get(actor);
  if (known) return known;
  if (actor.startsWith("client:")) return language === "de" ? "ein angebundenes Programm" : "a connected program";
  return language === "de" ? "jemand" : "someone";
}
