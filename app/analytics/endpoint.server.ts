import { ContentError, contentErrorOf } from "~/content/errors";
import { parseJsonText, readBody, type BodySource } from "~/lib/body";
import type { Logger } from "~/lib/logger.server";
import type { AnalyticsCollector } from "./collector.server";
import { BODY_LIMIT, isBot, parseEvent } from "./event";
import type { TokenBuckets } from "./token-bucket";

export interface EventAnswer {
  status: number;
  headers: Record<string, string>;
  body: { message: string; statusCode: number };
}

export interface EventServices {
  analytics: AnalyticsCollector;
  analyticsLimit: TokenBuckets;
  logger: Pick<Logger, "warn" | "error">;
}

const answer = (status: number, message: string, headers: Record<string, string> = {}): EventAnswer => ({
  status,
  headers: { "Cache-Control": "no-store", ...headers },
  body: { message, statusCode: status },
});

/**
 * `POST /api/event` (Plausible's event API), whichever way the request came: React Router's resource
 * route, or the server's path in front of Express (server/analytics-endpoint.ts). Always a 2xx or
 * 4xx: a database that cannot take the event loses it, not the visitor's page.
 */
export async function acceptEvent(request: BodySource & { clientIp: string; requestId?: string }, services: EventServices): Promise<EventAnswer> {
  try {
    const type = request.headers.get("content-type") ?? "";
    if (type && !/^(text\/plain|application\/(.+\+)?json)\b/i.test(type)) throw new ContentError(415, "Send the event as application/json or text/plain.");
    const text = (await readBody(request, BODY_LIMIT)).toString("utf8");
    if (!services.analyticsLimit.take(request.clientIp)) return answer(429, "Too many events from this address; try again in a minute.", { "Retry-After": "60" });
    if (!text.trim()) throw new ContentError(400, "The body is empty: send the event as a JSON object.");
    const event = parseEvent(parseJsonText(text), request.headers.get("accept-language"));
    const userAgent = request.headers.get("user-agent") ?? "";
    if (isBot(userAgent)) return answer(202, "Ignored: the user agent is a bot's.");
    try {
      await services.analytics.record(event, { ip: request.clientIp, userAgent });
    } catch (error) {
      services.logger.warn({ err: error, requestId: request.requestId }, "analytics event dropped");
    }
    return answer(202, "Accepted.");
  } catch (error) {
    const known = contentErrorOf(error);
    if (known && known.statusCode < 500) return answer(known.statusCode, known.message);
    services.logger.warn({ err: error, requestId: request.requestId }, "analytics event refused");
    return answer(400, "The event could not be read.");
  }
}
