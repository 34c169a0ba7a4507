import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UserStore, type User } from "~/auth/users.server";
import type { ContentStore } from "~/content/store";
import { postgresStoreBackend, sqliteStoreBackend, type StoreBackend } from "../../tests/support/store-backends";
import { heartbeat, leave, PRESENCE_KEEP_MS, PRESENCE_WINDOW_MS, purgePresence } from "./presence.server";

/**
 * Presence on a real database: a SQLite file always, PostgreSQL when TEST_DATABASE_URL is set (its
 * own schema, dropped afterwards). Time is passed in, so the 45 s window and the hourly purge are
 * checked to the second without waiting.
 */

const T0 = new Date("2031-03-10T09:00:00.000Z");
const at = (ms: number, base = T0) => new Date(base.getTime() + ms);

function presenceSuite(name: string, open: (() => StoreBackend) | undefined) {
  (open ? describe : describe.skip)(name, () => {
    let backend: StoreBackend;
    let store: ContentStore;
    let maria: User;
    let jonas: User;
    let nameless: User;

    beforeAll(async () => {
      backend = open!();
      store = await backend.openStore();
      await store.migrate();
      const users = new UserStore(store.db);
      maria = await users.create({ email: "maria@example.org", name: "Maria Muster" });
      jonas = await users.create({ email: "jonas@example.org", name: "Jonas Beispiel" });
      // UserStore names a user after their address when given no name; an empty name can still come from an update.
      nameless = { ...(await users.create({ email: "ohne-name@example.org" })), name: "" };
    });

    afterAll(async () => {
      await store?.close();
      await backend?.dispose();
    });

    const rows = () => store.db.selectFrom("editor_presence").selectAll().execute();

    it("shows each editor the others on the same page, by name (e-mail without one), never themselves or an id", async () => {
      expect(await heartbeat(store.db, "page-a", maria, T0)).toEqual([]);
      expect(await heartbeat(store.db, "page-a", jonas, at(1000))).toEqual([{ name: "Maria Muster" }]);
      expect(await heartbeat(store.db, "page-a", nameless, at(2000))).toEqual([{ name: "Jonas Beispiel" }, { name: "Maria Muster" }]);
      const seenByMaria = await heartbeat(store.db, "page-a", maria, at(3000));
      expect(seenByMaria).toEqual([{ name: "Jonas Beispiel" }, { name: "ohne-name@example.org" }]);
      const text = JSON.stringify(seenByMaria);
      for (const u of [maria, jonas, nameless]) expect(text).not.toContain(u.id);
      // Someone on another page is not on this one.
      expect(await heartbeat(store.db, "page-b", jonas, at(4000))).toEqual([]);
    });

    it("keeps one row per page and person, refreshed by every heartbeat (a renamed person shows the new name)", async () => {
      await heartbeat(store.db, "page-c", maria, T0);
      await heartbeat(store.db, "page-c", maria, at(20_000));
      await heartbeat(store.db, "page-c", { ...maria, name: "Maria Muster-Neu" }, at(40_000));
      const mine = (await rows()).filter((r) => r.page_id === "page-c");
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ user_id: maria.id, name: "Maria Muster-Neu", seen_at: at(40_000).toISOString() });
      expect(await heartbeat(store.db, "page-c", jonas, at(41_000))).toEqual([{ name: "Maria Muster-Neu" }]);
    });

    it("counts someone as present for 45 s after their last heartbeat", async () => {
      const base = at(3_600_000);
      await heartbeat(store.db, "page-d", maria, base);
      expect(await heartbeat(store.db, "page-d", jonas, at(PRESENCE_WINDOW_MS, base))).toEqual([{ name: "Maria Muster" }]);
      expect(await heartbeat(store.db, "page-d", jonas, at(PRESENCE_WINDOW_MS + 1, base))).toEqual([]);
      // Maria's tab comes back: she is there again.
      await heartbeat(store.db, "page-d", maria, at(PRESENCE_WINDOW_MS + 2, base));
      expect(await heartbeat(store.db, "page-d", jonas, at(PRESENCE_WINDOW_MS + 3, base))).toEqual([{ name: "Maria Muster" }]);
    });

    it("drops whoever leaves at once, and only them on only that page", async () => {
      const base = at(2 * 3_600_000);
      await heartbeat(store.db, "page-e", maria, base);
      await heartbeat(store.db, "page-f", maria, base);
      await heartbeat(store.db, "page-e", nameless, base);
      await leave(store.db, "page-e", maria.id);
      expect(await heartbeat(store.db, "page-e", jonas, at(1000, base))).toEqual([{ name: "ohne-name@example.org" }]);
      expect(await heartbeat(store.db, "page-f", jonas, at(1000, base))).toEqual([{ name: "Maria Muster" }]);
      await leave(store.db, "page-e", maria.id); // twice (pagehide and a DELETE racing): no error
    });

    it("purges rows older than an hour, and heartbeats do it now and then by themselves", async () => {
      const base = at(10 * 3_600_000);
      await heartbeat(store.db, "page-g", maria, base);
      expect(await purgePresence(store.db, at(PRESENCE_KEEP_MS, base))).toBe(0);
      expect(await purgePresence(store.db, at(PRESENCE_KEEP_MS + 1, base))).toBeGreaterThanOrEqual(1);
      expect((await rows()).some((r) => r.page_id === "page-g")).toBe(false);

      // Without anyone calling the purge: a heartbeat on another page, hours later, clears the old rows.
      const later = at(20 * 3_600_000);
      await heartbeat(store.db, "page-h", maria, later);
      await heartbeat(store.db, "page-i", jonas, at(2 * PRESENCE_KEEP_MS, later));
      expect((await rows()).map((r) => r.page_id)).toEqual(["page-i"]);
    });
  });
}

presenceSuite("sqlite", () => sqliteStoreBackend("presence-test", 1024 * 1024));
const databaseUrl = process.env.TEST_DATABASE_URL;
presenceSuite(
  databaseUrl ? "postgres" : "postgres (set TEST_DATABASE_URL to run)",
  databaseUrl ? () => postgresStoreBackend(databaseUrl, "presence-test", "pr_", 1024 * 1024) : undefined,
);
