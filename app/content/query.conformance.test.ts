import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AssetStore } from "./assets";
import { openDatabase } from "./db";
import { MAX_TAKE, resolvePath, runQuery, sortItems } from "./query";
import { ContentStore } from "./store";
import type { ContentData, ContentItem, ContentQuery, FilterNode, FilterOp, SchemaInput, SortNode } from "./types";
import { envInt } from "../../tests/support/env";

/**
 * Conformance of `ContentStore.query` with the in-memory evaluator `runQuery`, the oracle, on SQLite
 * (always) and PostgreSQL (when TEST_DATABASE_URL is set). One fixture schema holds about a hundred
 * items with every field kind, awkward strings (umlauts, case, LIKE metacharacters, quotes, emoji,
 * numeric strings), missing and null values, drafts and pending drafts. Every query runs against the
 * store and against `runQuery` over the same items read back one by one with `store.get` (so JSON
 * round-tripping is identical); the ordered ids, `total` and the items' contents must agree.
 *
 * Where the oracle's own order is undefined (its comparator is no total order for null next to missing
 * values, or for numbers next to strings; see probeOracle), the answer depends on the order its input
 * arrives in and no order is "right": such cases are checked only for `total`, page size, membership
 * and content, and counted in the log line as "with an undefined oracle order".
 *
 * Every category collects all mismatches before failing, so one run lists every broken case.
 * CONFORMANCE_SEED (default 1) seeds the generated queries, CONFORMANCE_RUNS (default 300) sets how
 * many run per database; CONFORMANCE_REPORT=file.json writes every mismatch there as well.
 */

const SCHEMA = "conf-items";
const N = 96;
const SEED = envInt("CONFORMANCE_SEED", 1);
const RUNS = envInt("CONFORMANCE_RUNS", 300);
const REPORT = process.env.CONFORMANCE_REPORT;
/** Queries in flight at once (PostgreSQL answers them on several pooled connections). */
const PARALLEL = 8;
const LANGUAGES = ["de", "en"] as const;
type Lang = (typeof LANGUAGES)[number];


// ---- fixture -------------------------------------------------------------------------------------

const FIELDS: SchemaInput["fields"] = [
  { name: "name", partitioning: "invariant", properties: { fieldType: "String" } },
  { name: "title", partitioning: "language", properties: { fieldType: "String" } },
  { name: "num", partitioning: "invariant", properties: { fieldType: "Number" } },
  { name: "flag", partitioning: "invariant", properties: { fieldType: "Boolean" } },
  { name: "when", partitioning: "invariant", properties: { fieldType: "DateTime" } },
  { name: "tags", partitioning: "invariant", properties: { fieldType: "Tags" } },
  { name: "refs", partitioning: "invariant", properties: { fieldType: "References", schemaIds: [SCHEMA] } },
  { name: "geo", partitioning: "invariant", properties: { fieldType: "Geolocation" } },
  { name: "meta", partitioning: "invariant", properties: { fieldType: "Json" } },
  { name: "zip-code", partitioning: "invariant", properties: { fieldType: "String" } },
  { name: "rank", partitioning: "language", properties: { fieldType: "Number" } },
];

/**
 * The same fixture with a side table (field-index.ts): every field it can hold becomes a column, and
 * these get a database index too. The same queries must give the same answers.
 */
const INDEXED = new Set(["name", "num", "flag", "when", "tags", "refs", "zip-code"]);
const INDEXED_FIELDS: SchemaInput["fields"] = FIELDS.map((f) => (INDEXED.has(f.name) ? { ...f, properties: { ...f.properties, isIndexed: true } } : f));

// `undefined` in a pool leaves the field out of the item; `null` stores an explicit null. Only some
// fields have both (zip-code, meta, title.en, rank.en): runQuery has no defined order between the two.
const NAMES = [
  "Müller", "Mueller", "Muller", "Möller", "Mu\u0308ller", "MÜLLER", "Köln", "Koln", "Straße", "Strasse", "STRASSE", "Stra\u00adße",
  "apple", "Apple", "APPLE", "äpfel", "Äpfel", "ÄPFEL", "zebra", "Zebra", " Zebra", "  apple", "10", "9", "010", "1e3", "-5", "",
  "O'Connor", "O''Connor", '"quoted"', "100%", "50% off", "a_b", "a%b", "_under", "back\\slash", "C:\\dir\\file", "emoji 😀", "🍎",
  "ß", "ss", "SS", "İstanbul", "null", "true", "Zürich", "zurich", null,
];
const TITLES_DE = [
  "Apfel", "Äpfel", "äpfel", "Birne", "Straße", "Strasse", "Köln", "Koln", "Müller", "Mueller", "zebra", "Zebra", "10", "9", "010",
  " Leerzeichen", "100%", "a_b", "O'Connor", "😀 Lächeln", "Ärzte", "Arzt", "Ökologie", "Übung", "Uebung",
];
const TITLES_EN = [
  "Apple", "apple", "APPLE", "Pear", "Street", "Cologne", "Miller", "zebra", "Zebra", "10", "9", "50%", "x\\y", "O''Connor", "🍎",
  "Doctors", "Doctor", " space", "Ecology", "Exercise", "a_b",
];
const NUMS = [0, 1, -1, 2.5, -3.75, 10, 9, 100, 0.1, 1000000, 123456789.125, -0.5, 10, 42, null, 9.99, -100, 3, 0];
const FLAGS = [true, false, undefined, true, false, true];
const DATES = [
  "2024-01-01T00:00:00Z", "2024-01-01T00:00:00.000Z", "2024-01-01", "2023-12-31T23:59:59+01:00", "2023-12-31T22:59:59Z",
  "2024-02-29T12:00:00Z", "2025-06-15T08:30:00.5Z", null, "1999-12-31T23:59:59Z", "2024-01-01T00:00",
];
const TAGS = [["a", "b"], [], ["Apple"], ["apple", "Äpfel"], ["10", "9"], ["x_y", "x%y"], undefined, ["Müller"], ["b", "a", "a"], ["zebra"], [""]];
const GEOS = [{ latitude: 52.52, longitude: 13.405 }, { latitude: -33.86, longitude: 151.2 }, { latitude: 0, longitude: 0 }, null];
const METAS: unknown[] = [
  10, "10", "9", 9, true, "true", false, null, undefined, { a: 1, b: { c: "deep" } }, { a: "1" }, [1, "1", true], ["x", "Müller"],
  "text", "", [], {}, 0, -2.5, "Äpfel", [null], { b: { c: "Deep" } }, { a: [1, 2] }, { a: null },
];
const ZIPS = ["10115", "01067", "80331", "", null, undefined, "D-50667", "10115", "9", "010", "50%"];
const RANKS = [1, 2, 3, -1, 0.5, 10, 9, 100, 0];

