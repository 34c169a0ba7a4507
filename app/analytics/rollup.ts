import type { AnalyticsEvent } from "./event";

/**
 * Turning events into daily aggregates, without a database: the collector loads what it knows of the
 * batch's visitors, calls `rollUp`, and writes the deltas it returns in one transaction.
 *
 * A visitor is a hash that changes every UTC day (salts.ts). A visit is the same hash with no gap
 * over 30 minutes; a bounce is a visit with fewer than two page views; its duration is the time
 * from its first to its last event.
 */
export const VISIT_GAP_SECONDS = 30 * 60;

/** An event as the collector buffers it: the visitor's hash instead of who sent it. */
export interface HashedEvent extends AnalyticsEvent {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  /** Seconds since the epoch. */
  ts: number;
  hash: string;
}

/** What is known of a visitor today: when they were last seen and their current visit's page views. */
export interface VisitorState {
  lastSeen: number;
  visitPageviews: number;
}

export interface DailyTotals {
  visitors: number;
  pageviews: number;
  visits: number;
  bounces: number;
  visit_seconds: number;
  events: number;
}

export interface BreakdownCounts {
  visitors: number;
  pageviews: number;
  visits: number;
  events: number;
}

/** The breakdowns kept per day. */
export type Dimension = "page" | "source" | "country" | "device" | "event";

export interface RollupDeltas {
  daily: Map<string, DailyTotals>;
  /** Key: dim, day, value joined by "\u0000". */
  breakdown: Map<string, BreakdownCounts>;
  /** Key: day, event name, prop, value joined by "\u0000"; value: events. */
  props: Map<string, number>;
  /** Key: day, event name, currency joined by "\u0000". */
  revenue: Map<string, { events: number; amount: number }>;
  /** Visitor states to write (key: day, hash joined by "\u0000"). */
  visitors: Map<string, VisitorState>;
  /** (day, hash, dim, value) first seen in this batch, joined by "\u0000". */
  seen: string[];
}

export const SEP = "\u0000";
export const key = (...parts: string[]) => parts.join(SEP);

const zeroDaily = (): DailyTotals => ({ visitors: 0, pageviews: 0, visits: 0, bounces: 0, visit_seconds: 0, events: 0 });
const zeroCounts = (): BreakdownCounts => ({ visitors: 0, pageviews: 0, visits: 0, events: 0 });

function at<K, V>(map: Map<K, V>, k: K, make: () => V): V {
  let v = map.get(k);
  if (v === undefined) map.set(k, (v = make()));
  return v;
}

/**
 * `known`: the stored state of the batch's visitors (key day + hash); `seen`: the stored
 * (day, hash, dim, value) entries of those visitors. Neither is changed.
 */
export function rollUp(events: readonly HashedEvent[], known: ReadonlyMap<string, VisitorState>, seenBefore: ReadonlySet<string>): RollupDeltas {
  const deltas: RollupDeltas = { daily: new Map(), breakdown: new Map(), props: new Map(), revenue: new Map(), visitors: new Map(), seen: [] };
  const seen = new Set(seenBefore);
  const sorted = [...events].sort((a, b) => a.ts - b.ts);
  for (const e of sorted) {
    const vk = key(e.day, e.hash);
    const previous = deltas.visitors.get(vk) ?? known.get(vk);
    const daily = at(deltas.daily, e.day, zeroDaily);
    const isPageview = e.name === "pageview";
    const newVisit = !previous || e.ts - previous.lastSeen > VISIT_GAP_SECONDS;
    const state: VisitorState = newVisit ? { lastSeen: e.ts, visitPageviews: 0 } : { ...previous };
    if (!previous) daily.visitors++;
    if (newVisit) {
      daily.visits++;
      daily.bounces++;
    } else {
      daily.visit_seconds += Math.max(0, e.ts - previous.lastSeen);
    }
    if (isPageview) {
      daily.pageviews++;
      state.visitPageviews++;
      if (state.visitPageviews === 2) daily.bounces--;
    } else {
      daily.events++;
    }
    state.lastSeen = Math.max(state.lastSeen, e.ts);
    deltas.visitors.set(vk, state);

    const count = (dim: Dimension, value: string) => {
      const counts = at(deltas.breakdown, key(dim, e.day, value), zeroCounts);
      const sk = key(e.day, e.hash, dim, value);
      if (!seen.has(sk)) {
        seen.add(sk);
        deltas.seen.push(sk);
        counts.visitors++;
      }
      return counts;
    };
    if (isPageview) count("page", e.page).pageviews++;
    // Where a visit came from is what its first event says (later pages of it have our own site as
    // referrer); where the visitor is and what they use, any event says.
    if (newVisit) count("source", e.source).visits++;
    for (const [dim, value] of [["country", e.country], ["device", e.device]] as const) {
      const counts = count(dim, value);
      if (newVisit) counts.visits++;
      if (isPageview) counts.pageviews++;
    }
    if (!isPageview) {
      count("event", e.name).events++;
      for (const [prop, value] of Object.entries(e.props)) {
        const pk = key(e.day, e.name, prop, value);
        deltas.props.set(pk, (deltas.props.get(pk) ?? 0) + 1);
      }
      if (e.revenue) {
        const r = at(deltas.revenue, key(e.day, e.name, e.revenue.currency), () => ({ events: 0, amount: 0 }));
        r.events++;
        r.amount += e.revenue.amount;
      }
    }
  }
  return deltas;
}
