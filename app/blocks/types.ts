import type { DirectoryQuery, PractitionerSummary } from "~/practitioners/directory";
import type { AppointmentSlot } from "~/practitioners/practitioners.server";

/** A block instance on a page: its schema, a stable id, and its field values. */
export interface Block {
  schemaId: string;
  id?: string;
  active?: boolean;
  [field: string]: unknown;
}

export interface AssetInfo {
  url: string;
  width?: number;
  height?: number;
  mimeType: string;
  fileName: string;
}

/** Data the page loader fetched for the blocks on the page. */
export interface PageBlockData {
  practitioners: PractitionerSummary[];
  appointments: AppointmentSlot[];
  assets: Record<string, AssetInfo>;
  directory: (ReturnType<typeof import("~/practitioners/directory").paginate<PractitionerSummary>> & {
    query: DirectoryQuery;
    nextSlots?: Record<string, string>;
  }) | null;
}

export interface BlockProps<T = Record<string, unknown>> {
  block: Block & T;
  data: PageBlockData;
  /** Position on the page: the first blocks load their images eagerly. */
  index: number;
}

export const PRACTITIONER_BLOCKS = new Set([
  "block-practitioner-single",
  "block-practitioner-list",
  "block-practitioner-smalllist",
  "block-practitioner-overview",
]);
