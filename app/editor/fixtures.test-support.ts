import type { Block, PageBlockData } from "~/blocks/types";
import { NO_CONSENT } from "~/consent/consent";
import type { SiteContextValue } from "~/site/site-context";
import type { EditorPayload } from "./types";

/** A 200-block page of calls to action and what the editor gets for it: shared by the render tests. */
export const N = 200;
export const blocks: Block[] = Array.from({ length: N }, (_, i) => ({ schemaId: "block-cta", id: `b${i}`, heading: `Block ${i}`, text: "", label: "Mehr", link: "/" }));
export const data: PageBlockData = { practitioners: [], appointments: [], assets: {}, directory: null, facets: { languages: [], countries: [] }, lists: {} };
export const payload: EditorPayload = {
  page: { id: "p", status: "Draft", newStatus: null, version: 1, title: { de: "Seite", en: "Page" }, path: { de: "/seite", en: "/en/seite" }, lastModified: "2026-11-27T00:00:00Z", lastModifiedBy: "Test" },
  blocks: { de: blocks, en: [] },
  schemas: [
    {
      name: "block-cta",
      label: "Handlungsaufforderung",
      container: false,
      fields: [
        { name: "heading", label: "Überschrift", fieldType: "String", isRequired: true, defaultValue: "Neu" },
        { name: "text", label: "Text", fieldType: "String", defaultValue: "" },
        { name: "label", label: "Button-Beschriftung", fieldType: "String", isRequired: true, defaultValue: "Mehr" },
        { name: "link", label: "Button-Link", fieldType: "String", isRequired: true, defaultValue: "/", tags: ["link"] },
      ],
    },
  ],
  palette: [{ name: "block-cta", label: "Handlungsaufforderung", description: "", icon: "", category: "content" }],
  links: [],
  user: { name: "Test", language: "de", superuser: true },
  assets: [],
  colors: [],
  appName: "praxisnetz",
};
export const site: SiteContextValue = { language: "de", textStyles: {}, criticalIcons: {}, iconNames: [], consent: NO_CONSENT, mapDefault: { latitude: 0, longitude: 0 }, mapZoom: 6, mapStyleUrl: "", siteVariant: "booking" };
export const contentPage = { id: "p", title: "Seite", seotitle: "Seite", description: "", blocks, themeClass: "", background: null };
