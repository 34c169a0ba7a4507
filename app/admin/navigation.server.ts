import { flattenItem } from "~/content/flatten";
import type { ContentStore } from "~/content/store";
import type { Language } from "~/i18n/languages";

/** One entry of the admin menu (core-backend-navigation, spec §3), in the editor's language. */
export interface NavEntry {
  id: string;
  label: string;
  slug: string;
  icon: string | null;
  type: "link" | "group" | "divider";
  component: string | null;
  order: number;
  children: Array<{ label: string; slug: string }>;
}

const text = (v: unknown) => (typeof v === "string" ? v : "");
/** Only paths inside the admin area (or in-page anchors for dividers) become links. */
const adminPath = (v: string) => (/^\/manage(\/|$)/.test(v) && !v.includes("//") ? v : "");

/** The published menu, ordered; a broken entry is left out rather than breaking the layout. */
export async function loadNavigation(store: ContentStore, language: Language): Promise<NavEntry[]> {
  const { items } = await store.query("core-backend-navigation", { take: 200, sort: [{ path: "data.order", order: "ascending" }] });
  const entries: NavEntry[] = [];
  for (const item of items) {
    const d = flattenItem(item, language).data;
    const type = d.type === "group" || d.type === "divider" ? d.type : "link";
    const slug = type === "divider" ? "" : adminPath(text(d.slug));
    if (type !== "divider" && !slug) continue;
    const children = Array.isArray(d.children)
      ? (d.children as unknown[]).flatMap((c) => {
          const child = c && typeof c === "object" ? (c as Record<string, unknown>) : {};
          const path = adminPath(text(child.slug));
          return path && text(child.label) ? [{ label: text(child.label), slug: path }] : [];
        })
      : [];
    entries.push({ id: item.id, label: text(d.label) || slug, slug, icon: text(d.icon) || null, type, component: text(d.component) || null, order: typeof d.order === "number" ? d.order : 0, children });
  }
  return entries.sort((a, b) => a.order - b.order);
}
