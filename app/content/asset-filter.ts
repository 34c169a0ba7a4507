import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import type { Database } from "./db";
import { badRequest } from "./errors";
import type { FilterNode } from "./types";

/**
 * Squidex's asset filters (`$filter` on `api/apps/{app}/assets`, `filter` in its JSON query `q`) as
 * SQL over the assets table: the OData parser's tree (odata.ts), with the asset's own fields in
 * place of `data`. Text comparisons of contains/startsWith/endsWith ignore case; `tags eq 'x'`
 * means the asset has the tag x. Values go in as parameters, never as text of the statement.
 */
const TEXT = { id: "id", fileName: "file_name", slug: "slug", mimeType: "mime_type", fileHash: "file_hash", type: "type", parentId: "parent_id", created: "created", createdBy: "created_by", lastModified: "last_modified", lastModifiedBy: "last_modified_by" } as const;
const NUMBER = { fileSize: "file_size", fileVersion: "file_version", version: "version", "metadata.pixelWidth": "pixel_width", "metadata.pixelHeight": "pixel_height", pixelWidth: "pixel_width", pixelHeight: "pixel_height" } as const;
const FIELDS = [...Object.keys(TEXT), ...Object.keys(NUMBER), "isImage", "isProtected", "tags"].filter((f) => !f.startsWith("metadata."));

type EB = ExpressionBuilder<Database, "assets">;

const like = (text: string) => text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);

function leaf(eb: EB, path: string, op: string, value: unknown): Expression<SqlBool> {
  const fail = (why: string) => badRequest(`Asset filter on "${path}": ${why}`);
  if (path === "isImage") {
    if (op !== "eq" && op !== "ne") throw fail("use eq or ne with true or false.");
    if (typeof value !== "boolean") throw fail("the value must be true or false.");
    return eb("type", value === (op === "eq") ? "=" : "<>", "Image");
  }
  if (path === "isProtected") {
    if (op !== "eq" && op !== "ne") throw fail("use eq or ne with true or false.");
    if (typeof value !== "boolean") throw fail("the value must be true or false.");
    return eb("is_protected", "=", value === (op === "eq") ? 1 : 0);
  }
  if (path === "tags") {
    const tags = op === "in" ? value : [value];
    if ((op !== "eq" && op !== "in" && op !== "ne") || !Array.isArray(tags) || !tags.every((t) => typeof t === "string"))
      throw fail("use eq, ne or in with tag names, e.g. tags eq 'logo'.");
    // The tags column holds a JSON array of strings: an element is its JSON text between commas or brackets.
    const has = eb.or(tags.map((t) => sql<SqlBool>`tags like ${`%${like(JSON.stringify(t))}%`} escape '\\'`));
    return op === "ne" ? eb.not(has) : has;
  }
  const column = Object.hasOwn(TEXT, path) ? TEXT[path as keyof typeof TEXT] : Object.hasOwn(NUMBER, path) ? NUMBER[path as keyof typeof NUMBER] : undefined;
  if (!column) throw badRequest(`Assets can be filtered by ${FIELDS.join(", ")} (and metadata/pixelWidth, metadata/pixelHeight), not by "${path.slice(0, 60)}".`);
  const numeric = Object.hasOwn(NUMBER, path);
  const scalar = (v: unknown) => {
    if (numeric ? typeof v !== "number" || !Number.isFinite(v) : typeof v !== "string") throw fail(numeric ? "the value must be a number." : "the value must be a text in quotes.");
    return v as string | number;
  };
  switch (op) {
    case "eq":
    case "ne":
    case "lt":
    case "le":
    case "gt":
    case "ge":
      return eb(column, ({ eq: "=", ne: "<>", lt: "<", le: "<=", gt: ">", ge: ">=" } as const)[op], scalar(value));
    case "in":
      if (!Array.isArray(value) || value.length === 0) throw fail("in needs a list of values.");
      return eb(column, "in", value.map(scalar));
    case "contains":
    case "startsWith":
    case "endsWith": {
      if (numeric) throw fail(`${op} works on texts only.`);
      const text = like(scalar(value) as string);
      const pattern = op === "contains" ? `%${text}%` : op === "startsWith" ? `${text}%` : `%${text}`;
      return sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
    }
    case "empty":
      return numeric ? eb(column, "is", null) : eb.or([eb(column, "is", null), eb(column, "=", "")]);
    case "exists":
      return eb(column, "is not", null);
    default:
      throw fail(`the operator ${op} is not known.`);
  }
}

/** The condition of a filter tree, for `selectFrom("assets").where(...)`. */
export function assetCondition(eb: EB, node: FilterNode): Expression<SqlBool> {
  if ("and" in node) return eb.and(node.and.map((n) => assetCondition(eb, n)));
  if ("or" in node) return eb.or(node.or.map((n) => assetCondition(eb, n)));
  if ("not" in node) return eb.not(assetCondition(eb, node.not));
  if ("refersTo" in node) throw badRequest("Assets cannot be filtered by references.");
  return leaf(eb, node.path, node.op, node.value);
}
