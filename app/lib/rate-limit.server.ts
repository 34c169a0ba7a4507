import { createHash } from "node:crypto";
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, RateLimiterSQLite } from "rate-limiter-flexible";
import type { RawDatabase } from "~/content/db";
import type { Logger } from "./logger.server";

/**
 * Limits on public mutations (bookings, newsletter sign-ups, registrations), counted per visitor
 * address and per target (a slot, an e-mail address). The counts live in the database (one table,
 * `rate_limits`), so every app node sees the same ones; if the database cannot count, each node
 * counts in memory until it can again (an "insurance" limiter), and the request goes on.
 *
 * Targets are stored as SHA-256 hashes: the table never holds an e-mail address. Visitor addresses
 * are kept as they are (a hash of an IPv4 address is undone by trying them all); rows are deleted an
 * hour after they expire.
 *
 * On SQLite the limiter writes through the app's own connection (a second one would wait on the
 * first's open transactions while blocking the event loop). A count made while a Kysely transaction
 * is open joins it as a savepoint, and is lost if that transaction rolls back: a limit then counts
 * one attempt short, never more.
 */

export type RateLimitKind = "booking" | "newsletter" | "registration" | (string & {});

/** At most `points` attempts in `durationSeconds` (a fixed window that starts with the first one). */
export interface Limit {
  points: number;
  durationSeconds: number;
}

/** A kind's limits; null switches one off, undefined keeps the default. */
export interface KindLimits {
  perIp?: Limit | null;
  perTarget?: Limit | null;
}

export interface RateLimitOptions {
  /** Attempts per visitor address and kind per hour (RATE_LIMIT_PER_HOUR): the default per-IP limit. */
  perHour: number;
  /** Overrides by kind, over DEFAULT_TARGET_LIMITS and the per-hour default. */
  kinds?: Record<string, KindLimits>;
  logger?: Pick<Logger, "warn">;
  /** Default `rate_limits`. Letters, digits and `_` only. */
  tableName?: string;
}

/**
 * Per-target defaults, by kind:
 * - booking (target: the slot): a slot is booked once and the database decides races, so the limit
 *   only bounds hammering. A slot that many people want is tried by many of them, often more than
 *   once after a "just taken" — a release of popular slots sees hundreds of tries in a second, and
 *   each must get its 409, not a 429: 1 000 an hour stays clear of that, whatever RATE_LIMIT_PER_HOUR says.
 * - newsletter, registration (target: the e-mail address): every attempt mails that address, so
 *   this keeps anyone's inbox from being flooded through the form: 5 in 6 hours leaves a person
 *   room to try again after a typo or a slow mail, and a flood at most 20 mails a day.
 * Other kinds get the per-IP limit (RATE_LIMIT_PER_HOUR per hour) per target too.
 */
export const DEFAULT_TARGET_LIMITS: Readonly<Record<string, Limit>> = {
  booking: { points: 1000, durationSeconds: 60 * 60 },
  newsletter: { points: 5, durationSeconds: 6 * 60 * 60 },
  registration: { points: 5, durationSeconds: 6 * 60 * 60 },
};

/** Too many attempts: answered with 429 and Retry-After. */
export class RateLimitedError extends Error {
  constructor(
    readonly kind: string,
    /** Which limit refused: the visitor's address or the target. */
    readonly scope: "ip" | "target",
    readonly retryAfterSeconds: number,
  ) {
    super(`Too many ${kind} attempts (per ${scope}); retry after ${retryAfterSeconds} s.`);
    this.name = "RateLimitedError";
  }
}

export interface RateLimits {
  /**
   * Counts one attempt of `kind` from `ip` at `target`; throws RateLimitedError if the address or
   * the target is over its limit. An empty target is not counted per target. Never fails for
   * the database's sake: the count then falls back to memory.
   */
  consume(kind: RateLimitKind, ip: string, target: string): Promise<void>;
  /** Settles once the table exists (true) or could not be made (false: counting in memory for now). */
  ready(): Promise<boolean>;
  /** Stops the periodic clean-up (the database stays open: it is not ours). */
  close(): void;
}

/** How often to try again to create the table after it failed (the database was down at start). */
const RETRY_TABLE_MS = 30_000;
/** Expired rows are deleted this often (by every node: a cheap indexed DELETE), an hour after expiry. */
const SWEEP_MS = 5 * 60_000;
/** One warning per this long while the database store fails, not one per request. */
const WARN_EVERY_MS = 60_000;

interface Pair {
  /** Undefined until the table is there. */
  store?: RateLimiterAbstract;
  /** The insurance: this node's own count, used while the store fails. */
  memory: RateLimiterMemory;
  limit: Limit;
}

/**
 * The store limiters create their table themselves, in the background: a consume before that is
 * refused ("Table is not created yet"), and on PostgreSQL a failed creation without a callback is
 * thrown inside a promise (an unhandled rejection). So the table is made once, here, by a limiter
 * given a callback, and is awaited; the limiters that count are then told it exists.
 */
function createTable(raw: RawDatabase, tableName: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const done = (error?: Error) => (error ? reject(error) : resolve());
    const opts = { tableName, points: 1, duration: 1, clearExpiredByTimeout: false };
    try {
      if (raw.dialect === "sqlite") new RateLimiterSQLite({ ...opts, storeClient: raw.sqlite, storeType: "better-sqlite3" }, done);
      else new RateLimiterPostgres({ ...opts, storeClient: raw.pool, storeType: "pool" }, done);
    } catch (error) {
      reject(error as Error);
    }
  });
}

