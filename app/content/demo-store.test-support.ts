import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { AssetStore } from "./assets";
import { ContentCache } from "./cache";
import { createEmbeddedClient, type ContentClient } from "./client";
import { openDatabase } from "./db";
import { seedDemoContent } from "./seed-demo";
import { ContentStore } from "./store";

/**
 * For tests: a real SQLite store in a fresh directory with the demo content, its read cache emptied
 * by every change, and the content client over both. `close()` removes it all.
 */
export async function openDemoStore(prefix: string): Promise<{ dir: string; store: ContentStore; cache: ContentCache; client: ContentClient; close: () => Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const { db, dialect } = await openDatabase({ sqlitePath: path.join(dir, "db.sqlite") });
  const store = new ContentStore(db, dialect, new AssetStore(path.join(dir, "assets"), 1024 * 1024));
  await store.migrate();
  await seedDemoContent(store);
  const cache = new ContentCache();
  store.onChange((change) => cache.invalidate(change));
  const client = createEmbeddedClient({ store, cache, siteName: "praxisnetz" });
  return {
    dir,
    store,
    cache,
    client,
    close: async () => {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
