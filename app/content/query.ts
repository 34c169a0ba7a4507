import { badRequest } from "./errors";
import { fieldValue } from "./flatten";
import { parseODataFilter } from "./odata";
import { own } from "../lib/input";
import { fold, searchFold, searchWords } from "./fold";
import {
  MAX_COLLECTION_URL_LENGTH,
  MAX_FILTER_DEPTH,
  MAX_FILTER_LEAVES,
  MAX_FILTER_VALUES,
  MAX_IDS,
  MAX_IN_VALUES,
  MAX_QUERY_JSON_LENGTH,
  MAX_SEARCH_LENGTH,
  MAX_SEARCH_WORDS,
  MAX_SKIP,
  MAX_SORT_KEYS,
} from "./limits";
import type { ContentItem, ContentQuery, FilterNode, FilterOp, SortNode } from "./types";

/**
 * Squidex query semantics evaluated in memory over one schema's items: JSON filters
 * (`{path, op, value}` with and/or/not), sorting with an `id` tie-breaker, skip/take and ids.
 * Paths are Squidex paths (`data.city.iv`, `data.title.en`, `lastModified`); `data.field` without a
 * partition reads the field for the query language with fallback to de. An array value matches when
 * any element matches (so `data.websites.iv eq 'PRAXISNETZ'` means "lists PRAXISNETZ").
 */

export const MAX_TAKE = 200;
/** Meta fields anyone may filter and sort on; the others (who changed it, status) are for editors. */
export const PUBLIC_META_FIELDS: ReadonlySet<string> = new Set(["id", "created", "lastModified", "version", "slug"]);
const OPS = new Set<FilterOp>(["eq", "ne", "lt", "le", "gt", "ge", "contains", "startsWith", "endsWith", "in", "empty", "exists"]);
/** `slug`: the stored slug of schemas that name a slug field (published items; field-index.ts). */
const META = new Set(["id", "created", "createdBy", "lastModified", "lastModifiedBy", "status", "newStatus", "version", "slug"]);

export function resolvePath(item: ContentItem, path: string, language: string): unknown {
  const parts = path.split(/[./]/).filter(Boolean);
  if (parts.length === 1 && META.has(parts[0]!)) return (item as unknown as Record<string, unknown>)[parts[0]!];
  if (parts[0] !== "data" || parts.length < 2) return undefined;
  const partitions = present(own(item.data, parts[1]!)) ?? own(item.data, parts[1]!.replace(/_/g, "-"));
  if (!isObject(partitions)) return undefined;
  if (parts.length === 2) return fieldValue(partitions, language);
  let value: unknown = partitions;
  for (const p of parts.slice(2)) {
    // Paths name object keys; arrays are matched element by element, never indexed.
    if (!isObject(value)) return undefined;
    value = own(value, p);
  }
  return value;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const present = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

/**
 * The one order of JSON values, for sorting (the SQL compiler emits the same): missing and null
 * first, then booleans (false, true), numbers, strings (case- and accent-insensitive via `fold`,
 * then by code point), arrays, objects (arrays and objects tie among themselves).
 */
export function rank(v: unknown): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === "boolean") return 1;
  if (typeof v === "number") return 2;
  if (typeof v === "string") return 3;
  return Array.isArray(v) ? 4 : 5;
}

/** Code point order, as SQLite's BINARY and PostgreSQL's "C" collation compare UTF-8. */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

export function compareValues(a: unknown, b: unknown): number {
  const r = rank(a) - rank(b);
  if (r !== 0) return r;
  if (typeof a === "boolean") return Number(a) - Number(b as boolean);
  if (typeof a === "number") return a - (b as number);
  if (typeof a === "string") return compareCodePoints(fold(a), fold(b as string)) || compareCodePoints(a, b as string);
  return 0;
}

const sameType = (a: unknown, b: unknown) => a !== null && b !== null && typeof a === typeof b && !Array.isArray(a) && typeof a !== "object";

