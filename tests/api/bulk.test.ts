import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withPgRole } from "../support/pg-role";
import { postJson, squidexToken, startServer, type RunningServer } from "../support/server";

/**
 * Squidex bulk jobs: mixed job lists, each job on its own (Squidex's default, and with
 * continueOnError) or all or nothing (continueOnError false), and reserved ids. The job lists
 * run on SQLite and, with TEST_DATABASE_URL, on PostgreSQL too (where a failed statement would
 * abort the whole transaction).
 */
function bulkScenarios(current: () => { server: RunningServer; auth: Record<string, string> }) {
  const base = () => `${current().server.url}/api/squidex/api/content/praxisnetz/core-theme-colors`;
  const color = (name: string, hexcode: string) => ({ name: { iv: name }, hexcode: { iv: hexcode } });
  const bulk = (body: unknown) => postJson(`${base()}/bulk`, body, { headers: current().auth });
  const exists = async (id: string) => (await fetch(`${base()}/${id}`, { headers: { ...current().auth, "x-unpublished": "1" } })).status === 200;

  const mixed = async () => {
    const res = await bulk({
      jobs: [
        { type: "Create", id: "bulk-a", data: color("Bulk A", "#111111") },
        { type: "Upsert", id: "bulk-b", data: color("Bulk B", "#222222"), status: "Published" },
        { type: "Patch", id: "bulk-a", data: { hexcode: { iv: "#333333" } } },
        { type: "ChangeStatus", id: "bulk-a", status: "Published" },
        { type: "Upsert", id: "bulk-b", data: { name: { iv: "Bulk B2" } }, patch: true },
        { type: "Create", data: color("Bulk C", "#444444") },
        { type: "Delete", id: "bulk-b" },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.json).toHaveLength(7);
    res.json.forEach((r: { jobIndex: number; error?: unknown; id: string }, i: number) => {
      expect(r.jobIndex).toBe(i);
      expect(r.error).toBeUndefined();
      expect(typeof r.id).toBe("string");
    });
    const a = await (await fetch(`${base()}/bulk-a`, { headers: current().auth })).json();
    expect(a).toMatchObject({ status: "Published", data: { hexcode: { iv: "#333333" } } });
    expect(await exists("bulk-b")).toBe(false);
    expect(await exists(res.json[5].id)).toBe(true);
  };

  const allOrNothing = async () => {
    // A validation error, a duplicate id and a stale version, each after a job that did write.
    const failing = [
      { type: "Create", id: "tx-2", data: { name: { iv: 42 } } },
      { type: "Create", id: "bulk-a", data: color("Again", "#202020") },
      { type: "Update", id: "bulk-a", data: color("Stale", "#202020"), expectedVersion: 0 },
    ];
    for (const [n, middle] of failing.entries()) {
      const res = await bulk({ continueOnError: false, jobs: [{ type: "Create", id: `tx-1-${n}`, data: color("Tx 1", "#101010") }, middle, { type: "Create", id: `tx-3-${n}`, data: color("Tx 3", "#303030") }] });
      expect(res.status).toBe(200);
      expect(res.json[1].error?.statusCode, middle.type).toBeGreaterThanOrEqual(400);
      expect(res.json[0].error).toMatchObject({ statusCode: 409 });
      expect(res.json[2].error).toMatchObject({ statusCode: 409 });
      for (const id of [`tx-1-${n}`, `tx-3-${n}`]) expect(await exists(id), id).toBe(false);
    }
    expect(await exists("tx-2")).toBe(false);
  };

  const runs = async () => {
    // Runs of creates go in together; an Upsert of an id created earlier in the same run updates it.
    const res = await bulk({
      jobs: [
        { type: "Upsert", id: "run-1", data: color("Run 1", "#010101"), status: "Published" },
        { type: "Create", id: "run-2", data: color("Run 2", "#020202") },
        { type: "Upsert", id: "run-1", data: color("Run 1 again", "#030303") },
        ...Array.from({ length: 3 }, (_, i) => ({ type: "Create", data: color(`Run ${i + 3}`, "#040404") })),
      ],
    });
    expect(res.status).toBe(200);
    expect(res.json.map((r: { jobIndex: number; error?: unknown }) => [r.jobIndex, r.error])).toEqual([0, 1, 2, 3, 4, 5].map((i) => [i, undefined]));
    expect(res.json.slice(0, 3).map((r: { id: string }) => r.id)).toEqual(["run-1", "run-2", "run-1"]);
    expect(new Set(res.json.map((r: { id: string }) => r.id)).size).toBe(5);
    const one = await (await fetch(`${base()}/run-1`, { headers: { ...current().auth, "x-unpublished": "1" } })).json();
    expect(one).toMatchObject({ version: 2, data: { name: { iv: "Run 1 again" } } });
    for (const r of res.json.slice(3)) expect(await exists(r.id)).toBe(true);
  };

  const standAlone = async () => {
    // With continueOnError, and without it (Squidex's default, all the SDK can send).
    for (const [n, flag] of [{ continueOnError: true }, {}].entries()) {
      const res = await bulk({
        ...flag,
        jobs: [
          { type: "Create", id: `co-1-${n}`, data: color("Co 1", "#101010") },
          { type: "Create", id: `co-1-${n}`, data: color("Co 1 again", "#101010") },
          { type: "Update", id: "co-missing", data: color("Nobody", "#000000") },
          { type: "Create", id: `co-3-${n}`, data: color("Co 3", "#303030") },
          // A run of creates whose batch fails is run again one by one: the good ones are kept.
          { type: "Create", id: `co-4-${n}`, data: color("Co 4", "#404040") },
          { type: "Create", id: `co-5-${n}`, data: { name: { iv: 5 } } },
          { type: "Create", id: `co-6-${n}`, data: color("Co 6", "#606060") },
        ],
      });
      expect(res.json.map((r: { error?: { statusCode: number } }) => r.error?.statusCode ?? 200)).toEqual([200, 409, 404, 200, 200, 400, 200]);
      for (const id of [1, 3, 4, 6]) expect(await exists(`co-${id}-${n}`)).toBe(true);
      expect(await exists(`co-5-${n}`)).toBe(false);
      // A job that fails half-way (the update went through, the status did not) is undone as a whole.
      const half = await bulk({ ...flag, jobs: [{ type: "Upsert", id: `co-1-${n}`, data: color("Changed", "#111111"), status: "Nope" }, { type: "Patch", id: `co-3-${n}`, data: { name: { iv: "Co 3b" } } }] });
      expect(half.json.map((r: { error?: { statusCode: number } }) => r.error?.statusCode ?? 200)).toEqual([400, 200]);
      const one = await (await fetch(`${base()}/co-1-${n}`, { headers: { ...current().auth, "x-unpublished": "1" } })).json();
      expect(one).toMatchObject({ version: 0, data: { name: { iv: "Co 1" } } });
    }
  };

  const refusals = async () => {
    expect((await bulk({ jobs: "no" })).status).toBe(400);
    expect((await bulk({ jobs: [{ type: "Explode", id: "x" }] })).status).toBe(400);
    expect((await bulk({ jobs: [{ type: "Delete" }] })).status).toBe(400);
    expect((await bulk({ jobs: Array.from({ length: 1001 }, () => ({ type: "Create", data: {} })) })).status).toBe(400);
    expect((await fetch(`${base()}/bulk`, { headers: current().auth })).status).toBe(405);
    for (const id of ["bulk", "import", "query"]) {
      const res = await postJson(`${base()}?id=${id}`, color("Reserved", "#abcdef"), { headers: current().auth });
      expect(res.status, id).toBe(400);
    }
    const upsert = await postJson(`${base()}/import`, color("Reserved", "#abcdef"), { headers: current().auth });
    expect(upsert.status).toBe(400);
  };

  return { mixed, runs, allOrNothing, standAlone, refusals };
}

const connect = async (server: RunningServer) => ({ server, auth: { authorization: `Bearer ${await squidexToken(server)}` } });

describe("POST /api/squidex/api/content/{app}/{schema}/bulk on SQLite", () => {
  let ctx: { server: RunningServer; auth: Record<string, string> };
  beforeAll(async () => {
    ctx = await connect(await startServer());
  });
  afterAll(async () => {
    await ctx?.server.stop();
  });
  const scenarios = bulkScenarios(() => ctx);

  it("runs a mixed job list and reports one result per job in Squidex's shape", scenarios.mixed);
  it("takes runs of creates together and still lets a later Upsert update what the run created", scenarios.runs);
  it("with continueOnError false, a failing job in the middle leaves nothing written", scenarios.allOrNothing);
  it("by default and with continueOnError, every job stands alone", scenarios.standAlone);
  it("refuses bad job lists with a 400 and never takes bulk, import or query as an id", scenarios.refusals);
});

describe("bulk updates of existing items", () => {
  it("ask the database which ids exist once per request, not once per job (500 updates made 500 lookups of up to 500 ids)", async () => {
    // Every statement is logged ("slow" from 0 ms on), so the lookups can be counted.
    const ctx = await connect(await startServer({ env: { SQL_SLOW_MS: "0.000001" } }));
    try {
      const base = `${ctx.server.url}/api/squidex/api/content/praxisnetz/core-theme-colors`;
      const ids = Array.from({ length: 200 }, (_, i) => `lookup-${i}`);
      const color = (i: number, round: number) => ({ name: { iv: `Lookup ${i} ${round}` }, hexcode: { iv: `#${String(100000 + i * 7 + round).slice(-6)}` } });
      const created = await postJson(`${base}/bulk`, { jobs: ids.map((id, i) => ({ type: "Upsert", id, data: color(i, 0) })) }, { headers: ctx.auth });
      expect(created.json.filter((r: { error?: unknown }) => r.error)).toEqual([]);
      const lookups = () => ctx.server.output().match(/select \\"id\\" from \\"contents\\" where \\"schema_name\\" = \? and \\"id\\" in/g)?.length ?? 0;
      const before = lookups();
      // Updates, with a create and a delete among them: what exists changes as the jobs run.
      const jobs = [
        ...ids.slice(0, 100).map((id, i) => ({ type: "Upsert", id, data: color(i, 1) })),
        { type: "Upsert", id: "lookup-new", data: color(500, 1) },
        { type: "Delete", id: "lookup-100" },
        { type: "Upsert", id: "lookup-new", data: color(501, 1) },
        { type: "Upsert", id: "lookup-100", data: color(100, 2) },
        ...ids.slice(101).map((id, i) => ({ type: "Upsert", id, data: color(i + 101, 1) })),
      ];
      const updated = await postJson(`${base}/bulk`, { jobs }, { headers: ctx.auth });
      expect(updated.status).toBe(200);
      expect(updated.json.filter((r: { error?: unknown }) => r.error)).toEqual([]);
      // The log is written asynchronously: a request after the bulk marks where its lines end.
      await fetch(`${base}/marker-after-bulk`, { headers: ctx.auth });
      await expect.poll(() => ctx.server.output().includes("marker-after-bulk"), { timeout: 20_000 }).toBe(true);
      expect(lookups() - before).toBe(1);
      const get = async (id: string) => (await fetch(`${base}/${id}`, { headers: { ...ctx.auth, "x-unpublished": "1" } })).json() as Promise<{ version: number; data: { name: { iv: string } } }>;
      expect(await get("lookup-7")).toMatchObject({ version: 1, data: { name: { iv: "Lookup 7 1" } } });
      expect(await get("lookup-new")).toMatchObject({ version: 1, data: { name: { iv: "Lookup 501 1" } } });
      // Deleted, then created again by the Upsert after it.
      expect(await get("lookup-100")).toMatchObject({ version: 0, data: { name: { iv: "Lookup 100 2" } } });
    } finally {
      await ctx.server.stop();
    }
  }, 60_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("bulk jobs on PostgreSQL", () => {
  it("runs the same job lists, all or nothing with continueOnError false", async () => {
    await withPgRole("praxis_bulk", async ({ url }) => {
      const ctx = await connect(await startServer({ env: { DATABASE_URL: url } }));
      try {
        const scenarios = bulkScenarios(() => ctx);
        await scenarios.mixed();
        await scenarios.runs();
        await scenarios.allOrNothing();
        await scenarios.standAlone();
      } finally {
        await ctx.server.stop();
      }
    });
  }, 60_000);
});
