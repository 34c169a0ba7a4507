/**
 * Helpers for input that arrives from outside (paths, cookies, form fields, names from content):
 * each turns hostile input into "nothing" or a safe value instead of an exception.
 */

/** `decodeURIComponent`, or `undefined` for a malformed escape like `%E0%A4%A`. */
export function decodeComponent(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/** `record[key]` only when it is the record's own property: `__proto__`, `constructor`… are not names. */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

const BASE = "http://same-origin.invalid";

/**
 * A path on this site to send a browser back to, or `fallback`. Only relative paths that start with
 * exactly one slash and hold no backslash, control character or white space are taken (browsers
 * drop tabs and newlines and read `\` as `/`, so `/\evil` and `/\t/evil` mean `//evil`); the result
 * is re-serialised by the URL parser, so it is always a valid, percent-encoded header value. The
 * fragment is dropped (a browser never sends one; it only ever came from a crafted link).
 */
export function sameSitePath(value: unknown, fallback: string): string {
  if (typeof value !== "string" || value.length > 2048) return fallback;
  if (!/^\/(?![/\\])/.test(value) || /[\\\s\u0000-\u001f\u007f]/.test(value)) return fallback;
  // The same once decoded (a later hop may decode it): no %2F%2F, %5C or %0A at the start or a control
  // character anywhere (an encoded space in a search stays fine).
  const decoded = decodeComponent(value);
  if (decoded === undefined || !/^\/(?![/\\])/.test(decoded) || /[\u0000-\u001f\u007f]/.test(decoded)) return fallback;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  const path = `${url.pathname}${url.search}`;
  return /^\/(?![/\\])/.test(path) ? path : fallback;
}

/** An e-mail address as it is stored and compared: trimmed, lower-cased (Anna@… and anna@… are one). */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();
