import { redirect } from "react-router";
import type { Route } from "./+types/api.consent";
import { OPTIONAL_CATEGORIES, serializeConsent } from "~/consent/consent";
import { methodNotAllowed } from "~/lib/api.server";

/** Stores the visitor's consent choice in its cookie and goes back to the page they were on. */
export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "save");
  const granted =
    intent === "all" ? [...OPTIONAL_CATEGORIES] : intent === "necessary" ? [] : form.getAll("category").map(String);
  const back = String(form.get("redirectTo") ?? "/");
  // Only paths on this site: never an open redirect.
  const target = back.startsWith("/") && !back.startsWith("//") ? back.replace(/#.*$/, "") : "/";
  return redirect(target, { status: 303, headers: { "Set-Cookie": serializeConsent(granted), "Cache-Control": "no-store" } });
}

export const loader = () => methodNotAllowed();
