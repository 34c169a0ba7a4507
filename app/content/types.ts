import type { Channel, Principal } from "./policy";
/**
 * The Squidex content model, as our content service stores and serves it.
 * Shapes follow the Squidex HTTP API (see shared/squidex-contract.md), so the embedded store and a
 * remote Squidex are interchangeable behind `ContentService`.
 */

export type FieldType =
  | "String"
  | "Number"
  | "Boolean"
  | "DateTime"
  | "Json"
  | "Tags"
  | "Assets"
  | "References"
  | "Geolocation"
  | "Array"
  | "Component"
  | "Components"
  | "RichText"
  | "UI";

export type Partitioning = "invariant" | "language";

export interface FieldProperties {
  /** Discriminator, always the first key (as in Squidex). */
  fieldType: FieldType;
  editor?: string;
  label?: string;
  hints?: string;
  placeholder?: string;
  isRequired?: boolean;
  defaultValue?: unknown;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minValue?: number;
  maxValue?: number;
  pattern?: string;
  allowedValues?: Array<string | number>;
  /** Free tags; form generation reads these (e.g. "isHidden"-like hints, "email"). */
  tags?: string[];
  /** Components/Component: names of the component schemas allowed. References: target schema names. */
  schemaIds?: string[];
  contentType?: "Unspecified" | "Html" | "Markdown";
  /**
   * Ours, not Squidex's: the field is read at size (filtered, sorted, looked up), so the schema gets
   * a typed side table with a database index on this field (see field-index.ts).
   */
  isIndexed?: boolean;
}

export interface NestedField {
  fieldId: number;
  name: string;
  isHidden?: boolean;
  /**
   * Squidex's lock: the field can no longer be changed, hidden, shown, enabled, disabled or deleted
   * through the Squidex API (nor, for an Array field, its entries). A lock cannot be undone.
   */
  isLocked?: boolean;
  /**
   * Squidex's "disabled": the values stay and the API still writes them; only Squidex's editor
   * stops offering them for editing. Kept and served; the site's own screens do not read it yet.
   */
  isDisabled?: boolean;
  properties: FieldProperties;
}

export interface SchemaField extends NestedField {
  partitioning: Partitioning;
  /** Array fields only. */
  nested?: NestedField[];
}

export interface SchemaProperties {
  label?: string;
  hints?: string;
  tags?: string[];
  /** Ours: a String field whose value gives each published item a unique stored slug (field-index.ts). */
  slugField?: string;
  /**
   * Squidex keeps these beside the properties (`category`, `previewUrls`, `fieldsInLists`,
   * `fieldsInReferences` of the SchemaDto); kept here and served in their places (squidex/schemas.ts).
   * Only Squidex's editor reads them; the site does not.
   */
  category?: string;
  previewUrls?: Record<string, string>;
  fieldsInLists?: string[];
  fieldsInReferences?: string[];
}

export type SchemaType = "Default" | "Singleton" | "Component";

/** What a schema is made of, without the bookkeeping the store adds. */
export interface SchemaInput {
  name: string;
  type?: SchemaType;
  isPublished?: boolean;
  properties?: SchemaProperties;
  /** Ids may be left out: the store keeps the id a field (or an entry's field) of the same name had, else gives the next free one. */
  fields: Array<Omit<SchemaField, "fieldId" | "nested"> & { fieldId?: number; nested?: Array<Omit<NestedField, "fieldId"> & { fieldId?: number }> }>;
}

export interface Schema {
  id: string;
  name: string;
  type: SchemaType;
  isPublished: boolean;
  properties: SchemaProperties;
  fields: SchemaField[];
  version: number;
  created: string;
  createdBy: string;
  lastModified: string;
  lastModifiedBy: string;
}

export type Status = "Draft" | "Published" | "Archived";
export const STATUSES: readonly Status[] = ["Draft", "Published", "Archived"];

/** `{ field: { iv: value } }` for invariant fields, `{ field: { de: v, en: v } }` for localised ones. */
export type ContentData = Record<string, Record<string, unknown>>;

