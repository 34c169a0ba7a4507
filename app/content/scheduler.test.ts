import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresStoreBackend, sqliteStoreBackend, type StoreBackend } from "../../tests/support/store-backends";
import { ContentError } from "./errors";
import type { Principal } from "./policy";
import { ContentScheduler, type SchedulerLogger, type TickResult } from "./scheduler";
import type { ContentStore } from "./store";
import type { ContentChange, SchemaInput } from "./types";

/**
 * Scheduled status changes (migration 0015, scheduler.ts) against a real database: always SQLite (a
 * temp file), and PostgreSQL when TEST_DATABASE_URL is set. Two schedulers on two connections to the
 * same database stand for two app nodes. The schedulers' clocks are moved on by hand: no test waits.
 */

const NOTES = "sched-notes";
const schema: SchemaInput = { name: NOTES, fields: [{ name: "title", partitioning: "invariant", properties: { fieldType: "String", isRequired: true } }] };
const editor: Principal = { kind: "user", userId: "u-ed", email: "ed@example.org", superuser: true };
const HOUR = 3600_000;

function quietLogger() {
  const lines: Array<{ level: string; msg: string; obj: unknown }> = [];
  const at = (level: string) => (obj: unknown, msg?: string) => void lines.push({ level, msg: msg ?? "", obj });
  return { logger: { info: at("info"), warn: at("warn"), error: at("error") } as unknown as SchedulerLogger, lines };
}

async function expectError(promise: Promise<unknown>, status: number, message?: RegExp): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "should have failed").toBeInstanceOf(ContentError);
  expect((error as ContentError).statusCode, (error as Error).message).toBe(status);
  if (message) expect((error as Error).message).toMatch(message);
}

/**
 * A second app node in its own process on the SQLite file (tests/support/scheduler-node.ts), ready to
 * tick at `now`: `go()` starts its tick and resolves to its result.
 */