export function storeLimiter(raw: RawDatabase, tableName: string, keyPrefix: string, limit: Limit): RateLimiterAbstract {
  const opts = {
    tableName,
    keyPrefix,
    points: limit.points,
    duration: limit.durationSeconds,
    tableCreated: true,
    // Deleting old rows is ours (the SQLite limiter's own timer lets a failed DELETE go unhandled).
    clearExpiredByTimeout: false,
    // A key over its limit is refused from this node's memory until its window ends: a flood from
    // one address costs no database writes.
    inMemoryBlockOnConsumed: limit.points + 1,
  };
  return raw.dialect === "sqlite" ? new RateLimiterSQLite({ ...opts, storeClient: raw.sqlite, storeType: "better-sqlite3" }) : new RateLimiterPostgres({ ...opts, storeClient: raw.pool, storeType: "pool" });
}

/** The key for a target: a hash of it, trimmed and lower-cased (Anna@… and anna@… are one address). */
export function targetKey(target: string): string {
  return createHash("sha256").update(target.trim().toLowerCase(), "utf8").digest("hex");
}

/** What the library rejects with when a limit is reached (anything else is the store failing). */
const isRefusal = (error: unknown): error is RateLimiterRes => error instanceof RateLimiterRes;

export function createRateLimits(raw: RawDatabase, opts: RateLimitOptions): RateLimits {
  const tableName = opts.tableName ?? "rate_limits";
  if (!/^[a-z_][a-z0-9_]*$/i.test(tableName)) throw new Error(`Invalid rate limit table name "${tableName}"`);
  const perIpDefault: Limit = { points: opts.perHour, durationSeconds: 60 * 60 };
  const pairs = new Map<string, Pair | null>();
  let tableReady = false;
  let creating: Promise<boolean> | undefined;
  let failedAt = 0;
  let warnedAt = 0;
  let sweeper: NodeJS.Timeout | undefined;
  let closed = false;

  const warn = (error: unknown, message: string) => {
    const now = Date.now();
    if (now - warnedAt < WARN_EVERY_MS) return;
    warnedAt = now;
    opts.logger?.warn({ err: error, table: tableName, dialect: raw.dialect }, message);
  };

  const ensureTable = (): Promise<boolean> => {
    if (tableReady) return Promise.resolve(true);
    if (creating) return creating;
    if (failedAt && Date.now() - failedAt < RETRY_TABLE_MS) return Promise.resolve(false);
    creating = createTable(raw, tableName).then(
      () => {
        tableReady = true;
        for (const [key, pair] of pairs) if (pair && !pair.store) pair.store = storeLimiter(raw, tableName, key, pair.limit);
        startSweeper();
        return true;
      },
      (error: unknown) => {
        failedAt = Date.now();
        warn(error, "rate limits: cannot create the table, counting in memory for now");
        return false;
      },
    );
    void creating.finally(() => (creating = undefined));
    return creating;
  };

  const startSweeper = () => {
    if (sweeper || closed) return;
    sweeper = setInterval(() => {
      const first = [...pairs.values()].find((pair) => pair?.store)?.store as unknown as { clearExpired(before: number): Promise<void> } | undefined;
      // Every limiter here shares the one table; the SQLite one rejects on errors (the PostgreSQL one never does).
      first?.clearExpired(Date.now() - 60 * 60_000).catch((error: unknown) => warn(error, "rate limits: deleting expired rows failed"));
    }, SWEEP_MS);
    sweeper.unref();
  };

  const pairFor = (kind: string, scope: "ip" | "target"): Pair | null => {
    const keyPrefix = `${kind}:${scope}`;
    let pair = pairs.get(keyPrefix);
    if (pair !== undefined) return pair;
    const override = opts.kinds?.[kind];
    const chosen = scope === "ip" ? override?.perIp : override?.perTarget;
    const limit = chosen === undefined ? (scope === "ip" ? perIpDefault : (DEFAULT_TARGET_LIMITS[kind] ?? perIpDefault)) : chosen;
    pair = limit ? { limit, memory: new RateLimiterMemory({ keyPrefix, points: limit.points, duration: limit.durationSeconds }), store: tableReady ? storeLimiter(raw, tableName, keyPrefix, limit) : undefined } : null;
    pairs.set(keyPrefix, pair);
    return pair;
  };

  /** One count; a RateLimitedError when over the limit. */
  const count = async (kind: string, scope: "ip" | "target", key: string) => {
    const pair = pairFor(kind, scope);
    if (!pair) return;
    try {
      // No table (yet): the failure was reported when making it.
      if (!pair.store) await pair.memory.consume(key);
      else {
        try {
          await pair.store.consume(key);
        } catch (error) {
          if (isRefusal(error)) throw error;
          warn(error, "rate limits: the database store failed, counting in memory");
          await pair.memory.consume(key);
        }
      }
    } catch (error) {
      if (!isRefusal(error)) throw error;
      throw new RateLimitedError(kind, scope, Math.max(1, Math.ceil(error.msBeforeNext / 1000)));
    }
  };

  // Started at once: the first request should not wait for the table.
  void ensureTable();

  return {
    async consume(kind, ip, target) {
      await ensureTable();
      // The address first: an address over its limit does not use up the target's attempts too.
      await count(kind, "ip", ip || "unknown");
      if (target) await count(kind, "target", targetKey(target));
    },
    ready: ensureTable,
    close() {
      closed = true;
      if (sweeper) clearInterval(sweeper);
      sweeper = undefined;
    },
  };
}
