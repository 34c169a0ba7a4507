import { createContext, useContext } from "react";
import type { Language } from "~/i18n/languages";
import { messages, type Messages } from "~/i18n/messages";
import { NO_CONSENT, type ConsentState } from "~/consent/consent";
import { own } from "~/lib/input";

/** What every block and site component may need, provided once by the site layout. */
export interface SiteContextValue {
  language: Language;
  textStyles: Record<string, string>;
  /** Sanitised SVG of the critical icons, inlined in the HTML. */
  criticalIcons: Record<string, string>;
  /** Names of all known icons; the non-critical ones load lazily. */
  iconNames: string[];
  consent: ConsentState;
  mapDefault: { latitude: number; longitude: number };
  mapZoom: number;
  /** MapLibre style of the tile service, loaded only after functional consent. */
  mapStyleUrl: string;
  siteVariant: "directory" | "booking";
}

export const SiteContext = createContext<SiteContextValue>({
  language: "de",
  textStyles: {},
  criticalIcons: {},
  iconNames: [],
  consent: NO_CONSENT,
  mapDefault: { latitude: 51.3127, longitude: 9.4797 },
  mapZoom: 6,
  mapStyleUrl: "",
  siteVariant: "booking",
});

export function useSite(): SiteContextValue & { t: Messages } {
  const site = useContext(SiteContext);
  return { ...site, t: messages(site.language) };
}

/** The classes of a text style by name, or the fallback when the style is missing. */
export function useTextStyle(name: string, fallback = ""): string {
  return own(useContext(SiteContext).textStyles, name) ?? fallback;
}
