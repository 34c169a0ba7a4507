import { sql, type RawBuilder } from "kysely";
import { DEFAULT_LANGUAGE } from "../i18n/languages";
import type { Dialect } from "./db";
import { indexedField, listNeedle, type IndexedField, type IndexSpec } from "./field-index";
import { fold, searchWords } from "./fold";
import { DEFAULT_SORT } from "./query";
import type { ContentQuery, FilterNode, FilterOp, SortNode } from "./types";

/**
 * Compiles a content query (Squidex filter, sort, ids, full text) to SQL over the JSON documents in
 * `contents`, for SQLite (json_extract / json_type / json_each / json_tree) and PostgreSQL (jsonb).
 * The semantics are those of the in-memory evaluator in `query.ts` (the test oracle), operator by
 * operator: null and missing alike, array-any matching, language fallback, one total order of JSON
 * values for sorting, case- and accent-insensitive text operators through `pn_fold` (see fold.ts).
 *
 * Every predicate compiles to a definite true/false (never SQL NULL), so `not` means "does not match".
 * User values are bound parameters; field names and path segments are inlined only after checking
 * them against a strict pattern (anything else names a value that does not exist).
 */
type Sql = RawBuilder<unknown>;

/**
 * `timestamp`: always set, always an ISO string of one format (written by the store itself), so its
 * plain order is the JSON order and an index on it can serve ORDER BY (the admin's "newest first").
 */
const META_COLUMNS: ReadonlyMap<string, { column: string; number?: boolean; timestamp?: boolean }> = new Map([
  ["id", { column: "id" }],
  ["created", { column: "created", timestamp: true }],
  ["createdBy", { column: "created_by" }],
  ["lastModified", { column: "last_modified", timestamp: true }],
  ["lastModifiedBy", { column: "last_modified_by" }],
  ["status", { column: "status" }],
  ["newStatus", { column: "new_status" }],
  ["version", { column: "version", number: true }],
]);
const PUBLISHED_STAMP: ReadonlySet<string> = new Set(["version", "last_modified", "last_modified_by"]);
const SEGMENT = /^[A-Za-z0-9_-]{1,100}$/;
const MASTER = DEFAULT_LANGUAGE;

/** Where a value lives: a place in the JSON document, a column, or nowhere. */
type Value =
  | { kind: "json"; sqlite: { doc: Sql; path: Sql }; pg: Sql }
  | { kind: "indexed"; field: IndexedField; alias: string }
  | { kind: "column"; column: Sql; number: boolean; /** A side table's id or slug: text, never NULL, "C"-collated. */ key?: boolean; timestamp?: boolean }
  | { kind: "missing" };
/** A value read from the JSON document or a column (side-table columns are compiled apart). */
type Plain = Exclude<Value, { kind: "indexed" }>;

export interface CompileContext {
  dialect: Dialect;
  /** The table alias the query reads (`c`), and whether it reads live (published) or editor data. */
  alias: string;
  published: boolean;
  language: string;
  /**
   * When the query reads a schema's side table (published items only): its alias and shape. Paths to
   * its columns then read the column, which holds exactly the value the JSON path would give.
   */
  index?: { alias: string; spec: IndexSpec };
  /** Side tables by schema name, for `refersTo` targets. */
  indexes?: ReadonlyMap<string, IndexSpec>;
  /**
   * Editors' reads (not published) of a schema with a side table: its search text answers a full
   * text search over exactly its search fields for the items whose live data is their data.
   */
  searchIndex?: IndexSpec;
}

export class SqlCompiler {
  /** Whether what was compiled so far reads the `contents` row (and not only the side table). */
  needsContents = false;

  constructor(private readonly ctx: CompileContext) {}

  private get pg() {
    return this.ctx.dialect === "postgres";
  }

  private doc(alias = this.ctx.alias, published = this.ctx.published): Sql {
    this.needsContents = true;
    return sql.ref(`${alias}.${published ? "published_data" : "data"}`);
  }

