import type { Language } from "~/i18n/languages";
import type { AdminSlot, Paged, PractitionerChoice } from "./slots.server";

/** Where the screen posts and loads (the block's edit variant uses it too, from inside a page). */
export const APPOINTMENTS_PATH = "/manage/appointments";

/** One practitioner's slots in a Berlin date range: what the manager shows (loader data, plain JSON). */
export interface SlotView {
  language: Language;
  practitioner: PractitionerChoice;
  /** Berlin dates, "2026-03-29", both inclusive. */
  from: string;
  to: string;
  slots: Paged<AdminSlot>;
}

export type { AdminSlot, Paged, PractitionerChoice };
