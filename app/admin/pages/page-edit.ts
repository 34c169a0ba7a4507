import { notFound, versionConflict } from "~/content/errors";
import type { ContentStore } from "~/content/store";
import type { ContentData, ContentItem, WriteOptions } from "~/content/types";
import { isValidId } from "~/content/ids";
import { normalizePageSlug, PAGES_SCHEMA, slugOwner, slugProblem } from "./page-slug";

/** A page with its draft, or undefined. */
export function getPage(store: ContentStore, id: string): Promise<ContentItem | undefined> {
  return store.get(PAGES_SCHEMA, id, { unpublished: true });
}

/**
 * Changes a page quietly: a published page first gets a draft (state Changed), so the live page
 * stays as it is until it is published again. Both steps in one transaction (on a remote Squidex one
 * after the other: ContentStore.sequence), at the version the editor saw (a stale one is a conflict).
 */
export function patchPage(store: ContentStore, id: string, patch: ContentData, opts: Pick<WriteOptions, "by" | "note"> & { expectedVersion: number }): Promise<ContentItem> {
  return store.sequence(async (tx) => {
    const item = await getPage(tx, id);
    if (!item) throw notFound(`Content item "${id}" not found in "${PAGES_SCHEMA}".`);
    let expectedVersion = opts.expectedVersion;
    if (item.status === "Published" && !item.newStatus) expectedVersion = (await tx.createDraft(PAGES_SCHEMA, id, { ...opts })).version;
    return tx.patch(PAGES_SCHEMA, id, patch, { ...opts, expectedVersion });
  });
}

/** The version a form sent back (hidden input), or undefined when it is no whole number. */
export function formVersion(value: string | undefined): number | undefined {
  const n = Number(value);
  return value && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/**
 * The page a `{pagename}` in an admin URL names: its id (what the admin links use), or else, for
 * hand-typed addresses, its German slug. The caller redirects to the id's address.
 */
export async function pageByName(store: ContentStore, name: string): Promise<ContentItem | undefined> {
  if (!name || name.length > 200) return undefined;
  const byId = isValidId(name) ? await getPage(store, name) : undefined;
  if (byId) return byId;
  // Only what a page can have as its slug is looked up (NUL, `..`, spaces… never reach the store).
  const slug = normalizePageSlug(name);
  if (slugProblem(slug)) return undefined;
  const owner = await slugOwner(store, "de", slug);
  return owner ? getPage(store, owner) : undefined;
}

/**
 * Collections where every change is a draft until it is published (one model for pages and every
 * collection whose schema asks for it with the tag "drafts"): the live item stays as it is.
 */
export function keepsDrafts(schema: { name: string; properties?: { tags?: string[] } }): boolean {
  return schema.name === PAGES_SCHEMA || schema.properties?.tags?.includes("drafts") === true;
}

/**
 * Replaces an item's data as a draft: a published item without a draft first gets one (state
 * Changed), in the same transaction, at the version the editor saw.
 */
export function updateAsDraft(store: ContentStore, schemaName: string, id: string, data: ContentData, opts: Pick<WriteOptions, "by" | "note"> & { expectedVersion?: number }): Promise<ContentItem> {
  return store.sequence(async (tx) => {
    const item = await tx.get(schemaName, id, { unpublished: true });
    if (!item) throw notFound(`Content item "${id}" not found in "${schemaName}".`);
    let expectedVersion = opts.expectedVersion;
    if (item.status === "Published" && !item.newStatus) {
      if (expectedVersion !== undefined && expectedVersion !== item.version) throw versionConflict(expectedVersion, item.version);
      expectedVersion = (await tx.createDraft(schemaName, id, { ...opts, expectedVersion: item.version })).version;
    }
    return tx.update(schemaName, id, data, { ...opts, ...(expectedVersion !== undefined ? { expectedVersion } : {}) });
  });
}