  /** The column a path names in the side table, if the query has one and the path is a plain field. */
  private indexed(parts: string[]): Value | undefined {
    const index = this.ctx.index;
    if (!index || !this.ctx.published) return undefined;
    if (parts.length === 1) {
      if (parts[0] === "id") return { kind: "column", column: sql.ref(`${index.alias}.id`), number: false, key: true };
      if (parts[0] === "slug" && index.spec.slugField) return { kind: "column", column: sql.ref(`${index.alias}.slug`), number: false, key: true };
      return undefined;
    }
    if (parts[0] !== "data" || parts.length > 3 || (parts.length === 3 && parts[2] !== "iv")) return undefined;
    const field = indexedField(index.spec, parts[1]!);
    return field ? { kind: "indexed", field, alias: index.alias } : undefined;
  }

  // ---- values ----------------------------------------------------------------------------------

  /** The value a Squidex path names (see resolvePath in query.ts). */
  valueAt(path: string, alias = this.ctx.alias, published = this.ctx.published, useIndex = true): Value {
    const parts = path.split(/[./]/).filter(Boolean);
    if (useIndex && alias === this.ctx.alias && published === this.ctx.published) {
      const column = this.indexed(parts);
      if (column) return column;
    }
    if (parts.length === 1) {
      const meta = META_COLUMNS.get(parts[0]!);
      if (!meta) return { kind: "missing" };
      if (meta.column === "new_status" && published) return { kind: "missing" };
      this.needsContents = true;
      const column = sql.ref(`${alias}.${meta.column}`);
      // Live data is read with the stamp it was published with (migration 0009), not a pending draft's,
      // so what visitors filter and sort on is what they are shown. Its index: contents_schema_published_modified.
      const live = published && PUBLISHED_STAMP.has(meta.column) ? sql`coalesce(${sql.ref(`${alias}.published_${meta.column}`)}, ${column})` : column;
      return { kind: "column", column: live, number: !!meta.number, ...(meta.timestamp ? { timestamp: true } : {}) };
    }
    if (parts[0] !== "data" || !parts.every((p) => SEGMENT.test(p))) return { kind: "missing" };
    const doc = this.doc(alias, published);
    const field = parts[1]!;
    const alt = field.replace(/_/g, "-");
    const rest = parts.slice(2);
    if (this.pg) {
      const at = (name: string) => sql`(${doc} -> ${sql.lit(name)})`;
      let partitions = at(field);
      if (alt !== field) partitions = sql`(case when coalesce(${at(field)}, 'null'::jsonb) <> 'null'::jsonb then ${at(field)} else ${at(alt)} end)`;
      let value: Sql;
      if (rest.length === 0) value = this.pgFallback(partitions);
      else value = rest.reduce<Sql>((v, key) => sql`(case when jsonb_typeof(${v}) = 'object' then ${v} -> ${sql.lit(key)} end)`, partitions);
      return { kind: "json", sqlite: { doc, path: sql`null` }, pg: value };
    }
    const pathOf = (keys: string[]) => sql.lit(`$${keys.map((k) => `."${k}"`).join("")}`);
    let base: Sql = pathOf([field]);
    if (alt !== field) base = sql`(case when coalesce(json_type(${doc}, ${pathOf([field])}), 'null') <> 'null' then ${pathOf([field])} else ${pathOf([alt])} end)`;
    let at: Sql;
    if (rest.length === 0) at = this.sqliteFallback(doc, base);
    else {
      // Descend only through objects: a path never indexes into an array.
      at = base;
      for (const key of rest) {
        const parent = at;
        at = sql`(case when json_type(${doc}, ${parent}) = 'object' then ${parent} || ${sql.lit(`."${key}"`)} else null end)`;
      }
    }
    return { kind: "json", sqlite: { doc, path: at }, pg: sql`null` };
  }

