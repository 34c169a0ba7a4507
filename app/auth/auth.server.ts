import type { Logger } from "~/lib/logger.server";
import type { TokenSigner } from "~/lib/tokens.server";
import { AuditLog } from "./audit.server";
import { DeviceCookies } from "./device.server";
import { passwordProblem, prepareDecoy, verifyPassword } from "./password.server";
import { SessionSealer, type SessionClaims } from "./session.server";
import { LoginThrottle } from "./throttle.server";
import { normalizeEmail } from "~/lib/input";
import { type User, UserStore } from "./users.server";

/** The demo superuser `npm start` creates when ADMIN_EMAIL/ADMIN_PASSWORD are not set (README). */
export const DEMO_ADMIN = { email: "admin@praxisnetz.localhost", password: "praxisnetz-demo" } as const;
/** Invitation and password-reset links: valid this long, and only until the password is set. */
export const SET_PASSWORD_TTL_SECONDS = 7 * 24 * 3600;

type CookieValue = { value: string; maxAge: number };
/** A refused password check: wrong (answer after `delayMs`) or over a throttle limit (429). */
export type PasswordRefusal = { ok: false; reason: "invalid"; delayMs: number } | { ok: false; reason: "throttled"; retryAfterSeconds: number };
export type SignInResult = { ok: true; user: User; cookie: CookieValue; device: CookieValue } | PasswordRefusal;

export interface CurrentSession {
  user: User;
  claims: SessionClaims;
  /** A renewed cookie to send with the answer, when the session was due for one. */
  renewed?: { value: string; maxAge: number };
}

export interface AuthOptions {
  /** True where the demo password must not open anything (production behind HTTPS). */
  refuseDemoPassword: boolean;
}

/**
 * Signing in and out, sessions, invitations: what the login page, the session API and the auth
 * gate use. Stateless across app nodes: the only shared state is the users table (with each
 * user's session generation), the ids of signed-out sessions not yet expired, and the throttle's
 * counts, all in the database.
 */
export class AuthService {
  readonly devices: DeviceCookies;

  constructor(
    readonly users: UserStore,
    readonly sealer: SessionSealer,
    readonly throttle: LoginThrottle,
    readonly audit: AuditLog,
    private readonly tokens: TokenSigner,
    private readonly opts: AuthOptions,
    private readonly logger: Pick<Logger, "info" | "warn">,
  ) {
    this.devices = new DeviceCookies(tokens);
    void prepareDecoy();
  }

  /**
   * One throttled password check of an account (`found`: undefined for an unknown address, checked
   * against the decoy all the same). `deviceCookie`: the browser's pn_device value; valid for this
   * account, its own budget counts instead of the account's lock.
   */
  private async checkPassword(
    email: string,
    found: { user: User; hash: string | null } | undefined,
    password: string,
    ip: string,
    deviceCookie: string | undefined,
  ): Promise<{ ok: true; device: string | undefined } | PasswordRefusal> {
    const device = this.devices.trusted(deviceCookie, found?.user);
    const verdict = await this.throttle.check(email, ip, device);
    if (verdict.retryAfterSeconds) return { ok: false, reason: "throttled", retryAfterSeconds: verdict.retryAfterSeconds };
    let ok = await verifyPassword(found?.hash, password);
    if (ok && this.opts.refuseDemoPassword && password === DEMO_ADMIN.password) {
      this.logger.warn({ userId: found!.user.id }, "sign-in with the demo password refused: set a real password (npm run user:create or ADMIN_PASSWORD)");
      ok = false;
    }
    if (!ok || !found) {
      const delayMs = await this.throttle.failed(email, ip, device);
      this.logger.info({ known: !!found, ip, device: !!device }, "password check failed");
      return { ok: false, reason: "invalid", delayMs };
    }
    await this.throttle.succeeded(email, device);
    return { ok: true, device };
  }

  /**
   * Checks the address and password. Unknown address and wrong password give the same answer
   * after the same work (a hash is verified either way) and are counted the same. On success: a
   * new session and a new device cookie for this browser.
   */
  async signIn(emailInput: string, password: string, ip: string, deviceCookie?: string): Promise<SignInResult> {
    const email = normalizeEmail(emailInput).slice(0, 320);
    const found = email ? await this.users.credentials(email) : undefined;
    const checked = await this.checkPassword(email, found, password, ip, deviceCookie);
    if (!checked.ok) return checked;
    const user = found!.user;
    await this.users.signedIn(user.id);
    const cookie = await this.sealer.seal({ uid: user.id, gen: user.sessionGeneration, auth: Math.floor(Date.now() / 1000) });
    this.logger.info({ userId: user.id }, "signed in");
    return { ok: true, user, cookie, device: this.devices.issue(user) };
  }

