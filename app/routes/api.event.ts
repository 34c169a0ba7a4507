import type { Route } from "./+types/api.event";
import { acceptEvent } from "~/analytics/endpoint.server";
import { jsonResponse, methodNotAllowed } from "~/lib/api.server";

/**
 * Plausible's event API (`POST /api/event`, issue 24): one page view or custom event into the daily
 * rollups. In production the server answers it in front of Express (server/analytics-endpoint.ts)
 * with the same function; this route answers what that path hands on (and in development).
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const result = await acceptEvent(Object.assign(request, { clientIp: context.clientIp, requestId: context.requestId }), context.services);
  return jsonResponse(result.body, { status: result.status, headers: result.headers });
}

export const loader = () => methodNotAllowed();
