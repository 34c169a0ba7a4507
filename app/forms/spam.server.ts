import type { TokenSigner } from "~/lib/tokens.server";

/**
 * Spam checks that need no third party (no captcha, no script from elsewhere):
 *
 * - a honeypot: a text field named like one bots like to fill (`website_url`), which people never
 *   see or reach (the form renders it off-screen, aria-hidden, tabindex -1, autocomplete off);
 * - a minimum fill time: the form carries the signed time it was made at (a hidden field), and a
 *   submission sooner than a person can type is refused.
 *
 * The field names live in forms/definition.ts, where the form component (browser code) reads them.
 */
export { HONEYPOT_FIELD, STAMP_FIELD } from "./definition";

/** Why a submission was refused. `stamp-invalid`: a stamp we did not sign, or none from a browser form. */
export type SpamReason = "honeypot" | "too-fast" | "stamp-invalid";

/** Faster than this, nobody has read and filled in even a one-field form. */
export const DEFAULT_MIN_SECONDS = 3;
/** Older stamps are no evidence either way (see checkSpam). */
export const DEFAULT_MAX_AGE_SECONDS = 24 * 60 * 60;
/**
 * App nodes' clocks may differ a little: a stamp up to this far in the future counts as "just now"
 * (too fast). Further ahead only a clock jumping back explains it, and that is not the visitor's fault.
 */
const CLOCK_SKEW_MS = 60_000;

/** The hidden field's value for a form made at `now` (ms): the time, signed, so it cannot be backdated. */
export function formStamp(signer: TokenSigner, now: number): string {
  // No expiry in the token: its age is judged by checkSpam, against the same clock as here.
  return signer.sign("form-stamp", String(Math.floor(now)), null);
}

export interface SpamFields {
  honeypot?: string | null;
  stamp?: string | null;
}

export interface SpamOptions {
  /**
   * A browser's form always carries its stamp, so a missing one is refused. JSON API clients have
   * none (they never saw the form): false lets them through without one. A stamp that is sent is
   * checked either way.
   */
  requireStamp: boolean;
  minSeconds?: number;
  maxAgeSeconds?: number;
}

/** What a stamp says: how long ago the form was made, or why it says nothing. */
export type StampReading = { kind: "fresh"; seconds: number } | { kind: "stale" } | { kind: "missing" } | { kind: "invalid" };

/**
 * Reads a stamp at `now`. `stale`: older than `maxAgeSeconds` (or from a clock that jumped back): a
 * cached page carries the stamp of when it was rendered, and a visitor may leave a tab open
 * overnight, so such a stamp tells nothing about the fill time.
 */
export function readStamp(stamp: string | null | undefined, signer: TokenSigner, now: number, maxAgeSeconds = DEFAULT_MAX_AGE_SECONDS): StampReading {
  if (stamp === undefined || stamp === null || stamp === "") return { kind: "missing" };
  const check = signer.verify("form-stamp", stamp);
  if (!check.ok || !/^\d{1,16}$/.test(check.subject)) return { kind: "invalid" };
  const elapsed = now - Number(check.subject);
  if (elapsed < -CLOCK_SKEW_MS || elapsed > maxAgeSeconds * 1000) return { kind: "stale" };
  return { kind: "fresh", seconds: Math.max(0, elapsed) / 1000 };
}

/**
 * `null` when the submission passes, else the reason to refuse it. Only evidence refuses: a filled
 * honeypot, a fresh stamp younger than `minSeconds`, a stamp we did not sign, or (browser forms) no
 * stamp at all. A stale stamp passes (see readStamp).
 */
export function checkSpam(fields: SpamFields, signer: TokenSigner, now: number, { requireStamp, minSeconds = DEFAULT_MIN_SECONDS, maxAgeSeconds = DEFAULT_MAX_AGE_SECONDS }: SpamOptions): SpamReason | null {
  // Browsers fill fields they cannot show only by autofill, which autocomplete=off turns away;
  // whitespace alone is not worth refusing a person for.
  if (typeof fields.honeypot === "string" && fields.honeypot.trim() !== "") return "honeypot";
  const stamp = readStamp(fields.stamp, signer, now, maxAgeSeconds);
  switch (stamp.kind) {
    case "missing":
      return requireStamp ? "stamp-invalid" : null;
    case "invalid":
      return "stamp-invalid";
    case "fresh":
      return stamp.seconds < minSeconds ? "too-fast" : null;
    case "stale":
      return null;
  }
}
