import type { AuditLog } from "~/auth/audit.server";
import type { User } from "~/auth/users.server";
import { BLOCK_DEFINITIONS } from "~/blocks/registry";
import type { Block } from "~/blocks/types";
import { readJsonColumn, type DB } from "~/content/db";
import { newId } from "~/content/ids";
import { isPlainObject } from "~/content/validate";
import { own } from "~/lib/input";

/**
 * Templates: a selection of blocks saved under a name, to insert on any other page. Kept in their
 * own table (not as content items): they are the editors' tool, never shown to visitors, and need
 * no drafts, versions or languages. Blocks are stored in page form without ids; the editor gives
 * fresh ids on every insert (model.ts), so a template can be inserted any number of times.
 */

export const TEMPLATE_NAME_MAX = 80;
/** Blocks in one template, children counted too. */
export const TEMPLATE_MAX_BLOCKS = 100;
/** The blocks' JSON, in bytes. */
export const TEMPLATE_MAX_BYTES = 256 * 1024;
/** The list stops here: far more than anyone scrolls through in a side panel. */
const LIST_LIMIT = 500;

export interface TemplateSummary {
  id: string;
  name: string;
  /** Top-level blocks (a section with its children counts once). */
  blockCount: number;
  /** Who saved it, by name or e-mail; null once that user no longer exists. */
  createdBy: string | null;
  createdAt: string;
  /** Whether the user who asked may delete it (their own, or any for a superuser). */
  canDelete: boolean;
}

export interface Template extends TemplateSummary {
  blocks: Block[];
}

/** Why a template could not be saved, found or deleted: the endpoint turns each into plain words. */
export type TemplateProblem = "name" | "blocks" | "tooMany" | "tooLarge" | "unknownKind" | "notFound" | "forbidden";

export class TemplateError extends Error {
  constructor(
    readonly problem: TemplateProblem,
    /** For the log only (an unknown kind's name): never shown as is. */
    readonly detail?: string,
  ) {
    super(`template: ${problem}${detail ? ` (${detail})` : ""}`);
    this.name = "TemplateError";
  }
}

type Viewer = Pick<User, "id" | "superuser">;
type Author = Pick<User, "id" | "email" | "superuser">;
type Audit = Pick<AuditLog, "record">;

/** A name as stored: trimmed, 1–80 characters, no control characters (a name is one line in a list). */
export function templateName(value: unknown): string {
  if (typeof value !== "string") throw new TemplateError("name");
  const name = value.trim();
  if (!name || [...name].length > TEMPLATE_NAME_MAX || /\p{Cc}/u.test(name)) throw new TemplateError("name");
  return name;
}

/**
 * Page-form blocks checked and copied without their ids: an array of objects each naming a block
 * kind this site has; a section's children likewise, and no section inside a section (a page has
 * one nesting level). Anything else is refused whole rather than saved in part: the editor saving
 * a selection should get back exactly what they chose.
 */
export function templateBlocks(value: unknown): { blocks: Block[]; total: number } {
  if (!Array.isArray(value) || value.length === 0) throw new TemplateError("blocks");
  let total = 0;
  const walk = (list: unknown[], nested: boolean): Block[] =>
    list.map((entry) => {
      if (!isPlainObject(entry) || typeof entry.schemaId !== "string") throw new TemplateError("blocks");
      const definition = own(BLOCK_DEFINITIONS, entry.schemaId);
      if (!definition) throw new TemplateError("unknownKind", entry.schemaId.slice(0, 100));
      if (nested && definition.container) throw new TemplateError("blocks");
      // Counted as it goes, so a hostile list of a million entries stops at the 101st.
      if (++total > TEMPLATE_MAX_BLOCKS) throw new TemplateError("tooMany");
      const block: Block = { schemaId: entry.schemaId };
      for (const [key, field] of Object.entries(entry)) {
        if (key === "id" || key === "schemaId") continue;
        if (definition.container && key === definition.container.field) {
          if (!Array.isArray(field)) throw new TemplateError("blocks");
          // defineProperty: a field named "__proto__" (JSON.parse makes it an own key) stays a field.
          Object.defineProperty(block, key, { value: walk(field, true), enumerable: true, writable: true, configurable: true });
        } else Object.defineProperty(block, key, { value: field, enumerable: true, writable: true, configurable: true });
      }
      return block;
    });
  const blocks = walk(value, false);
  return { blocks, total };
}

