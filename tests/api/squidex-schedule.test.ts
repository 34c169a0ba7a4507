import path from "node:path";
import { SquidexClient, SquidexError } from "@squidex/squidex";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../support/server";
import { authedApi, sdkClient } from "../support/squidex-sdk";

/**
 * Issue 23: scheduled status changes through the official SDK (`@squidex/squidex`) over HTTP against
 * the production build: PUT …/status with a dueTime schedules (the item shows `scheduleJob`), DELETE
 * …/status cancels, bulk ChangeStatus jobs take a dueTime, `scheduledFrom`/`scheduledTo` list what is
 * due in a period; bad due times are 400s with a message. The running server's scheduler applies a
 * job whose time has come (its due time moved into the past in the database: no test waits for a
 * clock), also after a restart, and the public page that showed the item drops it.
 */
let server: RunningServer;
let client: SquidexClient;
const PRACTITIONERS = "gm-content-practitioners";
const inAnHour = () => new Date(Math.ceil((Date.now() + 3600_000) / 1000) * 1000);

async function start(dataDir?: string) {
  server = await startServer({ ...(dataDir ? { dataDir } : {}), env: { SCHEDULER_INTERVAL_MS: "200" } });
  client = sdkClient(server);
}

beforeAll(async () => {
  await start();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const authed = (p: string, init: RequestInit = {}) => authedApi(server, p, init);

async function failure(call: Promise<unknown>): Promise<SquidexError<{ message: string; statusCode: number }>> {
  try {
    await call;
  } catch (e) {
    if (e instanceof SquidexError) return e as SquidexError<{ message: string; statusCode: number }>;
    throw e;
  }
  throw new Error("The call succeeded; a failure was expected.");
}

/** Moves the item's scheduled change into the past, as the clock would (the server's SQLite file). */
function makeDue(id: string) {
  const db = new Database(path.join(server.dataDir, "praxisnetz.sqlite"));
  try {
    const past = new Date(Date.now() - 1000).toISOString();
    return db.prepare("update content_schedules set due_time = ?, next_attempt_at = ? where content_id = ?").run(past, past, id).changes;
  } finally {
    db.close();
  }
}

/** Asks until `check` holds (the scheduler runs every 200 ms here); fails after 20 s. */
async function eventually(check: () => Promise<boolean>) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("never happened");
}

describe("scheduled status changes", () => {
  it("schedules with the SDK's changeStatus and dueTime, shows scheduleJob on reads, cancels with deleteStatus", async () => {
    const due = inAnHour();
    const scheduled = await client.contents.putContentStatus(PRACTITIONERS, "prac-002", { status: "Archived", dueTime: due });
    expect(scheduled.status).toBe("Published");
    expect(scheduled.scheduleJob).toMatchObject({ status: "Archived", color: "#eb3142", scheduledBy: expect.stringMatching(/^client:/) });
    expect(new Date(scheduled.scheduleJob!.dueTime).toISOString()).toBe(due.toISOString());

    const read = await client.contents.getContent(PRACTITIONERS, "prac-002");
    expect(read.scheduleJob?.id).toBe(scheduled.scheduleJob!.id);
    const listed = await client.contents.getContents(PRACTITIONERS, { ids: "prac-002,prac-003" });
    expect(listed.items.find((i) => i.id === "prac-002")?.scheduleJob?.status).toBe("Archived");
    expect(listed.items.find((i) => i.id === "prac-003")?.scheduleJob).toBeUndefined();
    // Squidex's period query across schemas.
    const from = new Date(due.getTime() - 60_000).toISOString();
    const to = new Date(due.getTime() + 60_000).toISOString();
    const period = await authed(`/content/praxisnetz?scheduledFrom=${from}&scheduledTo=${to}`);
    expect(period.status).toBe(200);
    expect(period.json.items.map((i: { id: string }) => i.id)).toEqual(["prac-002"]);

    // A new schedule replaces the old one.
    const replaced = await client.contents.putContentStatus(PRACTITIONERS, "prac-002", { status: "Draft", dueTime: new Date(due.getTime() + 60_000) });
    expect(replaced.scheduleJob?.status).toBe("Draft");
    expect(replaced.scheduleJob?.id).not.toBe(scheduled.scheduleJob!.id);

    const cancelled = await client.contents.deleteContentStatus(PRACTITIONERS, "prac-002");
    expect(cancelled.scheduleJob).toBeUndefined();
    expect((await client.contents.getContent(PRACTITIONERS, "prac-002")).scheduleJob).toBeUndefined();
    expect((await client.contents.getContent(PRACTITIONERS, "prac-002")).status).toBe("Published");
  });

  it("a status change made now cancels the schedule; bulk ChangeStatus takes a dueTime", async () => {
    await client.contents.putContentStatus(PRACTITIONERS, "prac-003", { status: "Draft", dueTime: inAnHour() });
    const now = await client.contents.putContentStatus(PRACTITIONERS, "prac-003", { status: "Published" });
    expect(now.scheduleJob).toBeUndefined();

    const results = await client.contents.bulkUpdateContents(PRACTITIONERS, { jobs: [{ type: "ChangeStatus", id: "prac-003", status: "Draft", dueTime: inAnHour() }] });
    expect(results[0]?.error).toBeFalsy();
    expect((await client.contents.getContent(PRACTITIONERS, "prac-003")).scheduleJob?.status).toBe("Draft");
    await client.contents.deleteContentStatus(PRACTITIONERS, "prac-003");
  });

  it("answers bad due times with a 400 and a message", async () => {
    const past = await failure(client.contents.putContentStatus(PRACTITIONERS, "prac-002", { status: "Draft", dueTime: new Date(Date.now() - 60_000) }));
    expect(past.statusCode).toBe(400);
    expect(past.body?.message).toMatch(/has passed/);
    for (const dueTime of ["tomorrow", "2026-13-40T99:00:00Z", "2030-01-01", 12, { at: 1 }, true]) {
      const res = await authed(`/content/praxisnetz/${PRACTITIONERS}/prac-002/status`, { method: "PUT", body: JSON.stringify({ status: "Draft", dueTime }) });
      expect(res.status, JSON.stringify(dueTime)).toBe(400);
      expect(res.json.message).toMatch(/dueTime/);
    }
    const unknown = await authed(`/content/praxisnetz/${PRACTITIONERS}/prac-002/status`, { method: "PUT", body: JSON.stringify({ status: "Live", dueTime: inAnHour().toISOString() }) });
    expect(unknown.status).toBe(400);
    const missing = await authed(`/content/praxisnetz/${PRACTITIONERS}/no-such-item/status`, { method: "DELETE" });
    expect(missing.status).toBe(404);
    const bulk = await authed(`/content/praxisnetz/${PRACTITIONERS}/bulk`, { method: "POST", body: JSON.stringify({ jobs: [{ type: "ChangeStatus", id: "prac-002", status: "Draft", dueTime: "2001-01-01T00:00:00Z" }] }) });
    expect(bulk.status).toBe(400);
    expect(bulk.json.message).toMatch(/jobs\[0\]\.dueTime/);
    const half = await authed(`/content/praxisnetz?scheduledFrom=2030-01-01T00:00:00Z`);
    expect(half.status).toBe(400);
    expect((await client.contents.getContent(PRACTITIONERS, "prac-002")).scheduleJob).toBeUndefined();
  });

  it("the running scheduler applies a due job, drops the page that showed the item, and audits it", async () => {
    const page = `${server.url}/practitioners/juergen-weiss`;
    expect((await fetch(page)).status).toBe(200);
    expect((await fetch(page)).status).toBe(200); // now from the page cache
    await client.contents.putContentStatus(PRACTITIONERS, "prac-001", { status: "Draft", dueTime: inAnHour() });
    expect(makeDue("prac-001")).toBe(1);
    await eventually(async () => (await client.contents.getContent(PRACTITIONERS, "prac-001", { unpublished: true })).status === "Draft");
    const item = await client.contents.getContent(PRACTITIONERS, "prac-001", { unpublished: true });
    expect(item.scheduleJob).toBeUndefined();
    expect((await fetch(page)).status).toBe(404);
    const db = new Database(path.join(server.dataDir, "praxisnetz.sqlite"), { readonly: true });
    try {
      const lines = db.prepare("select action, detail from audit_log where item_id = 'prac-001' order by at").all() as Array<{ action: string; detail: string }>;
      expect(lines.map((l) => l.action)).toEqual(["schedule-status", "unpublish-content"]);
      expect(lines[1]!.detail).toMatch(/^scheduled by client:/);
    } finally {
      db.close();
    }
  });

  it("a job that fell due while the server was down runs when it starts", async () => {
    await client.contents.putContentStatus(PRACTITIONERS, "prac-001", { status: "Published", dueTime: inAnHour() });
    const dataDir = server.dataDir;
    await server.stop();
    const db = new Database(path.join(dataDir, "praxisnetz.sqlite"));
    const past = new Date(Date.now() - 60_000).toISOString();
    expect(db.prepare("update content_schedules set due_time = ?, next_attempt_at = ? where content_id = 'prac-001'").run(past, past).changes).toBe(1);
    db.close();
    await start(dataDir);
    await eventually(async () => (await client.contents.getContent(PRACTITIONERS, "prac-001")).status === "Published");
    expect((await fetch(`${server.url}/practitioners/juergen-weiss`)).status).toBe(200);
  }, 60_000);
});
