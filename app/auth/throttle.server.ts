import { type RateLimiterAbstract, RateLimiterMemory, type RateLimiterRes } from "rate-limiter-flexible";
import type { RawDatabase } from "~/content/db";
import { storeLimiter, targetKey } from "~/lib/rate-limit.server";
import type { Logger } from "~/lib/logger.server";

/**
 * Failed password checks (sign-in, and the current password on the account page), counted in the
 * database's `rate_limits` table (so every app node sees the same counts) over a 15-minute window.
 * After a few failures every further answer is delayed, doubling each time (progressive delay),
 * and past the limit the check is refused with 429 until the window ends.
 *
 * A browser without a device cookie for the account (a stranger, or the owner on a new device) is
 * counted per account and per client address; a successful sign-in clears the account's count (not
 * the address's). A browser with a valid device cookie for the account (it signed in to it before,
 * device.server.ts) is counted only against that device's own small budget: strangers who lock the
 * account do not lock its owner out (OWASP's "device cookies"). Setting a password ends the
 * account's lock.
 *
 * An unknown address is counted exactly like a known one: the answer never says which it was.
 */
export const WINDOW_SECONDS = 15 * 60;
export const ACCOUNT_LIMIT = 10;
export const ADDRESS_LIMIT = 50;
/** Failures one trusted device may make in the window. */
export const DEVICE_LIMIT = 5;
/** Failures before answers are delayed. */
const FREE_FAILURES = 3;
const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 4000;

export interface ThrottleVerdict {
  /** Refused outright: over a limit. */
  retryAfterSeconds?: number;
  /** How long to hold a failed attempt's answer. */
  delayMs: number;
}

export function delayFor(failures: number): number {
  if (failures < FREE_FAILURES) return 0;
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (failures - FREE_FAILURES));
}

export class LoginThrottle {
  private readonly account: RateLimiterAbstract;
  private readonly address: RateLimiterAbstract;
  private readonly device: RateLimiterAbstract;
  private readonly memory = {
    account: new RateLimiterMemory({ keyPrefix: "login:account", points: 1_000_000, duration: WINDOW_SECONDS }),
    address: new RateLimiterMemory({ keyPrefix: "login:ip", points: 1_000_000, duration: WINDOW_SECONDS }),
    device: new RateLimiterMemory({ keyPrefix: "login:device", points: 1_000_000, duration: WINDOW_SECONDS }),
  };

  constructor(
    raw: RawDatabase | undefined,
    private readonly logger?: Pick<Logger, "warn">,
    tableName = "rate_limits",
  ) {
    // Points far above the limits: the store only counts, the decisions are made here.
    const limit = { points: 1_000_000, durationSeconds: WINDOW_SECONDS };
    this.account = raw ? storeLimiter(raw, tableName, "login:account", limit) : this.memory.account;
    this.address = raw ? storeLimiter(raw, tableName, "login:ip", limit) : this.memory.address;
    this.device = raw ? storeLimiter(raw, tableName, "login:device", limit) : this.memory.device;
  }

  private async safely<T>(store: () => Promise<T>, memory: () => Promise<T>): Promise<T> {
    try {
      return await store();
    } catch (error) {
      this.logger?.warn({ err: error }, "login throttle: the database store failed, counting in memory");
      return memory();
    }
  }

  private failures(res: RateLimiterRes | null): { n: number; ms: number } {
    return { n: res?.consumedPoints ?? 0, ms: res?.msBeforeNext ?? 0 };
  }

  private retryAfter(ms: number): ThrottleVerdict {
    return { retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)), delayMs: 0 };
  }

  /**
   * Before checking a password: refused (429) while over a limit. `device`: the id of a valid
   * device cookie for this account, whose own budget is all that counts then.
   */
  async check(email: string, ip: string, device?: string): Promise<ThrottleVerdict> {
    if (device) {
      const own = this.failures(await this.safely(() => this.device.get(device), () => this.memory.device.get(device)));
      return own.n >= DEVICE_LIMIT && own.ms > 0 ? this.retryAfter(own.ms) : { delayMs: 0 };
    }
    const key = targetKey(email);
    const [account, address] = await Promise.all([
      this.safely(() => this.account.get(key), () => this.memory.account.get(key)).then((r) => this.failures(r)),
      this.safely(() => this.address.get(ip), () => this.memory.address.get(ip)).then((r) => this.failures(r)),
    ]);
    const over = [account.n >= ACCOUNT_LIMIT ? account.ms : 0, address.n >= ADDRESS_LIMIT ? address.ms : 0].filter((ms) => ms > 0);
    if (over.length) return this.retryAfter(Math.max(...over));
    return { delayMs: 0 };
  }

  /** Counts a failure (against the device alone when there is one); returns how long to hold the answer. */
  async failed(email: string, ip: string, device?: string): Promise<number> {
    if (device) {
      const own = await this.safely(() => this.device.penalty(device, 1), () => this.memory.device.penalty(device, 1));
      return delayFor(own.consumedPoints);
    }
    const key = targetKey(email);
    const [account, address] = await Promise.all([
      this.safely(() => this.account.penalty(key, 1), () => this.memory.account.penalty(key, 1)),
      this.safely(() => this.address.penalty(ip, 1), () => this.memory.address.penalty(ip, 1)),
    ]);
    return delayFor(Math.max(account.consumedPoints, Math.floor(address.consumedPoints / 5)));
  }

  /**
   * After the right password: clears the device's count, or without a device the account's. A
   * trusted device's success leaves the strangers' count alone (else the owner signing in would
   * hand them a fresh budget).
   */
  async succeeded(email: string, device?: string): Promise<void> {
    if (device) {
      await this.safely(() => this.device.delete(device), () => this.memory.device.delete(device));
      return;
    }
    await this.cleared(email);
  }

  /** Ends the account's lock (a password was set: the guesses counted were against the old one). */
  async cleared(email: string): Promise<void> {
    const key = targetKey(email);
    await this.safely(() => this.account.delete(key), () => this.memory.account.delete(key));
  }
}
