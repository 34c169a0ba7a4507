import type { ComponentType, ReactNode } from "react";
import type { DirectoryResult, Facets, PractitionerSummary } from "~/practitioners/directory";
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
  directory: DirectoryResult | null;
  /** What the directory can filter by (only on pages with a directory). */
  facets: Facets;
  /** The practitioner lists' pages the URL asks for (`?list=`), by page size. */
  lists: Record<string, PractitionerPage>;
}

/** One page of all visible practitioners by name. */
export interface PractitionerPage {
  items: PractitionerSummary[];
  page: number;
  pages: number;
  total: number;
}

export interface BlockProps<T = Record<string, unknown>> {
  block: Block & T;
  data: PageBlockData;
  /** Position on the page: the first blocks load their images eagerly. */
  index: number;
  /**
   * A container's content in place of its children: the visual editor passes its own editable child
   * list here, so the container keeps its frame and layout while the editor owns what is inside.
   */
  slot?: ReactNode;
}


/**
 * What a block kind is to the page (app/blocks/<kind>/index.tsx): its component and its palette
 * entry. Its fields with defaults and tags are schema.ts beside it (blocks/schemas.ts collects them
 * for the seed and the editor), what it needs on the server is server.ts (registry.server.ts): the
 * public site's bundle carries neither.
 */
export interface BlockDefinition {
  name: string;
  palette: { label: { de: string; en: string }; icon: string; group: "content" | "practitioners" };
  Component: ComponentType<BlockProps>;
  /** The block brings the page's h1 when it opens the page (the page then shows no title of its own). */
  ownsPageHeading?: boolean;
  /**
   * The kind holds other blocks in this Components field (one level deep: a container's children
   * are never containers). The renderer, the page preparation and the loader's needs look inside it.
   */
  container?: { field: "blocks" };
  /**
   * The block does work in the browser (a map, a search, a booking form): the editor's canvas runs
   * its component from the start. Every other kind is shown there as the server rendered it until
   * it is edited or moved, so opening a long page does not render each block again in the browser.
   */
  live?: true;
}

/** What one block asks the page loader for; the loader merges the asks of all blocks on a page. */
export interface BlockNeeds {
  /** The first practitioners by name. */
  firstPractitioners?: number;
  /** A page of this size of all practitioners by name: the page the URL's `list` parameter names. */
  practitionerList?: number;
  /** These practitioners, with up to `slotsEach` free slots of each. */
  practitioners?: { ids: string[]; slotsEach: number };
  /** The directory page the URL asks for, with its facets. */
  directory?: boolean;
  /** The soonest free slots (and their practitioners). */
  soonestSlots?: number;
  /** Assets the block shows. */
  assets?: string[];
}

/** The server side of a block kind (app/blocks/<kind>/server.ts). */
export interface BlockServer {
  name: string;
  /** Once per content change, when the page is prepared: e.g. sanitising rich text. */
  prepare?: (block: Block) => Block;
  /** Per request: what to load for this block. */
  needs?: (block: Block) => BlockNeeds;
}