/**
 * One operator on one (non-array) value. Null and missing are alike (`eq null` matches both); order
 * comparisons hold only between values of the same type (strings by code point); `contains`,
 * `startsWith` and `endsWith` ignore case and accents.
 */
function matchScalar(op: FilterOp, actual: unknown, expected: unknown): boolean {
  switch (op) {
    case "eq":
      if (expected === null || expected === undefined) return actual === null || actual === undefined;
      return sameType(actual, expected) && actual === expected;
    case "ne":
      return !matchScalar("eq", actual, expected);
    case "lt":
    case "le":
    case "gt":
    case "ge": {
      if (!sameType(actual, expected)) return false;
      const c = typeof actual === "string" ? compareCodePoints(actual, expected as string) : Number(actual) - Number(expected);
      return op === "lt" ? c < 0 : op === "le" ? c <= 0 : op === "gt" ? c > 0 : c >= 0;
    }
    case "contains":
    case "startsWith":
    case "endsWith": {
      if (typeof actual !== "string" || expected === null || expected === undefined) return false;
      const hay = fold(actual);
      const needle = fold(String(expected));
      return op === "contains" ? hay.includes(needle) : op === "startsWith" ? hay.startsWith(needle) : hay.endsWith(needle);
    }
    case "in":
      return Array.isArray(expected) && expected.some((e) => matchScalar("eq", actual, e));
    default:
      return false;
  }
}

export function matches(item: ContentItem, node: FilterNode, language: string): boolean {
  if ("and" in node) return node.and.every((n) => matches(item, n, language));
  if ("or" in node) return node.or.some((n) => matches(item, n, language));
  if ("not" in node) return !matches(item, node.not, language);
  if ("refersTo" in node) throw new Error("refersTo filters run in the database only.");
  const actual = resolvePath(item, node.path, language);
  if (node.op === "exists") return actual !== undefined && actual !== null;
  if (node.op === "empty") return actual === undefined || actual === null || actual === "" || (Array.isArray(actual) && actual.length === 0);
  if (Array.isArray(actual)) {
    if (node.op === "ne") return !actual.some((a) => matchScalar("eq", a, node.value));
    return actual.some((a) => matchScalar(node.op, a, node.value));
  }
  return matchScalar(node.op, actual, node.value);
}

/**
 * Full-text match: every word of `text` occurs in some string of the item's data (or of `fields`
 * when given), ignoring case, accents and ae/oe/ue spellings. No words match every item.
 */
function fullTextMatch(item: ContentItem, text: string, fields?: ReadonlySet<string>): boolean {
  const words = searchWords(text);
  const has = (needle: string) => {
    const walk = (v: unknown): boolean =>
      typeof v === "string" ? searchFold(v).includes(needle) : Array.isArray(v) ? v.some(walk) : v !== null && typeof v === "object" ? Object.values(v).some(walk) : false;
    if (!fields) return walk(item.data);
    return Object.entries(item.data).some(([name, partitions]) => fields.has(name) && walk(partitions));
  };
  return words.every(has);
}

export const DEFAULT_SORT: SortNode[] = [{ path: "lastModified", order: "descending" }];

export function sortItems(items: ContentItem[], sort: SortNode[] | undefined, language: string): ContentItem[] {
  const order = sort?.length ? sort : DEFAULT_SORT;
  return [...items].sort((a, b) => {
    for (const s of order) {
      const c = compareValues(resolvePath(a, s.path, language), resolvePath(b, s.path, language));
      if (c !== 0) return s.order === "descending" ? -c : c;
    }
    return compareCodePoints(a.id, b.id);
  });
}

/** How many items a query returns at most: `take`, else all ids asked for, else MAX_TAKE; never more than MAX_TAKE. */
export function pageSize(query: ContentQuery): number {
  return Math.min(query.take ?? (query.ids ? new Set(query.ids).size : MAX_TAKE), MAX_TAKE);
}

