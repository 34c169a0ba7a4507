import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { Logger } from "~/lib/logger.server";
import type { Database } from "./db";
import { ContentError } from "./errors";
import type { Principal } from "./policy";
import type { ContentStore } from "./store";

export type SchedulerLogger = Pick<Logger, "info" | "warn" | "error">;

export interface SchedulerOptions {
  logger: SchedulerLogger;
  /** This app node's name in claims (default: a random one per process). */
  nodeId?: string;
  /** Pause between ticks; 0 runs no timer (only `tick`, for tests). Default 5 s. */
  intervalMs?: number;
  /** How long a claim holds: a node that dies holding a job lets it go after this. Default 60 s. */
  leaseMs?: number;
  /** Tries of one job before it is dropped (and the failure logged). Default 3. */
  maxAttempts?: number;
  /** Jobs claimed per tick at most. Default 50. */
  batchSize?: number;
  /** The clock (tests move it on instead of waiting). */
  now?: () => Date;
}

export interface TickResult {
  /** Status changes applied by this node in this tick. */
  applied: number;
  /** Failed tries that will be tried again. */
  retried: number;
  /** Jobs given up (too many failures, or the item is gone). */
  dropped: number;
}

type JobRow = Database["content_schedules"];

/** Wait after the `attempts`-th failed try: 30 s, 1 min, 2 min, … at most 1 h. */
export function scheduleRetryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 60 * 60 * 1000);
}

/**
 * Applies scheduled status changes (store.scheduleStatus) when their time comes, on every app node
 * sharing one database, each job once:
 *
 * 1. A node claims due jobs with one conditional UPDATE (free, or held past the lease), in a write
 *    transaction: SQLite's BEGIN IMMEDIATE serialises claimers; PostgreSQL's `for update skip locked`
 *    lets two claimers pass each other without taking the same row.
 * 2. It applies each job in one transaction that first deletes the job's row *if this node still
 *    holds this job* (same job id, same claimer) and then changes the status through
 *    store.changeStatus, the manual path (validation, policy as the scheduling person, audit "scheduled
 *    by …", change events after the commit that drop cached pages on every node). A node that lost
 *    its claim (lease run out, job replaced or cancelled) deletes nothing and rolls back: the status
 *    change and the job's end commit together or not at all, so a job is applied exactly once even
 *    when a node dies half-way.
 * 3. A failure is rolled back whole and tried again later (scheduleRetryDelayMs) up to maxAttempts,
 *    then dropped with an error in the log. (Squidex drops a failing job at once.)
 */
export class ContentScheduler {
  readonly nodeId: string;
  private readonly logger: SchedulerLogger;
  private readonly leaseMs: number;
  private readonly maxAttempts: number;
  private readonly batchSize: number;
  private readonly now: () => Date;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<TickResult> | undefined;
  private stopped = false;

  constructor(
    private readonly store: ContentStore,
    opts: SchedulerOptions,
  ) {
    this.logger = opts.logger;
    this.nodeId = opts.nodeId ?? `node-${randomUUID()}`;
    this.leaseMs = opts.leaseMs ?? 60_000;
    this.maxAttempts = opts.maxAttempts ?? 3;
    this.batchSize = opts.batchSize ?? 50;
    this.now = opts.now ?? (() => new Date());
  }

  /** Runs a tick at once (jobs that fell due while no node ran) and then every `intervalMs`. */
  start(intervalMs = 5000): this {
    if (intervalMs <= 0) return this;
    const loop = () => {
      if (this.stopped) return;
      void this.tick()
        .catch((error) => this.logger.warn({ err: error }, "scheduled status changes: tick failed; tried again next time"))
        .finally(() => {
          if (this.stopped) return;
          this.timer = setTimeout(loop, intervalMs);
          this.timer.unref();
        });
    };
    loop();
    return this;
  }

  /** Stops the timer and waits for the tick in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => {});
  }

  /** One round: claims the jobs due now and applies them. Joins the running round if there is one. */
  tick(): Promise<TickResult> {
    if (!this.running) this.running = this.round().finally(() => (this.running = undefined));
    return this.running;
  }

  private async round(): Promise<TickResult> {
    const result: TickResult = { applied: 0, retried: 0, dropped: 0 };
    for (;;) {
      const jobs = await this.claim();
      for (const job of jobs) {
        const outcome = await this.apply(job);
        if (outcome !== "lost") result[outcome]++;
      }
      if (jobs.length < this.batchSize || this.stopped) return result;
    }
  }

