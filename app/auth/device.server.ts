import { randomBytes } from "node:crypto";
import type { TokenSigner } from "~/lib/tokens.server";
import type { User } from "./users.server";

/**
 * Device cookies (OWASP's scheme against account lock-out): a browser that signed in to an account
 * gets `pn_device`, a signed token naming the account, the account's session generation and a
 * random device id. Signing in to that account from that browser is then throttled by the device's
 * own budget instead of the account's lock, which strangers can trip (throttle.server.ts).
 *
 * It grants nothing by itself: the password is still checked. It names the generation so that a
 * new password and "sign out everywhere" also end the trust of every device that had it (a lost
 * laptop keeps no head start); the browser that set the new password gets a new one. Signing out
 * keeps it: it is what lets the owner back in while the account is under attack.
 */
export const DEVICE_COOKIE = "pn_device";
export const DEVICE_MAX_AGE_SECONDS = 180 * 24 * 3600;

export class DeviceCookies {
  constructor(private readonly tokens: TokenSigner) {}

  /** A new device cookie value for the user at their current generation. */
  issue(user: Pick<User, "id" | "sessionGeneration">): { value: string; maxAge: number } {
    const device = randomBytes(16).toString("base64url");
    return { value: this.tokens.sign("login-device", `${user.id}.${user.sessionGeneration}.${device}`, DEVICE_MAX_AGE_SECONDS), maxAge: DEVICE_MAX_AGE_SECONDS };
  }

  /** The device id of a cookie value issued for this user at this generation; undefined for anything else. */
  trusted(value: string | undefined, user: Pick<User, "id" | "sessionGeneration"> | undefined): string | undefined {
    if (!value || !user) return undefined;
    const check = this.tokens.verify("login-device", value);
    if (!check.ok) return undefined;
    const [id, generation, device] = check.subject.split(".");
    return id === user.id && generation === String(user.sessionGeneration) && device ? device : undefined;
  }
}

/** The Set-Cookie value: HttpOnly (no script needs it), SameSite=Lax, Secure when the request came over HTTPS. */
export function deviceCookie(value: string, maxAge: number, secure: boolean): string {
  return [`${DEVICE_COOKIE}=${value}`, "Path=/", `Max-Age=${maxAge}`, "HttpOnly", "SameSite=Lax", ...(secure ? ["Secure"] : [])].join("; ");
}