async function otherProcessNode(file: string, now: Date, nodeId: string, batchSize: number): Promise<{ go(): Promise<TickResult> }> {
  const root = path.resolve(import.meta.dirname, "../..");
  const child = spawn(process.execPath, [path.join(root, "node_modules/vite-node/vite-node.mjs"), "--config", "vitest.config.ts", "tests/support/scheduler-node.ts", file, now.toISOString(), nodeId, String(batchSize)], { cwd: root, stdio: ["pipe", "pipe", "inherit"] });
  let out = "";
  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    let at: number;
    while ((at = out.indexOf("\n")) >= 0) {
      lines.push(out.slice(0, at));
      out = out.slice(at + 1);
      waiters.shift()?.();
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const nextLine = async () => {
    while (!lines.length) await Promise.race([new Promise<void>((r) => waiters.push(r)), exited.then((code) => Promise.reject(new Error(`scheduler node exited with ${code}`)))]);
    return lines.shift()!;
  };
  expect(await nextLine()).toBe("ready");
  return {
    async go() {
      child.stdin.write("go\n");
      return JSON.parse(await nextLine()) as TickResult;
    },
  };
}

function suite(name: string, open: (() => StoreBackend) | undefined) {
  (open ? describe : describe.skip)(name, () => {
    let backend: StoreBackend;
    let a: ContentStore;
    let b: ContentStore;
    let n = 0;
    const fresh = async (title = "Note") => (await a.create(NOTES, { title: { iv: title } }, { id: `note-${++n}-${Date.now().toString(36)}`, by: editor })).id;
    const row = (id: string) => a.db.selectFrom("content_schedules").selectAll().where("content_id", "=", id).executeTakeFirst();
    const audit = (id: string) => a.db.selectFrom("audit_log").select(["action", "detail", "user_email"]).where("item_id", "=", id).orderBy("at").orderBy("id").execute();

    beforeAll(async () => {
      backend = open!();
      a = await backend.openStore();
      await a.migrate();
      b = await backend.openStore();
      await a.upsertSchema(schema);
    }, 60_000);
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await backend?.dispose();
    });

    it("keeps one schedule per item, shows it on reads, replaces, cancels", async () => {
      const id = await fresh();
      const due = new Date(Date.now() + HOUR);
      const scheduled = await a.scheduleStatus(NOTES, id, "Published", due, { by: editor });
      expect(scheduled.status).toBe("Draft");
      expect(scheduled.scheduleJob).toMatchObject({ status: "Published", dueTime: due.toISOString(), scheduledBy: "subject:u-ed" });
      const [read] = await a.withSchedules([(await a.get(NOTES, id, { unpublished: true }))!]);
      expect(read!.scheduleJob).toEqual(scheduled.scheduleJob);
      // Another node sees it too.
      const [other] = await b.withSchedules([(await b.get(NOTES, id, { unpublished: true }))!]);
      expect(other!.scheduleJob?.id).toBe(scheduled.scheduleJob!.id);

      const later = new Date(Date.now() + 2 * HOUR);
      const replaced = await a.scheduleStatus(NOTES, id, "Archived", later, { by: editor });
      expect(replaced.scheduleJob!.id).not.toBe(scheduled.scheduleJob!.id);
      expect(replaced.scheduleJob).toMatchObject({ status: "Archived", dueTime: later.toISOString() });
      expect(await a.db.selectFrom("content_schedules").select("job_id").where("content_id", "=", id).execute()).toHaveLength(1);

      const cancelled = await a.cancelSchedule(NOTES, id, { by: editor });
      expect(cancelled.scheduleJob).toBeUndefined();
      expect(await row(id)).toBeUndefined();
      // Cancelling nothing is no error (as Squidex).
      await a.cancelSchedule(NOTES, id, { by: editor });
      expect((await audit(id)).map((r) => r.action)).toEqual(["create-content", "schedule-status", "schedule-status", "cancel-schedule"]);
    });

    it("a direct status change cancels the schedule; deleting the item deletes it", async () => {
      const id = await fresh();
      await a.scheduleStatus(NOTES, id, "Published", new Date(Date.now() + HOUR), { by: editor });
      await a.changeStatus(NOTES, id, "Published", { by: editor });
      expect(await row(id)).toBeUndefined();
      const gone = await fresh();
      await a.scheduleStatus(NOTES, gone, "Published", new Date(Date.now() + HOUR), { by: editor });
      await a.delete(NOTES, gone, { by: editor });
      expect(await row(gone)).toBeUndefined();
    });

    it("refuses bad schedules with a 4xx and a message", async () => {
      const id = await fresh();
      await expectError(a.scheduleStatus(NOTES, id, "Published", new Date(Date.now() - 1000), { by: editor }), 400, /has passed/);
      await expectError(a.scheduleStatus(NOTES, id, "Published", new Date("soon"), { by: editor }), 400, /not a date/);
      await expectError(a.scheduleStatus(NOTES, id, "Live", new Date(Date.now() + HOUR), { by: editor }), 400, /Unknown status/);
      await expectError(a.scheduleStatus(NOTES, "nope", "Published", new Date(Date.now() + HOUR), { by: editor }), 404);
      await expectError(a.scheduleStatus(NOTES, id, "Published", new Date(Date.now() + HOUR), { by: { kind: "visitor" } }), 401);
      expect(await row(id)).toBeUndefined();
    });

    it("applies a due job exactly once with two schedulers racing on one database", async () => {
      const due = new Date(Date.now() + HOUR);
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) ids.push(await fresh(`Race ${i}`));
      for (const id of ids) await a.scheduleStatus(NOTES, id, "Published", due, { by: editor });
      const changes: ContentChange[] = [];
      const off = a.onChange((c) => changes.push(c));
      const clock = { now: new Date(due.getTime() - 1000) };
      // Small batches, so the two interleave claim by claim.
      const one = new ContentScheduler(a, { ...quietLogger(), nodeId: "one", now: () => clock.now, batchSize: 2 });
      // On SQLite the second node is a second process (one process cannot wait for its own lock).
      const inProcess = new ContentScheduler(b, { ...quietLogger(), nodeId: "two", now: () => clock.now, batchSize: 2 });
      const two = async () => (backend.sqlitePath ? (await otherProcessNode(backend.sqlitePath, clock.now, "two", 2)).go() : inProcess.tick());
      // Not due yet: nothing happens.
      expect(await Promise.all([one.tick(), two()])).toEqual([
        { applied: 0, retried: 0, dropped: 0 },
        { applied: 0, retried: 0, dropped: 0 },
      ]);
      clock.now = new Date(due.getTime() + 1000);
      // On SQLite both nodes are processes of their own, so that they wait for the lock alike.
      const nodes = backend.sqlitePath ? await Promise.all(["one", "two"].map((node) => otherProcessNode(backend.sqlitePath!, clock.now, node, 2))) : undefined;
      const [r1, r2] = (nodes ? await Promise.all(nodes.map((node) => node.go())) : await Promise.all([one.tick(), inProcess.tick()])) as [TickResult, TickResult];
      off();
      expect(r1.applied + r2.applied).toBe(ids.length);
      expect(r1.retried + r2.retried + r1.dropped + r2.dropped).toBe(0);
      for (const id of ids) {
        expect((await a.get(NOTES, id))?.status).toBe("Published");
        const lines = (await audit(id)).filter((l) => l.action === "publish-content");
        expect(lines).toHaveLength(1);
        expect(lines[0]!.detail).toBe(`scheduled by ed@example.org for ${due.toISOString()}`);
        expect(lines[0]!.user_email).toBe("ed@example.org");
        expect(await row(id)).toBeUndefined();
      }
      // The store on node one (in this process) told its listeners (the caches) of the changes it applied.
      const applied = new Set(changes.filter((c) => c.kind === "content").map((c) => c.id));
      if (!nodes) expect(r1.applied).toBe(ids.filter((id) => applied.has(id)).length);
      expect(await Promise.all([one.tick(), two()])).toEqual([
        { applied: 0, retried: 0, dropped: 0 },
        { applied: 0, retried: 0, dropped: 0 },
      ]);
    }, 60_000);

    it("a claim of a node that died is taken over after the lease; a restarted node runs overdue jobs", async () => {
      const id = await fresh();
      const due = new Date(Date.now() + HOUR);
      await a.scheduleStatus(NOTES, id, "Archived", due, { by: editor });
      const claimedAt = new Date(due.getTime() + 5000);
      // A node claimed it and died before applying it.
      await a.db.updateTable("content_schedules").set({ claimed_by: "dead", claimed_at: claimedAt.toISOString(), attempts: 1 }).where("content_id", "=", id).execute();
      const clock = { now: new Date(claimedAt.getTime() + 30_000) };
      const survivor = new ContentScheduler(b, { ...quietLogger(), nodeId: "survivor", now: () => clock.now, leaseMs: 60_000 });
      expect((await survivor.tick()).applied).toBe(0);
      clock.now = new Date(claimedAt.getTime() + 61_000);
      expect((await survivor.tick()).applied).toBe(1);
      expect((await a.get(NOTES, id, { unpublished: true }))?.status).toBe("Archived");

      // A job that fell due while no node ran: a freshly opened store's scheduler runs it at start.
      const late = await fresh();
      await a.scheduleStatus(NOTES, late, "Published", new Date(Date.now() + HOUR), { by: editor });
      const restarted = await backend.openStore();
      try {
        const { logger } = quietLogger();
        const started = new ContentScheduler(restarted, { logger, nodeId: "restarted", now: () => new Date(Date.now() + 2 * HOUR) }).start(60_000);
        await started.tick();
        await started.stop();
        expect((await a.get(NOTES, late))?.status).toBe("Published");
      } finally {
        await restarted.close();
      }
    });

    it("a node that lost its claim, or whose job was replaced or cancelled, applies nothing", async () => {
      const id = await fresh();
      const due = new Date(Date.now() + HOUR);
      await a.scheduleStatus(NOTES, id, "Published", due, { by: editor });
      const clock = { now: new Date(due.getTime() + 1000) };
      const slow = new ContentScheduler(a, { ...quietLogger(), nodeId: "slow", now: () => clock.now, leaseMs: 60_000 });
      // The slow node claims the job, then stalls past its lease; another node takes it over.
      const [claimed] = await slow["claim"]();
      expect(claimed).toMatchObject({ content_id: id, claimed_by: "slow" });
      clock.now = new Date(due.getTime() + 62_000);
      const other = new ContentScheduler(b, { ...quietLogger(), nodeId: "other", now: () => clock.now, leaseMs: 60_000 });
      expect((await other.tick()).applied).toBe(1);
      expect(await slow["apply"](claimed!)).toBe("lost");
      expect((await audit(id)).filter((l) => l.action === "publish-content")).toHaveLength(1);

      // Claimed, then replaced by the editor: the old job is not applied, the new one waits.
      const second = await fresh();
      await a.scheduleStatus(NOTES, second, "Published", due, { by: editor });
      const [old] = await slow["claim"]();
      expect(old?.content_id).toBe(second);
      const replaced = await a.scheduleStatus(NOTES, second, "Archived", new Date(Date.now() + 2 * HOUR), { by: editor });
      expect(await slow["apply"](old!)).toBe("lost");
      expect((await a.get(NOTES, second, { unpublished: true }))?.status).toBe("Draft");
      expect((await row(second))?.job_id).toBe(replaced.scheduleJob!.id);
      // Claimed, then cancelled: nothing either.
      await a.db.updateTable("content_schedules").set({ due_time: due.toISOString(), next_attempt_at: due.toISOString() }).where("content_id", "=", second).execute();
      const [third] = await slow["claim"]();
      await a.cancelSchedule(NOTES, second, { by: editor });
      expect(await slow["apply"](third!)).toBe("lost");
      expect((await a.get(NOTES, second, { unpublished: true }))?.status).toBe("Draft");
    });

    it("retries a failing job a bounded number of times, then drops it and logs why", async () => {
      const id = await (async () => {
        await a.upsertSchema({ name: "sched-strict", fields: [{ name: "title", partitioning: "invariant", properties: { fieldType: "String" } }] });
        return (await a.create("sched-strict", { title: { iv: "x" } }, { by: editor })).id;
      })();
      const due = new Date(Date.now() + HOUR);
      await a.scheduleStatus("sched-strict", id, "Published", due, { by: editor });
      // The schema now wants a field the item lacks: publishing it fails validation.
      await a.upsertSchema({ name: "sched-strict", fields: [{ name: "title", partitioning: "invariant", properties: { fieldType: "String" } }, { name: "body", partitioning: "invariant", properties: { fieldType: "String", isRequired: true } }] });
      const { logger, lines } = quietLogger();
      const clock = { now: new Date(due.getTime() + 1000) };
      const scheduler = new ContentScheduler(a, { logger, nodeId: "strict", now: () => clock.now, maxAttempts: 3 });
      expect(await scheduler.tick()).toEqual({ applied: 0, retried: 1, dropped: 0 });
      const after1 = await row(id);
      expect(after1).toMatchObject({ attempts: 1, claimed_by: null });
      expect(after1!.last_error).toMatch(/body/);
      // Not again before its retry time.
      expect(await scheduler.tick()).toEqual({ applied: 0, retried: 0, dropped: 0 });
      clock.now = new Date(after1!.next_attempt_at);
      expect(await scheduler.tick()).toEqual({ applied: 0, retried: 1, dropped: 0 });
      clock.now = new Date((await row(id))!.next_attempt_at);
      expect(await scheduler.tick()).toEqual({ applied: 0, retried: 0, dropped: 1 });
      expect(await row(id)).toBeUndefined();
      expect((await a.get("sched-strict", id, { unpublished: true }))?.status).toBe("Draft");
      expect(lines.filter((l) => l.level === "error").map((l) => l.msg)).toEqual(["scheduled status change failed; given up"]);
      expect((await audit(id)).filter((l) => l.action === "publish-content")).toEqual([]);
    });
  });
}

suite("scheduled status changes (SQLite)", () => sqliteStoreBackend("scheduler-test", 4096));
const pgUrl = process.env.TEST_DATABASE_URL;
suite("scheduled status changes (PostgreSQL)", pgUrl ? () => postgresStoreBackend(pgUrl, "scheduler-test", "sched_", 4096) : undefined);
