import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate, openDatabase, type DB } from "~/content/db";
import { dropPgSchema } from "../support/store-backends";
import { postJson, squidexToken, startServer, tempDataDir, type RunningServer } from "../support/server";

/**
 * Visitors read the live version of an item, and its stamp with it (issue 20, finding 10a): a
 * pending draft moved the version and last-change time visitors saw, telling them that a draft
 * exists and when it was last touched.
 */

let server: RunningServer;
let bearer: Record<string, string>;
const base = () => `${server.url}/api/squidex/api/content/praxisnetz/gm-content-practitioners`;

beforeAll(async () => {
  server = await startServer();
  bearer = { authorization: `Bearer ${await squidexToken(server)}`, "content-type": "application/json" };
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

async function squidex(method: string, path: string, body?: unknown) {
  const res = await fetch(`${base()}${path}`, { method, headers: bearer, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const json = (await res.json()) as { version: number; lastModified: string; data: Record<string, Record<string, unknown>> };
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return json;
}

async function visitorReads(id: string) {
  const rest = await postJson(`${server.url}/api/rest`, { url: `gm-content-practitioners?ids=${id}`, language: "de" });
  const item = await postJson(`${server.url}/api/getcontentitem`, { url: "gm-content-practitioners", id, language: "de" });
  expect(rest.status).toBe(200);
  expect(item.status).toBe(200);
  return [rest.json.items[0], item.json] as Array<{ id: string; version: number; lastModified: string; data: Record<string, unknown> }>;
}

describe("a published item with a pending draft", () => {
  it("shows visitors the live version's number and time; publishing the draft moves them", async () => {
    // A demo practitioner shown on the site, made live again now (a visitor read of a fresh item waits for no cache).
    const id = "prac-001";
    await squidex("PATCH", `/${id}`, { city: { iv: "Kassel" } });
    const live = await squidex("GET", `/${id}`);
    for (const read of await visitorReads(id)) expect(read).toMatchObject({ id, version: live.version, lastModified: live.lastModified });

    await squidex("POST", `/${id}/draft`);
    const draft = await squidex("PATCH", `/${id}`, { city: { iv: "Draftingen-Nord" } });
    expect(draft.version).toBeGreaterThan(live.version);
    expect(draft.lastModified > live.lastModified).toBe(true);
    for (const read of await visitorReads(id)) {
      expect(read).toMatchObject({ version: live.version, lastModified: live.lastModified });
      expect(JSON.stringify(read.data)).toContain("Kassel");
      expect(JSON.stringify(read.data)).not.toContain("Draftingen-Nord");
    }
    // What visitors filter on is what they are shown: the draft's newer stamp finds nothing.
    for (const filter of [`lastModified gt '${live.lastModified}'`, `version gt ${live.version}`, `version eq ${live.version}`]) {
      const res = await postJson(`${server.url}/api/rest`, { url: `gm-content-practitioners?$filter=${encodeURIComponent(filter)}&$top=200`, language: "de" });
      expect(res.status, `${filter}: ${res.text}`).toBe(200);
      const ids = (res.json.items as Array<{ id: string }>).map((i) => i.id);
      expect(ids.includes(id), filter).toBe(filter.startsWith("version eq"));
    }

    const published = await squidex("PUT", `/${id}/status`, { status: "Published" });
    for (const read of await visitorReads(id)) {
      expect(read).toMatchObject({ version: published.version, lastModified: published.lastModified });
      expect(JSON.stringify(read.data)).toContain("Draftingen-Nord");
    }
  });
});

describe("migration 0009_published_stamp", () => {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  const backends: Array<[string, () => Promise<{ db: DB; dispose: () => Promise<void> }>]> = [
    [
      "sqlite",
      async () => {
        const dir = tempDataDir("praxisnetz-stamp-");
        const { db } = await openDatabase({ sqlitePath: path.join(dir, "store.sqlite") });
        return { db, dispose: async () => (await db.destroy(), fs.rmSync(dir, { recursive: true, force: true })) };
      },
    ],
  ];
  if (databaseUrl)
    backends.push([
      "postgres",
      async () => {
        const pgSchema = `t_stamp_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
        const { db } = await openDatabase({ databaseUrl, pgSchema });
        return { db, dispose: async () => (await db.destroy(), await dropPgSchema(databaseUrl, pgSchema)) };
      },
    ]);
  for (const [label, open] of backends) {
    it(`gives items published before it the row's stamp, and drafts none (${label})`, async () => {
      const { db, dispose } = await open();
      try {
        await migrate(db, "0007_asset_folders");
        const row = { schema_name: "s", new_status: null, data: "{}", created: "2026-01-01T00:00:00.000Z", created_by: "a", last_modified: "2026-02-02T00:00:00.000Z", last_modified_by: "b" };
        await (db as any)
          .insertInto("contents")
          .values([
            { ...row, id: "live", status: "Published", version: 4, published_data: "{}" },
            { ...row, id: "draft", status: "Draft", version: 2, published_data: null },
          ])
          .execute();
        expect(await migrate(db)).toContain("0009_published_stamp");
        const rows = await db.selectFrom("contents").select(["id", "published_version", "published_last_modified", "published_last_modified_by"]).orderBy("id").execute();
        expect(rows.map((r) => ({ ...r, published_version: r.published_version === null ? null : Number(r.published_version) }))).toEqual([
          { id: "draft", published_version: null, published_last_modified: null, published_last_modified_by: null },
          { id: "live", published_version: 4, published_last_modified: "2026-02-02T00:00:00.000Z", published_last_modified_by: "b" },
        ]);
      } finally {
        await dispose();
      }
    });
  }
});
