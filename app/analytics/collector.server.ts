import { createHash, randomBytes } from "node:crypto";
import type { DB } from "~/content/db";
import type { AnalyticsEvent } from "./event";
import { type HashedEvent, type RollupDeltas, SEP, rollUp, type VisitorState, key } from "./rollup";

export interface CollectorOptions {
  /** Flush the buffer this often (ms). */
  flushIntervalMs?: number;
  /** …or as soon as it holds this many events. */
  flushAt?: number;
  /** Past this many buffered events (a database that cannot keep up) new ones are dropped. */
  maxBuffered?: number;
  now?: () => Date;
  onError?: (error: unknown) => void;
}

export const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/** Rows per multi-row statement: far below SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 400;
const chunks = <T>(rows: T[]): T[][] => Array.from({ length: Math.ceil(rows.length / CHUNK) }, (_, i) => rows.slice(i * CHUNK, (i + 1) * CHUNK));

/**
 * Collects events into the daily rollups. `record` turns the sender into a hash of the day's salt,
 * site, address and user agent right away (as Plausible does) and buffers the event; the buffer is
 * written every second, or sooner when it fills, in one transaction: a few multi-row statements for
 * however many events, so the rate is bounded by the rollup, not by commits.
 */
export class AnalyticsCollector {
  private buffer: HashedEvent[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private salts = new Map<string, Promise<string>>();
  private readonly now: () => Date;
  dropped = 0;

  constructor(
    private readonly db: DB,
    private readonly opts: CollectorOptions = {},
  ) {
    this.now = opts.now ?? (() => new Date());
  }

  /** The salt of a UTC day, made by whichever node asks first; older salts and visitor rows are deleted then. */
  saltFor(day: string): Promise<string> {
    let salt = this.salts.get(day);
    if (!salt) {
      salt = this.loadSalt(day);
      salt.catch(() => this.salts.delete(day));
      this.salts.set(day, salt);
      for (const d of this.salts.keys()) if (d < day) this.salts.delete(d);
    }
    return salt;
  }

  private async loadSalt(day: string): Promise<string> {
    await this.db
      .insertInto("analytics_salts")
      .values({ day, salt: randomBytes(32).toString("base64") })
      .onConflict((oc) => oc.column("day").doNothing())
      .execute();
    const row = await this.db.selectFrom("analytics_salts").select("salt").where("day", "=", day).executeTakeFirstOrThrow();
    await this.rotate(day);
    return row.salt;
  }

  /** Deletes the salts and visitor rows of days before `today` (yesterday's visitors cannot be told apart any more). */
  async rotate(today: string): Promise<number> {
    let removed = 0;
    for (const table of ["analytics_salts", "analytics_visitors", "analytics_seen"] as const) {
      const result = await this.db.deleteFrom(table).where("day", "<", today).executeTakeFirst();
      removed += Number(result.numDeletedRows ?? 0);
    }
    return removed;
  }

  /** The anonymous visitor id: a hash nobody can reverse without the day's salt, which is deleted the next day. */
  static visitorHash(salt: string, site: string, ip: string, userAgent: string): string {
    return createHash("sha256").update(salt).update(SEP).update(site).update(SEP).update(ip).update(SEP).update(userAgent).digest("base64url").slice(0, 22);
  }

  /** Buffers one event; the address and user agent go no further than the hash. */
  async record(event: AnalyticsEvent, sender: { ip: string; userAgent: string }): Promise<void> {
    const now = this.now();
    const day = utcDay(now);
    const salt = await this.saltFor(day);
    if (this.buffer.length >= (this.opts.maxBuffered ?? 100_000)) {
      this.dropped++;
      return;
    }
    this.buffer.push({ ...event, day, ts: Math.floor(now.getTime() / 1000), hash: AnalyticsCollector.visitorHash(salt, event.domain, sender.ip, sender.userAgent) });
    if (this.buffer.length >= (this.opts.flushAt ?? 2000)) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.opts.flushIntervalMs ?? 1000).unref();
  }

  get pending(): number {
    return this.buffer.length;
  }

