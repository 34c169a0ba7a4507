import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, squidexToken, startServer, type RunningServer } from "../support/server";

/**
 * Writes through the Squidex API on the SQLite store while something else holds or wants its write
 * lock: the background checkpointer (its RESTART holds the lock while it waits for readers), a
 * second connection. A busy store makes a write wait, or answers 503 with Retry-After: never 500.
 */
const PRACTITIONERS = "gm-content-practitioners";

const practitioner = (n: number, tag: string) => ({
  name: { iv: `Bulk Praxis ${n} ${tag}` },
  display: { iv: true },
  websites: { iv: ["PRAXISNETZ"] },
  coords: { iv: { latitude: 52.5 + (n % 100) / 1000, longitude: 13.4 + (n % 70) / 1000 } },
  languages: { iv: ["de", "en"] },
  country: { iv: "DE" },
  city: { iv: ["Berlin", "Köln", "Würzburg"][n % 3] },
  street: { iv: `Hauptstraße ${1 + (n % 120)}` },
  zip: { iv: String(10000 + n).slice(-5).padStart(5, "1") },
  speciality: { de: "Physiotherapie", en: "Physiotherapy" },
  description: { de: `Praxis ${n}, Stand ${tag}. Termine nach Vereinbarung.`, en: `Practice ${n}, as of ${tag}.` },
  email: { iv: `praxis.${n}@example.org` },
});

