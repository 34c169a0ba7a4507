import type { Block } from "~/blocks/types";
import { readJsonColumn, type DB } from "~/content/db";
import type { Language } from "~/i18n/languages";

/**
 * The page editor's version history (table `page_history`, migration 0010): what a page's blocks
 * and title were after a save, a publication or a restore, who made them and when. Autosave writes
 * a draft every few seconds while someone types; keeping each of those would bury the versions an
 * editor wants to find, so a run of saves by one editor is one rolling "draft" entry.
 */

export type VersionKind = "draft" | "published" | "restored";

export const VERSION_KINDS: readonly VersionKind[] = ["draft", "published", "restored"];

/** A rolling draft entry takes the same editor's saves for this long after its last one. */
export const ROLLING_DRAFT_MS = 10 * 60 * 1000;

/** Entries kept per page: the oldest beyond go (a page edited daily for years stays small). */
export const MAX_VERSIONS_PER_PAGE = 200;

/** The largest id the table can hold (PostgreSQL's serial is a 32-bit integer): larger ones are asked about no further. */
export const MAX_ENTRY_ID = 2 ** 31 - 1;

export interface VersionInput {
  pageId: string;
  version: number;
  kind: VersionKind;
  blocks: Record<Language, Block[]>;
  title: Record<Language, string>;
  /** Who: `subject:<user id>`, as the content's lastModifiedBy. */
  actor: string;
  /** When (UTC ISO); now when left out. */
  at?: string;
}

/** One entry as listed: everything but the blocks. */
export interface VersionSummary {
  id: number;
  version: number;
  kind: VersionKind;
  title: Record<Language, string>;
  actor: string;
  at: string;
}

export interface VersionEntry extends VersionSummary {
  pageId: string;
  blocks: Record<Language, Block[]>;
}

/**
 * Keeps a version of a page. A "draft" by the same editor as the page's newest entry, within
 * ROLLING_DRAFT_MS of it, replaces that entry's version, blocks, title and time instead of adding
 * one; "published" and "restored" are always entries of their own (and end the rolling draft: the
 * next save starts a new one). Returns the entry's id.
 */
export async function recordVersion(db: DB, input: VersionInput): Promise<number> {
  const at = input.at ?? new Date().toISOString();
  const blocks = JSON.stringify(input.blocks);
  const title = JSON.stringify(input.title);
  return db.transaction().execute(async (tx) => {
    if (input.kind === "draft") {
      const newest = await tx
        .selectFrom("page_history")
        .select(["id", "kind", "by_actor", "at"])
        .where("page_id", "=", input.pageId)
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirst();
      const age = newest ? Date.parse(at) - Date.parse(newest.at) : Infinity;
      if (newest && newest.kind === "draft" && newest.by_actor === input.actor && age >= 0 && age < ROLLING_DRAFT_MS) {
        await tx.updateTable("page_history").set({ version: input.version, blocks, title, at }).where("id", "=", newest.id).execute();
        return newest.id;
      }
    }
    const row = await tx
      .insertInto("page_history")
      .values({ page_id: input.pageId, version: input.version, kind: input.kind, blocks, title, by_actor: input.actor, at })
      .returning("id")
      .executeTakeFirstOrThrow();
    // The cap: everything older than the page's MAX_VERSIONS_PER_PAGE-th newest entry goes.
    const last = await tx
      .selectFrom("page_history")
      .select("id")
      .where("page_id", "=", input.pageId)
      .orderBy("id", "desc")
      .offset(MAX_VERSIONS_PER_PAGE - 1)
      .limit(1)
      .executeTakeFirst();
    if (last) await tx.deleteFrom("page_history").where("page_id", "=", input.pageId).where("id", "<", last.id).execute();
    return Number(row.id);
  });
}

/**
 * A page's entries, newest first, `limit` at a time (1–100, default 20); `before` is the id of the
 * last entry of the previous page. `next` is the `before` of the following page, null at the end.
 */
export async function listVersions(db: DB, pageId: string, opts: { limit?: number; before?: number } = {}): Promise<{ items: VersionSummary[]; next: number | null }> {
  const limit = Math.min(100, Math.max(1, Math.floor(opts.limit ?? 20)));
  let query = db
    .selectFrom("page_history")
    .select(["id", "version", "kind", "title", "by_actor", "at"])
    .where("page_id", "=", pageId)
    .orderBy("id", "desc")
    .limit(limit + 1);
  // A `before` beyond every possible id is no limit (and PostgreSQL would refuse it as out of range).
  if (opts.before !== undefined && opts.before <= MAX_ENTRY_ID) query = query.where("id", "<", Math.ceil(opts.before));
  const rows = await query.execute();
  const items = rows.slice(0, limit).map(
    (r): VersionSummary => ({ id: Number(r.id), version: Number(r.version), kind: r.kind as VersionKind, title: parseTitle(r.title), actor: r.by_actor, at: r.at }),
  );
  return { items, next: rows.length > limit ? items[items.length - 1]!.id : null };
}

/** One entry of a page with its blocks, or undefined (no such entry, or another page's). */
export async function getVersion(db: DB, pageId: string, entryId: number): Promise<VersionEntry | undefined> {
  if (!Number.isSafeInteger(entryId) || entryId < 1 || entryId > MAX_ENTRY_ID) return undefined;
  const r = await db.selectFrom("page_history").selectAll().where("id", "=", entryId).where("page_id", "=", pageId).executeTakeFirst();
  if (!r) return undefined;
  const blocks = readJsonColumn(r.blocks) as Partial<Record<Language, unknown>>;
  const list = (v: unknown) => (Array.isArray(v) ? (v.filter((b) => b && typeof b === "object" && !Array.isArray(b)) as Block[]) : []);
  return {
    id: Number(r.id),
    pageId: r.page_id,
    version: Number(r.version),
    kind: r.kind as VersionKind,
    title: parseTitle(r.title),
    actor: r.by_actor,
    at: r.at,
    blocks: { de: list(blocks?.de), en: list(blocks?.en) },
  };
}

function parseTitle(json: string): Record<Language, string> {
  const t = (readJsonColumn(json) ?? {}) as Partial<Record<Language, unknown>>;
  return { de: String(t.de ?? ""), en: String(t.en ?? "") };
}

/** A stored page's blocks and title in the shape the history keeps (missing languages are empty). */
export function versionOfData(data: Record<string, unknown>): { blocks: Record<Language, Block[]>; title: Record<Language, string> } {
  const blocks = (data.blocks ?? {}) as Partial<Record<Language, unknown>>;
  const title = (data.title ?? {}) as Partial<Record<Language, unknown>>;
  const list = (v: unknown) => (Array.isArray(v) ? (v as Block[]) : []);
  return { blocks: { de: list(blocks.de), en: list(blocks.en) }, title: { de: String(title.de ?? ""), en: String(title.en ?? "") } };
}