  /** `data.field` without a partition: iv, else the query language unless empty, else German. */
  private sqliteFallback(doc: Sql, base: Sql): Sql {
    const sub = (key: string) => sql`(${base} || ${sql.lit(`."${key}"`)})`;
    const object = sql`json_type(${doc}, ${base}) = 'object'`;
    const lang = this.ctx.language;
    if (lang === MASTER || !SEGMENT.test(lang))
      return sql`(case when ${object} and json_type(${doc}, ${sub("iv")}) is not null then ${sub("iv")} when ${object} then ${sub(MASTER)} else null end)`;
    const t = sql`json_type(${doc}, ${sub(lang)})`;
    return sql`(case when not (${object}) then null when json_type(${doc}, ${sub("iv")}) is not null then ${sub("iv")} when coalesce(${t}, 'null') <> 'null' and not (${t} = 'text' and json_extract(${doc}, ${sub(lang)}) = '') then ${sub(lang)} else ${sub(MASTER)} end)`;
  }

  private pgFallback(partitions: Sql): Sql {
    const object = sql`jsonb_typeof(${partitions}) = 'object'`;
    const lang = this.ctx.language;
    const key = (k: string) => sql`(${partitions} -> ${sql.lit(k)})`;
    if (lang === MASTER || !SEGMENT.test(lang)) return sql`(case when ${object} and ${partitions} ? 'iv' then ${key("iv")} when ${object} then ${key(MASTER)} end)`;
    return sql`(case when not coalesce(${object}, false) then null when ${partitions} ? 'iv' then ${key("iv")} when coalesce(${key(lang)}, 'null'::jsonb) not in ('null'::jsonb, '""'::jsonb) then ${key(lang)} else ${key(MASTER)} end)`;
  }

  /** The value a path names in the JSON document, never a side-table column. */
  private plainAt(path: string): Plain {
    return this.valueAt(path, this.ctx.alias, this.ctx.published, false) as Plain;
  }

  /** 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object', or NULL when missing. */
  private typeOf(v: Plain): Sql {
    if (v.kind === "missing") return sql`null`;
    if (v.kind === "column") return v.number ? sql`(case when ${v.column} is null then null else 'number' end)` : sql`(case when ${v.column} is null then null else 'string' end)`;
    if (this.pg) return sql`jsonb_typeof(${v.pg})`;
    return sql`(case json_type(${v.sqlite.doc}, ${v.sqlite.path}) when 'true' then 'boolean' when 'false' then 'boolean' when 'integer' then 'number' when 'real' then 'number' when 'text' then 'string' else json_type(${v.sqlite.doc}, ${v.sqlite.path}) end)`;
  }

  private text(v: Plain): Sql {
    if (v.kind === "missing") return sql`null`;
    if (v.kind === "column") return this.pg ? sql`(${v.column}::text collate "C")` : sql`${v.column}`;
    return this.pg ? sql`((${v.pg} #>> '{}') collate "C")` : sql`json_extract(${v.sqlite.doc}, ${v.sqlite.path})`;
  }

  private number(v: Plain): Sql {
    if (v.kind === "missing") return sql`null`;
    if (v.kind === "column") return this.pg ? sql`(${v.column})::numeric` : sql`${v.column}`;
    return this.pg ? sql`(case when jsonb_typeof(${v.pg}) = 'number' then (${v.pg} #>> '{}')::numeric end)` : sql`json_extract(${v.sqlite.doc}, ${v.sqlite.path})`;
  }

  /** 0 for false, 1 for true (only meaningful when the type is boolean). */
  private bool(v: Plain): Sql {
    if (v.kind !== "json") return sql`null`;
    return this.pg ? sql`(case when ${v.pg} = 'true'::jsonb then 1 else 0 end)` : sql`(case when json_type(${v.sqlite.doc}, ${v.sqlite.path}) = 'true' then 1 else 0 end)`;
  }