/**
 * The reference semantics of a query, evaluated in memory: the test oracle the SQL compiler
 * (`sql-query.ts`) is checked against on SQLite and PostgreSQL.
 */
export function runQuery(
  items: ContentItem[],
  query: ContentQuery,
  language: string,
  searchFields?: ReadonlySet<string>,
): { total: number; items: ContentItem[] } {
  let result = items;
  if (query.ids) {
    const byId = new Map(items.map((i) => [i.id, i]));
    result = [...new Set(query.ids)].map((id) => byId.get(id)).filter((i): i is ContentItem => !!i);
  }
  if (query.filter) result = result.filter((i) => matches(i, query.filter!, language));
  if (query.fullText) result = result.filter((i) => fullTextMatch(i, query.fullText!, searchFields));
  if (!query.ids || query.sort?.length) result = sortItems(result, query.sort, language);
  const total = result.length;
  const skip = query.skip ?? 0;
  return { total, items: result.slice(skip, skip + pageSize(query)) };
}

/** `$top` and `$skip` of a Squidex URL: whole numbers within the limits, or a 400 that says which. */
export function pagingParams(params: URLSearchParams): { take?: number; skip?: number } {
  const num = (key: string, max: number, hint = "") => {
    const v = params.get(key);
    if (v === null) return undefined;
    if (!/^\d{1,16}$/.test(v)) throw badRequest(`Query parameter "${key}" must be a whole number.`);
    if (Number(v) > max) throw badRequest(`Query parameter "${key}" may be at most ${max}${hint}.`);
    return Number(v);
  };
  const take = num("$top", MAX_TAKE, '; page with "$skip" for more');
  const skip = num("$skip", MAX_SKIP);
  return { ...(take !== undefined ? { take } : {}), ...(skip !== undefined ? { skip } : {}) };
}

/** Checks a query that arrived from outside (JSON) and returns it typed, or throws a 400. */
export function parseQuery(input: unknown): ContentQuery {
  if (input === undefined || input === null) return {};
  if (typeof input !== "object" || Array.isArray(input)) throw badRequest("Query must be a JSON object.");
  const q = input as Record<string, unknown>;
  const out: ContentQuery = {};
  const int = (key: string, v: unknown, max?: number) => {
    if (v === undefined) return undefined;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || (max !== undefined && v > max))
      throw badRequest(`Query "${key}" must be a whole number from 0${max !== undefined ? ` to ${max}` : ""}.`);
    return v;
  };
  out.skip = int("skip", q.skip, MAX_SKIP);
  out.take = int("take", q.take ?? q.top, MAX_TAKE);
  if (q.filter !== undefined) out.filter = parseFilter(q.filter, 0);
  if (q.sort !== undefined) {
    if (!Array.isArray(q.sort)) throw badRequest('Query "sort" must be an array.');
    checkSortKeys(q.sort.length);
    out.sort = q.sort.map((s) => {
      if (!s || typeof s !== "object" || typeof (s as SortNode).path !== "string") throw badRequest('Each sort entry needs a "path".');
      const order = (s as SortNode).order ?? "ascending";
      if (order !== "ascending" && order !== "descending") throw badRequest('Sort "order" must be ascending or descending.');
      return { path: (s as SortNode).path, order };
    });
  }
  if (q.ids !== undefined) {
    if (!Array.isArray(q.ids) || q.ids.some((i) => typeof i !== "string")) throw badRequest('Query "ids" must be an array of strings.');
    out.ids = checkIds(q.ids as string[]);
  }
  if (q.fullText !== undefined) {
    if (typeof q.fullText !== "string") throw badRequest('Query "fullText" must be a string.');
    out.fullText = checkSearchLength(q.fullText);
  }
  return out;
}

const isScalar = (v: unknown) => v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean";

