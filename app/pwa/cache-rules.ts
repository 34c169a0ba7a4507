/**
 * What the service worker may keep. Pure and self-contained on purpose: the worker's script is
 * made from these functions' source (`sw-script.server.ts`), so the rules the unit tests check are
 * the rules the browser runs. No imports, no helpers outside the function bodies.
 */

/** How a request is treated: "precache"d shell, "asset" (cache first), "page" (network first), or never kept. */
export type CacheStrategy = "asset" | "page" | "none";

/**
 * The strategy for a request, from its method and URL alone (the worker cannot see HttpOnly
 * cookies: a signed-in editor's answers are recognised by their response headers instead, see
 * `mayKeepResponse`).
 */
export function strategyFor(method: string, url: string, origin: string): CacheStrategy {
  if (method !== "GET") return "none";
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "none";
  }
  if (parsed.origin !== origin) return "none";
  const path = parsed.pathname;
  // Hashed build files and theme stylesheets never change under their name.
  if (path.startsWith("/assets/") || /^\/theme\/[\w.-]+\.css$/.test(path) || path.startsWith("/fonts/")) return "asset";
  const lower = (() => {
    try {
      return decodeURIComponent(path).toLowerCase();
    } catch {
      return path.toLowerCase();
    }
  })();
  // Never: the APIs, the admin, sign-in, the worker and build pointers themselves, and pages about
  // one visitor (booking, cancelling, the newsletter and present pages name an address or a token).
  const segments = lower.split("/").filter(Boolean);
  const first = segments[0] === "en" || segments[0] === "de" ? 1 : 0;
  const head = segments[first] ?? "";
  if (segments[0] === "api" || segments[0] === "manage" || segments[0] === "builds" || segments[0] === "__test") return "none";
  if (lower === "/sw.js" || lower.endsWith(".webmanifest")) return "none";
  if (head === "login" || head.startsWith("login.")) return "none";
  if (head === "newsletter" || head === "present" || head.startsWith("newsletter.") || head.startsWith("present.")) return "none";
  if (head === "appointments" || head.startsWith("appointments.")) return "none";
  if (lower.includes("@")) return "none";
  for (const key of parsed.searchParams.keys()) if (key === "token" || key === "email" || key === "edit" || key === "preview") return "none";
  return "page";
}

/**
 * Whether an answer may be kept: a complete 200 of our own, not marked `private` or `no-store`
 * (which every answer to a signed-in editor is, and every page carrying booker or subscriber data),
 * and not one that sets a cookie.
 */
export function mayKeepResponse(status: number, type: string, cacheControl: string | null, setsCookie: boolean): boolean {
  if (status !== 200 || (type !== "basic" && type !== "default")) return false;
  if (setsCookie) return false;
  return !/(?:^|[\s,])(?:no-store|private)(?:[\s,=]|$)/i.test(cacheControl ?? "");
}
