import { decodeComponent } from "~/lib/input";

/**
 * Cookie consent (German privacy law): necessary is always on; functional, statistic, marketing and
 * unclassified are off until the visitor says yes. Stored in one first-party cookie, path "/".
 */
export interface ConsentState {
  /** False until the visitor has chosen; the banner shows until then. */
  decided: boolean;
  functional: boolean;
  statistic: boolean;
  marketing: boolean;
  unclassified: boolean;
}

export const NO_CONSENT: ConsentState = { decided: false, functional: false, statistic: false, marketing: false, unclassified: false };

export const CONSENT_COOKIE = "pn_consent";
export const OPTIONAL_CATEGORIES = ["functional", "statistic", "marketing", "unclassified"] as const;
export type OptionalCategory = (typeof OPTIONAL_CATEGORIES)[number];
export type ConsentCategory = "necessary" | OptionalCategory;
const MAX_AGE = 365 * 24 * 3600;

/** The visitor's choice from the Cookie header; a cookie we cannot read counts as no choice. */
export function parseConsent(cookieHeader: string | null | undefined): ConsentState {
  const raw = cookieHeader
    ?.split(/;\s*/)
    .find((c) => c.startsWith(`${CONSENT_COOKIE}=`))
    ?.slice(CONSENT_COOKIE.length + 1);
  const value = raw === undefined || raw.length > 200 ? undefined : decodeComponent(raw);
  if (value === undefined) return NO_CONSENT;
  const granted = new Set(value.split(","));
  return {
    decided: true,
    functional: granted.has("functional"),
    statistic: granted.has("statistic"),
    marketing: granted.has("marketing"),
    unclassified: granted.has("unclassified"),
  };
}

/** The cookie value: the optional categories granted, comma separated ("necessary" alone = none). */
export function serializeConsent(granted: Iterable<string>, opts: { secure?: boolean } = {}): string {
  const allowed = [...new Set(granted)].filter((c): c is OptionalCategory => (OPTIONAL_CATEGORIES as readonly string[]).includes(c)).sort();
  return `${CONSENT_COOKIE}=${encodeURIComponent(allowed.length ? allowed.join(",") : "necessary")}; Path=/; Max-Age=${MAX_AGE}; SameSite=Lax${opts.secure ? "; Secure" : ""}`;
}

export function allows(consent: ConsentState, category: string): boolean {
  if (category === "necessary") return true;
  return (OPTIONAL_CATEGORIES as readonly string[]).includes(category) && consent[category as OptionalCategory];
}