/**
 * What every query must keep to before it becomes SQL, whoever built it (JSON `q`, OData, the
 * Squidex API, our own pages): at most MAX_FILTER_LEAVES conditions, MAX_IN_VALUES values in one
 * `in` and MAX_FILTER_VALUES in all, MAX_SORT_KEYS sort keys, MAX_IDS ids, a search of
 * MAX_SEARCH_LENGTH characters and MAX_SEARCH_WORDS words, and no NUL character in a value
 * (PostgreSQL cannot take one; no content holds one). A 400 that names the limit, otherwise.
 * The parsers check the counts as they read (and the nesting, MAX_FILTER_DEPTH), so an oversize query
 * is refused before it is built.
 */
export function checkQueryShape(query: ContentQuery): void {
  let leaves = 0;
  let values = 0;
  const walk = (node: FilterNode) => {
    if ("and" in node) return node.and.forEach(walk);
    if ("or" in node) return node.or.forEach(walk);
    if ("not" in node) return walk(node.not);
    if ("refersTo" in node) return walk(node.refersTo.filter);
    if (++leaves > MAX_FILTER_LEAVES) throw badRequest(`A filter may have at most ${MAX_FILTER_LEAVES} conditions.`);
    const list = Array.isArray(node.value) ? node.value : [node.value];
    if (list.length > MAX_IN_VALUES) throw badRequest(`The "in" operator takes at most ${MAX_IN_VALUES} values.`);
    if ((values += list.length) > MAX_FILTER_VALUES) throw badRequest(`A filter may have at most ${MAX_FILTER_VALUES} values in all.`);
    if (list.some((v) => typeof v === "string" && v.includes("\u0000"))) throw badRequest("Filter values must not contain the NUL character.");
  };
  if (query.filter) walk(query.filter);
  if (query.sort) checkSortKeys(query.sort.length);
  if (query.ids) checkIds(query.ids);
  if (query.fullText !== undefined && searchWords(checkSearchLength(query.fullText)).length > MAX_SEARCH_WORDS)
    throw badRequest(`A search may have at most ${MAX_SEARCH_WORDS} words.`);
}

export function checkIds(ids: string[]): string[] {
  if (ids.length > MAX_IDS) throw badRequest(`Ask for at most ${MAX_IDS} ids at once (got ${ids.length}).`);
  return ids;
}

export function checkSortKeys(count: number): void {
  if (count > MAX_SORT_KEYS) throw badRequest(`Sort by at most ${MAX_SORT_KEYS} keys (got ${count}).`);
}

function checkSearchLength(text: string): string {
  if (text.length > MAX_SEARCH_LENGTH) throw badRequest(`A search may have at most ${MAX_SEARCH_LENGTH} characters.`);
  return text;
}

function parseFilter(node: unknown, depth: number): FilterNode {
  if (depth > MAX_FILTER_DEPTH) throw badRequest(`Filters may nest at most ${MAX_FILTER_DEPTH} levels deep.`);
  if (!node || typeof node !== "object" || Array.isArray(node)) throw badRequest("Each filter node must be an object.");
  const n = node as Record<string, unknown>;
  const child = (c: unknown) => parseFilter(c, depth + 1);
  if (Array.isArray(n.and)) return { and: n.and.map(child) };
  if (Array.isArray(n.or)) return { or: n.or.map(child) };
  if (n.not !== undefined) return { not: child(n.not) };
  if (typeof n.path !== "string") throw badRequest('A filter node needs "path" and "op", or "and", "or" or "not".');
  const op = [...OPS].find((o) => o.toLowerCase() === String(n.op).toLowerCase());
  if (!op) throw badRequest(`Unknown filter operator "${String(n.op)}".`);
  if (op === "in") {
    if (!Array.isArray(n.value) || !n.value.every(isScalar)) throw badRequest('The "in" operator needs an array of strings, numbers, booleans or nulls.');
    if (n.value.length > MAX_IN_VALUES) throw badRequest(`The "in" operator takes at most ${MAX_IN_VALUES} values.`);
  } else if (n.value !== undefined && !isScalar(n.value)) throw badRequest(`The "${op}" operator needs a string, number, boolean or null value.`);
  return { path: n.path, op, value: n.value };
}

