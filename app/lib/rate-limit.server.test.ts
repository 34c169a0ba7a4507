import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type RawDatabase } from "~/content/db";
import { createRateLimits, RateLimitedError, targetKey, type RateLimitOptions, type RateLimits } from "./rate-limit.server";

/**
 * The rate limits on a SQLite file (always) and on PostgreSQL (its own schema, when
 * TEST_DATABASE_URL is set): limits per address and per target, counts shared through the
 * database, targets stored only as hashes, and the fall-back to memory when the database fails.
 */

interface Backend {
  /** Instances opened with one `name` share a database (they are app nodes of one site). */
  open(name: string): Promise<{ raw: RawDatabase; close(): Promise<void> }>;
  /** Rows of the limits table (key, points). */
  rows(raw: RawDatabase): Promise<Array<{ key: string; points: number }>>;
  drop(raw: RawDatabase): Promise<void>;
  dispose(): Promise<void>;
}

function sqliteBackend(): Backend {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-rate-"));
  return {
    async open(name) {
      const { db, raw } = await openDatabase({ sqlitePath: path.join(dir, `${name}.sqlite`) });
      return { raw, close: () => db.destroy() };
    },
    async rows(raw) {
      if (raw.dialect !== "sqlite") throw new Error("SQLite expected");
      return raw.sqlite.prepare("select key, points from rate_limits order by key").all() as Array<{ key: string; points: number }>;
    },
    async drop(raw) {
      if (raw.dialect === "sqlite") raw.sqlite.exec("drop table rate_limits");
    },
    async dispose() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function postgresBackend(databaseUrl: string): Backend {
  const prefix = `t_rate_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const schemas = new Set<string>();
  return {
    async open(name) {
      const pgSchema = `${prefix}_${name}`;
      schemas.add(pgSchema);
      const { db, raw } = await openDatabase({ databaseUrl, pgSchema });
      return { raw, close: () => db.destroy() };
    },
    async rows(raw) {
      if (raw.dialect !== "postgres") throw new Error("PostgreSQL expected");
      return (await raw.pool.query<{ key: string; points: number }>("select key, points from rate_limits order by key")).rows;
    },
    async drop(raw) {
      if (raw.dialect === "postgres") await raw.pool.query("drop table rate_limits");
    },
    async dispose() {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        for (const schema of schemas) await client.query(`drop schema if exists ${schema} cascade`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A logger that keeps its warnings. */
function recorder() {
  const warnings: string[] = [];
  return { warnings, logger: { warn: (_obj: unknown, message: string) => void warnings.push(message) } as unknown as RateLimitOptions["logger"] };
}

async function refusal(attempt: Promise<void>): Promise<RateLimitedError> {
  const error = await attempt.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RateLimitedError);
  return error as RateLimitedError;
}

function suite(name: string, makeBackend: (() => Backend) | undefined) {
  describe.skipIf(!makeBackend)(`rate limits on ${name}`, () => {
    const backend = makeBackend?.();
    const limits: RateLimits[] = [];
    const closers: Array<() => Promise<void>> = [];
    let unnamed = 0;
    const open = async (opts: Partial<RateLimitOptions> = {}, name = `db${unnamed++}`) => {
      const { raw, close } = await backend!.open(name);
      closers.push(close);
      const made = createRateLimits(raw, { perHour: 3, ...opts });
      limits.push(made);
      return { raw, limits: made };
    };
    afterAll(async () => {
      for (const l of limits) l.close();
      for (const close of closers) await close();
      await backend?.dispose();
    });

    it("refuses the N+1st attempt from one address, with a time to wait", async () => {
      // Not awaited for ready(): the first consume waits for the table itself.
      const { raw, limits } = await open();
      for (let i = 0; i < 3; i++) await limits.consume("newsletter", "203.0.113.7", `person${i}@example.org`);
      const error = await refusal(limits.consume("newsletter", "203.0.113.7", "person9@example.org"));
      expect(error.scope).toBe("ip");
      expect(error.retryAfterSeconds).toBeGreaterThan(0);
      expect(error.retryAfterSeconds).toBeLessThanOrEqual(3600);
      // Counted in the database, not in memory.
      expect((await backend!.rows(raw)).find((r) => r.key === "newsletter:ip:203.0.113.7")?.points).toBe(4);
      // Another kind and another address have their own counts.
      await limits.consume("registration", "203.0.113.7", "person9@example.org");
      await limits.consume("newsletter", "203.0.113.8", "person9@example.org");
    });

    it("refuses the N+1st attempt at one target from many addresses", async () => {
      const { limits } = await open({ kinds: { newsletter: { perTarget: { points: 2, durationSeconds: 600 } } } });
      await limits.consume("newsletter", "198.51.100.1", "Anna@Example.org");
      await limits.consume("newsletter", "198.51.100.2", " anna@example.org");
      const error = await refusal(limits.consume("newsletter", "198.51.100.3", "anna@example.org"));
      expect(error.scope).toBe("target");
      expect(error.retryAfterSeconds).toBeGreaterThan(0);
      expect(error.retryAfterSeconds).toBeLessThanOrEqual(600);
    });

    it("lets a popular slot be tried by many, and a limit be switched off", async () => {
      const { limits } = await open();
      // 30 visitors, one slot: far over RATE_LIMIT_PER_HOUR (3 here), not over the slot's limit.
      for (let i = 0; i < 30; i++) await limits.consume("booking", `192.0.2.${i}`, "slot-1");
      const { limits: open2 } = await open({ kinds: { booking: { perIp: null } } });
      for (let i = 0; i < 10; i++) await open2.consume("booking", "192.0.2.200", `slot-${i}`);
    });

    it("keeps targets only as hashes", async () => {
      const { raw, limits } = await open();
      await limits.consume("newsletter", "203.0.113.50", "secret.person@example.org");
      const keys = (await backend!.rows(raw)).map((r) => r.key);
      expect(keys.some((k) => k.includes("secret.person") || k.includes("@"))).toBe(false);
      expect(keys).toContain(`newsletter:target:${targetKey("secret.person@example.org")}`);
    });

    it("shares counts between two instances (app nodes) on one database", async () => {
      const a = await open({}, "shared");
      const b = await open({}, "shared");
      await a.limits.consume("registration", "203.0.113.99", "x@example.org");
      await b.limits.consume("registration", "203.0.113.99", "y@example.org");
      await a.limits.consume("registration", "203.0.113.99", "z@example.org");
      const error = await refusal(b.limits.consume("registration", "203.0.113.99", "w@example.org"));
      expect(error.scope).toBe("ip");
    });

    it("counts in memory when the database store fails, and says so once", async () => {
      const { warnings, logger } = recorder();
      const { raw, limits } = await open({ logger });
      expect(await limits.ready()).toBe(true);
      await backend!.drop(raw);
      for (let i = 0; i < 3; i++) await limits.consume("newsletter", "203.0.113.120", `m${i}@example.org`);
      const error = await refusal(limits.consume("newsletter", "203.0.113.120", "m9@example.org"));
      expect(error.retryAfterSeconds).toBeGreaterThan(0);
      expect(warnings).toEqual(["rate limits: the database store failed, counting in memory"]);
    });
  });
}

suite("SQLite", () => sqliteBackend());
const databaseUrl = process.env.TEST_DATABASE_URL;
suite(databaseUrl ? "PostgreSQL" : "PostgreSQL (set TEST_DATABASE_URL to run)", databaseUrl ? () => postgresBackend(databaseUrl) : undefined);

describe("rate limits without a database", () => {
  it("start on an unreachable PostgreSQL without an unhandled rejection, and count in memory", async () => {
    const pool = new pg.Pool({ connectionString: "postgres://nobody@127.0.0.1:1/none", connectionTimeoutMillis: 1000 });
    pool.on("error", () => {});
    const { warnings, logger } = recorder();
    const limits = createRateLimits({ dialect: "postgres", pool }, { perHour: 2, logger });
    try {
      expect(await limits.ready()).toBe(false);
      await limits.consume("booking", "203.0.113.1", "slot-a");
      await limits.consume("booking", "203.0.113.1", "slot-b");
      const error = await refusal(limits.consume("booking", "203.0.113.1", "slot-c"));
      expect(error.scope).toBe("ip");
      expect(warnings).toEqual(["rate limits: cannot create the table, counting in memory for now"]);
    } finally {
      limits.close();
      await pool.end();
    }
  });

  it("start on a closed SQLite database and count in memory", async () => {
    const { raw } = await openDatabase({ sqlitePath: ":memory:" });
    if (raw.dialect === "sqlite") raw.sqlite.close();
    const limits = createRateLimits(raw, { perHour: 1 });
    expect(await limits.ready()).toBe(false);
    await limits.consume("newsletter", "203.0.113.1", "a@example.org");
    await refusal(limits.consume("newsletter", "203.0.113.1", "b@example.org"));
    limits.close();
  });
});