/** A second connection that checkpoints with RESTART every few milliseconds, as the background checkpointer does now and then. */
const CHECKPOINTING = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.module);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma("busy_timeout = 1000");
let stop = false;
let restarts = 0;
parentPort.on("message", () => (stop = true));
(async () => {
  while (!stop) {
    try {
      db.pragma("wal_checkpoint(RESTART)");
      restarts++;
    } catch {}
    await new Promise((r) => setTimeout(r, 5));
  }
  db.close();
  parentPort.postMessage(restarts);
})();
`;

describe("Squidex API writes on a busy SQLite store", () => {
  let server: RunningServer;
  let auth: Record<string, string>;
  const base = () => `${server.url}/api/squidex/api/content/praxisnetz/${PRACTITIONERS}`;
  const file = () => path.join(server.dataDir, "praxisnetz.sqlite");

  beforeAll(async () => {
    server = await startServer();
    auth = { authorization: `Bearer ${await squidexToken(server)}` };
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("keeps answering sustained bulk updates and single writes while the WAL is checkpointed with RESTART: never a 5xx", async () => {
    const ids = Array.from({ length: 500 }, (_, i) => `sustained-${String(i).padStart(3, "0")}`);
    const created = await postJson(`${base()}/bulk`, { publish: true, jobs: ids.map((id, i) => ({ type: "Create", id, data: practitioner(i, "v0") })) }, { headers: auth });
    expect(created.status).toBe(200);
    expect(created.json.filter((r: { error?: unknown }) => r.error)).toEqual([]);

    const checkpointer = new Worker(CHECKPOINTING, { eval: true, workerData: { module: createRequire(import.meta.url).resolve("better-sqlite3"), file: file() } });
    const statuses: Record<string, number> = {};
    const count = (what: string, status: number) => (statuses[`${what} ${status}`] = (statuses[`${what} ${status}`] ?? 0) + 1);
    try {
      for (let batch = 1; batch <= 8; batch++) {
        // A bulk update of all 500, and beside it single updates and publishes, each its own transaction.
        const bulk = postJson(`${base()}/bulk`, { jobs: ids.map((id, i) => ({ type: "Upsert", id, data: practitioner(i, `v${batch}`) })) }, { headers: auth });
        const singles = Array.from({ length: 12 }, async (_, k) => {
          const i = (batch * 37 + k * 41) % ids.length;
          const res = await fetch(`${base()}/${ids[i]}`, { method: "PUT", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify(practitioner(i, `s${batch}-${k}`)) });
          await res.text();
          count("PUT", res.status);
          const draft = await postJson(base(), practitioner(1000 + batch * 12 + k, "draft"), { headers: auth });
          count("POST", draft.status);
          if (draft.status === 201) {
            const published = await fetch(`${base()}/${draft.json.id}/status`, { method: "PUT", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ status: "Published" }) });
            await published.text();
            count("publish", published.status);
          }
        });
        const [res] = await Promise.all([bulk, ...singles]);
        count("bulk", res.status);
        if (res.status === 200) for (const job of res.json as Array<{ error?: { statusCode: number } }>) if (job.error) count("bulk job", job.error.statusCode);
      }
    } finally {
      checkpointer.postMessage("stop");
    }
    const restarts = await new Promise<number>((resolve) => checkpointer.once("message", resolve));
    expect(statuses).toEqual({ "bulk 200": 8, "PUT 200": 96, "POST 201": 96, "publish 200": 96 });
    // The second connection did checkpoint all along (else this test would prove nothing).
    expect(restarts).toBeGreaterThan(10);
    const last = await fetch(`${base()}/${ids[7]}`, { headers: auth });
    expect(((await last.json()) as { data: { description: { de: string } } }).data.description.de).toContain("Stand v8");
  }, 120_000);

  it("answers 503 with Retry-After when another connection holds the write lock past the wait, and the write then succeeds", async () => {
    const other = new Database(file(), { fileMustExist: true });
    try {
      other.exec("begin immediate");
      const busy = await postJson(base(), practitioner(5000, "busy"), { headers: auth });
      other.exec("rollback");
      expect(busy.status).toBe(503);
      expect(busy.headers.get("retry-after")).toBe("1");
      expect(busy.json).toMatchObject({ statusCode: 503, errorCode: "STORE_BUSY", message: expect.stringContaining("busy") });
    } finally {
      if (other.inTransaction) other.exec("rollback");
      other.close();
    }
    const again = await postJson(base(), practitioner(5000, "busy"), { headers: auth });
    expect(again.status).toBe(201);
    expect(server.output()).not.toContain('"msg":"unhandled API error"');
  }, 30_000);
});

describe("Squidex API writes held to the store's address rules", () => {
  let server: RunningServer;
  let auth: Record<string, string>;
  beforeAll(async () => {
    server = await startServer();
    auth = { authorization: `Bearer ${await squidexToken(server)}` };
  });
  afterAll(async () => {
    await server?.stop();
  });
  const pages = () => `${server.url}/api/squidex/api/content/praxisnetz/core-pages`;
  const page = (de: string, en: string) => ({
    title: { de: "Testseite", en: "Test page" },
    seo: { de: { schemaId: "component-seo", slug: de }, en: { schemaId: "component-seo", slug: en } },
  });

  it("refuses page slugs that are no address (create, upsert, bulk) with a 400 naming the slug and the rule", async () => {
    const refused: Array<[string, string]> = [
      ["../../etc", "only lower-case letters, digits and hyphens"],
      ["api/rest", "a fixed route of the site owns this path"],
    ];
    for (const [slug, rule] of refused) {
      const res = await postJson(`${pages()}?publish=true`, page("test-seite", slug), { headers: auth });
      expect(res.status, slug).toBe(400);
      expect(res.json.details, slug).toEqual([expect.stringContaining(`seo.en.slug: ${JSON.stringify(slug)} is not a page address: ${rule}`)]);
    }
    const upsert = await postJson(`${pages()}/rule-test-page`, page("manage", "test-page"), { headers: auth });
    expect(upsert.status).toBe(400);
    expect(upsert.json.details).toEqual([expect.stringContaining('seo.de.slug: "manage" is not a page address')]);
    // All or nothing when asked: the good page is not created either.
    const jobs = [{ type: "Create", data: page("ok-seite", "ok-page") }, { type: "Create", data: page("../x", "x") }];
    const bulk = await postJson(`${pages()}/bulk`, { jobs, continueOnError: false }, { headers: auth });
    expect(bulk.status).toBe(200);
    expect(bulk.json[1].error).toMatchObject({ statusCode: 400, details: [expect.stringContaining('seo.de.slug: "../x" is not a page address')] });
    const count = async () => {
      const list = await fetch(`${pages()}?$filter=${encodeURIComponent("data/title/de eq 'Testseite'")}`, { headers: { ...auth, "x-unpublished": "1" } });
      return ((await list.json()) as { total: number }).total;
    };
    expect(await count()).toBe(0);
    // By default (as Squidex runs bulk jobs) each job stands alone: the good page is created, the bad one refused.
    const alone = await postJson(`${pages()}/bulk`, { jobs }, { headers: auth });
    expect(alone.json[0].error).toBeUndefined();
    expect(alone.json[1].error).toMatchObject({ statusCode: 400 });
    expect(await count()).toBe(1);
    // The same slugs the seed uses for pages that routes do not shadow are fine.
    const fine = await postJson(pages(), page("ratgeber/neu", "newsletter-archive"), { headers: auth });
    expect(fine.status).toBe(201);
  });

  it("refuses asset file names that are '.', '..', paths or hold control characters, on upload and rename, with a 400 naming the rule", async () => {
    const assets = `${server.url}/api/squidex/api/apps/praxisnetz/assets`;
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAAD0lEQVR4nGP4z8DAwPAfAAcAAf9+CLHQAAAAAElFTkSuQmCC", "base64");
    const upload = async (fileName: string) => {
      const form = new FormData();
      form.append("file", new Blob([png], { type: "image/png" }), fileName);
      const res = await fetch(assets, { method: "POST", headers: auth, body: form });
      return { status: res.status, json: (await res.json()) as { message?: string; id?: string; fileName?: string } };
    };
    for (const name of ["..", ".", "a\\b.png"]) {
      const res = await upload(name);
      expect(res.status, name).toBe(400);
      expect(res.json.message, name).toContain('may not contain slashes or control characters, nor be "." or ".."');
    }
    const ok = await upload("praxis.png");
    expect(ok.status).toBe(201);
    const rename = await fetch(`${assets}/${ok.json.id}`, { method: "PUT", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ fileName: ".." }) });
    expect(rename.status).toBe(400);
    expect(((await rename.json()) as { message: string }).message).toContain('nor be "." or ".."');
  });
});
