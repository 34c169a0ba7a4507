import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "./db";

/**
 * The SQLite file with its WAL copied back by a worker thread (checkpointInBackground): the copy
 * happens without the app's connection checkpointing, the WAL starts over instead of growing, and
 * closing leaves every write in the database file.
 */
describe("SQLite checkpoints in the background", () => {
  const dirs: string[] = [];
  const tempFile = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-db-"));
    dirs.push(dir);
    return path.join(dir, "store.sqlite");
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  const fill = async (db: Awaited<ReturnType<typeof openDatabase>>["db"], from: number, rows: number) => {
    for (let i = from; i < from + rows; i++) await sql`insert into filler (id, body) values (${i}, ${"x".repeat(4000)})`.execute(db);
  };

  it("copies the WAL into the database file from the worker and starts it over", async () => {
    const file = tempFile();
    const { db } = await openDatabase({ sqlitePath: file, checkpointInBackground: true });
    await sql`create table filler (id integer primary key, body text)`.execute(db);
    // The app's connection would copy only past 100 000 pages: whatever reaches the file below that came from the worker.
    expect((await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db)).rows[0]!.wal_autocheckpoint).toBe(100000);
    const before = fs.statSync(file).size;
    // ~6 000 pages: past the worker's restart mark, far below the app connection's own (100 000).
    await fill(db, 0, 6000);
    const walBefore = fs.statSync(`${file}-wal`).size;
    expect(walBefore).toBeGreaterThan(20 * 1024 * 1024);
    let grown = false;
    for (let i = 0; i < 40 && !grown; i++) {
      await sleep(100);
      grown = fs.statSync(file).size > before + 20 * 1024 * 1024;
    }
    expect(grown).toBe(true);
    // After the worker's RESTART the next writes go to the start of the WAL: it stops growing.
    await sleep(1200);
    await fill(db, 6000, 100);
    expect(fs.statSync(`${file}-wal`).size).toBeLessThanOrEqual(Math.max(walBefore, 64 * 1024 * 1024));
    await db.destroy();

    const again = await openDatabase({ sqlitePath: file });
    const { rows } = await sql<{ n: number }>`select count(*) as n from filler`.execute(again.db);
    expect(rows[0]!.n).toBe(6100);
    await again.db.destroy();
  }, 30_000);

  it("without the option, the app's connection checkpoints as SQLite does by default", async () => {
    const file = tempFile();
    const { db } = await openDatabase({ sqlitePath: file });
    const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db);
    expect(rows[0]!.wal_autocheckpoint).toBe(1000);
    await db.destroy();
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("PostgreSQL prepared statements", () => {
  it("plan a query once per connection and survive a change of the table they read", async () => {
    const pgSchema = `t_prep_${process.pid}`;
    const { db } = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, pgSchema });
    try {
      await sql`create table items (id text primary key, name text)`.execute(db);
      await sql`insert into items values ('a', 'Anna'), ('b', 'Bernd')`.execute(db);
      const read = () => db.selectFrom("items" as never).selectAll().where("id" as never, "=", "a" as never).execute();
      expect(await read()).toEqual([{ id: "a", name: "Anna" }]);
      expect(await read()).toEqual([{ id: "a", name: "Anna" }]);
      const prepared = await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where statement like '%"items"%'`.execute(db);
      expect(prepared.rows[0]!.n).toBeGreaterThan(0);
      // The cached plan's result type no longer holds: sent again unnamed, then under a new name.
      await sql`alter table items add column city text`.execute(db);
      expect(await read()).toEqual([{ id: "a", name: "Anna", city: null }]);
      expect(await read()).toEqual([{ id: "a", name: "Anna", city: null }]);
      // A search pattern is never named: its plan depends on the pattern.
      const like = () => db.selectFrom("items" as never).selectAll().where("name" as never, "like", "%nn%" as never).execute();
      expect(await like()).toEqual([{ id: "a", name: "Anna", city: null }]);
      const named = await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where statement like '%like $1%'`.execute(db);
      expect(named.rows[0]!.n).toBe(0);
    } finally {
      await sql`drop schema ${sql.id(pgSchema)} cascade`.execute(db);
      await db.destroy();
    }
  });
});

describe("the slow statement log (SQL_SLOW_MS)", () => {
  it("reports statements at or over the limit with their SQL and values, and nothing when off", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-db-"));
    const seen: Array<{ ms: number; sql: string; parameters: readonly unknown[] }> = [];
    const slow = await openDatabase({ sqlitePath: path.join(dir, "a.sqlite"), slowQueryMs: 0.000001, onSlowQuery: (q) => seen.push(q) });
    const off = await openDatabase({ sqlitePath: path.join(dir, "b.sqlite"), slowQueryMs: 0, onSlowQuery: (q) => seen.push(q) });
    try {
      await sql`select ${1} as one`.execute(off.db);
      expect(seen).toEqual([]);
      await sql`select ${42} as answer`.execute(slow.db);
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({ sql: "select ? as answer", parameters: [42] });
      expect(typeof seen[0]!.ms).toBe("number");
    } finally {
      await slow.db.destroy();
      await off.db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
