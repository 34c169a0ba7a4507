import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Squidex's webhook rule action signs each call: `X-Signature` is Base64(SHA-256(body + shared
 * secret)). The site's endpoint (POST /api/content-webhook) accepts a call only with that signature
 * made with its secret (SQUIDEX_WEBHOOK_SECRET, or FLUSH_TOKEN when that is not set).
 */
export function squidexSignature(body: string, secret: string): string {
  return createHash("sha256").update(body + secret, "utf8").digest("base64");
}

export function validSignature(body: string, header: string | null, secret: string): boolean {
  if (!header || header.length > 200) return false;
  const want = Buffer.from(squidexSignature(body, secret));
  const got = Buffer.from(header.trim());
  return got.length === want.length && timingSafeEqual(got, want);
}

export type WebhookTarget = { kind: "content"; schema: string; id: string } | { kind: "asset"; id: string } | { kind: "schema" } | { kind: "other" };

const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const ID = /^[A-Za-z0-9_~-][A-Za-z0-9._~-]{0,99}$/;

/**
 * What a Squidex event names: a content event its item (schema and id; `schemaId` is `{id, name}`
 * or, in older versions, the text "id,name"), an asset event (`EnrichedAssetEvent`) its asset, a
 * schema event the schemas; anything else is other
 * (the endpoint then pulls every change). Null when the body is not an event at all.
 */
export function webhookTarget(event: unknown): WebhookTarget | null {
  if (!event || typeof event !== "object" || Array.isArray(event)) return null;
  const e = event as { type?: unknown; payload?: unknown };
  const payload = (e.payload && typeof e.payload === "object" ? e.payload : e) as { $type?: unknown; id?: unknown; schemaId?: unknown };
  const type = typeof payload.$type === "string" ? payload.$type : "";
  const schemaId = payload.schemaId;
  const schema = typeof schemaId === "string" ? schemaId.split(",").pop() : schemaId && typeof schemaId === "object" ? (schemaId as { name?: unknown }).name : undefined;
  if (/Asset/.test(type)) return typeof payload.id === "string" && ID.test(payload.id) ? { kind: "asset", id: payload.id } : { kind: "other" };
  if (/Content/.test(type) || (typeof payload.id === "string" && typeof schema === "string" && !/Schema/.test(type))) {
    if (typeof schema === "string" && NAME.test(schema) && typeof payload.id === "string" && ID.test(payload.id)) return { kind: "content", schema, id: payload.id };
    return { kind: "other" };
  }
  if (/Schema/.test(type)) return { kind: "schema" };
  if (typeof e.type !== "string" && !type) return null;
  return { kind: "other" };
}
