import type { ContentData, ContentItem } from "~/content/types";
import { LANGUAGES, type Language } from "~/i18n/languages";

/**
 * A page (core-pages) as the admin screens show and edit it: one value per language where the page
 * keeps one, the references as single ids. Blocks are left alone here (the visual editor owns them).
 */
export interface PageSettings {
  id: string;
  status: string;
  newStatus: string | null;
  version: number;
  title: Record<Language, string>;
  slug: Record<Language, string>;
  seotitle: Record<Language, string>;
  critical: boolean;
  themesettings: string;
  backgroundColor: string;
}

type Partitions = Record<string, unknown> | undefined;
type Seo = { schemaId?: string; seotitle?: string; slug?: string; description?: string };

const text = (value: unknown) => (typeof value === "string" ? value : "");
const firstRef = (value: unknown) => (Array.isArray(value) && typeof value[0] === "string" ? value[0] : "");
const seoOf = (data: ContentData, language: Language): Seo => ((data.seo as Partitions)?.[language] as Seo | undefined) ?? {};

/** The settings of a stored page (its draft where it has one). A missing English value shows the German one, as the site does. */
export function pageSettings(item: ContentItem): PageSettings {
  const d = item.data;
  const per = (read: (language: Language) => string): Record<Language, string> => {
    const de = read("de");
    return { de, en: read("en") || de };
  };
  return {
    id: item.id,
    status: item.status,
    newStatus: item.newStatus ?? null,
    version: item.version,
    title: per((l) => text((d.title as Partitions)?.[l])),
    slug: per((l) => text(seoOf(d, l).slug)),
    seotitle: per((l) => text(seoOf(d, l).seotitle)),
    critical: (d.critical as Partitions)?.iv === true,
    themesettings: firstRef((d.themesettings as Partitions)?.iv),
    backgroundColor: firstRef((d.backgroundColor as Partitions)?.iv),
  };
}

/** A new page's data: the title and slug in every language, no blocks yet. */
export function newPageData(title: string, slug: string): ContentData {
  return {
    title: Object.fromEntries(LANGUAGES.map((l) => [l, title])),
    critical: { iv: false },
    seo: Object.fromEntries(LANGUAGES.map((l) => [l, { schemaId: "component-seo", seotitle: title, slug }])),
    blocks: Object.fromEntries(LANGUAGES.map((l) => [l, []])),
  };
}

/** What the settings form changes, as a patch: the SEO component keeps its other fields (the description). */
export function settingsPatch(current: ContentData, next: Omit<PageSettings, "id" | "status" | "newStatus" | "version">): ContentData {
  const refs = (id: string) => ({ iv: id ? [id] : [] });
  return {
    title: { ...next.title },
    seo: Object.fromEntries(
      LANGUAGES.map((l) => {
        const seo = seoOf(current, l);
        return [l, { ...seo, schemaId: seo.schemaId ?? "component-seo", seotitle: next.seotitle[l], slug: next.slug[l] }];
      }),
    ),
    critical: { iv: next.critical },
    themesettings: refs(next.themesettings),
    backgroundColor: refs(next.backgroundColor),
  };
}

/** The state an editor sees: Changed is a published page with a pending draft. */
export function pageState(status: string, newStatus?: string | null): "Draft" | "Published" | "Changed" | "Archived" {
  if (status === "Published") return newStatus ? "Changed" : "Published";
  return status === "Archived" ? "Archived" : "Draft";
}
