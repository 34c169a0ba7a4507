/**
 * All demo content items, in the order a seeder can insert them: referenced items (themes,
 * colours, practitioners) come before the items that point at them (pages, appointments).
 */
import { buildAppointments } from "./appointments";
import type { DemoItem } from "./helpers";
import { pageItems } from "./pages";
import { practitionerItems } from "./practitioners";
import {
  backendNavigationItems,
  colorItems,
  fontStyleItems,
  globalSettingsItems,
  iconItems,
  languageItems,
  settingsBlockItems,
  textStyleItems,
  themeSettingsItems,
} from "./theme";

export type { DemoItem } from "./helpers";

/**
 * Deterministic for a given `now`; only appointment times depend on it. Returns fresh objects on
 * every call, so a caller may mutate them.
 */
export function buildDemoContent(now: Date): DemoItem[] {
  const items: DemoItem[] = [
    ...languageItems,
    ...colorItems,
    ...themeSettingsItems,
    ...textStyleItems,
    ...fontStyleItems,
    ...iconItems,
    ...backendNavigationItems,
    ...settingsBlockItems,
    ...globalSettingsItems,
    ...practitionerItems,
    ...pageItems,
    ...buildAppointments(now),
  ];
  return structuredClone(items);
}
