import type { Route } from "./+types/api.newsletter-unsubscribe";
import { jsonResponse, methodNotAllowed } from "~/lib/api.server";

/**
 * One-click unsubscribe (RFC 8058): mail programs POST `List-Unsubscribe=One-Click` to the URL in
 * the `List-Unsubscribe` header; the signed token in the URL says whose address it is.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const token = new URL(request.url).searchParams.get("token");
  const check = context.services.tokens.verify("newsletter-unsubscribe", token);
  if (!check.ok) return jsonResponse({ message: "This unsubscribe link is not valid.", statusCode: 400 }, { status: 400, headers: { "Cache-Control": "no-store" } });
  await context.services.newsletter.unsubscribe(check.subject);
  return jsonResponse({ message: "Unsubscribed.", statusCode: 200 }, { headers: { "Cache-Control": "no-store" } });
}

export const loader = () => methodNotAllowed();
