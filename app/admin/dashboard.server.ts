import { countRegistrations } from "~/admin/content/registrations.server";
import { statusFilter } from "~/admin/content/list-query";
import { PAGES_SCHEMA } from "~/admin/pages/page-slug";
import { APPOINTMENTS, PRACTITIONERS } from "~/admin/appointments/slots.server";
import { berlinDay, berlinToUtc } from "~/booking/days";
import type { DB } from "~/content/db";
import type { ContentStore } from "~/content/store";
import type { ContentItem } from "~/content/types";
import type { Outbox } from "~/mail/outbox";
import type { MailReader } from "~/mail/readers";

/**
 * What the admin dashboard shows: what needs someone's attention, each with the screen that deals
 * with it. Every number is one count over an index (or a small filtered scan), every list a few
 * rows: at 100 000 items the dashboard costs what it costs at 100.
 */
export interface Dashboard {
  registrations: number;
  failedMails: number;
  draftPages: number;
  changedPages: number;
  bookingsToday: number;
  recent: RecentChange[];
}

export interface RecentChange {
  id: string;
  at: string;
  /** A person's name, else their address (a client token's id, "system" for the app itself). */
  who: string;
  action: string;
  /** The item's title or name now; null when it is gone (deleted) or has none. */
  title: string | null;
  /** Where to open it in the admin; null when it is gone. */
  href: string | null;
  /** An appointment's start (ISO): the screen shows it in the reader's words beside the title. */
  when?: string;
  /** How many changes in a row this entry stands for (the same person, the same kind, one collection). */
  count: number;
}

/** How many entries the dashboard lists. */
export const RECENT_CHANGES = 8;
/** How many log rows are read to fill them (runs of the same change collapse into one entry). */
const RECENT_ROWS = 60;

const DAY_MS = 24 * 3600 * 1000;

/** The UTC instants a Berlin calendar day starts and ends (23, 24 or 25 hours long). */
export function berlinDayBounds(now: Date): { from: string; to: string } {
  const day = Math.round(Date.parse(`${berlinDay(now)}T00:00:00Z`) / DAY_MS);
  // Midnight always exists in Berlin (the clocks change at 02:00/03:00).
  return { from: new Date(berlinToUtc(day, 0)!).toISOString(), to: new Date(berlinToUtc(day + 1, 0)!).toISOString() };
}

/** The title an editor knows an item by: a page's German title, a practitioner's name, else the first text field. */
export function itemTitle(item: ContentItem): string | null {
  const data = item.data as Record<string, Record<string, unknown> | undefined>;
  for (const field of ["title", "name", "label", "siteName"]) {
    const cell = data[field];
    const value = cell?.iv ?? cell?.de ?? cell?.en;
    if (typeof value === "string" && value.trim()) return value.trim();
  }
  return null;
}

export function adminHref(schema: string, id: string): string {
  return schema === PAGES_SCHEMA ? `/manage/pages/${encodeURIComponent(id)}` : `/manage/content/${encodeURIComponent(schema)}/${encodeURIComponent(id)}`;
}

export async function loadDashboard(deps: { store: ContentStore; db: DB; mail: Outbox; reader: MailReader; userName: (id: string) => Promise<string | undefined> }, now = new Date()): Promise<Dashboard> {
  const { store, db } = deps;
  const { from, to } = berlinDayBounds(now);
  const pages = (status: "Draft" | "Changed") => store.query(PAGES_SCHEMA, { filter: statusFilter(status)!, take: 0 }, { unpublished: true }).then((r) => r.total);
  const [registrations, failedMails, draftPages, changedPages, bookings, recent] = await Promise.all([
    countRegistrations(store),
    deps.mail.countFor(deps.reader, "failed"),
    pages("Draft"),
    pages("Changed"),
    // Bookings whose slot starts today (index bookings_starts_at); a cancelled booking is deleted.
    db
      .selectFrom("bookings")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("starts_at", ">=", from)
      .where("starts_at", "<", to)
      .executeTakeFirstOrThrow(),
    recentChanges(deps),
  ]);
  return { registrations, failedMails, draftPages, changedPages, bookingsToday: Number(bookings.n), recent };
}

/**
 * The last few content changes (the audit log's index on time, newest first), with the person's
 * name and the item's title in place of ids. Changes to people and settings (no collection) stay in
 * the superusers' audit log.
 */
async function recentChanges(deps: { store: ContentStore; db: DB; userName: (id: string) => Promise<string | undefined> }): Promise<RecentChange[]> {
  const rows = await deps.db.selectFrom("audit_log").selectAll().where("schema_name", "is not", null).where("item_id", "is not", null).orderBy("at", "desc").orderBy("id", "desc").limit(RECENT_ROWS).execute();
  // A run of the same change (a slot series: twelve "created an appointment") is one entry with its count.
  const runs: Array<{ row: (typeof rows)[number]; count: number }> = [];
  for (const row of rows) {
    const last = runs.at(-1);
    if (last && last.row.user_id === row.user_id && last.row.user_email === row.user_email && last.row.action === row.action && last.row.schema_name === row.schema_name && last.row.item_id !== row.item_id) last.count++;
    else if (runs.length < RECENT_CHANGES) runs.push({ row, count: 1 });
    else break;
  }
  const names = new Map<string, Promise<string | undefined>>();
  return Promise.all(
    runs.map(async ({ row, count }) => {
      const schema = row.schema_name!;
      const itemId = row.item_id!;
      let item: ContentItem | undefined;
      try {
        item = await deps.store.get(schema, itemId, { unpublished: true });
      } catch {
        // A schema deleted since: the change stays listed, without a title or a link.
        item = undefined;
      }
      let name: Promise<string | undefined> | undefined;
      if (row.user_id) {
        name = names.get(row.user_id);
        if (!name) names.set(row.user_id, (name = deps.userName(row.user_id)));
      }
      const appointment = item && schema === APPOINTMENTS ? await appointmentTitle(deps.store, item) : undefined;
      return {
        id: row.id,
        at: row.at,
        who: (await name) || row.user_email,
        action: row.action,
        title: appointment ? appointment.title : item ? itemTitle(item) : null,
        href: item ? adminHref(schema, itemId) : null,
        ...(appointment?.when ? { when: appointment.when } : {}),
        count,
      };
    }),
  );
}

/** An appointment has no title of its own: its practitioner's name, and its start. */
async function appointmentTitle(store: ContentStore, item: ContentItem): Promise<{ title: string | null; when?: string }> {
  const ref = (item.data.practitioner?.iv as unknown[] | undefined)?.[0];
  const practitioner = typeof ref === "string" ? await store.get(PRACTITIONERS, ref, { unpublished: true }).catch(() => undefined) : undefined;
  const start = item.data.start?.iv;
  return { title: practitioner ? itemTitle(practitioner) : null, ...(typeof start === "string" ? { when: start } : {}) };
}
