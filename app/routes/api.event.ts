import type { Route } from "./+types/api.event";
import { BODY_LIMIT, isBot, parseEvent } from "~/analytics/event";
import { ContentError } from "~/content/errors";
import { errorResponse, jsonResponse, methodNotAllowed } from "~/lib/api.server";
import { parseJsonText, readBody } from "~/lib/body";

const NO_STORE = { "Cache-Control": "no-store" };
const accepted = (message: string) => jsonResponse({ message, statusCode: 202 }, { status: 202, headers: NO_STORE });

/**
 * Plausible's event API (`POST /api/event`, issue 24): one page view or custom event into the daily
 * rollups. The tracker sends text/plain (no preflight); JSON is accepted too. Nothing identifying
 * is kept: the address and user agent only feed the day's visitor hash (analytics/collector.server.ts).
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const { analytics, analyticsLimit } = context.services;
  try {
    const type = request.headers.get("content-type") ?? "";
    if (type && !/^(text\/plain|application\/(.+\+)?json)\b/i.test(type)) throw new ContentError(415, "Send the event as application/json or text/plain.");
    const text = (await readBody(request, BODY_LIMIT)).toString("utf8");
    if (!analyticsLimit.take(context.clientIp)) {
      return jsonResponse({ message: "Too many events from this address; try again in a minute.", statusCode: 429 }, { status: 429, headers: { ...NO_STORE, "Retry-After": "60" } });
    }
    if (!text.trim()) throw new ContentError(400, "The body is empty: send the event as a JSON object.");
    const event = parseEvent(parseJsonText(text), request.headers.get("accept-language"));
    const userAgent = request.headers.get("user-agent") ?? "";
    if (isBot(userAgent)) return accepted("Ignored: the user agent is a bot's.");
    try {
      await analytics.record(event, { ip: context.clientIp, userAgent });
    } catch (error) {
      // A database that cannot hand out the day's salt loses this event, not the visitor's page.
      context.services.logger.warn({ err: error, requestId: context.requestId }, "analytics event dropped");
    }
    return accepted("Accepted.");
  } catch (error) {
    const response = errorResponse(error, context.requestId);
    response.headers.set("Cache-Control", "no-store");
    return response;
  }
}

export const loader = () => methodNotAllowed();
