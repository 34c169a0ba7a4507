import { ContentError } from "../content/errors";
import { MAX_JSON_DEPTH } from "../content/limits";
import { jsonNestingExceeds } from "../content/query";

/** A request whose body can be read: a Fetch `Request`, or a lighter view that reads its own body. */
export type BodySource = Request | { readonly headers: { get(name: string): string | null }; readBody(limit: number): Promise<Buffer> };

/** Reads a request body, refusing more than `limit` bytes (413) without buffering them. */
export async function readBody(request: BodySource, limit: number): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge(limit);
  if (!(request instanceof Request)) return request.readBody(limit);
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Not `cancel()`: on the Node adapter's stream that destroys the request and with it the
      // socket, so the client got a connection reset instead of the 413. The rest is read and
      // dropped by the server once the answer is sent (server/app.ts).
      reader.releaseLock();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export const tooLarge = (limit: number) => new ContentError(413, `The request body is larger than ${limit} bytes.`);

/**
 * Parses JSON text from a request, nesting checked before parsing (so no body can exhaust the stack).
 * `invalid` shapes the 400 for the caller's API (our `{message}` or Squidex's validation error).
 */
export function parseJsonText(text: string, invalid: (reason: string) => ContentError = (reason) => new ContentError(400, reason)): unknown {
  if (jsonNestingExceeds(text, MAX_JSON_DEPTH)) throw invalid(`The request body nests deeper than ${MAX_JSON_DEPTH} levels.`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalid("The request body is not valid JSON.");
  }
}

/** Reads a JSON body of at most `limit` bytes (an empty body is `{}`). */
export async function readJson(request: Request, limit: number): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (type && !/^application\/(.+\+)?json\b/i.test(type)) throw new ContentError(415, "Send the body as application/json.");
  const text = (await readBody(request, limit)).toString("utf8");
  return text.trim() ? parseJsonText(text) : {};
}

/** Reads an `application/x-www-form-urlencoded` body of at most `limit` bytes (415 for any other type). */
export async function readForm(request: BodySource, limit: number): Promise<URLSearchParams> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) throw new ContentError(415, "Send the form as application/x-www-form-urlencoded.");
  return new URLSearchParams((await readBody(request, limit)).toString("utf8"));
}

/** A form's fields by name, the first value of each (a repeated name cannot smuggle a second one in). */
export function firstValues(params: URLSearchParams): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of params) if (!Object.hasOwn(fields, key)) fields[key] = value;
  return fields;
}
