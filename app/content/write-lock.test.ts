import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AssetStore } from "./assets";
import { openDatabase } from "./db";
import { ContentStore } from "./store";

/**
 * SQLite: a store transaction holds the write lock from its first statement. Another connection
 * (the background checkpointer's RESTART, a second process) that takes the lock between a
 * transaction's first read and its first write used to make that write fail at once with
 * SQLITE_BUSY, without waiting: a 500 now and then under sustained writes.
 */
const OTHER_WRITER = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.module);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma("busy_timeout = 0");
parentPort.on("message", (message) => {
  if (message === "take") {
    try {
      db.exec("begin immediate");
      parentPort.postMessage("taken");
    } catch (error) {
      parentPort.postMessage(error.code);
    }
  } else if (message === "release") {
    if (db.inTransaction) db.exec("commit");
    parentPort.postMessage("released");
  } else {
    db.close();
    parentPort.close();
  }
});
`;

describe("SQLite store transactions and other writers", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-write-lock-"));
  const file = path.join(dir, "content.sqlite");
  let store: ContentStore;
  let other: Worker;
  const ask = (message: string) =>
    new Promise<string>((resolve) => {
      other.once("message", resolve);
      other.postMessage(message);
    });

  beforeAll(async () => {
    const { db, dialect } = await openDatabase({ sqlitePath: file });
    store = new ContentStore(db, dialect, new AssetStore(path.join(dir, "assets"), 4096));
    await store.migrate();
    await store.upsertSchema({ name: "lock-notes", fields: [{ name: "text", partitioning: "invariant", properties: { fieldType: "String" } }] });
    other = new Worker(OTHER_WRITER, { eval: true, workerData: { module: createRequire(import.meta.url).resolve("better-sqlite3"), file } });
  });
  afterAll(async () => {
    await other?.terminate();
    await store?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("keeps a transaction that read first able to write when another connection wants the lock meanwhile", async () => {
    const item = await store.create("lock-notes", { text: { iv: "one" } });
    let otherWriter = "";
    const updated = await store.transaction(async (tx) => {
      // The read the store's writes begin with (the version for the compare-and-set).
      expect((await tx.get("lock-notes", item.id, { unpublished: true }))?.version).toBe(0);
      // Another writer tries now; had it got the lock, it would hold it for a moment and then commit.
      otherWriter = await ask("take");
      if (otherWriter === "taken") setTimeout(() => other.postMessage("release"), 200);
      return tx.update("lock-notes", item.id, { text: { iv: "two" } });
    });
    expect(updated.version).toBe(1);
    // The store's transaction had the lock from its start: the other writer was the one told to wait.
    expect(otherWriter).toMatch(/^SQLITE_BUSY/);
    expect(await ask("take")).toBe("taken");
    await ask("release");
    expect((await store.get("lock-notes", item.id, { unpublished: true }))?.data).toEqual({ text: { iv: "two" } });
  });

  it("still lets a transaction the caller marks read-only begin without the lock", async () => {
    await store.db
      .transaction()
      .setAccessMode("read only")
      .execute(async (trx) => {
        await sql`select count(*) from contents`.execute(trx);
        expect(await ask("take")).toBe("taken");
        expect(await ask("release")).toBe("released");
      });
  });
});