  /** EXISTS over the elements of an array value. */
  private anyElement(v: Plain, predicate: (element: Plain) => Sql): Sql {
    if (v.kind !== "json") return this.false();
    if (this.pg) {
      const e: Plain = { kind: "json", sqlite: v.sqlite, pg: sql`e.value` };
      return sql`exists (select 1 from jsonb_array_elements(${v.pg}) as e(value) where ${predicate(e)})`;
    }
    const e: Plain = { kind: "json", sqlite: { doc: v.sqlite.doc, path: sql`e.fullkey` }, pg: v.pg };
    return sql`exists (select 1 from json_each(${v.sqlite.doc}, ${v.sqlite.path}) as e where ${predicate(e)})`;
  }

  private collate(text: Sql): Sql {
    return this.pg ? sql`(${text} collate "C")` : text;
  }

  private true(): Sql {
    return this.pg ? sql`true` : sql`1`;
  }
  private false(): Sql {
    return this.pg ? sql`false` : sql`0`;
  }
  /** A predicate that is never NULL. */
  private definite(p: Sql): Sql {
    return this.pg ? sql`coalesce((${p}), false)` : sql`coalesce((${p}), 0)`;
  }

  // ---- predicates --------------------------------------------------------------------------------

  private isNullish(v: Plain): Sql {
    const t = this.typeOf(v);
    return sql`(${t} is null or ${t} = 'null')`;
  }

  private eq(v: Plain, x: unknown): Sql {
    // A side table's key column: a plain comparison its index can answer.
    if (v.kind === "column" && v.key) return typeof x === "string" ? sql`(${v.column} = ${x})` : this.false();
    const t = this.typeOf(v);
    if (x === null || x === undefined) return this.isNullish(v);
    if (typeof x === "string") return this.definite(sql`${t} = 'string' and ${this.text(v)} = ${x}`);
    if (typeof x === "number") return this.definite(sql`${t} = 'number' and ${this.number(v)} = ${x}`);
    if (typeof x === "boolean") return this.definite(sql`${t} = 'boolean' and ${this.bool(v)} = ${x ? 1 : 0}`);
    return this.false();
  }

  private scalar(op: FilterOp, v: Plain, x: unknown): Sql {
    const t = this.typeOf(v);
    switch (op) {
      case "eq":
        return this.eq(v, x);
      case "ne":
        return sql`not ${this.eq(v, x)}`;
      case "lt":
      case "le":
      case "gt":
      case "ge": {
        const cmp = sql.raw(op === "lt" ? "<" : op === "le" ? "<=" : op === "gt" ? ">" : ">=");
        if (typeof x === "string") return this.definite(sql`${t} = 'string' and ${this.text(v)} ${cmp} ${x}`);
        if (typeof x === "number") return this.definite(sql`${t} = 'number' and ${this.number(v)} ${cmp} ${x}`);
        if (typeof x === "boolean") return this.definite(sql`${t} = 'boolean' and ${this.bool(v)} ${cmp} ${x ? 1 : 0}`);
        return this.false();
      }
      case "contains":
      case "startsWith":
      case "endsWith": {
        if (x === null || x === undefined) return this.false();
        return this.definite(sql`${t} = 'string' and ${this.textTest(op, sql`pn_fold(${this.text(v)})`, fold(String(x)))}`);
      }
      case "in": {
        // One SQL IN per type (as many `or`s would nest the expression one level per value).
        const values = Array.isArray(x) ? x : [];
        const strings = [...new Set(values.filter((e): e is string => typeof e === "string"))];
        const numbers = [...new Set(values.filter((e): e is number => typeof e === "number"))];
        const parts: Sql[] = [];
        if (values.some((e) => e === null || e === undefined)) parts.push(this.isNullish(v));
        if (strings.length) parts.push(this.definite(sql`${t} = 'string' and ${this.text(v)} in (${sql.join(strings)})`));
        if (numbers.length) parts.push(this.definite(sql`${t} = 'number' and ${this.number(v)} in (${sql.join(numbers)})`));
        for (const b of new Set(values.filter((e): e is boolean => typeof e === "boolean"))) parts.push(this.eq(v, b));
        if (!parts.length) return this.false();
        return parts.length === 1 ? parts[0]! : sql`(${sql.join(parts, sql` or `)})`;
      }
      default:
        return this.false();
    }
  }