/** Ids are not in creation order; a few use characters whose order differs between collations. */
const EXOTIC_IDS: Record<number, string> = { 5: "Q-upper", 20: "a_b", 47: "a~b" };
const idOf = (i: number) => EXOTIC_IDS[i % N] ?? `p${String(((i % N) * 61 + 17) % 97).padStart(2, "0")}`;
const ALL_IDS = Array.from({ length: N }, (_, i) => idOf(i));

/** A stride p > pool length is coprime with it, so every value of the pool gets used. */
const pick = <T,>(pool: readonly T[], i: number, stride: number): T => pool[(i * stride + stride) % pool.length]!;

function dataFor(i: number): ContentData {
  const inv = (v: unknown) => (v === undefined ? undefined : { iv: v });
  const de = pick(TITLES_DE, i, 53);
  const en = pick(TITLES_EN, i, 59);
  const title = [{ de, en }, { de }, { en }, { de, en: "" }, { de: "", en }, undefined, { de, en: null }][i % 7];
  const r1 = pick(RANKS, i, 61);
  const r2 = pick(RANKS, i, 67);
  const rank = [{ de: r1, en: r2 }, { de: r1 }, { en: r2 }, { de: r1, en: 0 }, { de: 0, en: null }, undefined][i % 6];
  const refs = [undefined, [], [idOf(i + 1)], [idOf(i + 2), idOf(i + 3)], ["unknown-ref", idOf(0)]][i % 5];
  const data: Record<string, Record<string, unknown> | undefined> = {
    name: inv(pick(NAMES, i, 71)),
    title,
    num: inv(pick(NUMS, i, 73)),
    flag: inv(pick(FLAGS, i, 79)),
    when: inv(pick(DATES, i, 83)),
    tags: inv(pick(TAGS, i, 89)),
    refs: inv(refs),
    geo: inv(pick(GEOS, i, 97)),
    meta: inv(pick(METAS, i, 101)),
    "zip-code": inv(pick(ZIPS, i, 103)),
    rank,
  };
  return Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined)) as ContentData;
}

type Lifecycle = "published" | "draft" | "pending" | "archived" | "updated" | "unpublished";
function lifecycleOf(i: number): Lifecycle {
  if (i === 90) return "unpublished";
  if (i % 10 === 3) return "draft";
  if (i % 10 === 7) return "pending";
  if (i % 23 === 11) return "archived";
  if (i % 9 === 4) return "updated";
  return "published";
}

/** Creates the items in index order, then changes some of them (so their lastModified comes last). */
async function seed(store: ContentStore, indexed: boolean): Promise<void> {
  await store.upsertSchema({ name: SCHEMA, fields: indexed ? INDEXED_FIELDS : FIELDS });
  for (let i = 0; i < N; i++) await store.create(SCHEMA, dataFor(i), { id: idOf(i), publish: lifecycleOf(i) !== "draft" });
  for (let i = 0; i < N; i++) {
    const id = idOf(i);
    switch (lifecycleOf(i)) {
      case "pending":
        await store.createDraft(SCHEMA, id);
        await store.update(SCHEMA, id, dataFor(i + 37));
        break;
      case "archived":
        await store.changeStatus(SCHEMA, id, "Archived");
        break;
      case "updated":
        await store.update(SCHEMA, id, dataFor(i + 11));
        break;
      case "unpublished":
        await store.changeStatus(SCHEMA, id, "Draft");
        break;
    }
  }
}

// ---- backends ------------------------------------------------------------------------------------

interface Backend {
  openStore(): Promise<ContentStore>;
  dispose(): Promise<void>;
}

