import type { AppLoadContext } from "react-router";
import { listItems } from "~/content/public-api";
import type { ContentQuery, FilterNode } from "~/content/types";
import type { Language } from "~/i18n/languages";
import { apiContext } from "~/lib/api.server";
import type { PractitionerSummary } from "./directory";
import { assignSlugs } from "./slug";

/**
 * The practitioners a visitor may see (the content API already drops hidden and other-site ones and
 * private fields), with unique slugs, sorted by name. Cached until content changes.
 */
export function loadPractitioners(context: AppLoadContext, language: Language): Promise<PractitionerSummary[]> {
  return context.services.cache.getOrLoad(`practitioners:${language}`, async () => {
    let items: Awaited<ReturnType<typeof listItems>>["items"] = [];
    try {
      items = (await listItems("gm-content-practitioners", apiContext(context), { language, all: true })).items;
    } catch (error) {
      context.services.logger.error({ err: error, requestId: context.requestId }, "Error Fetching Practitioners");
    }
    const slugs = assignSlugs(items.map((i) => ({ id: i.id, name: String(i.data.name ?? "") })));
    return items
      .map((i): PractitionerSummary => {
        const d = i.data as Record<string, unknown>;
        const str = (k: string) => (typeof d[k] === "string" && d[k] ? (d[k] as string) : undefined);
        return {
          id: i.id,
          slug: slugs.get(i.id)!,
          name: String(d.name ?? ""),
          city: String(d.city ?? ""),
          country: String(d.country ?? ""),
          street: str("street"),
          zip: str("zip"),
          adress2: str("adress2"),
          speciality: str("speciality"),
          description: str("description"),
          languages: Array.isArray(d.languages) ? (d.languages as string[]) : [],
          websites: Array.isArray(d.websites) ? (d.websites as string[]) : [],
          website: str("website"),
          coords: (d.coords as PractitionerSummary["coords"]) ?? undefined,
          coords2: (d.coords2 as PractitionerSummary["coords2"]) ?? undefined,
          finishedPractitioner: d.finishedPractitioner === true,
        };
      })
      .sort((a, b) => a.name.localeCompare(b.name, "de") || a.id.localeCompare(b.id));
  });
}

export interface AppointmentSlot {
  id: string;
  practitioner: string;
  start: string;
  booked: boolean;
}

/**
 * Upcoming free slots, soonest first: of the given practitioners only (when given), at most `limit`
 * (when given). Pages ask for the slots they show. For now the answer comes from one cached list of
 * all upcoming free slots (read again after a change to appointments or practitioners): a query per
 * page needs the index on the slots' practitioner that is still to come.
 */
export async function loadFreeSlots(context: AppLoadContext, opts: { practitioners?: string[]; limit?: number } = {}): Promise<AppointmentSlot[]> {
  const { all, byPractitioner } = await upcomingFreeSlots(context);
  const slots = opts.practitioners
    ? [...new Set(opts.practitioners)].flatMap((id) => byPractitioner.get(id) ?? []).sort((a, b) => a.start.localeCompare(b.start) || a.id.localeCompare(b.id))
    : all;
  // The list was read at some point before now: slots that have begun since are no longer free.
  const now = new Date().toISOString();
  const upcoming = slots.filter((s) => s.start > now);
  return opts.limit === undefined ? upcoming : upcoming.slice(0, opts.limit);
}

/** All upcoming free slots, read once per change to appointments or practitioners, and by practitioner. */
function upcomingFreeSlots(context: AppLoadContext): Promise<{ all: AppointmentSlot[]; byPractitioner: Map<string, AppointmentSlot[]> }> {
  return context.services.cache.getOrLoad("free-slots", async () => {
    const byPractitioner = new Map<string, AppointmentSlot[]>();
    const all = await readUpcomingFreeSlots(context);
    for (const slot of all) {
      const list = byPractitioner.get(slot.practitioner);
      if (list) list.push(slot);
      else byPractitioner.set(slot.practitioner, [slot]);
    }
    return { all, byPractitioner };
  });
}

async function readUpcomingFreeSlots(context: AppLoadContext): Promise<AppointmentSlot[]> {
  try {
    const filter: FilterNode = {
      and: [
        { path: "data.start", op: "gt", value: new Date().toISOString() },
        { path: "data.booked", op: "ne", value: true },
      ],
    };
    const query: ContentQuery = { filter, sort: [{ path: "data.start" }] };
    const { items } = await listItems("gm-appointments", apiContext(context), { language: "de", query, all: true });
    return items.map((i) => ({
      id: i.id,
      practitioner: String((i.data.practitioner as string[] | undefined)?.[0] ?? ""),
      start: String(i.data.start ?? ""),
      booked: false,
    }));
  } catch (error) {
    context.services.logger.error({ err: error, requestId: context.requestId }, "Error Fetching Appointments");
    return [];
  }
}
