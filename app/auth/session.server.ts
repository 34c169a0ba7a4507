import { randomBytes } from "node:crypto";
import { EncryptJWT, jwtDecrypt } from "jose";

/**
 * Sessions live in the visitor's cookie, sealed (encrypted and authenticated: JWE, dir + A256GCM),
 * so no app node keeps session state and the browser cannot read or alter it. What is in one:
 * a random session id (kept through renewals; signing out records it as ended, decision record
 * 0015), the user's id, the user's session generation when it was issued (a newer generation in
 * the database ends it: sign out everywhere, a new password), when the user signed in (absolute
 * expiry) and when the session was last renewed (idle expiry).
 */
export const SESSION_COOKIE = "pn_session";
export const SESSION_KEY_SETTING = "session-key";
/** A session is renewed (a new cookie with a new `seen`) at most this often. */
export const RENEW_AFTER_SECONDS = 5 * 60;
/** Cookies longer than this are not ours: not even decrypted. */
const MAX_COOKIE_LENGTH = 1024;

export interface SessionClaims {
  /** Session id: random, the same in every renewed cookie of one sign-in. */
  sid: string;
  /** User id. */
  uid: string;
  /** The user's session generation at issue. */
  gen: number;
  /** Signed in at (seconds). */
  auth: number;
  /** Last renewed at (seconds). */
  seen: number;
}

export interface SessionTimes {
  idleSeconds: number;
  maxSeconds: number;
}

export const newSessionKey = () => randomBytes(32).toString("base64url");
const newSessionId = () => randomBytes(16).toString("base64url");

export class SessionSealer {
  private readonly key: Uint8Array;

  constructor(
    key: string,
    readonly times: SessionTimes,
    private readonly now: () => number = Date.now,
  ) {
    this.key = Buffer.from(key, "base64url");
    if (this.key.length !== 32) throw new Error("The session key must be 32 bytes.");
  }

  private seconds() {
    return Math.floor(this.now() / 1000);
  }

  /**
   * A sealed session for the user, renewed now (`auth` kept from the first sign-in). Without a
   * `sid` it is a new session with an id of its own; a renewal passes the session's id on.
   */
  async seal(claims: Omit<SessionClaims, "seen" | "sid"> & { sid?: string }): Promise<{ value: string; maxAge: number }> {
    const seen = this.seconds();
    const expires = Math.min(seen + this.times.idleSeconds, claims.auth + this.times.maxSeconds);
    const value = await new EncryptJWT({ sid: claims.sid ?? newSessionId(), uid: claims.uid, gen: claims.gen, auth: claims.auth, seen })
      .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
      .setIssuedAt(seen)
      .setExpirationTime(expires)
      .encrypt(this.key);
    return { value, maxAge: Math.max(0, expires - seen) };
  }

  /** The claims of a valid, unexpired session cookie value; null for anything else. */
  async open(value: string | undefined): Promise<SessionClaims | null> {
    if (!value || value.length > MAX_COOKIE_LENGTH) return null;
    try {
      const { payload } = await jwtDecrypt(value, this.key, { keyManagementAlgorithms: ["dir"], contentEncryptionAlgorithms: ["A256GCM"], currentDate: new Date(this.now()) });
      const { sid, uid, gen, auth, seen } = payload as Record<string, unknown>;
      // No sid: a cookie from before sessions could be ended one by one; it could not be signed out, so it is no session.
      if (typeof sid !== "string" || typeof uid !== "string" || typeof gen !== "number" || typeof auth !== "number" || typeof seen !== "number") return null;
      const now = this.seconds();
      if (now - seen > this.times.idleSeconds || now - auth > this.times.maxSeconds) return null;
      return { sid, uid, gen, auth, seen };
    } catch {
      return null;
    }
  }

  /** Whether the session should get a fresh cookie (it was last renewed a while ago). */
  needsRenewal(claims: SessionClaims): boolean {
    return this.seconds() - claims.seen >= RENEW_AFTER_SECONDS;
  }

  /** The last moment any cookie of this session can be valid (renewals never pass the absolute limit). */
  lastValid(claims: Pick<SessionClaims, "auth">): Date {
    return new Date((claims.auth + this.times.maxSeconds) * 1000);
  }
}

/** The Set-Cookie value: HttpOnly, SameSite=Lax, Secure when the request came over HTTPS. */
export function sessionCookie(value: string, maxAge: number, secure: boolean): string {
  return [`${SESSION_COOKIE}=${value}`, "Path=/", `Max-Age=${maxAge}`, "HttpOnly", "SameSite=Lax", ...(secure ? ["Secure"] : [])].join("; ");
}

export function clearedSessionCookie(secure: boolean): string {
  return sessionCookie("", 0, secure);
}

/**
 * The readable hint beside the session (`pn_editor=1`, no rights in it): tells the page's script
 * that asking for the session is worth a request (see session-client.ts).
 */
export function editorHintCookie(maxAge: number, secure: boolean): string {
  return ["pn_editor=1", "Path=/", `Max-Age=${maxAge}`, "SameSite=Lax", ...(secure ? ["Secure"] : [])].join("; ");
}

/** A cookie's value from a Cookie header (the first one of the name; anything but base64url and dots: undefined). */
export function readCookie(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return /^[\w.-]+$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

/** The session cookie's value from a Cookie header. */
export function readSessionCookie(header: string | null | undefined): string | undefined {
  return readCookie(header, SESSION_COOKIE);
}

/** Set-Cookie headers for a new or renewed session: the sealed session and the hint. */
export function sessionCookies(value: string, maxAge: number, secure: boolean): Array<[string, string]> {
  return [
    ["Set-Cookie", sessionCookie(value, maxAge, secure)],
    ["Set-Cookie", editorHintCookie(maxAge, secure)],
  ];
}

/** Set-Cookie headers that end the session in this browser. */
export function clearedSessionCookies(secure: boolean): Array<[string, string]> {
  return [
    ["Set-Cookie", clearedSessionCookie(secure)],
    ["Set-Cookie", editorHintCookie(0, secure)],
  ];
}