const summaryQuery = (db: DB) =>
  db
    .selectFrom("editor_templates as t")
    .leftJoin("users as u", "u.id", "t.created_by")
    .select(["t.id", "t.name", "t.block_count", "t.created_by", "t.created_at", "u.name as user_name", "u.email as user_email"]);

type SummaryRow = { id: string; name: string; block_count: number; created_by: string; created_at: string; user_name: string | null; user_email: string | null };

const toSummary = (r: SummaryRow, viewer: Viewer): TemplateSummary => ({
  id: r.id,
  name: r.name,
  blockCount: Number(r.block_count),
  createdBy: r.user_name?.trim() || r.user_email || null,
  createdAt: r.created_at,
  canDelete: viewer.superuser || r.created_by === viewer.id,
});

/** Every template, newest first (without their blocks). */
export async function listTemplates(db: DB, viewer: Viewer): Promise<TemplateSummary[]> {
  const rows = await summaryQuery(db).orderBy("t.created_at", "desc").orderBy("t.id", "desc").limit(LIST_LIMIT).execute();
  return rows.map((r) => toSummary(r, viewer));
}

/** One template with its blocks, or undefined. */
export async function getTemplate(db: DB, id: string, viewer: Viewer): Promise<Template | undefined> {
  const row = await summaryQuery(db).select("t.blocks").where("t.id", "=", id).executeTakeFirst();
  if (!row) return undefined;
  const blocks = readJsonColumn(row.blocks);
  return { ...toSummary(row, viewer), blocks: Array.isArray(blocks) ? (blocks as Block[]) : [] };
}

/** Saves a selection as a template; audited. Throws TemplateError for what cannot be saved. */
export async function createTemplate(db: DB, audit: Audit, user: Author, input: { name: unknown; blocks: unknown }, now: Date = new Date()): Promise<TemplateSummary> {
  const name = templateName(input.name);
  const { blocks } = templateBlocks(input.blocks);
  const json = JSON.stringify(blocks);
  if (Buffer.byteLength(json, "utf8") > TEMPLATE_MAX_BYTES) throw new TemplateError("tooLarge");
  const id = newId();
  await db
    .insertInto("editor_templates")
    .values({ id, name, blocks: json, block_count: blocks.length, created_by: user.id, created_at: now.toISOString() })
    .execute();
  await audit.record(user, { action: "create-editor-template", itemId: id, detail: name });
  const row = await summaryQuery(db).where("t.id", "=", id).executeTakeFirstOrThrow();
  return toSummary(row, user);
}

/** Deletes a template: its author may, a superuser may delete any. Audited; answers the name it had. */
export async function deleteTemplate(db: DB, audit: Audit, user: Author, id: string): Promise<{ name: string }> {
  const row = await db.selectFrom("editor_templates").select(["name", "created_by"]).where("id", "=", id).executeTakeFirst();
  if (!row) throw new TemplateError("notFound");
  if (row.created_by !== user.id && !user.superuser) throw new TemplateError("forbidden");
  const result = await db.deleteFrom("editor_templates").where("id", "=", id).executeTakeFirst();
  // Someone else deleted it a moment ago: the same answer as if it had been gone already.
  if (Number(result.numDeletedRows) === 0) throw new TemplateError("notFound");
  await audit.record(user, { action: "delete-editor-template", itemId: id, detail: row.name });
  return { name: row.name };
}
