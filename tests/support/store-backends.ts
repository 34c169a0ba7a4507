import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { AssetStore } from "~/content/assets";
import { openDatabase } from "~/content/db";
import { ContentStore } from "~/content/store";

/** A real store for a test suite: a SQLite file in a temp folder, or a PostgreSQL schema of its own. */
export interface StoreBackend {
  /** SQLite only: the database file (for a second process on it). */
  sqlitePath?: string;
  openStore(): Promise<ContentStore>;
  dispose(): Promise<void>;
}

export function sqliteStoreBackend(name: string, assetMaxBytes: number): StoreBackend {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `praxisnetz-${name}-`));
  return {
    sqlitePath: path.join(dir, "content.sqlite"),
    async openStore() {
      const { db, dialect } = await openDatabase({ sqlitePath: path.join(dir, "content.sqlite") });
      if (dialect !== "sqlite") throw new Error(`expected SQLite, got ${dialect}`);
      return new ContentStore(db, dialect, new AssetStore(path.join(dir, "assets"), assetMaxBytes));
    },
    async dispose() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `schemaPrefix`: the start of the PostgreSQL schema's name (lower-case letters, digits, `_`). */
export function postgresStoreBackend(databaseUrl: string, name: string, schemaPrefix: string, assetMaxBytes: number): StoreBackend {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `praxisnetz-${name}-pg-`));
  const pgSchema = `${schemaPrefix}${Date.now()}_${Math.random().toString(36).slice(2, 10)}`;
  return {
    async openStore() {
      const { db, dialect } = await openDatabase({ databaseUrl, pgSchema });
      if (dialect !== "postgres") throw new Error(`expected PostgreSQL, got ${dialect}`);
      return new ContentStore(db, dialect, new AssetStore(path.join(dir, "assets"), assetMaxBytes));
    },
    async dispose() {
      await dropPgSchema(databaseUrl, pgSchema);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Drops a test's PostgreSQL schema and everything in it. */
export async function dropPgSchema(databaseUrl: string, pgSchema: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${pgSchema} cascade`);
  } finally {
    await client.end();
  }
}