  private leaf(node: { path: string; op: FilterOp; value?: unknown }): Sql {
    const resolved = this.valueAt(node.path);
    if (resolved.kind === "indexed") {
      const compiled = this.indexedLeaf(resolved, node.op, node.value);
      if (compiled) return compiled;
    }
    const v = resolved.kind === "indexed" ? this.plainAt(node.path) : resolved;
    const t = this.typeOf(v);
    if (node.op === "exists") return sql`not ${this.isNullish(v)}`;
    if (node.op === "empty") {
      const length = v.kind === "json" ? (this.pg ? sql`jsonb_array_length(${v.pg})` : sql`json_array_length(${v.sqlite.doc}, ${v.sqlite.path})`) : sql`null`;
      return this.definite(sql`${this.isNullish(v)} or (${t} = 'string' and ${this.text(v)} = '') or (${t} = 'array' and ${length} = 0)`);
    }
    if (v.kind !== "json") return this.scalar(node.op, v, node.value);
    const isArray = sql`coalesce(${t} = 'array', ${this.false()})`;
    if (node.op === "ne") return sql`(case when ${isArray} then not ${this.anyElement(v, (e) => this.eq(e, node.value))} else ${this.scalar("ne", v, node.value)} end)`;
    return sql`(case when ${isArray} then ${this.anyElement(v, (e) => this.scalar(node.op, e, node.value))} else ${this.scalar(node.op, v, node.value)} end)`;
  }

  /**
   * A leaf over a side-table column, with the JSON path's semantics for the values the column can
   * hold (validation keeps a String field a string or null, a Tags field a list of strings…).
   * Undefined where only the JSON path can answer (ordering or text tests on list elements).
   */
  private indexedLeaf(v: { field: IndexedField; alias: string }, op: FilterOp, x: unknown): Sql | undefined {
    const f = v.field;
    const col = sql.ref(`${v.alias}.${f.column}`);
    const extra = sql.ref(`${v.alias}.${f.extra}`);
    const type = f.kind === "string" || f.kind === "date" ? "string" : f.kind === "number" ? "number" : "boolean";
    const param = (value: unknown) => (typeof value === "boolean" ? (value ? 1 : 0) : value);
    // `(p and c is not null)` is never NULL (NULL and false is false) and, unlike coalesce(p, 0),
    // leaves `c = ?` visible to the planner, so the column's index can answer it.
    const definite = (column: Sql, p: Sql) => sql`(${p} and ${column} is not null)`;
    const single = f.single ? sql.ref(`${v.alias}.${f.single}`) : undefined;
    const eqAny = (values: unknown[]): Sql => {
      const parts: Sql[] = [];
      if (values.some((value) => value === null || value === undefined)) parts.push(sql`(${col} is null)`);
      if (f.kind === "list") {
        const strings = [...new Set(values.filter((value): value is string => typeof value === "string"))];
        if (strings.length && single) parts.push(definite(single, sql`${single} in (${sql.join(strings)})`));
        else for (const value of strings) parts.push(definite(col, this.pg ? sql`strpos(${col}, ${listNeedle(value)}) > 0` : sql`instr(${col}, ${listNeedle(value)}) > 0`));
      } else {
        const typed = [...new Set(values.filter((value) => typeof value === type))];
        // Equal text has equal folded text: saying so lets the index on the folded column find it.
        const folded = f.kind === "string" ? [...new Set(typed.map((value) => fold(value as string)))] : [];
        const prefix = folded.length ? (folded.length === 1 ? sql`${extra} = ${folded[0]} and ` : sql`${extra} in (${sql.join(folded)}) and `) : sql``;
        if (typed.length) parts.push(definite(col, typed.length === 1 ? sql`${prefix}${col} = ${param(typed[0])}` : sql`${prefix}${col} in (${sql.join(typed.map(param))})`));
      }
      if (!parts.length) return this.false();
      return parts.length === 1 ? parts[0]! : sql`(${sql.join(parts, sql` or `)})`;
    };
    switch (op) {
      case "exists":
        return sql`(${col} is not null)`;
      case "empty":
        if (f.kind === "list") return sql`(${col} is null or ${extra} = 0)`;
        return type === "string" ? sql`(${col} is null or ${col} = '')` : sql`(${col} is null)`;
      case "eq":
        return eqAny([x]);
      case "ne":
        return sql`not ${eqAny([x])}`;
      case "in":
        return eqAny(Array.isArray(x) ? x : []);
    }
    if (f.kind === "list") return undefined;
    if (op === "lt" || op === "le" || op === "gt" || op === "ge") {
      const cmp = sql.raw(op === "lt" ? "<" : op === "le" ? "<=" : op === "gt" ? ">" : ">=");
      return typeof x === type ? definite(col, sql`${col} ${cmp} ${param(x)}`) : this.false();
    }
    if (op === "contains" || op === "startsWith" || op === "endsWith") {
      if (type !== "string" || x === null || x === undefined) return this.false();
      return this.textTest(op, f.kind === "date" ? sql`pn_fold(${col})` : extra, fold(String(x)));
    }
    return this.false();
  }

