import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate, openDatabase, type DB } from "~/content/db";
import { dropPgSchema } from "../../tests/support/store-backends";
import { getVersion, listVersions, MAX_VERSIONS_PER_PAGE, recordVersion, type VersionInput } from "./history.server";

/**
 * The version history against real databases: a SQLite file always, PostgreSQL (a schema of its
 * own) when TEST_DATABASE_URL is set. The table and its queries are the same code on both, and the
 * id order, `returning` and the cap's delete are where the two could differ.
 */

const databaseUrl = process.env.TEST_DATABASE_URL;
const backends: Array<[string, (() => Promise<{ db: DB; dispose: () => Promise<void> }>) | undefined]> = [
  [
    "SQLite",
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-history-"));
      const { db } = await openDatabase({ sqlitePath: path.join(dir, "content.sqlite") });
      return { db, dispose: async () => (await db.destroy(), fs.rmSync(dir, { recursive: true, force: true })) };
    },
  ],
  [
    "PostgreSQL",
    databaseUrl
      ? async () => {
          const pgSchema = `t_history_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
          const { db } = await openDatabase({ databaseUrl, pgSchema });
          return { db, dispose: async () => (await db.destroy(), await dropPgSchema(databaseUrl, pgSchema)) };
        }
      : undefined,
  ],
];

const T0 = Date.parse("2026-03-02T09:00:00.000Z");
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const blocks = (text: string) => ({ de: [{ schemaId: "text", id: "b1", text }], en: [] });
const entry = (over: Partial<VersionInput>): VersionInput => ({
  pageId: "page-a",
  version: 1,
  kind: "draft",
  blocks: blocks("x"),
  title: { de: "Start", en: "Home" },
  actor: "subject:anna",
  at: at(0),
  ...over,
});

for (const [name, open] of backends) {
  describe.skipIf(!open)(`page history on ${name}`, () => {
    let db: DB;
    let dispose: () => Promise<void>;
    beforeAll(async () => {
      ({ db, dispose } = await open!());
      await migrate(db);
    });
    afterAll(async () => {
      await dispose?.();
    });

    it("keeps one rolling draft per editor while they keep saving, with the newest blocks and time", async () => {
      const first = await recordVersion(db, entry({ pageId: "rolling", version: 3, blocks: blocks("eins"), at: at(0) }));
      // Autosaves a few minutes apart by the same editor: the same entry, moved on.
      expect(await recordVersion(db, entry({ pageId: "rolling", version: 4, blocks: blocks("zwei"), at: at(4) }))).toBe(first);
      expect(await recordVersion(db, entry({ pageId: "rolling", version: 5, blocks: blocks("drei"), at: at(13) }))).toBe(first);
      const { items } = await listVersions(db, "rolling");
      expect(items).toEqual([{ id: first, version: 5, kind: "draft", title: { de: "Start", en: "Home" }, actor: "subject:anna", at: at(13) }]);
      expect((await getVersion(db, "rolling", first))?.blocks).toEqual(blocks("drei"));
    });

    it("starts a new draft entry after ten quiet minutes, for another editor, and after a publication", async () => {
      const page = "drafts";
      const a = await recordVersion(db, entry({ pageId: page, at: at(0) }));
      // Ten minutes after the entry's last save: a new one.
      const b = await recordVersion(db, entry({ pageId: page, version: 2, at: at(10) }));
      expect(b).not.toBe(a);
      // Another editor saving meanwhile gets an entry of their own …
      const c = await recordVersion(db, entry({ pageId: page, version: 3, actor: "subject:ben", at: at(11) }));
      // … and the first editor's next save does not reach back past it.
      const d = await recordVersion(db, entry({ pageId: page, version: 4, at: at(12) }));
      const published = await recordVersion(db, entry({ pageId: page, version: 5, kind: "published", at: at(12.5) }));
      const e = await recordVersion(db, entry({ pageId: page, version: 6, at: at(13) }));
      const restored = await recordVersion(db, entry({ pageId: page, version: 7, kind: "restored", at: at(13.5) }));
      const again = await recordVersion(db, entry({ pageId: page, version: 8, kind: "restored", at: at(14) }));
      expect(new Set([a, b, c, d, published, e, restored, again]).size).toBe(8);
      const { items } = await listVersions(db, page);
      expect(items.map((i) => [i.kind, i.version, i.actor])).toEqual([
        ["restored", 8, "subject:anna"],
        ["restored", 7, "subject:anna"],
        ["draft", 6, "subject:anna"],
        ["published", 5, "subject:anna"],
        ["draft", 4, "subject:anna"],
        ["draft", 3, "subject:ben"],
        ["draft", 2, "subject:anna"],
        ["draft", 1, "subject:anna"],
      ]);
    });

    it("pages newest first without the blocks, and only the asked page's entries", async () => {
      for (let i = 1; i <= 7; i++) await recordVersion(db, entry({ pageId: "paged", version: i, kind: "published", at: at(i) }));
      await recordVersion(db, entry({ pageId: "other", version: 99, kind: "published" }));
      const first = await listVersions(db, "paged", { limit: 3 });
      expect(first.items.map((i) => i.version)).toEqual([7, 6, 5]);
      expect(first.items[0]).not.toHaveProperty("blocks");
      const second = await listVersions(db, "paged", { limit: 3, before: first.next! });
      expect(second.items.map((i) => i.version)).toEqual([4, 3, 2]);
      const last = await listVersions(db, "paged", { limit: 3, before: second.next! });
      expect(last).toMatchObject({ next: null });
      expect(last.items.map((i) => i.version)).toEqual([1]);
      // Limits out of range are brought into it.
      expect((await listVersions(db, "paged", { limit: 0 })).items).toHaveLength(1);
      expect((await listVersions(db, "paged", { limit: 10_000 })).items).toHaveLength(7);
      // A `before` past any id the table can hold lists from the newest (PostgreSQL would refuse the number).
      expect((await listVersions(db, "paged", { limit: 3, before: 2 ** 40 })).items.map((i) => i.version)).toEqual([7, 6, 5]);
    });

    it("finds an entry only under its own page", async () => {
      const id = await recordVersion(db, entry({ pageId: "mine", kind: "published", blocks: blocks("meins") }));
      expect(await getVersion(db, "mine", id)).toMatchObject({ id, pageId: "mine", kind: "published", blocks: blocks("meins"), title: { de: "Start", en: "Home" } });
      expect(await getVersion(db, "not-mine", id)).toBeUndefined();
      for (const bad of [0, -1, 1.5, 2 ** 31, Number.MAX_SAFE_INTEGER + 2, NaN]) expect(await getVersion(db, "mine", bad)).toBeUndefined();
    });

    it(`keeps at most ${MAX_VERSIONS_PER_PAGE} entries per page, dropping the oldest`, async () => {
      const total = MAX_VERSIONS_PER_PAGE + 15;
      for (let i = 1; i <= total; i++) await recordVersion(db, entry({ pageId: "capped", version: i, kind: "published", at: at(i) }));
      await recordVersion(db, entry({ pageId: "beside", kind: "published" }));
      const versions: number[] = [];
      let before: number | undefined;
      for (;;) {
        const page = await listVersions(db, "capped", { limit: 100, ...(before ? { before } : {}) });
        versions.push(...page.items.map((i) => i.version));
        if (page.next === null) break;
        before = page.next;
      }
      expect(versions).toHaveLength(MAX_VERSIONS_PER_PAGE);
      expect(versions[0]).toBe(total);
      expect(versions.at(-1)).toBe(total - MAX_VERSIONS_PER_PAGE + 1);
      // Another page's entries are not counted against it.
      expect((await listVersions(db, "beside")).items).toHaveLength(1);
    });
  });
}