  /**
   * The signed-in user's current password, asked before a change: throttled and counted like a
   * sign-in to the account, so a stolen session cannot be used to guess the password.
   */
  async confirmPassword(user: User, password: string, ip: string, deviceCookie?: string): Promise<{ ok: true } | PasswordRefusal> {
    const found = await this.users.credentials(user.email);
    const checked = await this.checkPassword(user.email, found?.user.id === user.id ? found : undefined, password, ip, deviceCookie);
    return checked.ok ? { ok: true } : checked;
  }

  /** The session of a cookie value: null when missing, forged, expired, or ended (signed out, generation, removed user). */
  async session(value: string | undefined): Promise<CurrentSession | null> {
    const claims = await this.sealer.open(value);
    if (!claims) return null;
    const found = await this.users.forSession(claims.uid, claims.sid);
    if (!found || found.ended) return null;
    const { user } = found;
    if (user.pending || user.sessionGeneration !== claims.gen) return null;
    const renewed = this.sealer.needsRenewal(claims) ? await this.sealer.seal({ sid: claims.sid, uid: claims.uid, gen: claims.gen, auth: claims.auth }) : undefined;
    return { user, claims, ...(renewed ? { renewed } : {}) };
  }

  /**
   * Signs out the session of a cookie value on every app node: its id is recorded as ended (so
   * this cookie and every renewal of it are refused) and the sign-out is audited. The user whose
   * session ended, or null when the cookie was no live session (nothing to end).
   */
  async signOut(value: string | undefined): Promise<User | null> {
    const session = await this.session(value);
    if (!session) return null;
    await this.users.endSession(session.claims.sid, session.user.id, this.sealer.lastValid(session.claims));
    await this.audit.record(session.user, { action: "sign-out" });
    this.logger.info({ userId: session.user.id }, "signed out");
    return session.user;
  }

  /** A link token for setting a password: an invitation or a reset. Spent once the password changes. */
  setPasswordToken(user: User): string {
    return this.tokens.sign("set-password", `${user.id}.${user.sessionGeneration}`, SET_PASSWORD_TTL_SECONDS);
  }

  /** The user a set-password token is for, if it is valid and unspent. */
  async userForToken(token: unknown): Promise<User | null> {
    const check = this.tokens.verify("set-password", token);
    if (!check.ok) return null;
    const dot = check.subject.lastIndexOf(".");
    const user = await this.users.get(check.subject.slice(0, dot));
    if (!user || String(user.sessionGeneration) !== check.subject.slice(dot + 1)) return null;
    return user;
  }

  /**
   * A new password (invitation, reset link, account page): every session and device cookie issued
   * before ends (the generation moves on), and so does the account's lock: the guesses counted were
   * against the old password.
   */
  async setPassword(user: User, password: string): Promise<"tooShort" | "tooLong" | "sameAsEmail" | null> {
    const problem = passwordProblem(password, user.email);
    if (problem) return problem;
    if (this.opts.refuseDemoPassword && password === DEMO_ADMIN.password) return "tooShort";
    await this.users.setPassword(user.id, password);
    await this.throttle.cleared(user.email);
    return null;
  }
}

export interface BootstrapOptions {
  adminEmail?: string;
  adminPassword?: string;
  refuseDemoPassword: boolean;
}

/**
 * The first superuser, on a database without users: from ADMIN_EMAIL/ADMIN_PASSWORD, or else the
 * demo account (announced loudly, so a newcomer can sign in at once) unless this is a production
 * site behind HTTPS, where the demo password is refused and no account is made.
 */
export async function ensureFirstSuperuser(users: UserStore, opts: BootstrapOptions, logger: Pick<Logger, "info" | "warn" | "error">): Promise<void> {
  if ((await users.count()) > 0) return;
  if (opts.adminEmail && opts.adminPassword) {
    const problem = passwordProblem(opts.adminPassword, opts.adminEmail);
    if (problem) throw new Error(`ADMIN_PASSWORD is not acceptable (${problem}): at least 10 characters, not the e-mail address.`);
    const user = await users.create({ email: opts.adminEmail, password: opts.adminPassword, superuser: true, name: "Admin" });
    logger.info({ email: user.email }, "first superuser created from ADMIN_EMAIL");
    return;
  }
  if (opts.refuseDemoPassword) {
    logger.error("no users yet and no ADMIN_EMAIL/ADMIN_PASSWORD: set both (or run npm run user:create) to sign in to /manage");
    return;
  }
  await users.create({ email: DEMO_ADMIN.email, password: DEMO_ADMIN.password, superuser: true, name: "Demo-Admin" });
  logger.warn(
    { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password },
    `DEMO SUPERUSER CREATED: sign in at /login with ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password} (set ADMIN_EMAIL and ADMIN_PASSWORD for a real site)`,
  );
}