  /** contains / startsWith / endsWith of a folded needle in folded text (never NULL). */
  private textTest(op: "contains" | "startsWith" | "endsWith", hay: Sql, needle: string): Sql {
    const length = [...needle].length;
    const test =
      op === "contains"
        ? this.pg
          ? sql`strpos(${hay}, ${needle}) > 0`
          : sql`instr(${hay}, ${needle}) > 0`
        : op === "startsWith"
          ? this.pg
            ? sql`left(${hay}, ${length}) = ${needle}`
            : sql`substr(${hay}, 1, ${length}) = ${needle}`
          : needle === ""
            ? this.true()
            : this.pg
              ? sql`right(${hay}, ${length}) = ${needle}`
              : sql`substr(${hay}, ${-length}) = ${needle}`;
    return this.definite(test);
  }

  filter(node: FilterNode): Sql {
    if ("and" in node) return node.and.length ? sql`(${sql.join(node.and.map((n) => this.filter(n)), sql` and `)})` : this.true();
    if ("or" in node) return node.or.length ? sql`(${sql.join(node.or.map((n) => this.filter(n)), sql` or `)})` : this.false();
    if ("not" in node) return sql`(not ${this.filter(node.not)})`;
    if ("refersTo" in node) return this.refersTo(node.refersTo);
    return this.leaf(node);
  }

  /** The value (or an element of it) is the id of a published item of `schema` matching `filter`. */
  private refersTo(ref: { path: string; schema: string; filter: FilterNode }): Sql {
    const resolved = this.valueAt(ref.path);
    const spec = this.ctx.indexes?.get(ref.schema);
    const inner = new SqlCompiler({ ...this.ctx, alias: "r", published: true, index: spec ? { alias: "ri", spec } : undefined });
    const condition = inner.filter(ref.filter);
    const target = (id: Sql) => {
      if (!spec) return sql`exists (select 1 from contents as r where r.schema_name = ${ref.schema} and r.status = 'Published' and r.id = ${id} and ${condition})`;
      const join = inner.needsContents ? sql` join contents as r on r.id = ri.id` : sql``;
      return sql`exists (select 1 from ${sql.table(spec.table)} as ri${join} where ri.id = ${id} and ${condition})`;
    };
    // EXISTS is never NULL: no coalesce around it, which would keep PostgreSQL from planning it as a
    // per-row lookup (it hashed the whole target table instead, 10 ms at 10 000 practitioners).
    if (resolved.kind === "indexed" && resolved.field.single) return target(sql.ref(`${resolved.alias}.${resolved.field.single}`));
    const v = resolved.kind === "indexed" ? this.plainAt(ref.path) : resolved;
    if (v.kind !== "json") return target(this.text(v));
    const t = this.typeOf(v);
    return sql`(case when coalesce(${t} = 'array', ${this.false()}) then ${this.anyElement(v, (e) => target(this.text(e)))} when ${t} = 'string' then ${target(this.text(v))} else ${this.false()} end)`;
  }