  /** Takes up to batchSize due jobs for this node, atomically (see the class comment). */
  private async claim(): Promise<JobRow[]> {
    const now = this.now();
    const nowIso = now.toISOString();
    const leaseCut = new Date(now.getTime() - this.leaseMs).toISOString();
    const { db, dialect } = this.store;
    return db.transaction().execute(async (trx) => {
      let due = trx
        .selectFrom("content_schedules")
        .select("content_id")
        .where("next_attempt_at", "<=", nowIso)
        .where((eb) => eb.or([eb("claimed_by", "is", null), eb("claimed_at", "<", leaseCut)]))
        .orderBy("next_attempt_at")
        .limit(this.batchSize);
      if (dialect === "postgres") due = due.forUpdate().skipLocked();
      return trx
        .updateTable("content_schedules")
        .set({ claimed_by: this.nodeId, claimed_at: nowIso, attempts: sql<number>`attempts + 1` })
        .where("content_id", "in", due)
        .where((eb) => eb.or([eb("claimed_by", "is", null), eb("claimed_at", "<", leaseCut)]))
        .returningAll()
        .execute();
    });
  }

  /**
   * On a remote Squidex no local transaction is held open while Squidex answers: the job is checked
   * to be still this node's, then applied (the status change drops the job with it).
   */
  private async applyRemotely(job: JobRow, change: (store: ContentStore) => Promise<unknown>): Promise<boolean> {
    const held = await this.store.db
      .selectFrom("content_schedules")
      .select("job_id")
      .where("content_id", "=", job.content_id)
      .where("job_id", "=", job.job_id)
      .where("claimed_by", "=", this.nodeId)
      .executeTakeFirst();
    if (!held) return false;
    await change(this.store);
    return true;
  }

  private async apply(job: JobRow): Promise<"applied" | "retried" | "dropped" | "lost"> {
    const by = JSON.parse(job.principal) as Principal | null;
    const who = by?.kind === "user" ? by.email : job.scheduled_by;
    try {
      const change = (store: ContentStore) =>
        store.changeStatus(job.schema_name, job.content_id, job.status, {
          ...(by ? { by } : { actor: job.scheduled_by }),
          note: { detail: `scheduled by ${who} for ${job.due_time}` },
        });
      const done = this.store.upstream
        ? await this.applyRemotely(job, change)
        : await this.store.transaction(async (store) => {
            const held = await store.db
              .deleteFrom("content_schedules")
              .where("content_id", "=", job.content_id)
              .where("job_id", "=", job.job_id)
              .where("claimed_by", "=", this.nodeId)
              .executeTakeFirst();
            if (Number(held.numDeletedRows) !== 1) return false;
            await change(store);
            return true;
          });
      if (!done) return "lost";
      this.logger.info({ schema: job.schema_name, id: job.content_id, status: job.status, scheduledBy: job.scheduled_by }, "scheduled status change applied");
      return "applied";
    } catch (error) {
      const details = error instanceof ContentError && error.details?.length ? ` ${error.details.join(" ")}` : "";
      const message = (error instanceof Error ? error.message : String(error)) + details;
      const gone = error instanceof ContentError && error.statusCode === 404;
      if (gone || job.attempts >= this.maxAttempts) {
        await this.store.db.deleteFrom("content_schedules").where("content_id", "=", job.content_id).where("job_id", "=", job.job_id).where("claimed_by", "=", this.nodeId).execute();
        this.logger.error({ err: error, schema: job.schema_name, id: job.content_id, status: job.status, attempts: job.attempts }, "scheduled status change failed; given up");
        return "dropped";
      }
      const next = new Date(this.now().getTime() + scheduleRetryDelayMs(job.attempts)).toISOString();
      await this.store.db
        .updateTable("content_schedules")
        .set({ claimed_by: null, claimed_at: null, next_attempt_at: next, last_error: message.slice(0, 500) })
        .where("content_id", "=", job.content_id)
        .where("job_id", "=", job.job_id)
        .where("claimed_by", "=", this.nodeId)
        .execute();
      this.logger.warn({ err: error, schema: job.schema_name, id: job.content_id, status: job.status, attempts: job.attempts, next }, "scheduled status change failed; tried again later");
      return "retried";
    }
  }
}
