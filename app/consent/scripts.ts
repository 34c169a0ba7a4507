import { allows, type ConsentState } from "./consent";

/**
 * Third-party scripts from the global settings (name, src, category, consent-service id), loaded only
 * for the categories the visitor allowed (§1, §3, §8). The server decides, from the consent cookie:
 * an allowed script is in the page's head and its origin in that page's Content-Security-Policy;
 * without consent neither is, so nothing third-party loads before the visitor says yes.
 */
export interface ThirdPartyScriptSetting {
  name?: unknown;
  src?: unknown;
  category?: unknown;
  consentServiceId?: unknown;
}

export interface ScriptToLoad {
  name: string;
  src: string;
  category: string;
  /** What the CSP must admit: an origin, or "'self'" for a script of this site. */
  origin: string;
}

/**
 * Services this site runs itself, named in the settings so that the banner's category decides them:
 * the statistics (our own analytics) and the map's tiles. Their entries are not loaded as scripts.
 */
export const BUILT_IN_SERVICES: ReadonlySet<string> = new Set(["plausible", "maplibre"]);

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Where a script may come from: a path of this site, or an https URL (http on loopback, for development and tests). */
export function scriptSource(src: string): { src: string; origin: string } | null {
  const value = src.trim();
  if (!value || value.length > 2000 || /[\s\\<>"']/.test(value)) return null;
  if (value.startsWith("/") && !value.startsWith("//")) return { src: value, origin: "'self'" };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.username || url.password) return null;
  if (url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname))) return { src: url.href, origin: url.origin };
  return null;
}

export interface ScriptChoiceOptions {
  /** CONSENT_SERVICE_ID: an external consent service that knows the scripts' service ids. */
  consentServiceId?: string;
  /** Told once per service id that nothing here can resolve (§8: a warning, and our banner is used). */
  warnMissingService?: (serviceId: string, script: string) => void;
}

/** The scripts this visitor's consent allows, in the settings' order, each once. */
export function scriptsToLoad(settings: readonly ThirdPartyScriptSetting[], consent: ConsentState, opts: ScriptChoiceOptions = {}): ScriptToLoad[] {
  const out: ScriptToLoad[] = [];
  const seen = new Set<string>();
  for (const entry of settings) {
    const name = typeof entry.name === "string" ? entry.name : "";
    const category = typeof entry.category === "string" ? entry.category : "unclassified";
    const service = typeof entry.consentServiceId === "string" ? entry.consentServiceId.trim() : "";
    if (service && BUILT_IN_SERVICES.has(service)) continue;
    if (service && !opts.consentServiceId) opts.warnMissingService?.(service, name);
    if (!allows(consent, category)) continue;
    const source = typeof entry.src === "string" ? scriptSource(entry.src) : null;
    if (!source || seen.has(source.src)) continue;
    seen.add(source.src);
    out.push({ name, src: source.src, category, origin: source.origin });
  }
  return out;
}

/** Cookies of this site (kept when consent is withdrawn); every other cookie came from somebody else's script. */
export const isOwnCookie = (name: string) => /^(__Host-|__Secure-)?pn_/.test(name);

/**
 * Set-Cookie values that delete the cookies a withdrawn script may have left, as far as a server
 * can: every cookie the request carries that is not ours, on this host and its parent domain.
 */
export function cookieDeletions(cookieHeader: string | null | undefined, host: string): string[] {
  const names = new Set(
    (cookieHeader ?? "")
      .split(/;\s*/)
      .map((c) => c.slice(0, Math.max(0, c.indexOf("="))).trim())
      .filter((n) => n && /^[\w!#$%&'*+.^`|~-]{1,200}$/.test(n) && !isOwnCookie(n)),
  );
  const hostname = host.replace(/:\d+$/, "").replace(/^\[|\]$/g, "");
  const domains = /^[\d.]+$|:/.test(hostname) || !hostname.includes(".") ? [] : [hostname, hostname.split(".").slice(-2).join(".")];
  const out: string[] = [];
  for (const name of [...names].slice(0, 50)) {
    const expire = `${name}=; Path=/; Max-Age=0; SameSite=Lax`;
    out.push(expire);
    for (const d of new Set(domains)) out.push(`${expire}; Domain=${d}`);
  }
  return out;
}