  /**
   * Every word of `text` occurs in some string of the document (or of the given fields), ignoring
   * case, accents and ae/oe/ue spellings. With a side table whose search column holds exactly those
   * fields, each word is one test of that column (its lines are the strings, searchFold-ed).
   */
  fullText(text: string, fields?: ReadonlySet<string>): Sql {
    const words = searchWords(text);
    if (!words.length) return this.true();
    const index = this.ctx.index;
    if (index && this.ctx.published && fields && sameSet(fields, index.spec.searchFields)) return this.indexedWords(words, index.spec, index.alias);
    const side = this.ctx.searchIndex;
    if (side && !this.ctx.published && fields && sameSet(fields, side.searchFields)) {
      // Editors' data: a published item without a pending draft holds its live data, which the side
      // table's search text covers; only drafts and changed items are read as JSON.
      const status = sql.ref(`${this.ctx.alias}.status`);
      const draft = sql.ref(`${this.ctx.alias}.new_status`);
      const live = sql`(${status} = 'Published' and ${draft} is null)`;
      const found = sql`${sql.ref(`${this.ctx.alias}.id`)} in (select s.id from ${sql.table(side.table)} as s where ${this.indexedWords(words, side, "s")})`;
      return sql`((${live} and ${found}) or (not ${live} and ${this.scannedWords(words, fields)}))`;
    }
    return this.scannedWords(words, fields);
  }

  /**
   * Every word in the search text of a side-table row (alias `alias`): one test of its search column
   * per word (its lines are the strings of the search fields, searchFold-ed).
   */
  private indexedWords(words: string[], spec: IndexSpec, alias: string): Sql {
    if (this.pg) {
      // The side table's search column (field-index.ts): the trigram index finds words of three or
      // more characters; the planner tests the others on the rows it reads.
      const search = sql.ref(`${alias}.search`);
      return sql`(${sql.join(words.map((w) => sql`${search} like ${`%${w.replace(/[\\%_]/g, "\\$&")}%`}`), sql` and `)})`;
    }
    const text = sql.table(spec.textTable);
    const rowid = sql.ref(`${alias}.rowid`);
    return sql`(${sql.join(
      words.map((w) => {
        // The trigram index finds words of three or more characters; shorter ones are read per row.
        const inText = sql`exists (select 1 from ${text} as t where t.rowid = ${rowid} and instr(t.search, ${w}) > 0)`;
        if ([...w].length >= 3) {
          // Rows written since the last flush (field-index.ts, pendingTable) are read as text.
          const fts = sql.table(spec.ftsTable);
          const pending = sql`(select r from ${sql.table(spec.pendingTable)})`;
          return sql`((${rowid} in (select rowid from ${fts} where ${fts} match ${`"${w.replace(/"/g, '""')}"`}) and ${rowid} not in ${pending}) or (${rowid} in ${pending} and ${inText}))`;
        }
        return inText;
      }),
      sql` and `,
    )})`;
  }

  /** Every word in some string of the JSON document (or of the given fields), read row by row. */
  private scannedWords(words: string[], fields?: ReadonlySet<string>): Sql {
    const folded = (value: Sql) => sql`replace(replace(replace(pn_fold(${value}), 'ae', 'a'), 'oe', 'o'), 'ue', 'u')`;
    const doc = this.doc();
    const names = fields ? [...fields].filter((f) => SEGMENT.test(f)) : undefined;
    if (names && !names.length) return this.false();
    const one = (needle: string): Sql => {
      if (this.pg) {
        const roots = names ? names.map((f) => sql`(${doc} -> ${sql.lit(f)})`) : [doc];
        return sql`(${sql.join(
          roots.map((root) => sql`exists (select 1 from jsonb_path_query(${root}, 'strict $.** ? (@.type() == "string")') as s(value) where strpos(${folded(sql`s.value #>> '{}'`)}, ${needle}) > 0)`),
          sql` or `,
        )})`;
      }
      const roots = names ? names.map((f) => sql.lit(`$."${f}"`)) : [sql.lit("$")];
      return sql`(${sql.join(
        roots.map((root) => sql`exists (select 1 from json_tree(${doc}, ${root}) as t where t.type = 'text' and instr(${folded(sql`t.value`)}, ${needle}) > 0)`),
        sql` or `,
      )})`;
    };
    return sql`(${sql.join(words.map(one), sql` and `)})`;
  }

