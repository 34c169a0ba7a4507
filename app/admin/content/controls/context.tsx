import { createContext, useContext } from "react";
import type { NestedSpec } from "../item-form";

/**
 * What the item screen's loader knows that controls need beside their field: names of chosen
 * items and files (a control shows titles, never ids), the theme's swatches, and whether the editor
 * may see the JSON behind a control (superusers only: the "advanced" switch).
 */
export interface ControlsData {
  superuser: boolean;
  /** The content app's name, for uploads through the Squidex API. */
  appName: string;
  /** The theme's colours (core-theme-colors), for swatches. */
  colors: Array<{ name: string; hex: string }>;
  /** Chosen items by id: title, and a detail (a practitioner's city) to tell equal titles apart. */
  titles: Record<string, { title: string; detail?: string }>;
  /** Chosen files by id. */
  assets: Record<string, { fileName: string; url: string; mimeType: string }>;
  /** The fields of the component schemas the item's Component fields allow, in the admin's words. */
  components?: Record<string, NestedSpec[]>;
  /** Icon names (a list entry's icon is chosen by name). */
  iconNames?: string[];
  /** Where the item's blocks are edited, per language (the page in edit mode, in that language). */
  editHref?: Partial<Record<"de" | "en", string>>;
  /** The MapLibre style of the place control's map (MAP_STYLE_URL); a blank map without it. */
  mapStyleUrl?: string;
}

export const EMPTY_CONTROLS_DATA: ControlsData = {
  superuser: false,
  appName: "",
  colors: [],
  titles: {},
  assets: {},
};

const Context = createContext<ControlsData>(EMPTY_CONTROLS_DATA);
export const ControlsDataProvider = Context.Provider;
export const useControlsData = () => useContext(Context);
