import { sql } from "kysely";
import type { DB } from "~/content/db";
import type { Dimension } from "./rollup";

/** What the dashboard shows for a period: read from the daily rollups only, never from events. */
export interface AnalyticsReport {
  from: string;
  to: string;
  totals: { visitors: number; pageviews: number; visits: number; bounces: number; visitSeconds: number; events: number };
  /** One entry per day of the period, zeros included. */
  series: Array<{ day: string; visitors: number; pageviews: number }>;
  pages: Row[];
  sources: Row[];
  countries: Row[];
  devices: Row[];
  events: Row[];
  props: Array<{ name: string; prop: string; value: string; events: number }>;
  revenue: Array<{ name: string; currency: string; events: number; amount: number }>;
}

export interface Row {
  value: string;
  visitors: number;
  pageviews: number;
  visits: number;
  events: number;
}

export const TOP = 10;
const DAY_MS = 86_400_000;

/** Every day from `from` to `to` (YYYY-MM-DD, inclusive). */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY_MS) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

export async function analyticsReport(db: DB, from: string, to: string): Promise<AnalyticsReport> {
  const daily = await db.selectFrom("analytics_daily").selectAll().where("day", ">=", from).where("day", "<=", to).orderBy("day").execute();
  const totals = { visitors: 0, pageviews: 0, visits: 0, bounces: 0, visitSeconds: 0, events: 0 };
  const byDay = new Map<string, { visitors: number; pageviews: number }>();
  for (const d of daily) {
    totals.visitors += Number(d.visitors);
    totals.pageviews += Number(d.pageviews);
    totals.visits += Number(d.visits);
    totals.bounces += Number(d.bounces);
    totals.visitSeconds += Number(d.visit_seconds);
    totals.events += Number(d.events);
    byDay.set(d.day, { visitors: Number(d.visitors), pageviews: Number(d.pageviews) });
  }
  const top = async (dim: Dimension, order: "visitors" | "events" = "visitors"): Promise<Row[]> => {
    const rows = await db
      .selectFrom("analytics_breakdown")
      .select((eb) => [
        "value",
        eb.fn.sum<number>("visitors").as("visitors"),
        eb.fn.sum<number>("pageviews").as("pageviews"),
        eb.fn.sum<number>("visits").as("visits"),
        eb.fn.sum<number>("events").as("events"),
      ])
      .where("dim", "=", dim)
      .where("day", ">=", from)
      .where("day", "<=", to)
      .groupBy("value")
      .orderBy(sql.ref(order), "desc")
      .orderBy("value")
      .limit(TOP)
      .execute();
    return rows.map((r) => ({ value: r.value, visitors: Number(r.visitors), pageviews: Number(r.pageviews), visits: Number(r.visits), events: Number(r.events) }));
  };
  const [pages, sources, countries, devices, events] = await Promise.all([top("page"), top("source"), top("country"), top("device"), top("event", "events")]);
  const props = await db
    .selectFrom("analytics_props")
    .select((eb) => ["name", "prop", "value", eb.fn.sum<number>("events").as("events")])
    .where("day", ">=", from)
    .where("day", "<=", to)
    .groupBy(["name", "prop", "value"])
    .orderBy("events", "desc")
    .orderBy("name")
    .limit(TOP * 3)
    .execute();
  const revenue = await db
    .selectFrom("analytics_revenue")
    .select((eb) => ["name", "currency", eb.fn.sum<number>("events").as("events"), eb.fn.sum<number>("amount").as("amount")])
    .where("day", ">=", from)
    .where("day", "<=", to)
    .groupBy(["name", "currency"])
    .orderBy("name")
    .orderBy("currency")
    .execute();
  return {
    from,
    to,
    totals,
    series: daysBetween(from, to).map((day) => ({ day, ...(byDay.get(day) ?? { visitors: 0, pageviews: 0 }) })),
    pages,
    sources,
    countries,
    devices,
    events,
    props: props.map((p) => ({ name: p.name, prop: p.prop, value: p.value, events: Number(p.events) })),
    revenue: revenue.map((r) => ({ name: r.name, currency: r.currency, events: Number(r.events), amount: Math.round(Number(r.amount) * 100) / 100 })),
  };
}

export type Period = "7d" | "30d" | "12mo" | "custom";

/** The period a dashboard URL asks for; anything unreadable falls back to the last 30 days (today included). */
export function periodRange(query: URLSearchParams, today: string): { period: Period; from: string; to: string } {
  const p = query.get("period");
  const back = (days: number) => new Date(Date.parse(`${today}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);
  if (p === "7d") return { period: "7d", from: back(6), to: today };
  if (p === "12mo") return { period: "12mo", from: back(364), to: today };
  if (p === "custom") {
    const from = query.get("from") ?? "";
    const to = query.get("to") ?? "";
    const valid = (d: string) => /^\d{4}-\d{2}-\d{2}$/.test(d) && !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d);
    // At most about three years: the chart has a point per day.
    if (valid(from) && valid(to) && from <= to && Date.parse(to) - Date.parse(from) <= 1100 * DAY_MS) return { period: "custom", from, to };
  }
  return { period: "30d", from: back(29), to: today };
}
