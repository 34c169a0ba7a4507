import type { ContentItem, FieldProperties, Schema } from "~/content/types";
import type { ContentStore } from "~/content/store";
import { thumbnailUrl } from "~/admin/assets/query";
import type { ControlsData } from "./context";
import { detailOf } from "./pick.server";
import { titleOf } from "~/admin/content/schema-route.server";

/** At most this many chosen items and files are named per form (a form shows no more). */
const MAX_NAMED = 500;

/**
 * What the controls of one item's form need from the store (see context.tsx): the theme's colours
 * for swatches, and names for the items and files the item refers to.
 */
export async function controlsData(
  store: ContentStore,
  schema: Schema,
  item: ContentItem | null,
  options: { superuser: boolean; appName: string; mapStyleUrl?: string },
): Promise<ControlsData> {
  const colors = schema.fields.some(
    (f) =>
      f.properties.fieldType === "String" &&
      (f.properties.editor === "Color" || f.name === "hexcode"),
  )
    ? (
        await store.query(
          "core-theme-colors",
          {},
          { unpublished: true, all: true, noTotal: true },
        )
      ).items.flatMap((c) => {
        const name = c.data.name?.iv;
        const hex = c.data.hexcode?.iv;
        return typeof name === "string" && typeof hex === "string"
          ? [{ name, hex }]
          : [];
      })
    : [];
  const { references, assets } = item ? referredIds(schema, item) : { references: new Map<string, Set<string>>(), assets: new Set<string>() };
  return {
    superuser: options.superuser,
    appName: options.appName,
    ...(options.mapStyleUrl ? { mapStyleUrl: options.mapStyleUrl } : {}),
    colors,
    titles: await titlesOf(store, references),
    assets: await assetsOf(store, assets),
  };
}

/**
 * The ids an item refers to: items by the collections their field allows, and files; in top-level
 * fields of any partition and in the rows of list fields.
 */
export function referredIds(schema: Schema, item: ContentItem): { references: Map<string, Set<string>>; assets: Set<string> } {
  const references = new Map<string, Set<string>>();
  const assets = new Set<string>();
  const take = (p: FieldProperties, value: unknown) => {
    if (!Array.isArray(value)) return;
    const ids = value.filter((v): v is string => typeof v === "string").slice(0, MAX_NAMED);
    if (p.fieldType === "Assets") ids.forEach((id) => assets.add(id));
    if (p.fieldType === "References")
      for (const target of p.schemaIds ?? []) {
        const set = references.get(target) ?? new Set<string>();
        ids.forEach((id) => set.add(id));
        references.set(target, set);
      }
  };
  for (const field of schema.fields) {
    for (const value of Object.values(item.data[field.name] ?? {})) {
      if (field.properties.fieldType === "Array" && Array.isArray(value)) {
        for (const row of value.slice(0, MAX_NAMED))
          if (row && typeof row === "object") for (const nested of field.nested ?? []) take(nested.properties, (row as Record<string, unknown>)[nested.name]);
      } else take(field.properties, value);
    }
  }
  return { references, assets };
}

async function titlesOf(store: ContentStore, references: Map<string, Set<string>>): Promise<ControlsData["titles"]> {
  const titles: ControlsData["titles"] = {};
  for (const [schemaName, ids] of references) {
    const target = await store.getSchema(schemaName);
    if (!target || target.type === "Component" || !ids.size) continue;
    const { items } = await store.query(schemaName, { ids: [...ids].slice(0, MAX_NAMED), take: MAX_NAMED }, { unpublished: true, noTotal: true });
    for (const found of items) {
      const detail = detailOf(target, found);
      titles[found.id] = { title: titleOf(target, found), ...(detail ? { detail } : {}) };
    }
  }
  return titles;
}

async function assetsOf(store: ContentStore, ids: Set<string>): Promise<ControlsData["assets"]> {
  if (!ids.size) return {};
  const rows = await store.db.selectFrom("assets").select(["id", "file_name", "slug", "mime_type"]).where("id", "in", [...ids].slice(0, MAX_NAMED)).execute();
  return Object.fromEntries(rows.map((r) => [r.id, { fileName: r.file_name, url: thumbnailUrl({ id: r.id, slug: r.slug, mimeType: r.mime_type }), mimeType: r.mime_type }]));
}
