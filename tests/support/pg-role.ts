import pg from "pg";
import { startServer, type RunningServer } from "./server";

/**
 * Runs `fn` with a PostgreSQL role of its own on TEST_DATABASE_URL, whose default search_path
 * ("$user") is a schema of the same name: an empty database for one test. Dropped afterwards.
 */
export async function withPgRole(prefix: string, fn: (ctx: { url: string; role: string; admin: pg.Client }) => Promise<void>): Promise<void> {
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  const role = `${prefix}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  await admin.query(`create role ${role} login`);
  await admin.query(`create schema ${role} authorization ${role}`);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.username = role;
  url.password = "";
  try {
    await fn({ url: url.toString(), role, admin });
  } finally {
    await admin.query(`alter role ${role} login`);
    await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where usename = $1`, [role]);
    await admin.query(`drop schema ${role} cascade`);
    await admin.query(`drop role ${role}`);
    await admin.end();
  }
}

/** Two app nodes on one PostgreSQL database of their own (a role, as withPgRole), stopped afterwards. */
export async function withTwoPgNodes(prefix: string, fn: (a: RunningServer, b: RunningServer) => Promise<void>): Promise<void> {
  await withPgRole(prefix, async ({ url }) => {
    const env = { DATABASE_URL: url, CACHE_TTL_SECONDS: "3600" };
    const a = await startServer({ env });
    const b = await startServer({ env, dataDir: a.dataDir });
    try {
      await fn(a, b);
    } finally {
      await b.stop();
      await a.stop();
    }
  });
}
