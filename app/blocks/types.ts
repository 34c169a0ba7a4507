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
  directory: (import("~/practitioners/practitioners.server").DirectoryPage & {
    query: DirectoryQuery;
    nextSlots?: Record<string, string>;
  }) | null;
  /** What the directory can filter by (only on pages with a directory). */
  facets: { languages: string[]; countries: string[] };
}

export interface BlockProps<T = Record<string, unknown>> {
  block: Block & T;
  data: PageBlockData;
  /** Position on the page: the first blocks load their images eagerly. */
  index: number;
}

