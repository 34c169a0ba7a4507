import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteStoreBackend, type StoreBackend } from "../../tests/support/store-backends";
import type { ContentStore } from "~/content/store";
import { AuditLog } from "./audit.server";

/**
 * The audit screen's filters (who, what, since) on a log of 20 000 entries: the right rows, newest
 * first, and read through an index (SQLite's query plan names it) rather than the whole table.
 */
describe("audit log filters at size", () => {
  let backend: StoreBackend;
  let store: ContentStore;
  let log: AuditLog;
  const ACTIONS = ["update-content", "publish-content", "delete-content", "sign-in"];

  beforeAll(async () => {
    backend = sqliteStoreBackend("audit-filters", 4096);
    store = await backend.openStore();
    await store.migrate();
    log = new AuditLog(store.db);
    const rows = Array.from({ length: 20_000 }, (_, i) => ({
      id: `a${String(i).padStart(6, "0")}`,
      at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
      user_id: `u${i % 50}`,
      user_email: `u${i % 50}@example.org`,
      action: ACTIONS[i % ACTIONS.length]!,
      schema_name: "gm-content-practitioners",
      item_id: `p${i % 700}`,
      version: 1,
      detail: null,
    }));
    for (let i = 0; i < rows.length; i += 1000) await store.db.insertInto("audit_log").values(rows.slice(i, i + 1000)).execute();
  });

  afterAll(async () => {
    await store.close();
    await backend.dispose();
  });

  it("finds one person's and one action's entries, newest first, through an index", async () => {
    const mine = await log.list({ userId: "u7", limit: 5 });
    expect(mine.map((e) => e.userId)).toEqual(Array(5).fill("u7"));
    expect(mine.map((e) => e.at)).toEqual([...mine.map((e) => e.at)].sort().reverse());
    const deletes = await log.list({ action: "delete-content", since: "2026-01-05T00:00:00.000Z", limit: 3 });
    expect(deletes.every((e) => e.action === "delete-content" && e.at >= "2026-01-05")).toBe(true);
    expect(deletes).toHaveLength(3);
    for (const [column, value] of [
      ["user_id", "u7"],
      ["action", "delete-content"],
    ] as const) {
      const plan = await sql<{ detail: string }>`explain query plan select * from audit_log where ${sql.ref(column)} = ${value} order by at desc, id desc limit 50`.execute(store.db);
      const text = plan.rows.map((r) => r.detail).join(" | ");
      expect(text, column).toMatch(new RegExp(`USING INDEX audit_log_${column === "user_id" ? "user" : "action"}`));
      expect(text, column).not.toMatch(/TEMP B-TREE/);
    }
  });
});
