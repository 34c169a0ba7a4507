import type { AppLoadContext } from "react-router";
import { getPage } from "~/admin/pages/page-edit";
import { PALETTE_SCHEMA } from "~/admin/pages/block-rules";
import { PAGES_SCHEMA, slugOwner } from "~/admin/pages/page-slug";
import { BLOCK_DEFINITIONS } from "~/blocks/registry";
import type { Block } from "~/blocks/types";
import { flattenData } from "~/content/flatten";
import { assetUrl } from "~/content/public-api";
import type { ContentItem, NestedField, Schema } from "~/content/types";
import { LANGUAGES, localizedPath, type Language } from "~/i18n/languages";
import type { User } from "~/auth/users.server";
import { own } from "~/lib/input";
import { prepareContentPage, type RawPageData } from "~/site/content-pages.server";
import { loadBlockData } from "~/site/page.server";
import { findPageBySlug, loadSite } from "~/site/site.server";
import { labelled } from "./field-labels";
import { peopleNames } from "./people.server";
import type { EditorField, EditorPageMeta, EditorPayload, EditorSchema, PaletteEntry } from "./types";

/**
 * Edit mode on the public page (`?edit=1`, signed-in editors only): the page's current draft — a
 * page that exists only as a draft too — rendered with the real block components, plus what the
 * editor needs (§6). Nothing of it is cached or shown to visitors: the route answers `private,
 * no-store`, and the page cache never keeps answers to requests with a session cookie.
 */
export async function loadEditMode(context: AppLoadContext, user: User, language: Language, slug: string, url: URL) {
  const store = context.services.store;
  const site = await loadSite(context);
  // A live page by its live slug, else any page (draft or live) whose slug this is.
  const id = findPageBySlug(site, language, slug)?.id ?? (await slugOwner(store, language, slug));
  const item = id ? await getPage(store, id) : undefined;
  if (!item) return undefined;

  const [themes, colors, schemas, palette, people, library] = await Promise.all([
    store.query("core-theme-settings", {}, { unpublished: true, all: true, noTotal: true }),
    store.query("core-theme-colors", {}, { unpublished: true, all: true, noTotal: true }),
    store.listSchemas(),
    store.query(PALETTE_SCHEMA, {}, { all: true, noTotal: true }),
    peopleNames(context),
    // The asset library's most recent images, for the image picker (uploads add to it).
    context.services.content.assets(),
  ]);
  const refs = {
    themeIds: themes.items.map((t) => t.id),
    colors: Object.fromEntries(colors.items.map((c) => [c.id, String(c.data.hexcode?.iv ?? "")])),
  };
  const raw = flattenData(item.data, language) as RawPageData;
  const page = prepareContentPage(item.id, raw, refs, context.services.logger);
  const blockData = await loadBlockData(context, language, page.blocks, url);

  const blockSchemas = schemas.filter((s) => s.type === "Component" && own(BLOCK_DEFINITIONS, s.name));
  const editor: EditorPayload = {
    page: pageMeta(item, people, user.language),
    blocks: Object.fromEntries(LANGUAGES.map((l) => [l, storedBlocks(item, l)])) as Record<Language, Block[]>,
    schemas: blockSchemas.map((s) => editorSchema(s, user.language)),
    palette: palette.items
      .filter((p) => p.data.active?.iv !== false && typeof p.data.name?.iv === "string" && own(BLOCK_DEFINITIONS, p.data.name.iv as string))
      .map((p): PaletteEntry => {
        const text = (field: string) => String(p.data[field]?.[user.language] ?? p.data[field]?.de ?? p.data[field]?.iv ?? "");
        return { name: String(p.data.name!.iv), label: text("label") || String(p.data.name!.iv), description: text("description"), icon: text("icon"), category: text("category") || "content" };
      }),
    links: site.pages.map((p) => ({ id: p.id, title: p.title, path: { de: pathOf(p.slug.de, "de"), en: pathOf(p.slug.en, "en") } })),
    user: { name: user.name || user.email, language: user.language, superuser: user.superuser },
    colors: colors.items.map((c) => ({ name: String(c.data.name?.iv ?? c.id), hexcode: String(c.data.hexcode?.iv ?? "") })).filter((c) => /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(c.hexcode)),
    appName: context.services.env.SQUIDEX_APP_NAME,
    assets: library.items.filter((a) => a.mimeType.startsWith("image/")).map((a) => ({ id: a.id, fileName: a.fileName, url: assetUrl(a), width: a.pixelWidth, height: a.pixelHeight, mimeType: a.mimeType })),
  };
  return { page, blockData, editor };
}

/** The public path of a page's slug in a language (the home page has the slug "home"). */
export const pathOf = (slug: string, language: Language) => localizedPath(language, slug === "home" ? "/" : `/${slug}`);

/** A stored page's blocks in one language, exactly as stored (no fallback: each language has its own blocks). */
function storedBlocks(item: ContentItem, language: Language): Block[] {
  const value = (item.data.blocks as Record<string, unknown> | undefined)?.[language];
  return Array.isArray(value) ? (value.filter((b) => b && typeof b === "object" && !Array.isArray(b)) as Block[]) : [];
}

/** The page's state for the toolbar; people by name, never by their internal id. */
export function pageMeta(item: ContentItem, names: ReadonlyMap<string, string>, language: Language): EditorPageMeta {
  const d = item.data;
  const per = (read: (l: Language) => unknown) => Object.fromEntries(LANGUAGES.map((l) => [l, String(read(l) ?? "")])) as Record<Language, string>;
  const seo = (l: Language) => (d.seo as Record<string, { slug?: string } | undefined> | undefined)?.[l];
  const title = per((l) => (d.title as Record<string, unknown> | undefined)?.[l] ?? (d.title as Record<string, unknown> | undefined)?.de);
  const slug = per((l) => seo(l)?.slug || seo("de")?.slug || "");
  const someone = language === "de" ? "jemand anderes" : "someone else";
  return {
    id: item.id,
    status: item.status,
    newStatus: item.newStatus ?? null,
    version: item.version,
    title,
    path: { de: pathOf(slug.de, "de"), en: pathOf(slug.en, "en") },
    lastModified: item.lastModified,
    lastModifiedBy: names.get(item.lastModifiedBy) ?? (item.lastModifiedBy.startsWith("client:") ? (language === "de" ? "ein angebundenes Programm" : "a connected program") : someone),
  };
}

function editorField(f: NestedField & { nested?: NestedField[] }): EditorField {
  const p = f.properties;
  const out: EditorField = { name: f.name, label: p.label || f.name, fieldType: p.fieldType };
  const copy = ["hints", "editor", "isRequired", "defaultValue", "minLength", "maxLength", "minItems", "maxItems", "minValue", "maxValue", "allowedValues", "tags", "schemaIds"] as const;
  for (const key of copy) if (p[key] !== undefined) (out as unknown as Record<string, unknown>)[key] = p[key];
  if (f.nested?.length) out.nested = f.nested.map(editorField);
  return out;
}

function editorSchema(s: Schema, language: Language): EditorSchema {
  return {
    name: s.name,
    label: own(BLOCK_DEFINITIONS, s.name)?.palette.label[language] || s.properties.label || s.name,
    fields: s.fields.map((f) => labelled(editorField(f), language)),
    container: s.fields.some((f) => f.name === "blocks" && f.properties.fieldType === "Components"),
  };
}

export { PAGES_SCHEMA };
