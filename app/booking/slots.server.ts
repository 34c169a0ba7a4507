import type { AppLoadContext } from "react-router";
import type { Language } from "~/i18n/languages";
import { profilePath } from "~/practitioners/paths";
import { PRACTITIONERS, visitor } from "~/practitioners/practitioners.server";

export interface SlotView {
  id: string;
  start: string;
  booked: boolean;
  practitionerName: string;
  practitionerHref: string;
}

/**
 * One slot as a visitor may see it (published, of a practitioner shown on this site), with its
 * practitioner's name and profile: two reads by id through the content client's visitor scope.
 */
export async function slotForBooking(context: AppLoadContext, id: string, language: Language): Promise<SlotView | undefined> {
  const { content } = context.services;
  const slot = await content.get("gm-appointments", id, visitor(language));
  if (!slot) return undefined;
  const d = slot.data as { start?: unknown; booked?: unknown; practitioner?: unknown };
  const practitionerId = Array.isArray(d.practitioner) ? d.practitioner[0] : undefined;
  if (typeof practitionerId !== "string" || typeof d.start !== "string") return undefined;
  const practitioner = await content.get(PRACTITIONERS, practitionerId, visitor(language));
  if (!practitioner) return undefined;
  return {
    id,
    start: d.start,
    booked: d.booked === true,
    practitionerName: String((practitioner.data as { name?: unknown }).name ?? ""),
    practitionerHref: profilePath(language, practitioner.slug ?? practitioner.id),
  };
}