export interface ContentItem {
  id: string;
  schemaName: string;
  schemaId: string;
  status: Status;
  /** Set when a published item has a pending draft ("Draft"). */
  newStatus?: Status;
  version: number;
  data: ContentData;
  created: string;
  createdBy: string;
  lastModified: string;
  lastModifiedBy: string;
  /** The stored slug of a published item whose schema names a `slugField` (embedded store only). */
  slug?: string;
  /** A status change waiting for its time (Squidex's ScheduleJob), on reads that ask for it (ContentStore.withSchedules). */
  scheduleJob?: ScheduleJob;
}

/** A status change set to happen at `dueTime` (UTC ISO); one at most per item (migration 0015, scheduler.ts). */
export interface ScheduleJob {
  id: string;
  status: Status;
  /** Actor ref token of whoever scheduled it ("subject:<user id>", "client:…"). */
  scheduledBy: string;
  dueTime: string;
}

/** A content item read for one language: every field is its plain value. */
export interface FlatItem<T = Record<string, unknown>> {
  id: string;
  schemaName: string;
  status: Status;
  newStatus?: Status;
  version: number;
  created: string;
  lastModified: string;
  /** See ContentItem.slug. */
  slug?: string;
  data: T;
}

export type FilterOp =
  | "eq"
  | "ne"
  | "lt"
  | "le"
  | "gt"
  | "ge"
  | "contains"
  | "startsWith"
  | "endsWith"
  | "in"
  | "empty"
  | "exists";

export type FilterNode =
  | { path: string; op: FilterOp; value?: unknown }
  | { and: FilterNode[] }
  | { or: FilterNode[] }
  | { not: FilterNode }
  /**
   * Internal only (no parser produces it): the value at `path` (or any element of it) is the id of a
   * published item of `schema` that matches `filter`. Runs in the database as a semi-join.
   */
  | { refersTo: { path: string; schema: string; filter: FilterNode } };

export interface SortNode {
  path: string;
  order?: "ascending" | "descending";
}

export interface ContentQuery {
  filter?: FilterNode;
  sort?: SortNode[];
  skip?: number;
  take?: number;
  ids?: string[];
  fullText?: string;
}

export interface ReadOptions {
  /** Include Draft/Archived items and pending drafts of published items. */
  unpublished?: boolean;
}

export interface WriteOptions {
  /** Optimistic concurrency: the version the writer last saw. */
  expectedVersion?: number;
  /** Actor ref token, e.g. "subject:editor@example.org" or "client:praxisnetz:default" (derived from `by` when given). */
  actor?: string;
  /**
   * Who is writing: the store asks the authorization policy (policy.ts) before the write and records
   * it in the audit log with it. Unset only for the app's own writes (seed, visitor flows).
   */
  by?: Principal;
  /** Which door the write comes through, for the policy (policy.ts, Channel); "plain" when unset. */
  via?: Channel;
  /** What the audit log calls the write, when the caller knows better than the store ("rename-page"), and a short note. */
  note?: AuditNote;
}

/** How a write is named in the audit log. */
export interface AuditNote {
  action?: string;
  detail?: string | null;
}

export interface CreateOptions extends WriteOptions {
  publish?: boolean;
  id?: string;
}

export interface Asset {
  id: string;
  fileName: string;
  slug: string;
  mimeType: string;
  fileSize: number;
  fileHash: string;
  fileVersion: number;
  type: "Image" | "Audio" | "Video" | "Unknown";
  pixelWidth?: number;
  pixelHeight?: number;
  tags: string[];
  parentId: string;
  version: number;
  created: string;
  createdBy: string;
  lastModified: string;
  lastModifiedBy: string;
  /** Squidex's annotation metadata: flat texts, numbers and flags (the pixel sizes are the fields above). */
  metadata: AssetMetadata;
  /** Served only to a signed-in person or a client token. */
  isProtected: boolean;
}

export type AssetMetadata = Record<string, string | number | boolean>;

/** What changed in the store: told to caches (and, through the change feed, to the other app nodes). */
export interface ContentChange {
  kind: "schema" | "content" | "asset" | "asset-folder";
  schemaName?: string;
  id: string;
  /** Reported by another app node (see change-feed.ts), not made here. */
  remote?: boolean;
}
