import type { AssetInfo, Block } from "~/blocks/types";
import type { FieldProperties, FieldType } from "~/content/types";
import type { Language } from "~/i18n/languages";

/**
 * What edit mode gets from the server besides the page as visitors would see it (§6: "edit mode
 * loads extra data: schemas, assets, backend navigation and full page data"). Plain data: it is
 * serialised into the page for the signed-in editor only (never cached, never for visitors).
 */
export interface EditorPayload {
  page: EditorPageMeta;
  /** The draft's blocks per language, as stored (the editor's documents start from these). */
  blocks: Record<Language, Block[]>;
  /** The block schemas' fields, for the fields panel and for new blocks' defaults. */
  schemas: EditorSchema[];
  /** The palette: active entries of core-settings-blocks whose block kind exists, in palette order. */
  palette: PaletteEntry[];
  /** Pages to link to (the link picker), in the edited page's languages. */
  links: Array<{ id: string; title: Record<Language, string>; path: Record<Language, string> }>;
  /** The signed-in editor: the editor's own texts follow the admin language. */
  user: { name: string; language: Language; superuser: boolean };
  /** Images of the asset library (the most recent), for the image picker and new blocks' placeholders. */
  assets: Array<AssetInfo & { id: string }>;
  /** The theme's colours, for colour fields' swatches. */
  colors: Array<{ name: string; hexcode: string }>;
  /** The content service's app name (uploads go to its asset API). */
  appName: string;
}

export interface EditorPageMeta {
  id: string;
  status: string;
  newStatus: string | null;
  version: number;
  title: Record<Language, string>;
  path: Record<Language, string>;
  lastModified: string;
  /** Who last changed the page, by name or e-mail (never an internal id). */
  lastModifiedBy: string;
}

/** A block schema's field as the fields panel reads it: its properties, its label in the editor's language. */
export type EditorField = Pick<
  FieldProperties,
  "hints" | "editor" | "isRequired" | "defaultValue" | "minLength" | "maxLength" | "minItems" | "maxItems" | "minValue" | "maxValue" | "allowedValues" | "tags" | "schemaIds"
> & {
  name: string;
  label: string;
  fieldType: FieldType;
  /** Array fields: the fields of each entry. */
  nested?: EditorField[];
};

export interface EditorSchema {
  name: string;
  label: string;
  fields: EditorField[];
  /** The block holds child blocks in its `blocks` field. */
  container: boolean;
}

export interface PaletteEntry {
  name: string;
  label: string;
  description: string;
  icon: string;
  category: string;
}

/** What the save endpoint answers: the page's new state, or why not. */
export interface SaveAnswer {
  ok: boolean;
  message?: string;
  page?: EditorPageMeta;
  /** A save against an older version: who changed the page meanwhile. */
  conflict?: { version: number; lastModifiedBy: string; lastModified: string };
}

/** One entry of a page's version history as listed (editor/history.server.ts): who by name or e-mail. */
export interface HistoryItem {
  id: number;
  version: number;
  kind: "draft" | "published" | "restored";
  /** UTC ISO. */
  at: string;
  by: string;
}

/** `GET /api/editor/pages/{id}/history`: newest first; `next` is the `before` of the following page. */
export interface HistoryListAnswer {
  ok: true;
  items: HistoryItem[];
  next: number | null;
}

/** `GET /api/editor/pages/{id}/history?entry=N`. */
export interface HistoryEntryAnswer extends HistoryItem {
  ok: true;
  title: Record<Language, string>;
  blocks: Record<Language, Block[]>;
}

/** A refusal of the history endpoint, or the answer to a restore (the page's new state and its blocks). */
export interface HistoryAnswer extends SaveAnswer {
  blocks?: Record<Language, Block[]>;
}
