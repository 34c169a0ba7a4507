import { createHmac, randomBytes } from "node:crypto";
import { sameSecret } from "./same-secret";

/**
 * What a signed link may do. A token signed for one purpose is refused for every other, so a
 * newsletter confirmation link can never cancel a booking, whatever its subject.
 */
export type TokenPurpose = "newsletter-confirm" | "newsletter-unsubscribe" | "present" | "registration" | "booking-cancel" | "form-stamp" | "set-password" | "login-device";

export type TokenCheck = { ok: true; subject: string; expires: number | null } | { ok: false; reason: "invalid" | "expired" };

/** Key length in bytes; kept in the database so every app node signs and checks with the same key. */
const KEY_BYTES = 32;
export const SIGNING_KEY_SETTING = "signing-key";

/**
 * Signed, optionally expiring tokens for links in mails (HMAC-SHA256 over purpose, subject and
 * expiry). Stateless: nothing is stored per token, any app node checks any token. A token is
 * `base64url(JSON [purpose, subject, expires]) "." base64url(mac)`; the subject (an address, an id)
 * is inside it, so a link needs no second parameter that could disagree with it.
 */
export class TokenSigner {
  private readonly key: Buffer;

  constructor(key: string | Buffer, private readonly now: () => number = Date.now) {
    this.key = typeof key === "string" ? Buffer.from(key, "base64url") : key;
    if (this.key.length < 16) throw new Error("The signing key must be at least 16 bytes.");
  }

  /** The key an empty database gets (first writer wins: see ContentStore.ensureSetting). */
  static newKey(): string {
    return randomBytes(KEY_BYTES).toString("base64url");
  }

  /** A token for `subject`, valid for `ttlSeconds` (null: until the key changes). */
  sign(purpose: TokenPurpose, subject: string, ttlSeconds: number | null): string {
    const expires = ttlSeconds === null ? null : Math.floor(this.now() / 1000) + ttlSeconds;
    const body = Buffer.from(JSON.stringify([purpose, subject, expires]), "utf8").toString("base64url");
    return `${body}.${this.mac(body)}`;
  }

  /** Checks a token from a link: anything malformed, forged or for another purpose is "invalid". */
  verify(purpose: TokenPurpose, token: unknown, subject?: string): TokenCheck {
    if (typeof token !== "string" || token.length > 2048) return { ok: false, reason: "invalid" };
    const dot = token.indexOf(".");
    if (dot <= 0) return { ok: false, reason: "invalid" };
    const body = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), "base64url");
    const expected = Buffer.from(this.mac(body), "base64url");
    if (!sameSecret(given, expected)) return { ok: false, reason: "invalid" };
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
    } catch {
      return { ok: false, reason: "invalid" };
    }
    if (!Array.isArray(parsed) || parsed.length !== 3) return { ok: false, reason: "invalid" };
    const [p, s, e] = parsed as unknown[];
    if (p !== purpose || typeof s !== "string" || (e !== null && typeof e !== "number")) return { ok: false, reason: "invalid" };
    if (subject !== undefined && s !== subject) return { ok: false, reason: "invalid" };
    if (e !== null && Math.floor(this.now() / 1000) > e) return { ok: false, reason: "expired" };
    return { ok: true, subject: s, expires: e };
  }

  private mac(body: string): string {
    return createHmac("sha256", this.key).update(body).digest("base64url");
  }
}