  /** ORDER BY terms for the sort nodes (or the default order), then the id as the tie-breaker. */
  orderBy(sort: SortNode[] | undefined): Sql[] {
    const idAlias = this.ctx.index && this.ctx.published ? this.ctx.index.alias : this.ctx.alias;
    const id = this.pg ? sql`${sql.ref(`${idAlias}.id`)} collate "C"` : sql.ref(`${idAlias}.id`);
    const terms: Sql[] = [];
    for (const node of sort?.length ? sort : DEFAULT_SORT) {
      const dir = sql.raw(node.order === "descending" ? "desc" : "asc");
      const v = this.valueAt(node.path);
      if (v.kind === "indexed") {
        terms.push(...this.indexedOrder(v, node.order === "descending"));
        continue;
      }
      if (v.kind === "column" && v.timestamp) {
        terms.push(sql`${v.column} ${dir}`);
        continue;
      }
      const t = this.typeOf(v);
      const rank = sql`(case ${t} when 'boolean' then 1 when 'number' then 2 when 'string' then 3 when 'array' then 4 when 'object' then 5 else 0 end)`;
      terms.push(sql`${rank} ${dir}`);
      if (v.kind === "missing") continue;
      if (v.kind === "json") terms.push(sql`(case when ${t} = 'boolean' then ${this.bool(v)} end) ${dir}`);
      terms.push(sql`(case when ${t} = 'number' then ${this.number(v)} end) ${dir}`);
      terms.push(sql`(case when ${t} = 'string' then ${this.collate(sql`pn_fold(${this.text(v)})`)} end) ${dir}`);
      terms.push(sql`(case when ${t} = 'string' then ${this.text(v)} end) ${dir}`);
    }
    terms.push(sql`${id} asc`);
    return terms;
  }

  /** The JSON order (missing and null first, then by value) from side-table columns, index-friendly. */
  private indexedOrder(v: { field: IndexedField; alias: string }, descending: boolean): Sql[] {
    const dir = sql.raw(descending ? "desc" : "asc");
    const nulls = this.pg ? sql.raw(descending ? " nulls last" : " nulls first") : sql.raw("");
    const col = sql.ref(`${v.alias}.${v.field.column}`);
    if (v.field.kind === "list") return [sql`(case when ${col} is null then 0 else 1 end) ${dir}`];
    if (v.field.kind === "string") return [sql`${sql.ref(`${v.alias}.${v.field.extra}`)} ${dir}${nulls}`, sql`${col} ${dir}`];
    return [sql`${col} ${dir}${nulls}`];
  }

  /** Given ids in the order given (no sort): their position in the list. */
  idPosition(ids: string[]): Sql {
    const column = sql.ref(`${this.ctx.index && this.ctx.published ? this.ctx.index.alias : this.ctx.alias}.id`);
    return sql`(case ${column} ${sql.join(
      ids.map((id, i) => sql`when ${id} then ${sql.lit(i)}`),
      sql` `,
    )} end)`;
  }
}

/** The WHERE of a content query beyond schema and status: filter, ids, full text. */
export function compileWhere(compiler: SqlCompiler, query: ContentQuery, searchFields?: ReadonlySet<string>): Sql[] {
  const where: Sql[] = [];
  if (query.filter) where.push(compiler.filter(query.filter));
  if (query.fullText) where.push(compiler.fullText(query.fullText, searchFields));
  return where;
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}