/**
 * A collection URL as clients send it: `gm-content-practitioners`, optionally with a query string of
 * `q` (JSON query), `$filter` (OData), `$top`, `$skip`, `$orderby` (`data/name/iv desc`), `$search` and `ids`.
 */
export function parseCollectionUrl(url: string): { collection: string; query: ContentQuery } {
  if (url.length > MAX_COLLECTION_URL_LENGTH) throw badRequest(`The collection URL is longer than ${MAX_COLLECTION_URL_LENGTH} characters.`);
  const [path = "", search = ""] = url.split(/\?(.*)/s, 2);
  const collection = path.replace(/^\/+|\/+$/g, "").split("/").pop() ?? "";
  const params = new URLSearchParams(search);
  let query: ContentQuery = {};
  const q = params.get("q");
  if (q) {
    if (q.length > MAX_QUERY_JSON_LENGTH) throw badRequest(`Query parameter "q" is longer than ${MAX_QUERY_JSON_LENGTH} characters.`);
    if (jsonNestingExceeds(q, MAX_FILTER_DEPTH * 2 + 4)) throw badRequest(`Query parameter "q" nests too deeply (filters: at most ${MAX_FILTER_DEPTH} levels).`);
    try {
      query = parseQuery(JSON.parse(q));
    } catch (e) {
      if (e instanceof SyntaxError) throw badRequest('Query parameter "q" is not valid JSON.');
      throw e;
    }
  }
  // As in Squidex, a JSON query in `q` takes precedence over the OData parameters.
  if (!q) {
    Object.assign(query, pagingParams(params));
    const orderby = params.get("$orderby");
    if (orderby) {
      const parts = orderby.split(",");
      checkSortKeys(parts.length);
      query.sort = parts.map((part) => {
        const [path = "", dir] = part.trim().split(/\s+/);
        return { path: path.replace(/\//g, "."), order: dir === "desc" ? "descending" : "ascending" };
      });
    }
    const filter = params.get("$filter");
    if (filter) {
      const odata = parseODataFilter(filter);
      query.filter = query.filter ? { and: [query.filter, odata] } : odata;
    }
    const search2 = params.get("$search");
    if (search2) query.fullText = checkSearchLength(search2);
  }
  const ids = params.get("ids");
  if (ids) query.ids = checkIds(ids.split(",").map((s) => s.trim()).filter(Boolean));
  checkQueryShape(query);
  return { collection, query };
}

/** Whether JSON text nests objects/arrays deeper than `max`, found without parsing it. */
export function jsonNestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/**
 * Refuses a query that filters or sorts on anything but `fields` (data fields by name) and the public
 * meta fields: what a visitor cannot see must not decide which items they get, or in what order,
 * or a count would tell it one bit at a time.
 */
export function assertQueryUses(query: ContentQuery, fields: ReadonlySet<string>, collection: string): void {
  const check = (path: string, use: string) => {
    const parts = path.split(/[./]/).filter(Boolean);
    const name = parts.length === 1 ? parts[0]! : parts[0] === "data" ? (parts[1] ?? "data") : path;
    const ok = parts.length === 1 ? PUBLIC_META_FIELDS.has(name) : parts[0] === "data" && parts.length >= 2 && fields.has(name);
    if (!ok)
      throw badRequest(`Cannot ${use} on "${name.slice(0, 100)}" in "${collection}": only ${[...PUBLIC_META_FIELDS, ...[...fields].map((f) => `data.${f}`)].join(", ")} may be used.`);
  };
  const walk = (node: FilterNode) => {
    if ("and" in node) node.and.forEach(walk);
    else if ("or" in node) node.or.forEach(walk);
    else if ("not" in node) walk(node.not);
    else if ("refersTo" in node) check(node.refersTo.path, "filter");
    else check(node.path, "filter");
  };
  if (query.filter) walk(query.filter);
  for (const s of query.sort ?? []) check(s.path, "sort");
}