function sqliteBackend(): Backend {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-conformance-"));
  return {
    async openStore() {
      const { db, dialect } = await openDatabase({ sqlitePath: path.join(dir, "content.sqlite") });
      return new ContentStore(db, dialect, new AssetStore(path.join(dir, "assets"), 4096));
    },
    async dispose() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A database of its own per run rather than a schema (as store.test.ts uses): Kysely's migrator
 * takes a kysely_migration_lock table in any schema of the database for its own, so a run beside
 * another one in the same database (a bench, a second worktree) could skip creating it.
 */
function postgresBackend(databaseUrl: string): Backend {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-conformance-pg-"));
  const name = `conf_${Date.now()}_${Math.random().toString(36).slice(2, 10)}`;
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  return {
    async openStore() {
      await admin(`create database ${name}`);
      const { db, dialect } = await openDatabase({ databaseUrl: url.toString() });
      return new ContentStore(db, dialect, new AssetStore(path.join(dir, "assets"), 4096));
    },
    async dispose() {
      await admin(`drop database if exists ${name} with (force)`);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---- oracle and comparison -----------------------------------------------------------------------

interface Case {
  query: ContentQuery;
  language: Lang;
  unpublished: boolean;
  /** Passed to both sides as `searchFields` (what a visitor's full-text search may see). */
  searchFields?: string[];
}

interface Answer {
  total: number;
  items: ContentItem[];
}

/** The items as the store reads them back, in the order its own unsorted select returns them. */
interface OracleInput {
  natural: ContentItem[];
  byId: Map<string, ContentItem>;
}

interface Mismatch {
  case: Case;
  reason: string;
  expected: { total: number; ids: string[] };
  actual?: { total: number; ids: string[] };
  error?: string;
}

interface Outcome {
  mismatch?: Mismatch;
  /** The oracle's total (to show how many cases had anything to compare). */
  total: number;
  /** The oracle's order is not defined (see `orderIsDefined`): only total, size and membership were compared. */
  ambiguous: boolean;
}

/**
 * Two known gaps in runQuery's comparator, probed through `sortItems` so the checks tighten by
 * themselves once the oracle is fixed: null and a missing value each compare below the other, and
 * numbers compare as numbers with each other but as strings with anything else (9 < 10, 10 = "10",
 * "10" < "9": a cycle).
 */
function probeOracle(): { nullVsMissing: boolean; mixedNumbers: boolean } {
  const item = (id: string, value: unknown): ContentItem => ({
    id,
    schemaName: SCHEMA,
    schemaId: "probe",
    status: "Published",
    version: 1,
    data: value === undefined ? {} : { f: { iv: value } },
    created: "2024-01-01T00:00:00.000Z",
    createdBy: "probe",
    lastModified: "2024-01-01T00:00:00.000Z",
    lastModifiedBy: "probe",
  });
  const orders = (items: ContentItem[][]) => new Set(items.map((xs) => sortItems(xs, [{ path: "data.f.iv" }], "de").map((i) => i.id).join()));
  const [n, m] = [item("n", null), item("m", undefined)];
  const [p, q, r] = [item("p", 9), item("q", 10), item("r", "10")];
  return {
    nullVsMissing: orders([[n, m], [m, n]]).size > 1,
    mixedNumbers: orders([[p, q, r], [p, r, q], [q, p, r], [q, r, p], [r, p, q], [r, q, p]]).size > 1,
  };
}
const QUIRKS = probeOracle();

/**
 * Whether runQuery's order is defined for these items: not when a sort key meets one of the
 * comparator's gaps (see probeOracle). Then the answer depends on the order the items arrive in, and
 * no database order is more right than another.
 */
function orderIsDefined(items: ContentItem[], query: ContentQuery, language: string): boolean {
  if (query.ids && !query.sort?.length) return true;
  for (const { path } of query.sort?.length ? query.sort : [{ path: "lastModified" }]) {
    const kinds = new Set<string>();
    for (const item of items) {
      const v = resolvePath(item, path, language);
      kinds.add(v === null ? "null" : v === undefined ? "missing" : typeof v);
    }
    if (QUIRKS.nullVsMissing && kinds.has("null") && kinds.has("missing")) return false;
    if (QUIRKS.mixedNumbers && kinds.has("number") && (kinds.has("string") || kinds.has("object"))) return false;
  }
  return true;
}

async function readOracleInput(store: ContentStore, unpublished: boolean): Promise<OracleInput> {
  let q = store.db.selectFrom("contents").select("id").where("schema_name", "=", SCHEMA);
  if (!unpublished) q = q.where("status", "=", "Published");
  const order = (await q.execute()).map((r) => r.id);
  const natural: ContentItem[] = [];
  for (const id of order) {
    const item = await store.get(SCHEMA, id, { unpublished });
    if (item) natural.push(item);
  }
  return { natural, byId: new Map(natural.map((i) => [i.id, i])) };
}

const idsOf = (a: Answer) => a.items.map((i) => i.id);
/** Key order and undefined properties do not count (PostgreSQL jsonb reorders keys). */
const normal = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

async function checkCase(store: ContentStore, input: { published: OracleInput; unpublished: OracleInput }, c: Case): Promise<Outcome> {
  const src = c.unpublished ? input.unpublished : input.published;
  const searchFields = c.searchFields ? new Set(c.searchFields) : undefined;
  const oracle = (items: ContentItem[], query = c.query) => runQuery(items, structuredClone(query), c.language, searchFields);
  const expected = oracle(src.natural);
  // The items the sort sees: those the filter, ids and full text let through.
  const all = expected.total === expected.items.length ? expected.items : oracle(src.natural, { ...c.query, skip: 0, take: MAX_TAKE }).items;
  const ambiguous = !orderIsDefined(all, c.query, c.language);
  const exp = { total: expected.total, ids: idsOf(expected) };
  let actual: Answer;
  try {
    actual = await store.query(SCHEMA, structuredClone(c.query), {
      language: c.language,
      unpublished: c.unpublished,
      ...(searchFields ? { searchFields } : {}),
    });
  } catch (e) {
    return { ambiguous, total: exp.total, mismatch: { case: c, reason: "store.query threw", expected: exp, error: String((e as Error)?.stack ?? e) } };
  }
  const act = { total: actual.total, ids: idsOf(actual) };
  const fail = (reason: string): Outcome => ({ ambiguous, total: exp.total, mismatch: { case: c, reason, expected: exp, actual: act } });

  if (actual.total !== expected.total) return fail("total differs");
  if (!ambiguous) {
    if (!isDeepStrictEqual(act.ids, exp.ids)) return fail("ids or their order differ");
  } else {
    // No defined order: the page must have the right size and hold only items the filter lets through.
    if (act.ids.length !== exp.ids.length) return fail("page size differs (oracle order undefined)");
    const allIds = new Set(all.map((i) => i.id));
    const stray = act.ids.filter((id) => !allIds.has(id));
    if (stray.length) return fail(`ids ${stray.join(", ")} do not match the query (oracle order undefined)`);
    if ((c.query.skip ?? 0) === 0 && exp.ids.length === expected.total && !isDeepStrictEqual([...act.ids].sort(), [...exp.ids].sort()))
      return fail("a different set of ids (oracle order undefined)");
  }
  const changed = actual.items.filter((item) => !isDeepStrictEqual(normal(item), normal(src.byId.get(item.id))));
  if (changed.length) return fail(`items differ in content from store.get: ${changed.map((i) => i.id).join(", ")}`);
  return { ambiguous, total: exp.total };
}

async function mapLimit<T, R>(xs: readonly T[], limit: number, fn: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(xs.length);
  let next = 0;
  const worker = async () => {
    while (next < xs.length) {
      const i = next++;
      out[i] = await fn(xs[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, xs.length) }, worker));
  return out;
}

function fmtIds(ids: string[]): string {
  const shown = ids.slice(0, 40).join(" ");
  return ids.length > 40 ? `${shown} …(+${ids.length - 40})` : shown || "(none)";
}

function fmtCase(c: Case): string {
  const opts = `${c.language}, ${c.unpublished ? "unpublished" : "published"}${c.searchFields ? `, searchFields ${c.searchFields.join("+")}` : ""}`;
  return `[${opts}] ${JSON.stringify(c.query)}`;
}

function fmtMismatch(m: Mismatch, n: number): string {
  const lines = [`#${n} ${m.reason}: ${fmtCase(m.case)}`, `   oracle total ${m.expected.total}: ${fmtIds(m.expected.ids)}`];
  if (m.actual) {
    const at = m.actual.ids.findIndex((id, i) => id !== m.expected.ids[i]);
    lines.push(`   store  total ${m.actual.total}: ${fmtIds(m.actual.ids)}`);
    if (at >= 0 || m.actual.ids.length !== m.expected.ids.length)
      lines.push(`   first difference at index ${at >= 0 ? at : Math.min(m.actual.ids.length, m.expected.ids.length)}`);
    const [exp, act] = [new Set(m.expected.ids), new Set(m.actual.ids)];
    const onlyOracle = m.expected.ids.filter((id) => !act.has(id));
    const onlyStore = m.actual.ids.filter((id) => !exp.has(id));
    if (onlyOracle.length || onlyStore.length) lines.push(`   only from the oracle: ${fmtIds(onlyOracle)}; only from the store: ${fmtIds(onlyStore)}`);
  }
  if (m.error) lines.push(`   error: ${m.error.split("\n").slice(0, 4).join("\n          ")}`);
  return lines.join("\n");
}

function report(backend: string, category: string, cases: readonly Case[], outcomes: Outcome[]): void {
  const mismatches = outcomes.flatMap((o) => (o.mismatch ? [o.mismatch] : []));
  const ambiguous = outcomes.filter((o) => o.ambiguous).length;
  const nonEmpty = outcomes.filter((o) => o.total > 0).length;
  console.info(
    `[conformance ${backend}] ${category}: ${cases.length} cases (${nonEmpty} with a non-empty answer), ${mismatches.length} mismatches, ${ambiguous} with an undefined oracle order`,
  );
  if (REPORT && mismatches.length) {
    const existing = fs.existsSync(REPORT) ? (JSON.parse(fs.readFileSync(REPORT, "utf8")) as unknown[]) : [];
    fs.writeFileSync(REPORT, JSON.stringify([...existing, ...mismatches.map((m) => ({ backend, category, ...m }))], null, 1));
  }
  if (mismatches.length)
    throw new Error(
      `${mismatches.length} of ${cases.length} ${category} cases disagree with runQuery on ${backend}:\n\n${mismatches.map((m, i) => fmtMismatch(m, i + 1)).join("\n\n")}`,
    );
}

// ---- paths and literals --------------------------------------------------------------------------

type Kind = "string" | "number" | "boolean" | "date" | "array" | "object" | "id" | "status" | "version";

/**
 * Filter paths with the kind of value they yield (which literal pool probes them). "full" paths get
 * every operator with the whole pool; the others (aliases, spellings, paths that never resolve) get
 * every operator with one value.
 */
const FILTER_PATHS: ReadonlyArray<readonly [string, Kind, "full" | "light"]> = [
  ["data.name.iv", "string", "full"],
  ["data.title.de", "string", "full"],
  ["data.title.en", "string", "full"],
  ["data.title", "string", "full"],
  ["data.zip-code.iv", "string", "full"],
  ["data.num.iv", "number", "full"],
  ["data.rank.de", "number", "full"],
  ["data.rank.en", "number", "full"],
  ["data.rank", "number", "full"],
  ["data.flag.iv", "boolean", "full"],
  ["data.when.iv", "date", "full"],
  ["data.tags.iv", "array", "full"],
  ["data.refs.iv", "array", "full"],
  ["data.geo.iv", "object", "full"],
  ["data.meta.iv", "object", "full"],
  ["data.meta.iv.a", "object", "full"],
  ["id", "id", "full"],
  ["created", "date", "full"],
  ["lastModified", "date", "full"],
  ["version", "version", "full"],
  ["status", "status", "full"],
  ["newStatus", "status", "full"],
  ["data.name", "string", "light"],
  ["data/name/iv", "string", "light"],
  ["data.name.de", "string", "light"],
  ["data.title.iv", "string", "light"],
  ["data.zip_code.iv", "string", "light"],
  ["data.zip_code", "string", "light"],
  ["data.num", "number", "light"],
  ["data.geo.iv.latitude", "number", "light"],
  ["data.flag", "boolean", "light"],
  ["data.tags", "array", "light"],
  ["data.tags.iv.0", "string", "light"],
  ["data.tags.iv.length", "number", "light"],
  ["data.meta", "object", "light"],
  ["data.meta.iv.b.c", "string", "light"],
  ["data.missing.iv", "string", "light"],
  ["data", "string", "light"],
];

const SORT_PATHS = [
  "data.name.iv", "data.name", "data.title.de", "data.title.en", "data.title", "data.num.iv", "data.num", "data.flag.iv", "data.when.iv",
  "data.tags.iv", "data.refs.iv", "data.geo.iv", "data.geo.iv.latitude", "data.meta.iv", "data.meta.iv.a", "data.meta.iv.b.c",
  "data.zip-code.iv", "data.zip_code.iv", "data.rank", "data.rank.en", "data.missing.iv", "data.tags.iv.0", "data.tags.iv.length",
  "id", "created", "lastModified", "version", "status", "newStatus",
];

/** Paths whose value depends on the query language (no partition given, localised field). */
const languageDependent = (p: string) => /^data[./](title|rank)$/.test(p);

/** Needles for contains/startsWith/endsWith: case, umlauts, LIKE metacharacters, quotes. */
const NEEDLES: unknown[] = ["ü", "Ü", "ss", "ß", "%", "_", "\\", "'", "a_", "0", "😀", "", " ", "ApP", 1];
/** Fewer needles for kinds that are rarely strings. */
const SHORT_NEEDLES: unknown[] = ["1", "2024", "e", "Z", "", 1, null];
const needlesFor = (kind: Kind, op: FilterOp) => {
  const stringy = kind === "string" || kind === "array" || kind === "object" || kind === "id";
  if (op === "contains") return stringy ? NEEDLES : SHORT_NEEDLES;
  // startsWith/endsWith: the needles where anchoring matters most.
  return stringy ? ["Ü", "ß", "%", "_", "\\", "'", "", "ApP"] : ["1", "Z", "", null];
};

interface Runtime {
  createdMid: string;
  modifiedMid: string;
  createdFirst: string;
  modifiedLast: string;
}

function literalsFor(kind: Kind, rt: Runtime): unknown[] {
  switch (kind) {
    case "string":
      return ["Müller", "Mu\u0308ller", "mueller", "Äpfel", "apple", "Zebra", "10", "9", "", "%", "O'Connor", "😀", "ß", 10, true, null];
    case "number":
      return [0, 1, -1, 2.5, 9, 10, 100, 0.1, "10", "9", true, null, "abc"];
    case "boolean":
      return [true, false, "true", "false", 1, 0, null];
    case "date":
      return [
        "2024-01-01", "2024-01-01T00:00:00Z", "2024-01-01T00:00:00.000Z", "2023-12-31T23:59:59Z", "2024", "",
        rt.createdMid, rt.modifiedMid, rt.createdFirst, rt.modifiedLast, null, 2024,
      ];
    case "array":
      return ["a", "A", "apple", "Äpfel", "äpfel", "10", "9", "x_y", "", "Müller", idOf(1), "unknown-ref", 10, null];
    case "object":
      return [10, "10", "9", true, "true", null, "text", "", "Äpfel", "[object Object]", "1,1,true", 0, "deep"];
    case "id":
      return [idOf(0), idOf(5), idOf(20), "p1", "P0", "p50", "Q-upper", "q-upper", "a_b", "a-b", "", "zzz", null];
    case "status":
      return ["Published", "Draft", "Archived", "published", "", null];
    case "version":
      return [0, 1, 2, 3, "1", 1.5, null];
  }
}

function inArraysFor(kind: Kind, rt: Runtime): unknown[][] {
  const pool = literalsFor(kind, rt);
  return [pool.slice(0, 3), [pool[3], null], [], [pool[4], String(pool[4])], pool];
}

const CONTEXTS: ReadonlyArray<{ language: Lang; unpublished: boolean }> = [
  { language: "de", unpublished: false },
  { language: "en", unpublished: true },
  { language: "en", unpublished: false },
  { language: "de", unpublished: true },
];

/**
 * The (language, unpublished) pairs a query runs in: all four with `all`; otherwise `count` of them,
 * rotating with `n` so each gets used, and both languages for language-dependent paths.
 */
function contexts(query: ContentQuery, n: number, all = false, count = 2): Case[] {
  if (all) return CONTEXTS.map((ctx) => ({ query, ...ctx }));
  const paths = [...filterPaths(query.filter), ...(query.sort ?? []).map((s) => s.path)];
  const picked = Array.from({ length: count }, (_, k) => CONTEXTS[(n + k) % 4]!);
  if (paths.some(languageDependent) || query.fullText)
    for (const ctx of [...picked]) picked.push({ language: ctx.language === "de" ? "en" : "de", unpublished: ctx.unpublished });
  return picked.map((ctx) => ({ query, ...ctx }));
}

function filterPaths(node: FilterNode | undefined): string[] {
  if (!node) return [];
  if ("and" in node) return node.and.flatMap(filterPaths);
  if ("or" in node) return node.or.flatMap(filterPaths);
  if ("not" in node) return filterPaths(node.not);
  if ("refersTo" in node) return [node.refersTo.path];
  return [node.path];
}

// ---- deterministic cases -------------------------------------------------------------------------

const COMPARE_OPS: FilterOp[] = ["eq", "ne", "lt", "le", "gt", "ge"];
const STRING_OPS: FilterOp[] = ["contains", "startsWith", "endsWith"];
const leaf = (path: string, op: FilterOp, value?: unknown): FilterNode => (value === undefined ? { path, op } : { path, op, value });

function filterCases(rt: Runtime): Case[] {
  const queries: ContentQuery[] = [];
  for (const [p, kind, level] of FILTER_PATHS) {
    const pool = literalsFor(kind, rt);
    const values = level === "full" ? pool : [pool[0]];
    for (const op of COMPARE_OPS) for (const v of values) queries.push({ filter: leaf(p, op, v) });
    for (const op of STRING_OPS) for (const v of level === "full" ? needlesFor(kind, op) : [pool[0]]) queries.push({ filter: leaf(p, op, v) });
    for (const v of level === "full" ? inArraysFor(kind, rt) : [pool.slice(0, 3)]) queries.push({ filter: leaf(p, "in", v) });
    queries.push({ filter: leaf(p, "empty") }, { filter: leaf(p, "exists") });
    if (level === "full") queries.push({ filter: leaf(p, "in", pool[0]) }, { filter: leaf(p, "empty", true) }, { filter: leaf(p, "eq") }, { filter: leaf(p, "ne") });
  }
  return queries.flatMap((q, n) => contexts(q, n, false, 1));
}

function logicCases(rt: Runtime): Case[] {
  const name = (op: FilterOp, value?: unknown) => leaf("data.name.iv", op, value);
  const num = (op: FilterOp, value?: unknown) => leaf("data.num.iv", op, value);
  const title = (op: FilterOp, value?: unknown) => leaf("data.title", op, value);
  const tags = (op: FilterOp, value?: unknown) => leaf("data.tags.iv", op, value);
  const filters: FilterNode[] = [
    { and: [] },
    { or: [] },
    { not: { and: [] } },
    { not: { or: [] } },
    { and: [num("gt", 0), num("lt", 50)] },
    { or: [num("lt", 0), num("gt", 50)] },
    { not: num("gt", 0) },
    { not: { not: num("gt", 0) } },
    { not: num("exists") },
    { not: name("empty") },
    { not: tags("eq", "a") },
    { not: tags("ne", "a") },
    { and: [tags("eq", "a"), tags("eq", "b")] },
    { or: [tags("eq", "a"), tags("empty")] },
    { and: [{ or: [name("startsWith", "m"), name("startsWith", "k")] }, { not: name("contains", "ü") }] },
    { or: [{ and: [title("eq", "Apple"), leaf("data.flag.iv", "eq", true)] }, { and: [title("eq", "Apfel"), { not: leaf("data.flag.iv", "eq", true) }] }] },
    { and: [leaf("status", "eq", "Published"), leaf("newStatus", "exists")] },
    { or: [leaf("status", "eq", "Draft"), leaf("status", "eq", "Archived")] },
    { and: [leaf("id", "ge", "p3"), leaf("id", "lt", "p6"), { not: leaf("id", "in", [idOf(1), idOf(2), idOf(3)]) }] },
    { or: [leaf("created", "lt", rt.createdMid), leaf("lastModified", "gt", rt.modifiedMid)] },
    { and: [leaf("data.meta.iv", "exists"), { not: leaf("data.meta.iv", "empty") }, { or: [leaf("data.meta.iv", "eq", 10), leaf("data.meta.iv", "eq", "10")] }] },
    { not: { or: [name("eq", null), name("eq", ""), name("exists")] } },
    { and: [{ not: { and: [num("ge", 0), { not: num("gt", 9) }] } }, num("exists")] },
    { or: [leaf("data.zip_code.iv", "startsWith", "0"), leaf("data.zip-code.iv", "endsWith", "5"), leaf("data.zip_code", "eq", "")] },
    { and: [leaf("data.rank", "ge", 1), { or: [leaf("data.rank.de", "empty"), leaf("data.rank.en", "empty")] }] },
    { not: { and: [{ or: [tags("in", ["a", "Apple"]), leaf("data.refs.iv", "eq", idOf(0))] }, { not: leaf("data.geo.iv.latitude", "gt", 0) }] } },
    { or: [{ and: [] }, num("eq", 12345)] },
    { and: [{ or: [] }, num("eq", 10)] },
    { or: [{ not: { or: [{ not: name("contains", "e") }, title("contains", "e")] } }, leaf("data.when.iv", "lt", "2024")] },
  ];
  return filters.flatMap((filter, n) => [
    ...contexts({ filter }, n, true),
    ...contexts({ filter, sort: [{ path: "data.num.iv", order: "descending" }], take: 7 }, n),
  ]);
}

function sortCases(): Case[] {
  const queries: ContentQuery[] = [{}, { sort: [] }];
  for (const p of SORT_PATHS) {
    queries.push({ sort: [{ path: p, order: "ascending" }] }, { sort: [{ path: p, order: "descending" }] });
  }
  queries.push({ sort: [{ path: "data.name.iv" }] }, { sort: [{ path: "data/num/iv" }] }, { sort: [{ path: "data.zip_code" }] });
  const multi: Array<Array<[string, "ascending" | "descending"]>> = [
    [["data.flag.iv", "ascending"], ["data.num.iv", "descending"]],
    [["data.flag.iv", "descending"], ["data.name.iv", "ascending"]],
    [["status", "ascending"], ["lastModified", "descending"]],
    [["data.tags.iv", "ascending"], ["data.title", "descending"]],
    [["data.rank", "ascending"], ["data.rank.de", "descending"], ["id", "descending"]],
    [["data.when.iv", "descending"], ["data.geo.iv.latitude", "ascending"]],
    [["data.missing.iv", "ascending"], ["data.num", "ascending"]],
    [["version", "descending"], ["created", "ascending"]],
    [["data.zip-code.iv", "ascending"], ["data.flag.iv", "ascending"], ["data.num.iv", "ascending"]],
    [["data.title.en", "descending"], ["data.title.de", "ascending"]],
    [["newStatus", "descending"], ["data.name", "descending"]],
    [["data.meta.iv.b.c", "ascending"], ["data.refs.iv", "descending"]],
    [["id", "descending"], ["data.num.iv", "ascending"]],
    [["data.num.iv", "ascending"], ["data.num.iv", "descending"]],
  ];
  for (const keys of multi) queries.push({ sort: keys.map(([path, order]) => ({ path, order })) });
  // With a filter, so the sort runs over a subset.
  queries.push({ filter: leaf("data.num.iv", "exists"), sort: [{ path: "data.num.iv" }] });
  queries.push({ filter: leaf("data.name.iv", "ne", ""), sort: [{ path: "data.name.iv", order: "descending" }] });
  return queries.flatMap((q) => contexts(q, 0, true));
}

function pagingCases(): Case[] {
  const sorts: Array<SortNode[] | undefined> = [
    undefined,
    [{ path: "data.name.iv", order: "ascending" }],
    [{ path: "data.num.iv", order: "descending" }],
    [{ path: "data.flag.iv" }, { path: "data.title" }],
  ];
  const skips = [undefined, 0, 1, 7, 50, 73, 74, 75, 86, 95, 96, 150, 1000];
  const takes = [undefined, 0, 1, 10, 74, 200, 250];
  const queries: ContentQuery[] = [];
  for (const sort of sorts)
    for (const skip of skips)
      for (const take of takes) {
        const q: ContentQuery = {};
        if (sort) q.sort = sort;
        if (skip !== undefined) q.skip = skip;
        if (take !== undefined) q.take = take;
        queries.push(q);
      }
  for (const skip of [0, 3, 20, 40])
    for (const take of [undefined, 0, 5, 100])
      queries.push({ filter: leaf("data.num.iv", "gt", 0), skip, ...(take === undefined ? {} : { take }) });
  return queries.flatMap((q, n) => contexts(q, n, false, 1));
}

function idsCases(): Case[] {
  const some = [idOf(40), idOf(3), idOf(7), idOf(1), idOf(90), idOf(5), idOf(20), idOf(47), idOf(11)];
  const queries: ContentQuery[] = [
    { ids: some },
    { ids: [...ALL_IDS].reverse() },
    { ids: ALL_IDS },
    { ids: [] },
    { ids: ["unknown", idOf(2), "nope", idOf(1)] },
    { ids: ["unknown"] },
    { ids: [idOf(2), idOf(2), idOf(1)] },
    { ids: some, skip: 2 },
    { ids: some, skip: 2, take: 3 },
    { ids: some, take: 0 },
    { ids: some, skip: 20 },
    { ids: [...ALL_IDS].reverse(), take: 250 },
    { ids: some, sort: [{ path: "data.num.iv", order: "descending" }] },
    { ids: some, sort: [{ path: "id" }] },
    { ids: some, sort: [] },
    { ids: some, filter: leaf("data.num.iv", "exists") },
    { ids: some, filter: leaf("data.name.iv", "contains", "l"), sort: [{ path: "data.name.iv" }] },
    { ids: some, filter: { not: leaf("status", "eq", "Published") } },
    { ids: some, fullText: "e" },
    { ids: some, fullText: "e", sort: [{ path: "lastModified", order: "descending" }], skip: 1, take: 2 },
    { ids: ["p0", "P01", idOf(0).toUpperCase(), ` ${idOf(0)}`, "a-b", "a_b"] },
  ];
  return queries.flatMap((q) => contexts(q, 0, true));
}

const FULL_TEXT = [
  "müller", "MÜLLER", "mueller", "muller", "strasse", "straße", "STRASSE", "ss", "ß", "äpfel", "ÄPFEL", "apfel", "köln", "koln", "KÖLN",
  "%", "_", "\\", "'", "o'connor", "''", '"', "😀", "🍎", "10", "9", " ", "  apple", "a", "xyz-none", "deep", "de", "true", "null",
  "unknown-ref", idOf(0), "İ", "i̇", "[object", "52.52",
];

function fullTextCases(): Case[] {
  const cases: Case[] = [];
  FULL_TEXT.forEach((fullText, n) => {
    cases.push(...contexts({ fullText }, n, true));
    cases.push({ query: { fullText }, language: "de", unpublished: false, searchFields: ["name", "title"] });
    // Every field: what a side table's search column holds.
    cases.push({ query: { fullText }, language: "en", unpublished: false, searchFields: FIELDS.map((f) => f.name) });
    cases.push({ query: { fullText }, language: "en", unpublished: true, searchFields: ["tags", "meta", "zip-code"] });
  });
  cases.push(...contexts({ fullText: "" }, 0, true));
  cases.push(...contexts({ fullText: "e", filter: leaf("data.num.iv", "gt", 0), sort: [{ path: "data.title" }], skip: 2, take: 5 }, 0, true));
  cases.push({ query: { fullText: "a" }, language: "de", unpublished: false, searchFields: [] });
  return cases;
}

// ---- generated cases -----------------------------------------------------------------------------

function caseArbitrary(rt: Runtime): fc.Arbitrary<Case> {
  const literal = fc.constantFrom(
    ...new Set<unknown>([...(["string", "number", "boolean", "date", "array", "object", "id", "status", "version"] as Kind[]).flatMap((k) => literalsFor(k, rt)), ...NEEDLES, ...SHORT_NEEDLES]),
  );
  const ops: FilterOp[] = ["eq", "ne", "lt", "le", "gt", "ge", "contains", "startsWith", "endsWith", "in", "empty", "exists"];
  const leafArb: fc.Arbitrary<FilterNode> = fc
    .record({ path: fc.constantFrom(...FILTER_PATHS.map(([p]) => p)), op: fc.constantFrom(...ops), value: literal, list: fc.array(literal, { maxLength: 4 }) })
    .map(({ path, op, value, list }) => (op === "in" ? { path, op, value: list } : op === "empty" || op === "exists" ? { path, op } : { path, op, value }));
  const { filter } = fc.letrec<{ filter: FilterNode }>((tie) => ({
    filter: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      { arbitrary: leafArb, weight: 5 },
      { arbitrary: fc.array(tie("filter"), { maxLength: 3 }).map((and) => ({ and })), weight: 1 },
      { arbitrary: fc.array(tie("filter"), { maxLength: 3 }).map((or) => ({ or })), weight: 1 },
      { arbitrary: tie("filter").map((not) => ({ not })), weight: 1 },
    ),
  }));
  const sortArb = fc.array(
    fc.record({ path: fc.constantFrom(...SORT_PATHS), order: fc.constantFrom<SortNode["order"]>("ascending", "descending", undefined) }).map((s): SortNode =>
      s.order ? { path: s.path, order: s.order } : { path: s.path },
    ),
    { minLength: 1, maxLength: 3 },
  );
  const count = fc.oneof(fc.nat(12), fc.integer({ min: 0, max: 120 }), fc.constant(250));
  const idArb = fc.constantFrom(...ALL_IDS, "unknown", "nope");
  /** `arb` in `percent` of the cases, else absent. */
  const sometimes = <T,>(percent: number, arb: fc.Arbitrary<T>) =>
    fc.oneof({ arbitrary: fc.constant(undefined), weight: 100 - percent }, { arbitrary: arb, weight: percent });
  return fc
    .record({
      filter: sometimes(75, filter),
      sort: sometimes(60, sortArb),
      skip: sometimes(30, count),
      take: sometimes(40, count),
      ids: sometimes(12, fc.array(idArb, { maxLength: 12 })),
      fullText: sometimes(15, fc.constantFrom(...FULL_TEXT)),
      searchFields: sometimes(10, fc.subarray(FIELDS.map((f) => f.name))),
      language: fc.constantFrom(...LANGUAGES),
      unpublished: fc.boolean(),
    })
    .map(({ language, unpublished, searchFields, ...rest }): Case => {
      const query = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) as ContentQuery;
      return { query, language, unpublished, ...(searchFields ? { searchFields } : {}) };
    });
}

// ---- the suite -----------------------------------------------------------------------------------

function conformanceSuite(name: string, open: (() => Backend) | undefined, indexed = false) {
  (open ? describe : describe.skip)(`query conformance: ${name}`, () => {
    let backend: Backend;
    let store: ContentStore;
    let input: { published: OracleInput; unpublished: OracleInput };
    let rt: Runtime;

    beforeAll(async () => {
      backend = open!();
      store = await backend.openStore();
      await store.migrate();
      await seed(store, indexed);
      input = { published: await readOracleInput(store, false), unpublished: await readOracleInput(store, true) };
      const created = input.unpublished.natural.map((i) => i.created).sort();
      const modified = input.unpublished.natural.map((i) => i.lastModified).sort();
      rt = {
        createdMid: created[created.length >> 1]!,
        modifiedMid: modified[modified.length >> 1]!,
        createdFirst: created[0]!,
        modifiedLast: modified[modified.length - 1]!,
      };
    });

    afterAll(async () => {
      await store?.close();
      await backend?.dispose();
    });

    it("the fixture has drafts, pending drafts and archived items", () => {
      console.info(`[conformance ${name}] runQuery comparator gaps: ${JSON.stringify(QUIRKS)}`);
      const statuses = (items: ContentItem[]) => items.map((i) => `${i.status}${i.newStatus ? `+${i.newStatus}` : ""}`);
      expect(input.unpublished.natural).toHaveLength(N);
      expect(new Set(statuses(input.unpublished.natural))).toEqual(new Set(["Published", "Draft", "Archived", "Published+Draft"]));
      expect(new Set(statuses(input.published.natural))).toEqual(new Set(["Published"]));
      const pending = input.unpublished.natural.filter((i) => i.newStatus);
      expect(pending.length).toBeGreaterThan(5);
      for (const p of pending) expect(input.published.byId.get(p.id)?.data).not.toEqual(p.data);
    });

    const categories: Array<[string, () => Case[]]> = [
      ["filters", () => filterCases(rt)],
      ["and/or/not", () => logicCases(rt)],
      ["sorting", () => sortCases()],
      ["paging", () => pagingCases()],
      ["ids", () => idsCases()],
      ["fullText", () => fullTextCases()],
    ];

    it.each(categories)("%s agree with runQuery", async (category, build) => {
      const cases = build();
      const outcomes = await mapLimit(cases, PARALLEL, (c) => checkCase(store, input, c));
      report(name, category, cases, outcomes);
    }, 120_000);

    it(`${RUNS} generated queries (seed ${SEED}) agree with runQuery`, async () => {
      const arb = caseArbitrary(rt);
      const cases = fc.sample(arb, { seed: SEED, numRuns: RUNS });
      const outcomes = await mapLimit(cases, PARALLEL, (c) => checkCase(store, input, c));
      if (outcomes.some((o) => o.mismatch)) {
        // Shrink to the smallest failing query, as a headline above the full list.
        let smallest = "";
        try {
          await fc.assert(
            fc.asyncProperty(arb, async (c) => !(await checkCase(store, input, c)).mismatch),
            { seed: SEED, numRuns: RUNS },
          );
        } catch (e) {
          smallest = String((e as Error).message).split("\n").slice(0, 3).join("\n");
        }
        console.error(`[conformance ${name}] smallest failing generated query:\n${smallest}`);
      }
      report(name, `generated (seed ${SEED})`, cases, outcomes);
    }, 120_000);
  });
}

conformanceSuite("sqlite", () => sqliteBackend());
conformanceSuite("sqlite, side table", () => sqliteBackend(), true);

const databaseUrl = process.env.TEST_DATABASE_URL;
conformanceSuite(
  databaseUrl ? "postgres" : "postgres (set TEST_DATABASE_URL to run)",
  databaseUrl ? () => postgresBackend(databaseUrl) : undefined,
);
conformanceSuite(
  databaseUrl ? "postgres, side table" : "postgres, side table (set TEST_DATABASE_URL to run)",
  databaseUrl ? () => postgresBackend(databaseUrl) : undefined,
  true,
);
