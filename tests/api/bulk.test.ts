import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, squidexToken, startServer, type RunningServer } from "../support/server";

/** Squidex bulk jobs: mixed job lists, continueOnError on and off, and reserved ids. */
describe("POST /api/squidex/api/content/{app}/{schema}/bulk", () => {
  let server: RunningServer;
  let auth: Record<string, string>;
  const base = () => `${server.url}/api/squidex/api/content/praxisnetz/core-theme-colors`;
  const color = (name: string, hexcode: string) => ({ name: { iv: name }, hexcode: { iv: hexcode } });
  const bulk = (body: unknown) => postJson(`${base()}/bulk`, body, { headers: auth });
  const exists = async (id: string) => (await fetch(`${base()}/${id}`, { headers: { ...auth, "x-unpublished": "1" } })).status === 200;

  beforeAll(async () => {
    server = await startServer();
    auth = { authorization: `Bearer ${await squidexToken(server)}` };
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("runs a mixed job list and reports one result per job in Squidex's shape", async () => {
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
    const a = await (await fetch(`${base()}/bulk-a`, { headers: auth })).json();
    expect(a).toMatchObject({ status: "Published", data: { hexcode: { iv: "#333333" } } });
    expect(await exists("bulk-b")).toBe(false);
    expect(await exists(res.json[5].id)).toBe(true);
  });

  it("without continueOnError, a failing job in the middle leaves nothing written", async () => {
    const res = await bulk({
      jobs: [
        { type: "Create", id: "tx-1", data: color("Tx 1", "#101010") },
        { type: "Create", id: "tx-2", data: { name: { iv: 42 } } },
        { type: "Create", id: "tx-3", data: color("Tx 3", "#303030") },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.json[1].error).toMatchObject({ statusCode: 400 });
    expect(res.json[0].error).toMatchObject({ statusCode: 409 });
    expect(res.json[2].error).toMatchObject({ statusCode: 409 });
    for (const id of ["tx-1", "tx-2", "tx-3"]) expect(await exists(id), id).toBe(false);
  });

  it("with continueOnError, every job stands alone", async () => {
    const res = await bulk({
      continueOnError: true,
      jobs: [
        { type: "Create", id: "co-1", data: color("Co 1", "#101010") },
        { type: "Create", id: "co-1", data: color("Co 1 again", "#101010") },
        { type: "Update", id: "co-missing", data: color("Nobody", "#000000") },
        { type: "Create", id: "co-3", data: color("Co 3", "#303030") },
      ],
    });
    expect(res.json.map((r: { error?: { statusCode: number } }) => r.error?.statusCode ?? 200)).toEqual([200, 409, 404, 200]);
    expect(await exists("co-1")).toBe(true);
    expect(await exists("co-3")).toBe(true);
  });

  it("refuses bad job lists with a 400 and never takes bulk, import or query as an id", async () => {
    expect((await bulk({ jobs: "no" })).status).toBe(400);
    expect((await bulk({ jobs: [{ type: "Explode", id: "x" }] })).status).toBe(400);
    expect((await bulk({ jobs: [{ type: "Delete" }] })).status).toBe(400);
    expect((await bulk({ jobs: Array.from({ length: 1001 }, () => ({ type: "Create", data: {} })) })).status).toBe(400);
    expect((await fetch(`${base()}/bulk`, { headers: auth })).status).toBe(405);
    for (const id of ["bulk", "import", "query"]) {
      const res = await postJson(`${base()}?id=${id}`, color("Reserved", "#abcdef"), { headers: auth });
      expect(res.status, id).toBe(400);
    }
    const upsert = await postJson(`${base()}/import`, color("Reserved", "#abcdef"), { headers: auth });
    expect(upsert.status).toBe(400);
  });
});
