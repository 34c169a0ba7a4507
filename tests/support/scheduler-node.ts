/**
 * A second app node for the scheduler tests (app/content/scheduler.test.ts): its own process on the
 * same SQLite file (better-sqlite3 waits for the write lock synchronously, so two connections in one
 * process cannot race). Opens the store, says "ready", waits for "go" on stdin, runs one scheduler
 * tick at the given clock and prints its result as JSON.
 *
 *   vite-node --config vitest.config.ts tests/support/scheduler-node.ts <sqlite file> <now ISO> <node id> <batch size>
 */
import path from "node:path";
import { AssetStore } from "../../app/content/assets";
import { openDatabase } from "../../app/content/db";
import { ContentScheduler } from "../../app/content/scheduler";
import { ContentStore } from "../../app/content/store";

const [file, nowIso, nodeId, batch] = process.argv.slice(2);
const { db, dialect } = await openDatabase({ sqlitePath: file! });
const store = new ContentStore(db, dialect, new AssetStore(path.join(path.dirname(file!), "assets"), 4096));
const silent = () => {};
const scheduler = new ContentScheduler(store, { logger: { info: silent, warn: silent, error: silent } as never, nodeId, now: () => new Date(nowIso!), batchSize: Number(batch) || 50 });
process.stdout.write("ready\n");
await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));
const result = await scheduler.tick();
process.stdout.write(`${JSON.stringify(result)}\n`);
await store.close();
process.exit(0);
