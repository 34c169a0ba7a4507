import type { Logger } from "~/lib/logger.server";
import type { TokenSigner } from "~/lib/tokens.server";
import { AuditLog } from "./audit.server";
import { passwordProblem, prepareDecoy, verifyPassword } from "./password.server";
import { SessionSealer, type SessionClaims } from "./session.server";
import { LoginThrottle } from "./throttle.server";
import { normalizeEmail } from "~/lib/input";
import { type User, UserStore } from "./users.server";

/** The demo superuser `npm start` creates when ADMIN_EMAIL/ADMIN_PASSWORD are not set (README). */
export const DEMO_ADMIN = { email: "admin@praxisnetz.localhost", password: "praxisnetz-demo" } as const;
/** Invitation and password-reset links: valid this long, and only until the password is set. */
export const SET_PASSWORD_TTL_SECONDS = 7 * 24 * 3600;

export type SignInResult =
  | { ok: true; user: User; cookie: { value: string; maxAge: number } }
  | { ok: false; reason: "invalid"; delayMs: number }
  | { ok: false; reason: "throttled"; retryAfterSeconds: number };

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
  constructor(
    readonly users: UserStore,
    readonly sealer: SessionSealer,
    readonly throttle: LoginThrottle,
    readonly audit: AuditLog,
    private readonly tokens: TokenSigner,
    private readonly opts: AuthOptions,
    private readonly logger: Pick<Logger, "info" | "warn">,
  ) {
    void prepareDecoy();
  }

  /**
   * Checks the address and password. Unknown address and wrong password give the same answer
   * after the same work (a hash is verified either way) and are counted the same.
   */
  async signIn(emailInput: string, password: string, ip: string): Promise<SignInResult> {
    const email = normalizeEmail(emailInput).slice(0, 320);
    const verdict = await this.throttle.check(email, ip);
    if (verdict.retryAfterSeconds) return { ok: false, reason: "throttled", retryAfterSeconds: verdict.retryAfterSeconds };
    const found = email ? await this.users.credentials(email) : undefined;
    let ok = await verifyPassword(found?.hash, password);
    if (ok && this.opts.refuseDemoPassword && password === DEMO_ADMIN.password) {
      this.logger.warn({ userId: found!.user.id }, "sign-in with the demo password refused: set a real password (npm run user:create or ADMIN_PASSWORD)");
      ok = false;
    }
    if (!ok || !found) {
      const delayMs = await this.throttle.failed(email, ip);
      this.logger.info({ known: !!found, ip }, "sign-in failed");
      return { ok: false, reason: "invalid", delayMs };
    }
    await this.throttle.succeeded(email);
    await this.users.signedIn(found.user.id);
    const cookie = await this.sealer.seal({ uid: found.user.id, gen: found.user.sessionGeneration, auth: Math.floor(Date.now() / 1000) });
    this.logger.info({ userId: found.user.id }, "signed in");
    return { ok: true, user: found.user, cookie };
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

  async setPassword(user: User, password: string): Promise<"tooShort" | "tooLong" | "sameAsEmail" | null> {
    const problem = passwordProblem(password, user.email);
    if (problem) return problem;
    if (this.opts.refuseDemoPassword && password === DEMO_ADMIN.password) return "tooShort";
    await this.users.setPassword(user.id, password);
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