  /** Writes what is buffered (and waits for a flush under way): the dashboard calls it before reading. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const run = this.flushing.then(async () => {
      const batch = this.buffer;
      if (!batch.length) return;
      this.buffer = [];
      try {
        await this.write(batch);
      } catch (error) {
        // Kept for the next flush unless the buffer has filled up meanwhile.
        if (this.buffer.length + batch.length <= (this.opts.maxBuffered ?? 100_000)) this.buffer.unshift(...batch);
        else this.dropped += batch.length;
        this.opts.onError?.(error);
        this.timer ??= setTimeout(() => void this.flush(), this.opts.flushIntervalMs ?? 1000).unref();
      }
    });
    this.flushing = run;
    return run;
  }

  async close(): Promise<void> {
    await this.flush();
    clearTimeout(this.timer);
  }

  private async write(batch: HashedEvent[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const byDay = new Map<string, Set<string>>();
      for (const e of batch) (byDay.get(e.day) ?? byDay.set(e.day, new Set()).get(e.day)!).add(e.hash);
      const known = new Map<string, VisitorState>();
      const seen = new Set<string>();
      for (const [day, hashes] of byDay) {
        for (const part of chunks([...hashes])) {
          for (const row of await trx.selectFrom("analytics_visitors").select(["hash", "last_seen", "visit_pageviews"]).where("day", "=", day).where("hash", "in", part).execute()) {
            known.set(key(day, row.hash), { lastSeen: Number(row.last_seen), visitPageviews: Number(row.visit_pageviews) });
          }
          for (const row of await trx.selectFrom("analytics_seen").select(["hash", "dim", "value"]).where("day", "=", day).where("hash", "in", part).execute()) {
            seen.add(key(day, row.hash, row.dim, row.value));
          }
        }
      }
      await writeDeltas(trx, rollUp(batch, known, seen));
    });
  }
}

/** Adds the deltas to the stored rows: one upsert per table and chunk. */
async function writeDeltas(db: DB, d: RollupDeltas): Promise<void> {
  const split = (k: string) => k.split(SEP);
  for (const rows of chunks([...d.visitors].map(([k, s]) => ({ day: split(k)[0]!, hash: split(k)[1]!, last_seen: s.lastSeen, visit_pageviews: s.visitPageviews })))) {
    await db
      .insertInto("analytics_visitors")
      .values(rows)
      .onConflict((oc) => oc.columns(["day", "hash"]).doUpdateSet((eb) => ({ last_seen: eb.ref("excluded.last_seen"), visit_pageviews: eb.ref("excluded.visit_pageviews") })))
      .execute();
  }
  for (const rows of chunks(d.seen.map((k) => split(k)).map(([day, hash, dim, value]) => ({ day: day!, hash: hash!, dim: dim!, value: value! })))) {
    await db.insertInto("analytics_seen").values(rows).onConflict((oc) => oc.doNothing()).execute();
  }
  for (const rows of chunks([...d.daily].map(([day, t]) => ({ day, ...t })))) {
    await db
      .insertInto("analytics_daily")
      .values(rows)
      .onConflict((oc) =>
        oc.column("day").doUpdateSet((eb) => ({
          visitors: eb("analytics_daily.visitors", "+", eb.ref("excluded.visitors")),
          pageviews: eb("analytics_daily.pageviews", "+", eb.ref("excluded.pageviews")),
          visits: eb("analytics_daily.visits", "+", eb.ref("excluded.visits")),
          bounces: eb("analytics_daily.bounces", "+", eb.ref("excluded.bounces")),
          visit_seconds: eb("analytics_daily.visit_seconds", "+", eb.ref("excluded.visit_seconds")),
          events: eb("analytics_daily.events", "+", eb.ref("excluded.events")),
        })),
      )
      .execute();
  }
  for (const rows of chunks([...d.breakdown].map(([k, c]) => ({ dim: split(k)[0]!, day: split(k)[1]!, value: split(k)[2]!, ...c })))) {
    await db
      .insertInto("analytics_breakdown")
      .values(rows)
      .onConflict((oc) =>
        oc.columns(["dim", "day", "value"]).doUpdateSet((eb) => ({
          visitors: eb("analytics_breakdown.visitors", "+", eb.ref("excluded.visitors")),
          pageviews: eb("analytics_breakdown.pageviews", "+", eb.ref("excluded.pageviews")),
          visits: eb("analytics_breakdown.visits", "+", eb.ref("excluded.visits")),
          events: eb("analytics_breakdown.events", "+", eb.ref("excluded.events")),
        })),
      )
      .execute();
  }
  for (const rows of chunks([...d.props].map(([k, events]) => ({ day: split(k)[0]!, name: split(k)[1]!, prop: split(k)[2]!, value: split(k)[3]!, events })))) {
    await db
      .insertInto("analytics_props")
      .values(rows)
      .onConflict((oc) => oc.columns(["day", "name", "prop", "value"]).doUpdateSet((eb) => ({ events: eb("analytics_props.events", "+", eb.ref("excluded.events")) })))
      .execute();
  }
  for (const rows of chunks([...d.revenue].map(([k, r]) => ({ day: split(k)[0]!, name: split(k)[1]!, currency: split(k)[2]!, ...r })))) {
    await db
      .insertInto("analytics_revenue")
      .values(rows)
      .onConflict((oc) =>
        oc.columns(["day", "name", "currency"]).doUpdateSet((eb) => ({
          events: eb("analytics_revenue.events", "+", eb.ref("excluded.events")),
          amount: eb("analytics_revenue.amount", "+", eb.ref("excluded.amount")),
        })),
      )
      .execute();
  }
}
