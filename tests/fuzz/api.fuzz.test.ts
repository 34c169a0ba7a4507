import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MAX_FILTER_LEAVES, MAX_IDS, MAX_IN_VALUES, MAX_SEARCH_WORDS, MAX_SORT_KEYS } from "~/content/limits";
import { COLLECTIONS } from "~/content/public-api";
import { camelCase, pascalCase } from "~/content/graphql/naming";
import { buildDemoContent } from "~/content/seed/content";
import { demoSchemas } from "~/content/seed/schemas";
import { ICON_NAMES } from "~/content/seed/theme";
import { FUZZ_FRESH_RUNS, FUZZ_FRESH_SEED, FUZZ_RUNS, FUZZ_SEED, Fuzzer, freshFuzzParams, freshReplay, fuzzParams, fuzzTestTimeout, printable, send, snippet, type FuzzRequest, type FuzzResponse } from "../support/fuzz";
import { EVENT_LOOP_BOUND_MS, worstHealthzWhile } from "../support/event-loop";
import { squidexToken, startServer, type RunningServer } from "../support/server";

/**
 * Fuzzing over real HTTP: generated hostile input (fast-check) against every internal endpoint, the
 * Squidex API and the public pages of one production server on 127.0.0.1. Every answer must come
 * within the time bound, never be a 5xx, and a visitor's answer never holds a private value (booker
 * details, practitioners' e-mail and phone) or data of drafts and of practitioners hidden from this
 * site. /healthz must still answer 200 after every property.
 *
 * Fixed seed by default (FUZZ_SEED, default 20261123) and FUZZ_RUNS runs per property (default 50),
 * then a short campaign with a seed drawn afresh each run (printed; FUZZ_FRESH_RUNS, default 10);
 * `npm run fuzz` runs a long campaign with a random seed. A failure prints the seed, the replay path
 * and the shrunk counterexample; the distinct failures seen are listed at the end.
 */

let server: RunningServer;
let fz: Fuzzer;
let token: string;

const demo = buildDemoContent(new Date());
const SEED_IDS = demo.map((i) => i.id);
const SEED_ID_SET = new Set(SEED_IDS);
const SEED_ASSETS = ["asset-hero", "asset-practice-room", "asset-team", "asset-map", "asset-placeholder"];
const SCHEMAS = [...new Set(demo.map((i) => i.schema))];
const PRACTITIONER_SLUGS = ["juergen-weiss", "dr-anja-gross", "soeren-mueller", "maria-schneider", "maria-schneider-2", "oemer-yildiz"];
const PAGE_SLUGS = ["ueber-uns", "en/about-us", "behandelnde", "termine", "impressum", "datenschutz", "ratgeber/rueckenschmerzen", "en/guide/back-pain", "newsletter"];
const APP = "praxisnetz";
const SQ = "/api/squidex";

beforeAll(async () => {
  // Many generated submissions from one address: the rate limits are tested in tests/api.
  server = await startServer({ env: { RATE_LIMIT_PER_HOUR: "1000000000", ANALYTICS_EVENTS_PER_MINUTE: "1000000000" } });
  fz = new Fuzzer(server);
  token = await squidexToken(server);
  console.log(`fuzz: seed ${FUZZ_SEED} (FUZZ_SEED), ${FUZZ_RUNS} runs per property (FUZZ_RUNS), server ${server.url}`);
  if (FUZZ_FRESH_SEED !== undefined) console.log(`fuzz: fresh seed ${FUZZ_FRESH_SEED}, up to ${FUZZ_FRESH_RUNS} runs per property (FUZZ_FRESH_RUNS; replay a failure with FUZZ_SEED=${FUZZ_FRESH_SEED})`);
});

afterEach(async () => {
  // Whatever a property did, the server must still be up and healthy.
  expect(server.proc.exitCode, `server exited:\n${server.output().slice(-3000)}`).toBeNull();
  const res = await send(server, { method: "GET", path: "/healthz" });
  expect(res.status, `GET /healthz after the property: ${res.body.slice(0, 300)}`).toBe(200);
});

afterAll(async () => {
  if (fz) console.log(fz.summary());
  if (fz && process.env.FUZZ_REPORT) fs.writeFileSync(process.env.FUZZ_REPORT, JSON.stringify([...fz.failures.values()], null, 2));
  await server?.stop();
});

/**
 * One property: fc.assert over an async predicate, sequential against the one server; with the
 * fixed seed, then (in `npm test`) a few runs with the fresh seed, whose failure says how to replay it.
 */
async function property<T>(name: string, arb: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, params: fc.Parameters<[T]> = {}) {
  fz.property = name;
  const prop = fc.asyncProperty(arb.map(printable), predicate);
  await fc.assert(prop, fuzzParams(params));
  const fresh = freshFuzzParams(params);
  if (!fresh) return;
  fz.property = `${name} (fresh seed)`;
  try {
    await fc.assert(prop, fresh);
  } catch (e) {
    throw new Error(`Fresh-seed campaign failed; replay with ${freshReplay(fresh.numRuns!)} npx vitest run tests/fuzz -t ${JSON.stringify(name)}\n${(e as Error).message}`, { cause: e });
  }
}

const T = fuzzTestTimeout();

describe("the oracle", () => {
  it("knows the private, draft and hidden values and finds them in an answer", async () => {
    const kinds = new Set(fz.secrets.map((s) => s.kind));
    expect([...kinds].sort()).toEqual(["draft", "hidden", "private"]);
    expect(fz.secrets.some((s) => /^buchung\d\d@example\.org$/.test(s.value))).toBe(true);
    // An editor's answer holds practitioners' private contact details: held to the visitor rules it must be flagged.
    const editor = await send(server, { method: "GET", path: `/api/squidex/api/content/${APP}/gm-content-practitioners?$top=200`, headers: { authorization: `Bearer ${token}` } });
    expect(editor.status).toBe(200);
    expect(() => fz.checkNoSecrets("oracle self-test", { method: "GET", path: "/" }, editor)).toThrow(/privacy leak/);
    const drafts = await send(server, { method: "GET", path: `/api/squidex/api/content/${APP}/core-pages?$top=200`, headers: { authorization: `Bearer ${token}`, "x-unpublished": "1" } });
    expect(() => fz.checkNoSecrets("oracle self-test", { method: "GET", path: "/" }, drafts)).toThrow(/draft value/);
    fz.failures.clear();
  });

  it("keeps a failing request whole, beyond what the report shows, to send again", async () => {
    const body = JSON.stringify({ name: `${"\udc00\ud800 Ä ".repeat(400)}end`, list: Array.from({ length: 300 }, (_, i) => i) });
    const req = { method: "POST", path: "/api/newsletter/subscribe?x=%E0%A4%A", headers: { "content-type": "application/json", "x-probe": "it's" }, body };
    let message = "";
    try {
      fz.fail("oracle self-test", "status 599", req, undefined, undefined, "a made-up failure");
    } catch (e) {
      message = (e as Error).message;
    }
    fz.failures.clear();
    const file = /whole request: (\S+\.json)/.exec(message)?.[1];
    expect(file, message).toBeTruthy();
    const saved = JSON.parse(fs.readFileSync(file!, "utf8")) as { method: string; path: string; headers: Record<string, string>; bodyFile: string; detail: string };
    expect(saved).toMatchObject({ method: "POST", path: req.path, headers: req.headers, detail: "a made-up failure" });
    const bytes = fs.readFileSync(saved.bodyFile);
    expect(bytes.equals(Buffer.from(body, "utf8"))).toBe(true);
    expect(body.length).toBeGreaterThan(3000);
    expect(message).toContain("send it again: curl");
    // Sent again from the file, it gets the answer the original gets.
    const original = await send(server, req);
    const again = await send(server, { method: saved.method, path: saved.path, headers: saved.headers, body: bytes });
    expect(again.status).toBe(original.status);
    expect(again.status).toBeLessThan(500);
  });
});

// ---- building blocks --------------------------------------------------------------------------------

const PROTO_KEYS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf", "__defineGetter__", "toJSON", "then"];
const SPECIAL_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff",
  "\udc00\ud800",
  "x\ud83d",
  "\u202eevil\u202c",
  "\u200f\u05e9\u05dc\u05d5\u05dd",
  "\u0645\u0631\u062d\u0628\u0627",
  "a\u0301\u0301\u0301\u0301",
  "Z\u0324\u0354\u0367\u0311\u0313a\u0356\u032d\u0308\u0307",
  "\u{1F469}\u200d\u{1F469}\u200d\u{1F467}\u200d\u{1F466}",
  "\u{1F3F3}\ufe0f\u200d\u{1F308}",
  "\ufeff",
  "\uffff",
  "\ufffd",
  "%",
  "%E0%A4%A",
  "%00",
  "%zz",
  "%%",
  "%u0041",
  "%C0%AF",
  "%2e%2e",
  "%2f",
  "..",
  "../..",
  "./",
  "\\",
  "\\\\",
  "\r\n",
  "\n",
  "\t",
  "'",
  "''",
  '"',
  "`",
  "<script>alert(1)</script>",
  "${x}",
  "{{x}}",
  "null",
  "undefined",
  "NaN",
  "-0",
  "1e400",
  "[object Object]",
  "\u0131\u0130",
  "\u00df",
  "Stra\u00dfe",
  "J\u00fcrgen Wei\u00df",
  "\u01c5",
];

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const special = fc.constantFrom(...SPECIAL_STRINGS, ...PROTO_KEYS);
/** Short strings of every awkward kind. */
const hostile: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: special },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 24 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary-ascii", maxLength: 24 }) },
  { weight: 1, arbitrary: loneSurrogate },
  { weight: 2, arbitrary: fc.tuple(special, fc.string({ maxLength: 8 }), special).map(([a, b, c]) => a + b + c) },
);
/** Oversize strings: thousands to hundreds of thousands of characters. */
const huge = fc.tuple(fc.constantFrom("a", "\u00e4", "\u{1F600}", "\u0000", "%", "(", "\\", " "), fc.integer({ min: 1_000, max: 200_000 })).map(([c, n]) => c.repeat(n));
const hostileOrHuge = fc.oneof({ weight: 9, arbitrary: hostile }, { weight: 1, arbitrary: huge });

/** A path segment as it would be put in a URL: percent-encoded, raw, or with broken escapes. */
const segment = fc.oneof(
  { weight: 3, arbitrary: hostile.map((s) => encodeSafe(s)) },
  { weight: 2, arbitrary: hostile },
  { weight: 2, arbitrary: fc.constantFrom("%E0%A4%A", "%", "%%", "%zz", "%u0041", "%C0%AF", "%2e%2e", "%2E", "%2f", "%5c", "%00", "%0d%0a", "%ff", "%ED%A0%80", "..", ".", "", "a%2Fb") },
  { weight: 1, arbitrary: fc.constantFrom(...PROTO_KEYS) },
);

/**
 * A well-formed percent-encoded segment without any "%" in its decoded text (lone surrogates become
 * U+FFFD): for properties about what lies past the path decoding; broken escapes are `segment`'s job.
 */
const cleanSegment = fc.oneof({ weight: 4, arbitrary: hostile.map((s) => encodeURIComponent(wellFormed(s).replace(/%/g, "\u2030"))) }, { weight: 1, arbitrary: fc.constantFrom(...PROTO_KEYS) });

function wellFormed(s: string): string {
  return s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
}

function encodeSafe(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    // lone surrogates: encode what can be, keep the rest raw
    return [...s].map((c) => (/[\ud800-\udfff]/.test(c) ? c : encodeURIComponent(c))).join("");
  }
}

/** JSON text builders that can emit what JSON.stringify never does: own __proto__ keys, duplicate keys, raw number tokens. */
const jstr = (s: string) => JSON.stringify(s);
const jobj = (pairs: Array<[string, string]>) => `{${pairs.map(([k, v]) => `${jstr(k)}:${v}`).join(",")}}`;

const jsonNumberText = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => (Object.is(d, -0) ? "-0" : String(d))),
  fc.constantFrom("1e400", "-1e400", "-0", "0.0000000000000000000001", "123456789012345678901234567890", "9007199254740993", "1E2", "-1", "0"),
);
const jsonLeaf = fc.oneof(jsonNumberText, fc.constantFrom("true", "false", "null"), hostileOrHuge.map(jstr));
/** Arbitrary JSON text, objects including prototype keys and duplicate keys. */
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string; arr: string; obj: string }>((tie) => ({
  value: fc.oneof({ maxDepth: 3, depthSize: "small" }, jsonLeaf, tie("arr"), tie("obj")),
  arr: fc.array(tie("value"), { maxLength: 4 }).map((vs) => `[${vs.join(",")}]`),
  obj: fc.array(fc.tuple(fc.oneof(special, fc.string({ maxLength: 6 })), tie("value")), { maxLength: 4 }).map(jobj),
})).value;

/** Deeply nested JSON: thousands to a hundred thousand levels. */
const deepJson = fc
  .record({ depth: fc.integer({ min: 100, max: 100_000 }), kind: fc.constantFrom("array", "object", "mixed", "unclosed", "url-field") })
  .map(({ depth, kind }) => {
    switch (kind) {
      case "array":
        return "[".repeat(depth) + "]".repeat(depth);
      case "object":
        return '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
      case "mixed":
        return '{"url":"core-pages","x":' + '[{"a":'.repeat(depth) + "0" + "}]".repeat(depth) + "}";
      case "unclosed":
        return '{"url":'.repeat(depth);
      default:
        return '{"url":' + "[".repeat(depth) + '"core-pages"' + "]".repeat(depth) + "}";
    }
  });

/** Not JSON: truncated, garbage, invalid UTF-8, lookalikes. */
const malformedJson: fc.Arbitrary<string | Buffer> = fc.oneof(
  fc.tuple(jsonText, fc.nat()).map(([t, n]) => t.slice(0, n % Math.max(1, t.length))),
  fc.constantFrom("{", "}", "[1,]", "{'url':'core-pages'}", '{"url":"core-pages",}', "NaN", "Infinity", "undefined", '{"url":"a"}}', "\ufeff{}", '"\\ud800"', '{"url":"\\x41"}', '{"url":"\\u12"}', "{\u0000}", "/* */{}", "1 2", "\u00a0"),
  fc.uint8Array({ minLength: 1, maxLength: 64 }).map((b) => Buffer.from(b)),
  fc.constantFrom(Buffer.from([0xff, 0xfe, 0x7b, 0x7d]), Buffer.from([0x7b, 0x22, 0x75, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]), Buffer.from([0xed, 0xa0, 0x80])),
  fc.string({ unit: "binary", maxLength: 40 }),
);

// ---- collection URLs with generated query strings -------------------------------------------------------

const ODATA_PATHS = [
  "data/city/iv",
  "data/name/iv",
  "data/title/de",
  "data/title/en",
  "data/title",
  "data/seo/de/slug",
  "data/websites/iv",
  "data/start/iv",
  "data/booked/iv",
  "data/practitioner/iv",
  "id",
  "status",
  "version",
  "lastModified",
  "created",
  "data/__proto__/iv",
  "data/constructor/iv",
  "data/title/__proto__",
  "data/title/constructor/name",
  "data/toString",
  "data/city/iv/length",
  "data",
  "data/",
  "data//iv",
  "/",
  "__proto__",
];
const odataWord = fc.oneof(fc.constantFrom(...ODATA_PATHS), fc.stringMatching(/^[^\s(),']{1,12}$/));
const odataLiteral = fc.oneof(
  fc.constantFrom("'Berlin'", "'K\u00f6ln'", "''", "'it''s'", "true", "false", "null", "NULL", "2026-01-01", "2026-01-01T00:00:00Z", "1e5", "-0", "NaN", "'unterminated", "'''"),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  hostile.map((s) => `'${s.replace(/'/g, "''")}'`),
);
const odataExpr: fc.Arbitrary<string> = fc.letrec<{ expr: string; cmp: string; fn: string; inList: string; not: string; paren: string; bin: string }>((tie) => ({
  expr: fc.oneof({ maxDepth: 4, depthSize: "small" }, tie("cmp"), tie("fn"), tie("inList"), tie("not"), tie("paren"), tie("bin")),
  cmp: fc
    .tuple(odataWord, fc.constantFrom("eq", "ne", "lt", "le", "gt", "ge", "EQ", "Ne", "in", "has", "like", "add", "=="), odataLiteral)
    .map(([p, o, l]) => `${p} ${o} ${l}`),
  fn: fc
    .tuple(fc.constantFrom("contains", "startswith", "endswith", "empty", "exists", "CONTAINS", "substringof", "toString", "__proto__", "constructor"), odataWord, fc.option(odataLiteral, { nil: undefined }))
    .map(([f, p, l]) => (l === undefined ? `${f}(${p})` : `${f}(${p}, ${l})`)),
  inList: fc.tuple(odataWord, fc.array(odataLiteral, { maxLength: 4 })).map(([p, ls]) => `${p} in (${ls.join(", ")})`),
  not: tie("expr").map((e) => `not ${e}`),
  paren: tie("expr").map((e) => `(${e})`),
  bin: fc.tuple(tie("expr"), fc.constantFrom("and", "or", "AND", "Or", "xor", ","), tie("expr")).map(([a, o, b]) => `${a} ${o} ${b}`),
})).expr;
const odataDeep = fc
  .record({ n: fc.integer({ min: 100, max: 30_000 }), shape: fc.constantFrom("parens", "nots", "not-parens", "unbalanced", "chain", "or-chain", "fn-nest"), leaf: fc.constantFrom("data/city/iv eq 'Berlin'", "id eq 'x'", "exists(id)") })
  .map(({ n, shape, leaf }) => {
    switch (shape) {
      case "parens":
        return "(".repeat(n) + leaf + ")".repeat(n);
      case "nots":
        return "not ".repeat(n) + leaf;
      case "not-parens":
        return "not (".repeat(n) + leaf + ")".repeat(n);
      case "unbalanced":
        return "(".repeat(n) + leaf;
      case "chain":
        return `${leaf} and `.repeat(n) + leaf;
      case "or-chain":
        return `(${leaf} or `.repeat(n) + leaf + ")".repeat(n);
      default:
        return "contains(".repeat(n) + "id, 'x'" + ")".repeat(n);
    }
  });
/** OData $filter from the grammar, and mangled (cut short, garbage appended). Deep nesting is odataDeep. */
const odataFilter = fc.oneof(
  { weight: 5, arbitrary: odataExpr },
  { weight: 2, arbitrary: fc.tuple(odataExpr, fc.nat(), hostile).map(([e, n, h]) => e.slice(0, n % (e.length + 1)) + h) },
);

const orderby = fc.array(fc.tuple(fc.oneof(odataWord, hostile), fc.constantFrom("", " asc", " desc", " DESC", " sideways", "  desc  desc")), { maxLength: 4 }).map((parts) => parts.map(([p, d]) => p + d).join(","));
const hugeOrderby = fc.integer({ min: 100, max: 20_000 }).map((n) => Array.from({ length: n }, (_, i) => `data/f${i}/iv desc`).join(","));
const numberParam = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String),
  fc.constantFrom("1e400", "NaN", "-0", "0x10", "1.5", " 5", "", "Infinity", "-1", "00", "9".repeat(400), "\u0665", "\uff15", "5abc"),
  hostile,
);

/** JSON filter nodes for `q`, well- and ill-formed, with prototype keys. */
const qPath = fc.oneof(fc.constantFrom(...ODATA_PATHS.map((p) => p.replace(/\//g, "."))), hostile);
const qOp = fc.oneof(fc.constantFrom("eq", "ne", "lt", "le", "gt", "ge", "contains", "startsWith", "endsWith", "in", "empty", "exists", "EQ", "startswith"), special);
const qFilter: fc.Arbitrary<string> = fc.letrec<{ node: string; leaf: string; and: string; or: string; not: string; odd: string }>((tie) => ({
  node: fc.oneof({ maxDepth: 4, depthSize: "small" }, tie("leaf"), tie("odd"), tie("and"), tie("or"), tie("not")),
  leaf: fc.tuple(qPath, qOp, fc.option(jsonText, { nil: undefined })).map(([p, o, v]) => jobj([["path", jstr(p)], ["op", jstr(o)], ...(v === undefined ? [] : ([["value", v]] as Array<[string, string]>))])),
  and: fc.array(tie("node"), { maxLength: 3 }).map((ns) => jobj([["and", `[${ns.join(",")}]`]])),
  or: fc.array(tie("node"), { maxLength: 3 }).map((ns) => jobj([["or", `[${ns.join(",")}]`]])),
  not: tie("node").map((n) => jobj([["not", n]])),
  odd: fc.oneof(jsonText, fc.tuple(special, jsonText).map(([k, v]) => jobj([[k, v]])), fc.constantFrom('{"and":"x"}', '{"not":null}', '{"path":1,"op":"eq"}', '{"__proto__":{"path":"id","op":"eq","value":"x"}}', '{"and":[],"or":[]}')),
})).node;
const qDeep = fc
  .record({ n: fc.integer({ min: 100, max: 30_000 }), shape: fc.constantFrom("not", "and", "or", "array") })
  .map(({ n, shape }) => {
    const leaf = '{"path":"id","op":"eq","value":"x"}';
    if (shape === "not") return '{"filter":' + '{"not":'.repeat(n) + leaf + "}".repeat(n) + "}";
    if (shape === "array") return '{"filter":{"path":"id","op":"in","value":' + "[".repeat(n) + "]".repeat(n) + "}}";
    return '{"filter":' + `{"${shape}":[`.repeat(n) + leaf + "]}".repeat(n) + "}";
  });
const qQuery = fc.oneof(
  { weight: 5, arbitrary: fc
    .record(
      {
        filter: qFilter,
        sort: fc.oneof(jsonText, fc.array(fc.tuple(qPath, fc.oneof(fc.constantFrom("ascending", "descending"), hostile)), { maxLength: 3 }).map((s) => `[${s.map(([p, o]) => jobj([["path", jstr(p)], ["order", jstr(o)]])).join(",")}]`)),
        skip: fc.oneof(jsonNumberText, jsonText),
        take: fc.oneof(jsonNumberText, jsonText),
        top: jsonNumberText,
        ids: fc.oneof(jsonText, fc.array(fc.oneof(fc.constantFrom(...SEED_IDS), hostile), { maxLength: 5 }).map((a) => JSON.stringify(a))),
        fullText: fc.oneof(hostile.map(jstr), jsonText),
        extra: fc.tuple(special, jsonText),
      },
      { requiredKeys: [] },
    )
    .map(({ extra, ...q }) => jobj([...(Object.entries(q) as Array<[string, string]>), ...(extra ? [extra] : [])])) },
  { weight: 1, arbitrary: jsonText },
  { weight: 1, arbitrary: malformedJson.map((m) => (Buffer.isBuffer(m) ? m.toString("latin1") : m)) },
);

/** A few odd ids. */
const idsParam = fc.oneof(
  fc.array(fc.oneof(fc.constantFrom(...SEED_IDS), hostile), { maxLength: 8 }).map((a) => a.join(",")),
  fc.constantFrom(",,,", " , ", "__proto__,constructor"),
);
/** Thousands to tens of thousands of ids (every 97th a real one): a small recipe, expanded by idList. */
const hugeIds = fc.record({ n: fc.integer({ min: 1_000, max: 40_000 }), real: fc.boolean() });
const idList = ({ n, real }: { n: number; real: boolean }) => Array.from({ length: n }, (_, i) => (real && i % 97 === 0 ? SEED_IDS[i % SEED_IDS.length]! : `i${i}`));

type Param = [string, string];
/** One query parameter of any kind Squidex clients send; deep nesting and huge lists have their own properties. */
const queryParam: fc.Arbitrary<Param> = fc.oneof(
  { weight: 4, arbitrary: odataFilter.map((f): Param => ["$filter", f]) },
  { weight: 2, arbitrary: orderby.map((o): Param => ["$orderby", o]) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom("$top", "$skip", "top", "skip", "$TOP"), numberParam).map(([k, v]): Param => [k, v]) },
  { weight: 1, arbitrary: hostile.map((s): Param => ["$search", s]) },
  { weight: 3, arbitrary: qQuery.map((q): Param => ["q", q]) },
  { weight: 2, arbitrary: idsParam.map((ids): Param => ["ids", ids]) },
  { weight: 1, arbitrary: fc.tuple(fc.oneof(special, hostile), hostile).map(([k, v]): Param => [k, v]) },
);
const encodeMode = fc.constantFrom("encoded", "encoded", "raw", "keys-raw");
/** A query string, encoded properly or not at all (then `&`, `=`, `#`, `%` in values change its parse). */
const queryString = fc.tuple(fc.array(queryParam, { minLength: 0, maxLength: 3 }), encodeMode).map(([params, mode]) =>
  params.map(([k, v]) => (mode === "raw" ? `${k}=${v}` : mode === "keys-raw" ? `${k}=${encodeSafe(v)}` : `${encodeSafe(k)}=${encodeSafe(v)}`)).join("&"),
);
const collection = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...COLLECTIONS) },
  { weight: 1, arbitrary: fc.constantFrom("users", "core-pages/", "/core-pages", "a/b/core-pages", "core-pages/../core-settings", "CORE-PAGES", "core-pages?", "core-pages#x", "//", "?") },
  { weight: 1, arbitrary: fc.constantFrom(...PROTO_KEYS) },
  { weight: 1, arbitrary: hostile },
);
/** `url` values: a collection name with a generated query string. */
const collectionUrl = fc.tuple(collection, queryString).map(([c, q]) => (q ? `${c}?${q}` : c));


// ---- the internal API ------------------------------------------------------------------------------------

const INTERNAL = ["/api/rest", "/api/getcontentitem", "/api/getassets", "/api/schemas", "/api/getThirdPartyScripts", "/api/graphql"] as const;
const languageValue = fc.oneof(fc.constantFrom('"de"', '"en"'), hostile.map(jstr), jsonText);
const flagValue = fc.oneof(fc.constantFrom("true", "false"), jsonText);
/** A body of roughly the right shape with wrong or hostile values and extra (prototype) keys. */
const internalBody = fc
  .record(
    {
      url: fc.oneof({ weight: 3, arbitrary: collectionUrl.map(jstr) }, { weight: 1, arbitrary: jsonText }),
      id: fc.oneof(fc.constantFrom(...SEED_IDS).map(jstr), hostileOrHuge.map(jstr), jsonText),
      language: languageValue,
      cache: flagValue,
      unpublished: flagValue,
      dummy: jsonText,
      extra: fc.array(fc.tuple(fc.oneof(special, fc.constantFrom("url", "language", "unpublished", "isEditor", "editor")), jsonText), { maxLength: 3 }),
    },
    { requiredKeys: [] },
  )
  .map(({ extra, ...fields }) => jobj([...(Object.entries(fields) as Array<[string, string]>), ...(extra ?? [])]));
const anyInternalBody: fc.Arbitrary<string | Buffer> = fc.oneof(
  { weight: 6, arbitrary: internalBody },
  { weight: 2, arbitrary: malformedJson },
  { weight: 2, arbitrary: deepJson },
  { weight: 1, arbitrary: jsonText },
  { weight: 1, arbitrary: fc.tuple(internalBody, fc.integer({ min: 900_000, max: 1_200_000 })).map(([b, n]) => `${b.slice(0, -1)}${b.length > 2 ? "," : ""}"pad":"${"x".repeat(n)}"}`) },
);
const jsonContentType = fc.constantFrom("application/json", "application/json; charset=utf-8", "application/vnd.api+json", "APPLICATION/JSON", "application/json; charset=latin1");
const json = { "content-type": "application/json" };
const restReq = (body: unknown, endpoint = "/api/rest"): FuzzRequest => ({ method: "POST", path: endpoint, headers: json, body: JSON.stringify(body) });

describe("internal API", () => {
  it(
    "hostile JSON bodies on every internal endpoint",
    () =>
      property("internal JSON bodies", fc.record({ endpoint: fc.constantFrom(...INTERNAL), body: anyInternalBody, type: jsonContentType }), async ({ endpoint, body, type }) => {
        await fz.request(`POST ${endpoint}`, { method: "POST", path: endpoint, headers: { "content-type": type }, body });
      }),
    T,
  );

  it(
    "wrong methods and content types",
    () =>
      property(
        "internal methods and types",
        fc.record({
          endpoint: fc.constantFrom(...INTERNAL),
          method: fc.constantFrom("GET", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS", "POST", "PROPFIND", "FOO"),
          type: fc.option(fc.oneof(fc.constantFrom("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", "application/jsonx", "json", "", ";", "application/json;;", "*/*"), hostile), { nil: undefined }),
          body: fc.option(fc.oneof(internalBody, fc.constantFrom("url=core-pages", '--x\r\nContent-Disposition: form-data; name="url"\r\n\r\ncore-pages\r\n--x--\r\n')), { nil: undefined }),
          query: fc.option(queryString, { nil: undefined }),
        }),
        async ({ endpoint, method, type, body, query }) => {
          const headers: Record<string, string> = type === undefined ? {} : { "content-type": type };
          const req: FuzzRequest = { method, path: query ? `${endpoint}?${query}` : endpoint, headers, body: method === "GET" || method === "HEAD" ? undefined : body };
          const res = await fz.request(`${method} ${endpoint}`, req);
          if (["GET", "PUT", "PATCH", "DELETE"].includes(method))
            fz.expect(res.status === 405 || rejectedByHttpParser(res), `${method} ${endpoint}`, "not 405 for a wrong method", req, res, `${method} answered ${res.status}`);
        },
      ),
    T,
  );

  it(
    "OData $filter of every shape",
    () =>
      property(
        "OData $filter",
        fc.record({ endpoint: fc.constantFrom("/api/rest", "/api/rest", "/api/getcontentitem"), col: fc.constantFrom(...COLLECTIONS), filter: odataFilter, extra: fc.array(queryParam, { maxLength: 1 }), language: fc.constantFrom("de", "en") }),
        async ({ endpoint, col, filter, extra, language }) => {
          const url = `${col}?$filter=${encodeSafe(filter)}${extra.map(([k, v]) => `&${encodeSafe(k)}=${encodeSafe(v)}`).join("")}`;
          await fz.request(`POST ${endpoint} $filter`, restReq({ url, language, id: "page-home" }, endpoint));
        },
      ),
    T,
  );

  it(
    "map marker queries of every shape",
    () =>
      property(
        "map query",
        fc.record({
          numbers: fc.array(fc.oneof(fc.double(), fc.integer({ min: -200, max: 200 }).map(String), fc.constantFrom("", "NaN", "-0", "1e999", "0x1f", "5,5", " 3 ")), { minLength: 5, maxLength: 5 }),
          extra: fc.array(fc.tuple(fc.constantFrom("q", "language", "country", "lang", "zoom", "west"), fc.string({ maxLength: 40 })), { maxLength: 3 }),
        }),
        async ({ numbers, extra }) => {
          const names = ["zoom", "west", "south", "east", "north"];
          const query = [...numbers.map((v, i) => `${names[i]}=${encodeSafe(String(v))}`), ...extra.map(([k, v]) => `${k}=${encodeSafe(v)}`)].join("&");
          await fz.request("GET /api/practitioners/map", { method: "GET", path: `/api/practitioners/map?${query}` });
        },
      ),
    T,
  );

  it(
    "q JSON queries of every shape",
    () =>
      property("q JSON query", fc.record({ col: fc.constantFrom(...COLLECTIONS), q: qQuery, language: fc.constantFrom("de", "en") }), async ({ col, q, language }) => {
        await fz.request("POST /api/rest q", restReq({ url: `${col}?q=${encodeSafe(q)}`, language }));
      }),
    T,
  );

  it(
    "deeply nested filters: thousands of parentheses, tens of thousands of not",
    () =>
      property(
        "deep filters",
        fc.oneof(
          fc.record({ where: fc.constantFrom("rest $filter", "getcontentitem $filter", "squidex query odata"), col: fc.constantFrom("core-pages", "gm-content-practitioners", "gm-appointments", "core-theme-colors"), odata: odataDeep, q: fc.constant("") }),
          fc.record({ where: fc.constantFrom("rest q", "squidex query q"), col: fc.constantFrom("core-pages", "gm-content-practitioners", "gm-appointments", "core-theme-colors"), odata: fc.constant(""), q: qDeep }),
        ),
        async ({ where, col, odata, q }) => {
          if (where === "rest $filter") await fz.request("POST /api/rest deep $filter", restReq({ url: `${col}?$filter=${encodeSafe(odata)}` }));
          else if (where === "rest q") await fz.request("POST /api/rest deep q", restReq({ url: `${col}?q=${encodeSafe(q)}` }));
          else if (where === "getcontentitem $filter") await fz.request("POST /api/getcontentitem deep $filter", restReq({ url: `${col}?$filter=${encodeSafe(odata)}`, id: "page-home" }, "/api/getcontentitem"));
          else {
            const body = where === "squidex query odata" ? JSON.stringify({ odata: `$filter=${encodeSafe(odata)}` }) : `{"q":${q}}`;
            await fz.request(`POST ${SQ}/api/content/{app}/{schema}/query deep ${where.slice(-4).trim()}`, { method: "POST", path: `${SQ}/api/content/${APP}/${col}/query`, headers: { ...json, authorization: `Bearer ${token}` }, body });
          }
        },
      ),
    T,
  );

  it(
    "odd paging, sorting and search",
    () =>
      property(
        "paging, sort, search",
        fc.record({
          col: collection,
          params: fc.array(
            fc.oneof(
              fc.tuple(fc.constantFrom("$top", "$skip", "top", "skip", "$TOP"), numberParam),
              fc.tuple(fc.constant("$orderby"), fc.oneof({ weight: 4, arbitrary: orderby }, { weight: 1, arbitrary: hugeOrderby })),
              fc.tuple(fc.constant("$search"), hostileOrHuge),
            ),
            { maxLength: 4 },
          ),
          language: fc.constantFrom("de", "en"),
          cache: fc.option(fc.boolean(), { nil: undefined }),
        }),
        async ({ col, params, language, cache }) => {
          const url = params.length ? `${col}?${params.map(([k, v]) => `${encodeSafe(k)}=${encodeSafe(v)}`).join("&")}` : col;
          await fz.request("POST /api/rest paging", restReq({ url, language, cache }));
        },
      ),
    T,
  );

  it(
    "huge ids lists (tens of thousands)",
    () =>
      property(
        "huge ids",
        fc.record({ where: fc.constantFrom("rest", "rest", "squidex query", "squidex list", "squidex assets"), col: fc.constantFrom("core-pages", "gm-content-practitioners", "gm-appointments"), ids: hugeIds }),
        async ({ where, col, ids: recipe }) => {
          const ids = idList(recipe);
          const auth = { authorization: `Bearer ${token}` };
          if (where === "rest") await fz.request("POST /api/rest ids", restReq({ url: `${col}?ids=${ids.join(",")}` }));
          else if (where === "squidex query") await fz.request(`POST ${SQ}/api/content/{app}/{schema}/query ids`, { method: "POST", path: `${SQ}/api/content/${APP}/${col}/query`, headers: { ...json, ...auth }, body: JSON.stringify({ ids }) });
          else if (where === "squidex list") await fz.request(`GET ${SQ}/api/content/{app}/{schema}?ids`, { method: "GET", path: `${SQ}/api/content/${APP}/${col}?ids=${ids.join(",")}`, headers: auth });
          else await fz.request(`GET ${SQ}/api/apps/{app}/assets?ids`, { method: "GET", path: `${SQ}/api/apps/${APP}/assets?ids=${ids.join(",")}`, headers: auth });
        },
      ),
    T,
  );

  // What a query may hold (app/content/limits.ts): beyond these counts the answer is a 400 naming the limit.
  const SIZE_LIMITS = { orderby: MAX_SORT_KEYS, "q.sort": MAX_SORT_KEYS, ids: MAX_IDS, search: MAX_SEARCH_WORDS, "q.in": MAX_IN_VALUES, "odata in": MAX_IN_VALUES, "odata or": MAX_FILTER_LEAVES, "x-fields": Infinity } as const;
  type SizeKind = keyof typeof SIZE_LIMITS;
  const SORT_PATHS = ["id", "id", "id", "created desc", "data/name/iv", "lastModified desc", "data/city/iv desc", "version"];
  /** The query string (or Squidex query body) of one oversize or at-limit query of `kind` with `n` parts. */
  function sizedQuery(kind: SizeKind, n: number): { search: string; body: Record<string, unknown>; fields?: string } {
    const parts = <T>(make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));
    switch (kind) {
      case "orderby": {
        const text = `$orderby=${parts((i) => SORT_PATHS[i % SORT_PATHS.length]!).join(",")}`;
        return { search: text, body: { odata: text } };
      }
      case "q.sort": {
        const q = { sort: parts((i) => ({ path: i % 5 ? "id" : "data.name.iv" })) };
        return { search: `q=${encodeURIComponent(JSON.stringify(q))}`, body: { q } };
      }
      case "ids": {
        const ids = parts((i) => (i % 97 === 0 ? SEED_IDS[i % SEED_IDS.length]! : `i${i}`));
        return { search: `ids=${ids.join(",")}`, body: { ids } };
      }
      case "search": {
        const text = `$search=${parts((i) => `w${i}`).join("%20")}`;
        return { search: text, body: { odata: text } };
      }
      case "q.in": {
        const q = { filter: { path: "id", op: "in", value: parts((i) => `${i}`) } };
        return { search: `q=${encodeURIComponent(JSON.stringify(q))}`, body: { q } };
      }
      case "odata in": {
        const text = `$filter=${encodeURIComponent(`id in (${parts((i) => `'${i}'`).join(",")})`)}`;
        return { search: text, body: { odata: text } };
      }
      case "odata or": {
        const text = `$filter=${encodeURIComponent(parts((i) => `id eq '${i}'`).join(" or "))}`;
        return { search: text, body: { odata: text } };
      }
      default:
        return { search: "$top=200", body: {}, fields: parts((i) => (i % 2 ? `data.f${i}` : "title")).join(",") };
    }
  }

  it(
    "query sizes (sort keys, ids, search words, in-values, conditions, X-Fields): a 400 past each limit, never a 5xx, and the server keeps answering /healthz",
    () =>
      property(
        "query sizes",
        fc.record({
          kind: fc.constantFrom(...(Object.keys(SIZE_LIMITS) as SizeKind[])),
          n: fc.oneof({ weight: 1, arbitrary: fc.integer({ min: 1, max: 20 }) }, { weight: 1, arbitrary: fc.integer({ min: 240, max: 600 }) }, { weight: 3, arbitrary: fc.integer({ min: 1000, max: 8000 }) }),
          where: fc.constantFrom("rest", "rest", "squidex list", "squidex query"),
          col: fc.constantFrom("core-pages", "gm-content-practitioners", "gm-appointments"),
        }),
        async ({ kind, n, where, col }) => {
          const { search, body, fields } = sizedQuery(kind, n);
          const auth = { authorization: `Bearer ${token}`, ...(fields ? { "x-fields": fields } : {}) };
          const req: FuzzRequest =
            where === "rest"
              ? restReq({ url: `${col}?${search}`, cache: false })
              : where === "squidex list"
                ? { method: "GET", path: `${SQ}/api/content/${APP}/${col}?${search}`, headers: auth }
                : { method: "POST", path: `${SQ}/api/content/${APP}/${col}/query`, headers: { ...json, ...auth }, body: JSON.stringify(body) };
          const family = `${where} ${kind}`;
          // Three at once: one request that holds the event loop holds up the other two and the probe.
          const { worstMs, result } = await worstHealthzWhile(server.url, () => Promise.all([fz.request(family, req), fz.request(family, req), fz.request(family, req)]));
          const res = result[0];
          fz.expect(worstMs < EVENT_LOOP_BOUND_MS, family, "event loop held up", req, res, `/healthz waited ${worstMs} ms (bound ${EVENT_LOOP_BOUND_MS} ms) while three such requests ran`);
          // Over a limit: refused (400 naming it; 431/413 when the request is too large to read at all).
          if (n > SIZE_LIMITS[kind]) fz.expect([400, 413, 431].includes(res.status), family, "over the limit, not refused", req, res, `${n} > ${SIZE_LIMITS[kind]} answered ${res.status}`);
        },
      ),
    T,
  );

  it(
    "hostile submissions to the visitor forms (newsletter, registration, booking)",
    () =>
      property(
        "visitor forms",
        fc.record({
          endpoint: fc.constantFrom(
            "/api/newsletter/subscribe",
            "/api/practitioners/register",
            "/api/appointments/appt-001-01/book",
            "/api/appointments/%2e%2e%2fx/book",
            "/api/appointments/%00/book",
            `/api/appointments/${"x".repeat(300)}/book`,
          ),
          body: fc.oneof(
            { weight: 3, arbitrary: anyInternalBody },
            {
              weight: 5,
              arbitrary: fc
                .record(
                  {
                    name: jsonText,
                    email: fc.oneof(jsonText, fc.emailAddress().map((e) => JSON.stringify(e))),
                    phone: jsonText,
                    city: jsonText,
                    note: jsonText,
                    privacy: fc.oneof(jsonText, fc.constant("true")),
                    language: fc.oneof(jsonText, fc.constantFrom('"de"', '"en"')),
                    id: jsonText,
                    token: jsonText,
                    website_url: jsonText,
                  },
                  { requiredKeys: [] },
                )
                .map((fields) => jobj(Object.entries(fields) as Array<[string, string]>)),
            },
          ),
          key: fc.option(fc.oneof(fc.string({ maxLength: 300 }), fc.uuid()), { nil: undefined }),
        }),
        async ({ endpoint, body, key }) => {
          const headers: Record<string, string> = { ...json, ...(key !== undefined && /^[\x20-\x7e]*$/.test(key) ? { "idempotency-key": key } : {}) };
          await fz.request(`POST ${endpoint.split("/").slice(0, 3).join("/")}…`, { method: "POST", path: endpoint, headers, body });
        },
      ),
    T,
  );

  it(
    "generated collection URLs",
    () =>
      property("collection urls", fc.record({ url: collectionUrl, language: fc.constantFrom("de", "en"), cache: fc.option(fc.boolean(), { nil: undefined }) }), async (body) => {
        await fz.request("POST /api/rest url", restReq(body));
      }),
    T,
  );

  it(
    "/api/getcontentitem with real, draft, hidden and hostile ids",
    () =>
      property(
        "getcontentitem ids",
        fc.record({
          url: fc.oneof(fc.constantFrom(...COLLECTIONS), collectionUrl),
          id: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...SEED_IDS) }, { weight: 2, arbitrary: hostileOrHuge }),
          language: fc.constantFrom("de", "en"),
          unpublished: fc.option(fc.boolean(), { nil: undefined }),
          cache: fc.option(fc.boolean(), { nil: undefined }),
        }),
        async (body) => {
          await fz.request("POST /api/getcontentitem", restReq(body, "/api/getcontentitem"));
        },
      ),
    T,
  );

  // Each private value from the seed against a control of the same shape that matches nothing: a
  // visitor's answer must not depend on which one was asked (or the query must be refused).
  const privateFields: Array<{ col: string; field: string; values: string[] }> = [];
  for (const [col, names] of [
    ["gm-appointments", ["bookerName", "bookerEmail", "bookerPhone", "bookerNote"]],
    ["gm-content-practitioners", ["email", "phone"]],
  ] as const)
    for (const field of names) {
      const values = [...new Set(demo.filter((i) => i.schema === col).map((i) => i.data[field]?.iv).filter((v): v is string => typeof v === "string" && v.length > 0))];
      if (values.length) privateFields.push({ col, field, values });
    }
  const odq = (v: string) => `'${v.replace(/'/g, "''")}'`;
  const forms = {
    "$filter eq": (f: string, v: string) => `$filter=${encodeSafe(`data/${f}/iv eq ${odq(v)}`)}`,
    "$filter startswith": (f: string, v: string) => `$filter=${encodeSafe(`startswith(data/${f}/iv, ${odq(v.slice(0, 6))})`)}`,
    "$filter contains": (f: string, v: string) => `$filter=${encodeSafe(`contains(data/${f}/iv, ${odq(v.slice(2, 9))})`)}`,
    "q filter": (f: string, v: string) => `q=${encodeSafe(JSON.stringify({ filter: { path: `data.${f}.iv`, op: "eq", value: v } }))}`,
    $search: (_f: string, v: string) => `$search=${encodeSafe(v)}`,
    $orderby: (f: string) => `$orderby=${encodeSafe(`data/${f}/iv desc`)}`,
  };
  it.each(Object.keys(forms) as Array<keyof typeof forms>)(
    "visitors cannot use private fields: %s",
    (form) =>
      property(
        `private fields: ${form}`,
        fc.record({ which: fc.nat(), valueIndex: fc.nat(), control: fc.stringMatching(/^[qxzj]{9}$/), language: fc.constantFrom("de", "en") }),
        async ({ which, valueIndex, control, language }) => {
          const { col, field, values } = privateFields[which % privateFields.length]!;
          const value = values[valueIndex % values.length]!;
          const ask = async (f: string, v: string) => {
            const req = restReq({ url: `${col}?${forms[form](f, v)}`, language });
            return { req, res: await fz.request(`POST /api/rest ${form} on a private field`, req) };
          };
          const real = await ask(field, value);
          // the control: the same query for a value that matches nothing (for $orderby: a field that does not exist)
          const ctrl = form === "$orderby" ? await ask(`zz${control}`, value) : await ask(field, `${control}${control}`);
          if (real.res.status >= 400) return; // refused: fine
          const ids = (r: FuzzResponse) => {
            try {
              const j = JSON.parse(r.body) as { total: number; items: Array<{ id: string }> };
              return `${j.total}:${j.items.map((i) => i.id).join(",")}`;
            } catch {
              return r.body.slice(0, 200);
            }
          };
          fz.expect(
            ids(real.res) === ids(ctrl.res),
            `POST /api/rest ${col} by private field`,
            "leak:private-field query",
            real.req,
            real.res,
            `a visitor's ${form} on ${col}.${field} answers differently for a real value than for one that matches nothing: ` +
              `real ${JSON.stringify(value)} → ${ids(real.res).slice(0, 160)} vs control → ${ids(ctrl.res).slice(0, 160)}`,
            `${form} on ${field}`,
          );
        },
      ),
    T,
  );
});

// ---- assets, icons, consent, unknown ----------------------------------------------------------------------

describe("public resources", () => {
  it(
    "GET /api/assets/{id}/{name}",
    () =>
      property(
        "asset content",
        fc.record({
          id: fc.oneof(fc.constantFrom(...SEED_ASSETS), segment),
          name: fc.option(segment, { nil: undefined }),
          width: fc.option(fc.oneof(fc.constantFrom("320", "480", "1920", "0", "-1", "1e9", "NaN", "", "320.0", "0x140", "\u20ac", "%E0%A4%A", "%0d%0aX-Evil:%201", "%E2%82%AC", "%00"), numberParam), { nil: undefined }),
          method: fc.constantFrom("GET", "GET", "HEAD", "POST", "DELETE"),
          inm: fc.option(fc.oneof(hostile, fc.constant('"x"')), { nil: undefined }),
        }),
        async ({ id, name, width, method, inm }) => {
          const p = `/api/assets/${id}${name === undefined ? "" : `/${name}`}${width === undefined ? "" : `?width=${width}`}`;
          await fz.request(`${method} /api/assets/{id}`, { method, path: p, headers: inm === undefined ? {} : { "if-none-match": inm } });
        },
      ),
    T,
  );

  it(
    "GET /api/icons/{name}: only known icons, never a prototype member",
    () =>
      property("icons", fc.oneof(fc.constantFrom(...ICON_NAMES), fc.constantFrom(...PROTO_KEYS), segment), async (name) => {
        const req: FuzzRequest = { method: "GET", path: `/api/icons/${name}` };
        const res = await fz.request("GET /api/icons/{name}", req);
        let decoded: string | undefined;
        try {
          decoded = decodeURIComponent(name);
        } catch {
          decoded = undefined;
        }
        const known = decoded !== undefined && ICON_NAMES.includes(decoded);
        if (res.status === 200)
          fz.expect(known && res.body.trimStart().startsWith("<svg"), "GET /api/icons/{name}", "200 for unknown icon", req, res, `200 with ${snippet(res.body)} for an icon that does not exist (${JSON.stringify(decoded)})`);
        else if (known) fz.expect(false, "GET /api/icons/{name}", "known icon missing", req, res, `known icon ${decoded} answered ${res.status}`);
      }),
    T,
  );

  /** redirectTo values that cannot go into a header as they are: CR/LF, NUL, other controls, non-Latin-1, huge. */
  const headerBreakingRedirect = fc.oneof(
    fc.constantFrom("/\n/evil.example", "/\r\n/evil.example", "/a\r\nSet-Cookie: x=1", "/a\u0000b", "/\u00e4\u20ac", "/\ud800", "/?x=\u2028", "/\u3002evil", "/\u007f", "/\u0085"),
    hostile.map((s) => `/${s}`),
    huge.map((s) => `/${s}`),
  );
  /** redirectTo values a browser may resolve to another site: backslashes, tabs, protocol-relative and absolute URLs. */
  const offSiteRedirect = fc.oneof(
    fc.constantFrom(
      "/",
      "/en/practitioners",
      "//evil.example",
      "/\\evil.example",
      "\\\\evil.example",
      "/\\/evil.example",
      "/\t/evil.example",
      "/\t\t/evil.example",
      "https://evil.example/",
      "http:evil.example",
      "javascript:alert(1)",
      "/ /evil.example",
      "/#//evil.example",
      " /",
      "/%2F%2Fevil.example",
      "/%5Cevil.example",
      "/.//evil.example",
      "/./\\evil.example",
    ),
    fc.tuple(fc.constantFrom("/", "//", "/\\", "\\", "/\t"), fc.constantFrom("\\", "/", "\t", "", "%09"), fc.domain()).map(([a, b, d]) => `${a}${b}${d}`),
  );
  const consentFields = (redirect: fc.Arbitrary<string>) =>
    fc.array(
      fc.oneof(
        redirect.map((v): Param => ["redirectTo", v]),
        fc.oneof(fc.constantFrom("all", "necessary", "save"), hostile).map((v): Param => ["intent", v]),
        fc.oneof(fc.constantFrom("functional", "statistic", "marketing", "unclassified"), hostile).map((v): Param => ["category", v]),
        fc.tuple(special, hostile).map(([k, v]): Param => [k, v]),
      ),
      { maxLength: 5 },
    );
  const multipart = (fields: Param[], boundary: string) =>
    `${fields.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join("")}--${boundary}--\r\n`;

  /** The consent answer: any status below 500, and a Location only on this site (as a browser resolves it). */
  async function consent(req: FuzzRequest) {
    const res = await fz.request(`${req.method} /api/consent`, req);
    const location = res.headers.location;
    if (location === undefined) return;
    let target: URL | undefined;
    try {
      target = new URL(location, server.url);
    } catch {
      target = undefined;
    }
    fz.expect(
      target !== undefined && target.origin === server.url,
      `${req.method} /api/consent`,
      "open redirect",
      req,
      res,
      `Location ${JSON.stringify(location)} leads a browser to ${target?.href ?? "an unparsable URL"}`,
    );
  }

  it(
    "POST /api/consent: any body, content type and method",
    () =>
      property(
        "consent bodies",
        fc.record({
          fields: consentFields(fc.constant("/")),
          encoding: fc.constantFrom("form", "form-raw", "multipart", "json", "text", "none-type", "garbage", "none"),
          method: fc.constantFrom("POST", "POST", "POST", "PUT", "PATCH", "DELETE", "GET"),
          garbage: malformedJson,
          big: fc.option(fc.integer({ min: 100_000, max: 3_000_000 }), { nil: undefined }),
        }),
        async ({ fields, encoding, method, garbage, big }) => {
          const headers: Record<string, string> = {};
          const all: Param[] = big === undefined ? fields : [...fields, ["pad", "x".repeat(big)]];
          let body: string | Buffer | undefined;
          if (encoding === "form" || encoding === "form-raw") {
            body = all.map(([k, v]) => (encoding === "form" ? `${encodeSafe(k)}=${encodeSafe(v)}` : `${k}=${v}`)).join("&");
            headers["content-type"] = "application/x-www-form-urlencoded";
          } else if (encoding === "multipart") {
            body = multipart(all, "fzb0undary");
            headers["content-type"] = "multipart/form-data; boundary=fzb0undary";
          } else if (encoding === "json") {
            body = JSON.stringify(Object.fromEntries(all));
            headers["content-type"] = "application/json";
          } else if (encoding === "text") {
            body = all.map(([k, v]) => `${k}=${v}`).join("\n");
            headers["content-type"] = "text/plain";
          } else if (encoding === "none-type") body = all.map(([k, v]) => `${k}=${v}`).join("&");
          else if (encoding === "garbage") {
            body = garbage;
            headers["content-type"] = "application/x-www-form-urlencoded";
          }
          await consent({ method, path: "/api/consent", headers, body: method === "GET" ? undefined : body });
        },
      ),
    T,
  );

  it.each([
    ["CR/LF, NUL, other controls and non-Latin-1", headerBreakingRedirect],
    ["backslashes, tabs, protocol-relative and absolute URLs", offSiteRedirect],
  ] as const)(
    "POST /api/consent: redirectTo with %s",
    (what, redirectTo) =>
      property(
        `consent redirect: ${what}`,
        fc.record({ fields: fc.tuple(redirectTo, consentFields(fc.constant("/"))).map(([r, rest]): Param[] => [["redirectTo", r], ...rest.filter(([k]) => k !== "redirectTo")]), multipart: fc.boolean(), cookie: fc.option(fc.constantFrom("pn_consent=all", "pn_consent=functional%2Cmarketing"), { nil: undefined }) }),
        async ({ fields, multipart: mp, cookie }) => {
          const headers: Record<string, string> = { "content-type": mp ? "multipart/form-data; boundary=fzb0undary" : "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) };
          const body = mp ? multipart(fields, "fzb0undary") : fields.map(([k, v]) => `${encodeSafe(k)}=${encodeSafe(v)}`).join("&");
          await consent({ method: "POST", path: "/api/consent", headers, body });
        },
      ),
    T,
  );

  it(
    "POST /api/event: hostile events, content types and methods, by both paths",
    () =>
      property(
        "analytics events",
        fc.record({
          fields: fc.dictionary(
            fc.constantFrom("n", "name", "u", "url", "d", "domain", "r", "referrer", "w", "screen_width", "h", "hashMode", "p", "props", "$", "revenue", "__proto__", "constructor"),
            fc.oneof(
              hostile,
              fc.constantFrom("pageview", "https://praxis.example/a?utm_source=x#h", "http://[::1]/", "javascript:alert(1)", "praxis.example"),
              fc.integer(),
              fc.double(),
              fc.boolean(),
              fc.constant(null),
              fc.dictionary(hostile, fc.oneof(hostile, fc.integer(), fc.double(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 })), { maxKeys: 40 }),
              fc.record({ currency: fc.oneof(hostile, fc.constantFrom("EUR", "eur", "XXX")), amount: fc.oneof(hostile, fc.double(), fc.constantFrom("1.5", "1e400", "-0")) }),
            ),
            { maxKeys: 9 },
          ),
          raw: fc.option(malformedJson, { nil: undefined }),
          type: fc.option(fc.oneof(fc.constantFrom("text/plain", "application/json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""), hostile), { nil: undefined }),
          method: fc.constantFrom("POST", "POST", "POST", "GET", "PUT"),
          origin: fc.option(fc.constantFrom("own", "https://evil.example", "null"), { nil: undefined }),
          ua: fc.option(fc.oneof(hostile, fc.constantFrom("Mozilla/5.0 Firefox/140", "Googlebot/2.1")), { nil: undefined }),
          acceptLanguage: fc.option(hostile, { nil: undefined }),
        }),
        async ({ fields, raw, type, method, origin, ua, acceptLanguage }) => {
          const headers: Record<string, string> = {};
          if (type !== undefined && !/[\r\n\0]/.test(type) && /^[\x20-\x7e]*$/.test(type)) headers["content-type"] = type;
          if (origin !== undefined) headers.origin = origin === "own" ? server.url : origin;
          if (ua !== undefined && /^[\x20-\x7e]*$/.test(ua)) headers["user-agent"] = ua;
          if (acceptLanguage !== undefined && /^[\x20-\x7e]*$/.test(acceptLanguage)) headers["accept-language"] = acceptLanguage;
          const body = raw ?? JSON.stringify(fields);
          const req: FuzzRequest = { method, path: "/api/event", headers, body: method === "GET" ? undefined : body };
          const res = await fz.request(`${method} /api/event`, req);
          if (method === "POST" && origin !== "https://evil.example" && origin !== "null")
            fz.expect([202, 400, 413, 415].includes(res.status) || rejectedByHttpParser(res), "POST /api/event", "unexpected status", req, res, `answered ${res.status}`);
        },
      ),
    T,
  );

  it(
    "unknown /api paths",
    () =>
      property(
        "unknown api",
        fc.record({ segs: fc.array(segment, { minLength: 0, maxLength: 3 }), method: fc.constantFrom("GET", "POST", "PUT", "DELETE", "HEAD"), body: fc.option(jsonText, { nil: undefined }), query: fc.option(queryString, { nil: undefined }) }),
        async ({ segs, method, body, query }) => {
          const p = `/api/unknown${segs.map((s) => `/${s}`).join("")}${query ? `?${query}` : ""}`;
          await fz.request(`${method} /api/unknown`, { method, path: p, headers: body === undefined ? {} : json, body: method === "GET" || method === "HEAD" ? undefined : body });
        },
      ),
    T,
  );
});

// ---- the Squidex API -----------------------------------------------------------------------------------------

const schemaSegment = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...SCHEMAS) }, { weight: 1, arbitrary: cleanSegment });
const xHeaders = fc.record(
  {
    "x-languages": fc.oneof(fc.constantFrom("de", "en", "en,de", "fr", "", ",,,", " de , en ", "__proto__", "de,en,de,en"), hostile),
    "x-fields": fc.oneof(fc.constantFrom("name", "data.name", "title,seo", "", ",", "__proto__,constructor", "data.__proto__"), hostile),
    "x-flatten": fc.oneof(fc.constantFrom("1", "true", "", "false"), hostile),
    "x-unpublished": fc.constantFrom("1", ""),
    "x-nototal": fc.constantFrom("1", ""),
    "x-noresolvelanguages": fc.constantFrom("1", ""),
    "if-match": fc.oneof(fc.constantFrom("*", '"1"', 'W/"1"', "1", "", "-1", "1.5", "1e400", '"99999999999999999999"', "NaN", "0x1", " ", '""'), hostile),
  },
  { requiredKeys: [] },
);
const bearer = () => ({ authorization: `Bearer ${token}` });
/** Writes only touch items this suite creates (fz-…) or ids that do not exist; seeded items are only read. */
const writableId = fc.oneof(fc.constant("fz-color"), fc.stringMatching(/^fz-[a-z0-9]{1,8}$/), cleanSegment.filter((s) => !SEED_ID_SET.has(safeDecode(s)) && !SEED_ID_SET.has(safeDecode(safeDecode(s)))));
const validColor = fc.record({ name: fc.oneof(fc.constant("Fz"), hostile), hexcode: fc.oneof(fc.constant("#abcdef"), hostile) }).map(({ name, hexcode }) => JSON.stringify({ name: { iv: name }, hexcode: { iv: hexcode } }));
const contentBody = fc.oneof(validColor, jsonText, malformedJson, fc.constantFrom('{"status":"Published"}', '{"status":"Draft","dueTime":"2030-01-01"}', '{"status":"Draft","dueTime":"2099-01-01T00:00:00Z"}', '{"status":"Published","dueTime":"2001-01-01T00:00:00Z"}', '{"status":"Archived","dueTime":12}', '{"status":"Draft","dueTime":"+275760-09-13T00:00:00Z"}', '{"status":"__proto__"}', '{"status":"toString"}', "{}", "[]", "null"));

describe("Squidex API", () => {
  beforeAll(async () => {
    const created = await send(server, { method: "POST", path: `${SQ}/api/content/${APP}/core-theme-colors?id=fz-color&publish=true`, headers: { ...bearer(), ...json }, body: JSON.stringify({ name: { iv: "Fuzz" }, hexcode: { iv: "#123456" } }) });
    expect(created.status, created.body).toBe(201);
  });

  it(
    "token endpoint: form bodies and Basic credentials",
    () =>
      property(
        "squidex token",
        fc.record({
          grant: fc.option(fc.oneof(fc.constant("client_credentials"), hostile), { nil: undefined }),
          clientId: fc.option(fc.oneof(fc.constant(`${APP}:default`), hostile), { nil: undefined }),
          secret: fc.option(hostileOrHuge, { nil: undefined }),
          scope: fc.option(fc.oneof(fc.constant("squidex-api"), hostile), { nil: undefined }),
          basic: fc.option(
            fc.oneof(
              fc.tuple(fc.oneof(segment, hostile), fc.oneof(segment, hostile)).map(([u, p]) => `Basic ${Buffer.from(`${u}:${p}`, "utf8").toString("base64")}`),
              fc.constantFrom("Basic", "Basic ", "Basic !!!", "Basic JUUwJUE0JUE6eA==", "basic Og==", "Basic OjpfXw==", "Bearer x", "Basic " + "A".repeat(10_000)),
              hostile.map((h) => `Basic ${h}`),
            ),
            { nil: undefined },
          ),
          type: fc.constantFrom("application/x-www-form-urlencoded", "multipart/form-data; boundary=b", "application/json", "text/plain", ""),
          raw: fc.boolean(),
          path: fc.constantFrom("identity-server/connect/token", "IDENTITY-SERVER/Connect/TOKEN", "identity-server/connect/token/", "identity-server//connect/token"),
          method: fc.constantFrom("POST", "POST", "POST", "GET", "PUT"),
        }),
        async ({ grant, clientId, secret, scope, basic, type, raw, path: p, method }) => {
          const fields: Param[] = [];
          if (grant !== undefined) fields.push(["grant_type", grant]);
          if (clientId !== undefined) fields.push(["client_id", clientId]);
          if (secret !== undefined) fields.push(["client_secret", secret]);
          if (scope !== undefined) fields.push(["scope", scope]);
          const body = type.startsWith("multipart")
            ? `${fields.map(([k, v]) => `--b\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join("")}--b--\r\n`
            : type === "application/json"
              ? JSON.stringify(Object.fromEntries(fields))
              : fields.map(([k, v]) => (raw ? `${k}=${v}` : `${encodeSafe(k)}=${encodeSafe(v)}`)).join("&");
          const headers: Record<string, string> = {};
          if (type) headers["content-type"] = type;
          if (basic !== undefined) headers.authorization = basic;
          await fz.request(`${method} ${SQ}/identity-server/connect/token`, { method, path: `${SQ}/${p}`, headers, body: method === "GET" ? undefined : body });
        },
      ),
    T,
  );

  const squidexPath = fc.oneof(
    fc.tuple(fc.constantFrom("api/content", "api/apps", "api/assets", "API/Content", "api"), fc.oneof(fc.constant(APP), segment), fc.array(segment, { maxLength: 3 })).map(([a, app, rest]) => [a, app, ...rest].join("/")),
    fc
      .tuple(fc.constant(`api/content/${APP}`), fc.oneof(fc.constantFrom(...SCHEMAS), segment), fc.option(fc.oneof(fc.constantFrom(...SEED_IDS), segment), { nil: undefined }), fc.option(fc.oneof(fc.constantFrom("query", "status", "draft"), segment), { nil: undefined }))
      .map((parts) => parts.filter((p) => p !== undefined).join("/")),
    fc.array(segment, { minLength: 0, maxLength: 4 }).map((segs) => segs.join("/")),
  );

  it(
    "anonymous and forged tokens on every Squidex path",
    () =>
      property(
        "squidex anonymous",
        fc.record({
          p: squidexPath,
          query: fc.option(queryString, { nil: undefined }),
          method: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"),
          auth: fc.option(fc.oneof(fc.constantFrom("Bearer", "Bearer ", "Bearer abc.def.ghi", "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.", "bearer x", "Basic x", "Bearer " + "a".repeat(9000)), hostile.map((h) => `Bearer ${h}`)), { nil: undefined }),
          body: fc.option(jsonText, { nil: undefined }),
        }),
        async ({ p, query, method, auth, body }) => {
          const req: FuzzRequest = { method, path: `${SQ}/${p}${query ? `?${query}` : ""}`, headers: auth ? { ...json, authorization: auth } : json, body: method === "GET" || method === "HEAD" ? undefined : body };
          const res = await fz.request(`${method} ${SQ}/* (no valid token)`, req);
          // A forged token makes nobody an editor: that answer is held to the visitor rules as well.
          if (auth) fz.checkNoSecrets(`${method} ${SQ}/* (forged token)`, { ...req, headers: json }, res);
          // Without a valid token only public asset content (a redirect to it) may succeed.
          if (res.status < 400 && !/^api\/assets\//i.test(p))
            fz.expect(false, `${method} ${SQ}/* (no valid token)`, "answered without a token", req, res, `answered ${res.status} without a valid token`);
        },
      ),
    T,
  );

  it(
    "content lists with a token: queries and X- headers",
    () =>
      property(
        "squidex content list",
        fc.record({ schema: schemaSegment, query: queryString, headers: xHeaders, app: fc.constantFrom(APP, APP, APP, "PRAXISNETZ", "other") }),
        async ({ schema, query, headers, app }) => {
          await fz.request(`GET ${SQ}/api/content/{app}/{schema}`, { method: "GET", path: `${SQ}/api/content/${app}/${schema}${query ? `?${query}` : ""}`, headers: { ...headers, ...bearer() } });
        },
      ),
    T,
  );

  it(
    "content items with a token: reads with X- headers",
    () =>
      property("squidex item reads", fc.record({ schema: schemaSegment, id: fc.oneof(fc.constantFrom(...SEED_IDS), cleanSegment), sub: fc.option(fc.oneof(fc.constantFrom("status", "draft", "query", "references", "referencing", "validity"), cleanSegment), { nil: undefined }), headers: xHeaders }), async ({ schema, id, sub, headers }) => {
        await fz.request(`GET ${SQ}/api/content/{app}/{schema}/{id}${sub ? "/{sub}" : ""}`, { method: "GET", path: `${SQ}/api/content/${APP}/${schema}/${id}${sub ? `/${sub}` : ""}`, headers: { ...headers, ...bearer() } });
      }),
    T,
  );

  it(
    "content items with a token: update, patch, upsert, delete, status and draft",
    () =>
      property(
        "squidex item writes",
        fc.record({
          method: fc.constantFrom("PUT", "PATCH", "POST", "DELETE"),
          schema: fc.constantFrom("core-theme-colors", "core-theme-colors", "core-pages", "gm-appointments"),
          id: writableId,
          sub: fc.option(fc.constantFrom("status", "draft", "defaults", "x"), { nil: undefined }),
          body: contentBody,
          headers: xHeaders,
          query: fc.option(fc.constantFrom("publish=true", "patch=true", "status=Published", "status=Archived", "status=__proto__"), { nil: undefined }),
        }),
        async ({ method, schema, id, sub, body, headers, query }) => {
          const p = `${SQ}/api/content/${APP}/${schema}/${id}${sub ? `/${sub}` : ""}${query ? `?${query}` : ""}`;
          await fz.request(`${method} ${SQ}/api/content/{app}/{schema}/{id}${sub ? `/${sub}` : ""}`, { method, path: p, headers: { ...headers, ...bearer(), ...json }, body: method === "DELETE" ? undefined : body });
        },
      ),
    T,
  );

  it(
    "content creation with a token: odd ids and bodies",
    () =>
      property(
        "squidex create",
        fc.record({
          schema: schemaSegment,
          body: contentBody,
          // A seeded id must be a conflict (409), never an overwrite.
          id: fc.option(fc.oneof(fc.stringMatching(/^fz-[a-z0-9]{1,8}$/), cleanSegment, fc.constantFrom("..", ".", "%2e%2e", "a/b", "a%2Fb", ...SEED_IDS)), { nil: undefined }),
          publish: fc.boolean(),
        }),
        async ({ schema, body, id, publish }) => {
          const q = [id === undefined ? "" : `id=${id}`, publish ? "publish=true" : ""].filter(Boolean).join("&");
          await fz.request(`POST ${SQ}/api/content/{app}/{schema}`, { method: "POST", path: `${SQ}/api/content/${APP}/${schema}${q ? `?${q}` : ""}`, headers: { ...bearer(), ...json }, body });
        },
      ),
    T,
  );

  const queryBody = fc
    .record(
      {
        q: qQuery,
        ids: fc.array(fc.oneof(fc.constantFrom(...SEED_IDS).map(jstr), hostile.map(jstr), jsonText, fc.constantFrom('{"toString":1}', '{"toString":null}', '{"valueOf":1,"toString":1}', "null", "[]", "{}")), { maxLength: 6 }).map((a) => `[${a.join(",")}]`),
        odata: fc.oneof(queryString.map(jstr), jsonText),
        extra: fc.tuple(special, jsonText),
      },
      { requiredKeys: [] },
    )
    .map(({ extra, ...r }) => jobj([...(Object.entries(r) as Array<[string, string]>), ...(extra ? [extra] : [])]));

  it(
    "scheduled periods with a token: scheduledFrom and scheduledTo of every shape, GET and POST",
    () =>
      property(
        "squidex scheduled period",
        fc.record({
          post: fc.boolean(),
          from: fc.option(fc.oneof(fc.constantFrom("2000-01-01T00:00:00Z", "2099-12-31T23:59:59.999Z", "2030-01-01", "-1", "+275760-09-13T00:00:00Z"), hostile), { nil: undefined }),
          to: fc.option(fc.oneof(fc.constantFrom("2100-01-01T00:00:00+02:00", "2000-01-01T00:00:00Z", "yesterday"), hostile), { nil: undefined }),
          headers: xHeaders,
        }),
        async ({ post, from, to, headers }) => {
          if (post) {
            const body = jobj([...(from !== undefined ? [["scheduledFrom", jstr(from)] as [string, string]] : []), ...(to !== undefined ? [["scheduledTo", jstr(to)] as [string, string]] : [])]);
            await fz.request(`POST ${SQ}/api/content/{app} scheduled`, { method: "POST", path: `${SQ}/api/content/${APP}`, headers: { ...headers, ...bearer(), ...json }, body });
          } else {
            const query = [from !== undefined ? `scheduledFrom=${encodeSafe(from)}` : "", to !== undefined ? `scheduledTo=${encodeSafe(to)}` : ""].filter(Boolean).join("&");
            await fz.request(`GET ${SQ}/api/content/{app}?scheduledFrom=`, { method: "GET", path: `${SQ}/api/content/${APP}?${query}`, headers: { ...headers, ...bearer() } });
          }
        },
      ),
    T,
  );

  it(
    "references and referencing with a token: paging, q and OData of every shape",
    () =>
      property(
        "squidex references",
        fc.record({
          where: fc.constantFrom("item", "item", "app GET", "app POST"),
          schema: schemaSegment,
          id: fc.oneof(fc.constantFrom(...SEED_IDS), cleanSegment),
          sub: fc.constantFrom("references", "referencing"),
          query: fc.oneof(queryString, qQuery.map((q) => `q=${encodeSafe(q)}`)),
          body: fc.oneof(queryBody, jsonText),
          headers: xHeaders,
        }),
        async ({ where, schema, id, sub, query, body, headers }) => {
          if (where === "item") await fz.request(`GET ${SQ}/api/content/{app}/{schema}/{id}/${sub}`, { method: "GET", path: `${SQ}/api/content/${APP}/${schema}/${id}/${sub}${query ? `?${query}` : ""}`, headers: { ...headers, ...bearer() } });
          else if (where === "app GET") await fz.request(`GET ${SQ}/api/content/{app}?${sub}=`, { method: "GET", path: `${SQ}/api/content/${APP}?${sub}=${id}${query ? `&${query}` : ""}`, headers: { ...headers, ...bearer() } });
          // The cross-schema POST with the walk's id beside a query body of every shape.
          else await fz.request(`POST ${SQ}/api/content/{app} ${sub}`, { method: "POST", path: `${SQ}/api/content/${APP}`, headers: { ...headers, ...bearer(), ...json }, body: body.startsWith("{") && body.length > 2 ? `{${jstr(sub)}:${jstr(safeDecode(id))},${body.slice(1)}` : jobj([[sub, jstr(safeDecode(id))]]) });
        },
      ),
    T,
  );

  /**
   * Bulk jobs of every shape, on items this suite may write (fz-…) or that do not exist. A query that
   * writes selects fz-… items only (or fails to parse); queries of every shape go to Validate jobs,
   * which write nothing: the suite never changes seeded items.
   */
  const FZ_QUERY = '{"filter":{"path":"id","op":"startsWith","value":"fz-"}}';
  const bulkJob = fc
    .tuple(
      fc.record(
        {
          type: fc.oneof(fc.constantFrom("Upsert", "Create", "Update", "Patch", "Validate", "EnrichDefaults", "ChangeStatus", "Delete").map(jstr), hostile.map(jstr), jsonText),
          id: fc.oneof(writableId.map(jstr), jsonText),
          schema: fc.oneof(fc.constantFrom("core-theme-colors", "gm-appointments", "core-global-settings", "nope").map(jstr), hostile.map(jstr), jsonText),
          data: contentBody.map((b) => (typeof b === "string" ? b : "{}")),
          status: fc.oneof(fc.constantFrom("Published", "Draft", "Archived", "__proto__").map(jstr), jsonText),
          expectedCount: fc.oneof(jsonNumberText, jsonText, fc.constantFrom("1", "200", "201", "0", "-1", "1e400")),
          expectedVersion: jsonNumberText,
          patch: fc.constantFrom("true", "false", "1", "null"),
          dueTime: fc.oneof(fc.constantFrom('"2099-01-01T00:00:00Z"', '"2001-01-01T00:00:00Z"', '"soon"', "null", "0"), jsonText),
        },
        { requiredKeys: ["type"] },
      ),
      fc.option(
        fc.oneof(
          fc.constant({ query: FZ_QUERY }),
          fc.constantFrom("null", "[]", '"x"', '{"filter":{"path":"id","op":"nope","value":1}}', '{"take":5000}', '{"filter":"x"}').map((query) => ({ query })),
          qQuery.map((query) => ({ query, type: jstr("Validate") })),
        ),
        { nil: undefined },
      ),
    )
    .map(([job, selection]) => {
      // A job with a query selects by it (an id would win): the id goes, so the query decides.
      const { id, ...rest } = job;
      return jobj(Object.entries(selection ? { ...rest, ...selection } : { id, ...rest }).filter(([, v]) => v !== undefined) as Array<[string, string]>);
    });
  const bulkBody = fc
    .record(
      {
        jobs: fc.oneof({ weight: 5, arbitrary: fc.array(bulkJob, { maxLength: 4 }).map((a) => `[${a.join(",")}]`) }, { weight: 1, arbitrary: jsonText }),
        continueOnError: fc.constantFrom("true", "false", "null", '"no"', "1"),
        publish: fc.constantFrom("true", "false", '"yes"'),
        extra: fc.tuple(special, jsonText),
      },
      { requiredKeys: [] },
    )
    .map(({ extra, ...r }) => jobj([...(Object.entries(r) as Array<[string, string]>), ...(extra ? [extra] : [])]));
  const importBody = fc
    .record({ datas: fc.oneof(fc.array(contentBody.map((b) => (typeof b === "string" ? b : "{}")), { maxLength: 3 }).map((a) => `[${a.join(",")}]`), jsonText), publish: fc.constantFrom("true", "false", '"x"') }, { requiredKeys: [] })
    .map((r) => jobj(Object.entries(r) as Array<[string, string]>));

  it(
    "bulk jobs (per schema and app-wide) and imports with a token: jobs, queries and bodies of every shape",
    () =>
      property(
        "squidex bulk",
        fc.record({
          where: fc.constantFrom("schema", "app", "import"),
          schema: fc.constantFrom("core-theme-colors", "core-theme-colors", "gm-appointments", "core-global-settings"),
          body: fc.oneof({ weight: 4, arbitrary: bulkBody }, { weight: 2, arbitrary: importBody }, { weight: 1, arbitrary: jsonText }, { weight: 1, arbitrary: malformedJson }),
          query: fc.option(fc.oneof(fc.constantFrom("schema=core-theme-colors", "schema=nope", "schema="), hostile.map((h) => `schema=${encodeSafe(h)}`)), { nil: undefined }),
        }),
        async ({ where, schema, body, query }) => {
          const p = where === "app" ? `${SQ}/api/content/${APP}/bulk${query ? `?${query}` : ""}` : `${SQ}/api/content/${APP}/${schema}/${where === "import" ? "import" : "bulk"}`;
          const label = where === "app" ? `POST ${SQ}/api/content/{app}/bulk` : `POST ${SQ}/api/content/{app}/{schema}/${where === "import" ? "import" : "bulk"}`;
          await fz.request(label, { method: "POST", path: p, headers: { ...bearer(), ...json }, body });
        },
      ),
    T,
  );

  it(
    "POST …/query with a token: q, ids and odata of every shape",
    () =>
      property("squidex query", fc.record({ schema: schemaSegment, body: fc.oneof({ weight: 4, arbitrary: queryBody }, { weight: 1, arbitrary: jsonText }, { weight: 1, arbitrary: malformedJson }), headers: xHeaders }), async ({ schema, body, headers }) => {
        await fz.request(`POST ${SQ}/api/content/{app}/{schema}/query`, { method: "POST", path: `${SQ}/api/content/${APP}/${schema}/query`, headers: { ...headers, ...bearer(), ...json }, body });
      }),
    T,
  );

  it(
    "schemas, languages, asset lists and asset content",
    () =>
      property(
        "squidex apps",
        fc.oneof(
          fc.record({ area: fc.constantFrom("schemas", "languages", "assets", "Schemas", "clients"), id: fc.option(fc.oneof(fc.constantFrom(...SCHEMAS, ...SEED_ASSETS), cleanSegment), { nil: undefined }), method: fc.constantFrom("GET", "GET", "GET", "POST", "PUT", "HEAD"), query: fc.constant(undefined) }),
          fc.record({
            area: fc.constant("assets"),
            id: fc.constant(undefined),
            method: fc.constant("GET"),
            query: fc
              .array(
                fc.oneof(
                  fc.tuple(fc.constantFrom("$top", "$skip"), numberParam).map(([k, v]) => `${k}=${encodeSafe(v)}`),
                  fc.array(fc.oneof(fc.constantFrom(...SEED_ASSETS), hostile), { maxLength: 6 }).map((a) => `ids=${encodeSafe(a.join(","))}`),
                  fc.tuple(special, hostile).map(([k, v]) => `${encodeSafe(k)}=${encodeSafe(v)}`),
                ),
                { maxLength: 3 },
              )
              .map((a) => a.join("&")),
          }),
          fc.record({ area: fc.constant("public-asset"), id: fc.oneof(fc.constantFrom(...SEED_ASSETS), cleanSegment), method: fc.constantFrom("GET", "HEAD"), query: fc.option(fc.constantFrom("width=320", "version=0", "download=1", "x=%E0%A4%A"), { nil: undefined }) }),
        ),
        async ({ area, id, method, query }) => {
          if (area === "public-asset") {
            await fz.request(`${method} ${SQ}/api/assets/{app}/{id}`, { method, path: `${SQ}/api/assets/${APP}/${id}${query ? `?${query}` : ""}` });
            await fz.request(`${method} ${SQ}/api/assets/{id}`, { method, path: `${SQ}/api/assets/${id}` });
            return;
          }
          const p = `${SQ}/api/apps/${APP}/${area}${id === undefined ? "" : `/${id}`}${query ? `?${query}` : ""}`;
          await fz.request(`${method} ${SQ}/api/apps/{app}/${area}${id === undefined ? "" : "/{id}"}`, { method, path: p, headers: bearer() });
        },
      ),
    T,
  );
});

// ---- public pages ----------------------------------------------------------------------------------------------

const PAGE_PREFIXES = ["", "/en", "/de"];
const plainPagePath = fc.oneof(
  fc.tuple(fc.constantFrom(...PAGE_PREFIXES), fc.constantFrom("/", "/practitioners", "/login", "/practitioners/register", "/sitemap.xml", "/robots.txt", "/manage/flushcache")).map(([a, b]) => (a && b === "/" ? a : a + b)),
  fc.tuple(fc.constantFrom(...PAGE_PREFIXES), fc.oneof(fc.constantFrom(...PRACTITIONER_SLUGS), segment)).map(([a, s]) => `${a}/practitioners/${s}`),
  fc.tuple(fc.constantFrom(...PAGE_PREFIXES), fc.constantFrom("practitioners/register", "newsletter", "present", "theme"), segment).map(([a, r, s]) => `${a}/${r}/${s}`),
  fc.tuple(fc.constantFrom(...PAGE_PREFIXES), fc.array(fc.oneof(fc.constantFrom(...PAGE_SLUGS), segment), { minLength: 1, maxLength: 4 })).map(([a, segs]) => `${a}/${segs.join("/")}`),
  fc.constantFrom("//", "///practitioners", "/./practitioners", "/en/../practitioners", "/%2e%2e/practitioners", "/practitioners/..%2f..%2fapi%2frest", "/en/", "/EN", "/de/de/de", "/?", "/#x"),
);
/**
 * Targets a URL parser reads otherwise than a router: a leading `//` (scheme-relative: `//x/manage`
 * names host "x" to `new URL(target, base)`, and `//` alone is no URL), dot segments, backslashes,
 * empty and encoded-slash segments; alone or before a path, with or without a query.
 */
const oddPath = fc
  .tuple(
    fc.constantFrom("//", "///", "////", "/./", "/../", "//./", "//../", "/\\", "/\\/", "/%2f", "/%2F/", "/.//", "//%2e%2e/"),
    fc.oneof(fc.constant(""), plainPagePath.map((p) => p.replace(/^\/+/, "")), fc.constantFrom("manage", "manage/users", "manage/pages.data", "_root.data", "api/rest", "api/squidex/api/ping", "healthz", "evil.example", "evil.example/manage", "@evil.example", ":80", "[::1]/manage")),
    fc.constantFrom("", "?", "?a=1", "?redirect=//evil.example", "#x", "//", "/"),
  )
  .map(([lead, rest, tail]) => `${lead}${rest}${tail}`);
const pagePath = fc.oneof({ weight: 4, arbitrary: plainPagePath }, { weight: 1, arbitrary: oddPath });
const directoryQuery = fc
  .array(fc.tuple(fc.constantFrom("q", "page", "language", "country", "_data", "index", "__proto__", "_routes"), fc.oneof(numberParam, hostileOrHuge)), { maxLength: 3 })
  .map((params) => params.map(([k, v]) => `${k}=${encodeSafe(v)}`).join("&"));

describe("Squidex API: schema, field and asset writes (issue 23)", () => {
  const SCHEMA = "fz-fields";
  const ASSET = "fz-annotate";
  beforeAll(async () => {
    const made = await send(server, {
      method: "POST",
      path: `${SQ}/api/apps/${APP}/schemas`,
      headers: { ...bearer(), ...json },
      body: JSON.stringify({ name: SCHEMA, isPublished: true, fields: [{ name: "title", properties: { fieldType: "String" } }, { name: "rows", properties: { fieldType: "Array" }, nested: [{ name: "label", properties: { fieldType: "String" } }] }] }),
    });
    expect(made.status, made.body).toBe(201);
    const b = "fzB0undary";
    const up = await send(server, {
      method: "POST",
      path: `${SQ}/api/apps/${APP}/assets?id=${ASSET}`,
      headers: { ...bearer(), "content-type": `multipart/form-data; boundary=${b}` },
      body: `--${b}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${b}--\r\n`,
    });
    expect(up.status, up.body).toBe(201);
  });

  /** A body as a client might send it: JSON of any shape (often near the real one), or not JSON at all. */
  const body = fc.oneof(
    { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
    {
      weight: 4,
      arbitrary: fc
        .record({
          fieldIds: fc.option(fc.array(fc.oneof(fc.integer({ min: -2, max: 6 }), hostile), { maxLength: 6 }), { nil: undefined }),
          name: fc.option(fc.oneof(fc.constantFrom("label", "x", "title"), hostile), { nil: undefined }),
          properties: fc.option(fc.oneof(fc.record({ fieldType: fc.constantFrom("String", "Number", "Array", "Bogus") }), fc.jsonValue({ maxDepth: 2 })), { nil: undefined }),
          slug: fc.option(fc.oneof(fc.constantFrom("ok-slug", "Bad Slug", "", "asset-hero"), hostile), { nil: undefined }),
          metadata: fc.option(fc.oneof(fc.dictionary(hostile, fc.oneof(hostile, fc.integer(), fc.boolean()), { maxKeys: 8 }), fc.jsonValue({ maxDepth: 3 })), { nil: undefined }),
          isProtected: fc.option(fc.jsonValue({ maxDepth: 1 }), { nil: undefined }),
          jobs: fc.option(fc.array(fc.record({ id: fc.oneof(fc.constant(ASSET), segment), type: fc.oneof(fc.constantFrom("Annotate", "Move", "Delete", "Nope"), hostile), parentId: fc.option(hostile, { nil: undefined }), tags: fc.option(fc.array(hostile, { maxLength: 3 }), { nil: undefined }) }), { maxLength: 5 }), { nil: undefined }),
          continueOnError: fc.option(fc.jsonValue({ maxDepth: 1 }), { nil: undefined }),
        })
        .map((v) => JSON.stringify(v)),
    },
    { weight: 1, arbitrary: hostileOrHuge },
  );
  const route = fc.oneof(
    fc.constantFrom<[string, string]>(
      ["PUT", `api/apps/${APP}/schemas/${SCHEMA}/fields/ordering`],
      ["POST", `api/apps/${APP}/schemas/${SCHEMA}/fields/2/nested`],
      ["PUT", `api/apps/${APP}/schemas/${SCHEMA}/fields/2/nested/ordering`],
      ["PUT", `api/apps/${APP}/schemas/${SCHEMA}/fields/2/nested/1`],
      ["PUT", `api/apps/${APP}/schemas/${SCHEMA}/fields/1/lock`],
      ["PUT", `api/apps/${APP}/schemas/${SCHEMA}/fields/2/nested/1/disable`],
      ["PUT", `api/apps/${APP}/schemas/${SCHEMA}/category`],
      ["PUT", `api/apps/${APP}/schemas/${SCHEMA}/preview-urls`],
      ["PUT", `api/apps/${APP}/schemas/${SCHEMA}/ui-fields`],
      ["DELETE", `api/apps/${APP}/schemas/core-pages`],
      ["PUT", `api/apps/${APP}/assets/${ASSET}`],
      ["PUT", `api/apps/${APP}/assets/${ASSET}/content`],
      ["POST", `api/apps/${APP}/assets/${ASSET}`],
      ["POST", `api/apps/${APP}/assets/bulk`],
      ["PUT", `api/apps/${APP}/assets/tags/fz`],
    ),
    fc.tuple(fc.constantFrom("PUT", "POST", "DELETE"), fc.array(segment, { minLength: 1, maxLength: 4 })).map(([m, rest]): [string, string] => [m, `api/apps/${APP}/schemas/${SCHEMA}/fields/${rest.join("/")}`]),
    segment.map((name): [string, string] => ["DELETE", `api/apps/${APP}/schemas/${name}`]),
  );

  it(
    "schema fields, schema deletion and asset annotations, new files and bulk jobs: bad bodies are a 4xx",
    () =>
      property("squidex schema and asset writes", fc.record({ route, body, type: fc.constantFrom("application/json", "application/json", "text/plain", "multipart/form-data; boundary=x") }), async ({ route: [method, p], body: text, type }) => {
        await fz.request(`${method} ${SQ}/${p.replace(/\/[^/]*$/, "/…")}`, { method, path: `${SQ}/${p}`, headers: { ...bearer(), "content-type": type }, body: method === "DELETE" ? undefined : text });
      }),
    T,
  );

  it(
    "an asset from a URL: no spelling of a private address reaches the host's network",
    async () => {
      // A canary on the loopback address: any request it gets is a download the rules should have refused.
      let hits = 0;
      const canary = http.createServer((_req, res) => {
        hits++;
        res.writeHead(200, { "content-type": "image/png" }).end("x");
      });
      await new Promise<void>((resolve) => canary.listen(0, "127.0.0.1", resolve));
      const port = (canary.address() as AddressInfo).port;
      const hosts = ["127.0.0.1", "2130706433", "0x7f000001", "0177.0.0.1", "127.1", "127.0.0.1.", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "localhost", "LOCALHOST.", "[::1]", "0.0.0.0", "[::]", "169.254.169.254", "10.0.0.1", "[fd00::1]", "%31%32%37.0.0.1"];
      try {
        await property(
          "asset from a URL",
          fc.record({
            url: fc.oneof(
              { weight: 6, arbitrary: fc.tuple(fc.constantFrom(...hosts), fc.constantFrom("http", "https", "HTTP"), fc.constantFrom("/logo.png", "/", "/%2e%2e/x", "?a=b")).map(([h, scheme, p]) => `${scheme}://${h}:${port}${p}`) },
              { weight: 1, arbitrary: fc.constantFrom("file:///etc/passwd", "gopher://127.0.0.1:70/", "ftp://127.0.0.1/x", "data:image/png;base64,AAAA", "http://user:pw@example.org/x.png", "//127.0.0.1/x", "http:/127.0.0.1/x") },
              { weight: 1, arbitrary: hostileOrHuge },
            ),
            name: fc.oneof(fc.constant("logo.png"), hostile),
            call: fc.constantFrom("upload", "upsert", "content"),
          }),
          async ({ url, name, call }) => {
            const b = "fzUrl";
            const part = (k: string, v: string) => `--${b}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
            const p = call === "upload" ? `${SQ}/api/apps/${APP}/assets` : call === "upsert" ? `${SQ}/api/apps/${APP}/assets/fz-from-url` : `${SQ}/api/apps/${APP}/assets/${ASSET}/content`;
            const req: FuzzRequest = { method: call === "content" ? "PUT" : "POST", path: p, headers: { ...bearer(), "content-type": `multipart/form-data; boundary=${b}` }, body: `${part("url", url)}${part("name", name)}--${b}--\r\n` };
            const res = await fz.request(`${req.method} ${SQ}/api/apps/{app}/assets (url)`, req);
            fz.expect(res.status >= 400 && res.status < 500, `${req.method} assets (url)`, "private address taken", req, res, `a download from ${JSON.stringify(url.slice(0, 200))} answered ${res.status}`);
            fz.expect(hits === 0, `${req.method} assets (url)`, "request reached the host's network", req, res, `the loopback canary got a request for ${JSON.stringify(url.slice(0, 200))}`);
          },
        );
      } finally {
        await new Promise<void>((resolve) => canary.close(() => resolve()));
      }
    },
    T,
  );

  it(
    "lists of references: any $filter and $orderby is a 4xx or an answer",
    () =>
      property("squidex referencing filters", fc.record({ filter: fc.option(fc.oneof(odataFilter, hostile), { nil: undefined }), orderby: fc.option(fc.oneof(fc.constantFrom("data/start/iv desc", "id", "created asc,id"), hostile), { nil: undefined }), ids: fc.option(fc.array(segment, { maxLength: 4 }), { nil: undefined }) }), async ({ filter, orderby, ids }) => {
        const q = [filter === undefined ? "" : `$filter=${encodeSafe(filter)}`, orderby === undefined ? "" : `$orderby=${encodeSafe(orderby)}`, ids === undefined ? "" : `ids=${ids.join(",")}`].filter(Boolean).join("&");
        await fz.request(`GET ${SQ}/api/content/{app}/{schema}/{id}/referencing`, { method: "GET", path: `${SQ}/api/content/${APP}/gm-content-practitioners/prac-001/referencing?${q}`, headers: bearer() });
      }),
    T,
  );
});

describe("public pages", () => {
  it(
    "generated paths and query strings",
    () =>
      property("page paths", fc.record({ p: pagePath, query: fc.option(fc.oneof(directoryQuery, queryString), { nil: undefined }), method: fc.constantFrom("GET", "GET", "GET", "HEAD", "POST") }), async ({ p, query, method }) => {
        await fz.request(`${method} page`, { method, path: query ? `${p}?${query}` : p, headers: method === "POST" ? { "content-type": "application/x-www-form-urlencoded" } : {}, body: method === "POST" ? "intent=x" : undefined });
      }),
    T,
  );

  const cookieValue = fc.oneof(
    fc.constantFrom("%E0%A4%A", "%", "%%", "%zz", "all", "functional,marketing", "functional%2Cmarketing", "", '"functional"', "%00", "%C0%AF", "%ED%A0%80", "a=b=c", ";", "functional;functional"),
    hostile,
    huge,
  );
  const cookieHeader = fc.oneof(
    cookieValue.map((v) => `pn_consent=${v}`),
    fc.tuple(cookieValue, cookieValue).map(([a, b]) => `pn_consent=${a}; pn_consent=${b}`),
    fc.tuple(fc.oneof(special, fc.constantFrom("session", "x", "")), cookieValue).map(([k, v]) => `${k}=${v}; pn_consent=all`),
    fc.constantFrom("pn_consent", "=", ";;;", "pn_consent=all;", " pn_consent = all ", "PN_CONSENT=all", "__proto__=1", "constructor=x; pn_consent=all"),
  );

  it(
    "odd request targets (`//`, `///`, `//x/manage`, dot segments) on every method",
    () =>
      property("odd paths", fc.record({ p: oddPath, method: fc.constantFrom("GET", "HEAD", "POST", "OPTIONS", "DELETE") }), async ({ p, method }) => {
        const res = await fz.request(`${method} odd path`, { method, path: p, headers: method === "POST" ? json : {}, body: method === "POST" ? '{"url":"core-pages"}' : undefined });
        // No odd spelling of an admin path opens it to a visitor.
        fz.expect(!res.body.includes("data-admin-layout"), `${method} odd path`, "admin page to a visitor", { method, path: p }, res, `a visitor got ${res.status} for ${p}`);
      }),
    T,
  );

  it(
    "hostile cookies",
    () =>
      property("page cookies", fc.record({ p: fc.oneof(pagePath, fc.constantFrom("/healthz", "/api/rest")), cookie: cookieHeader }), async ({ p, cookie }) => {
        const isApi = p === "/api/rest";
        await fz.request(`${isApi ? "POST" : "GET"} ${isApi ? p : "page"} with cookie`, { method: isApi ? "POST" : "GET", path: p, headers: { cookie, ...(isApi ? json : {}) }, body: isApi ? '{"url":"core-pages"}' : undefined });
      }),
    T,
  );

  const hostName = fc.oneof(
    fc.constantFrom("evil.example", "evil.example:99999", "evil.example:-1", "a b", "[::1", "[::1]:80", "xn--zz", "evil.example:0", "", "..", "evil.example/x", "evil.example?x", "evil.example#", "user@evil.example", "127.0.0.1:1:2", "\u00e4.example", "EVIL.EXAMPLE", "evil.example, other.example"),
    hostile,
  );

  it(
    "hostile Host and forwarding headers",
    () =>
      property(
        "page host headers",
        fc.record({
          p: fc.oneof(pagePath, fc.constantFrom("/healthz", "/sitemap.xml")),
          headers: fc.record(
            {
              host: hostName,
              "x-forwarded-host": hostName,
              "x-forwarded-proto": fc.oneof(fc.constantFrom("https", "http", "javascript", "ftp", "", "https,http", "HTTPS"), hostile),
              "x-forwarded-for": fc.oneof(fc.constantFrom("1.2.3.4", "::1", "unknown", "1.2.3.4, 5.6.7.8"), hostile),
              forwarded: fc.oneof(fc.constantFrom("host=evil.example;proto=https", 'for="[::1]"'), hostile),
            },
            { requiredKeys: [] },
          ),
        }),
        async ({ p, headers }) => {
          await fz.request("GET page with host headers", { method: "GET", path: p, headers });
        },
      ),
    T,
  );

  it(
    "hostile request headers",
    () =>
      property(
        "page headers",
        fc.record({
          p: fc.oneof(pagePath, fc.constantFrom("/healthz", "/api/icons/heart", "/api/assets/asset-hero/hero-landschaft.svg")),
          headers: fc.record(
            {
              "accept-language": fc.oneof(fc.constantFrom("en", "de-DE,de;q=0.9", "*", "en;q=abc"), hostile),
              "if-none-match": fc.oneof(fc.constantFrom("*", 'W/"x"', '"x", W/"y"'), hostile),
              "if-modified-since": fc.oneof(fc.constantFrom("Thu, 01 Jan 1970 00:00:00 GMT", "garbage"), hostile),
              range: fc.oneof(fc.constantFrom("bytes=0-10", "bytes=-1", "bytes=10-5", "bytes=0-0,1-1,2-2", "items=1"), hostile),
              accept: fc.oneof(fc.constantFrom("text/x-script", "application/json", "*/*;q=x"), hostile),
              "accept-encoding": fc.oneof(fc.constantFrom("gzip", "br", "identity;q=0", "*;q=0", "gzip;q=nan"), hostile),
              "user-agent": fc.oneof(fc.constantFrom("Googlebot/2.1 (+http://www.google.com/bot.html)", "curl/8", ""), hostile),
              "x-request-id": hostile,
              referer: hostile,
            },
            { requiredKeys: [] },
          ),
        }),
        async ({ p, headers }) => {
          await fz.request("GET page with headers", { method: "GET", path: p, headers });
        },
      ),
    T,
  );

  it(
    "forwarded headers never reach other visitors through the page cache",
    () => {
      let n = 0;
      return property(
        "page cache poisoning",
        fc.record({
          p: fc.constantFrom("/", "/en", "/practitioners", "/en/practitioners", "/practitioners/juergen-weiss", "/ueber-uns", "/en/about-us"),
          marker: fc.stringMatching(/^[a-z]{10}$/),
          header: fc.constantFrom("x-forwarded-host", "x-forwarded-proto+host", "forwarded", "x-forwarded-prefix", "x-original-url", "x-rewrite-url", "x-forwarded-server"),
        }),
        async ({ p, marker, header }) => {
          // A fresh cache key per run; the marker is only in the headers (pages may echo their own URL).
          const fresh = `${p}?fzcache=${FUZZ_SEED}-${n++}`;
          const host = `fz${marker}.example`;
          const headers: Record<string, string> =
            header === "x-forwarded-proto+host"
              ? { "x-forwarded-host": host, "x-forwarded-proto": "https" }
              : header === "forwarded"
                ? { forwarded: `host=${host};proto=https` }
                : header === "x-original-url" || header === "x-rewrite-url" || header === "x-forwarded-prefix"
                  ? { [header]: `/${host}` }
                  : { [header]: host };
          await fz.request("GET page with forwarded headers", { method: "GET", path: fresh, headers });
          const res = await fz.request("GET page after forwarded headers", { method: "GET", path: fresh });
          fz.expect(
            !res.body.includes(marker),
            "GET page (page cache)",
            "cache poisoning",
            { method: "GET", path: fresh, headers },
            res,
            `a plain visitor's GET ${fresh} (x-page-cache: ${res.headers["x-page-cache"]}) got a page built for ${JSON.stringify(headers)}: …${res.body.slice(Math.max(0, res.body.indexOf(marker) - 80), res.body.indexOf(marker) + 40)}…`,
            header,
          );
        },
      );
    },
    T,
  );
});

// ---- raw bytes -----------------------------------------------------------------------------------------------

describe("raw HTTP", () => {
  const targets = ["/", "//", "///", "//?a=1", "/en", "/practitioners", "/practitioners/", "/api/rest", "/api/assets/asset-hero/", "/api/icons/", `${SQ}/api/content/${APP}/`, `${SQ}/identity-server/connect/token`, "/api/consent", "/healthz", "/api/unknown/"];
  const rawPiece = fc.oneof(
    fc.constantFrom("%E0%A4%A", "%", "%%", "%zz", "%u0041", "%00", "\u0000", "\u00e4", "\u20ac", "\ud83d\ude00", " ", "\t", "#x", "\\", "//", "/../", "?\u0000", "%ff%fe", "\u0085", "\u2028", "\x7f", "\x01"),
    hostile,
  );
  const cookieLike = fc.tuple(fc.constantFrom("pn_consent=", "pn_consent=%", "x=1; pn_consent="), rawPiece).map(([a, b]) => a + b);
  const rawHeader = fc.oneof(
    fc.tuple(fc.constantFrom("cookie", "x-languages", "accept-language", "x-forwarded-host", "authorization", "content-type", "if-match", "x-request-id", "user-agent"), fc.oneof(rawPiece, cookieLike)).map(([k, v]) => `${k}: ${v}`),
    fc.constantFrom("cookie: pn_consent=\u00e4\u20ac", "cookie: pn_consent=\u0000", "x-a: a\u0000b", "x-a:\r\n folded", "x-forwarded-host: \u00e4\u20ac.example", "transfer-encoding: chunked\r\ncontent-length: 3", "content-length: 1\r\ncontent-length: 2", "host: a\r\nhost: b", `x-big: ${"a".repeat(20_000)}`, ": empty-name", "bad header"),
  );

  it(
    "bad percent-encoding, NUL and non-Latin-1 bytes in request line and headers",
    () =>
      property(
        "raw bytes",
        fc.record({ target: fc.constantFrom(...targets), piece: rawPiece, query: fc.option(rawPiece, { nil: undefined }), headers: fc.array(rawHeader, { maxLength: 3 }), method: fc.constantFrom("GET", "POST", "HEAD") }),
        async ({ target, piece, query, headers, method }) => {
          const line = `${target}${piece}${query === undefined ? "" : `?x=${query}`}`;
          const hs: Record<string, string> = {};
          for (const h of headers) {
            const i = h.indexOf(":");
            hs[i > 0 ? h.slice(0, i) : h] = i > 0 ? h.slice(i + 1).trim() : "";
          }
          if (method === "POST" && !Object.keys(hs).some((k) => k.toLowerCase() === "content-type")) hs["content-type"] = "application/json";
          await fz.request(`${method} raw bytes`, { method, path: line, headers: hs, body: method === "POST" ? '{"url":"core-pages"}' : undefined });
        },
      ),
    T,
  );
});

// ---- asset uploads ---------------------------------------------------------------------------------------------

describe("Squidex asset uploads (last: a broken upload or delete may damage the data directory)", () => {
  const PNG_2x1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGP8z8DwnwEIGAEAEOkC/4Ab7ZUAAAAASUVORK5CYII=", "base64");
  const allowedTopLevel = new Set(["assets", "praxisnetz.sqlite", "praxisnetz.sqlite-wal", "praxisnetz.sqlite-shm", "praxisnetz.sqlite-journal", "squidex-client.json"]);
  const file = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom<[Buffer, string]>([Buffer.from("hello fuzz"), "text/plain"], [PNG_2x1, "image/png"], [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), "image/svg+xml"], [PNG_2x1, "application/octet-stream"]) },
    { weight: 1, arbitrary: fc.tuple(fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)), fc.oneof(fc.constantFrom("text/plain", "image/png", "", "text/html", "image/jpg; x=y"), hostile)) },
  );
  const upload = fc.record({
    id: fc.option(
      fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom("..", ".", "%2e%2e", "%2E.", "...") },
        { weight: 2, arbitrary: fc.constantFrom("a/b", "a%2Fb", "~", "-", "_", ".hidden", "CON", "a\\b", "%00", "a%0Ab") },
        { weight: 1, arbitrary: cleanSegment },
        { weight: 1, arbitrary: fc.stringMatching(/^fz-[a-z0-9]{1,8}$/) },
      ),
      { nil: undefined, freq: 8 },
    ),
    fileName: fc.oneof(fc.constantFrom("a.txt", "../../x.txt", "..", ".", "", " ", "a\u0000b.txt", "\u202etxt.exe", "\u00e4\u20ac.txt", "a\r\nb.txt", "x".repeat(5000), "con.txt", 'a"b.txt', "a;b.txt", "%2e%2e%2fx.txt"), hostile),
    file,
    envelope: fc.oneof({ weight: 6, arbitrary: fc.constant("ok") }, { weight: 1, arbitrary: fc.constantFrom("no-boundary", "wrong-part", "truncated", "no-type") }),
  });
  type Upload = typeof upload extends fc.Arbitrary<infer U> ? U : never;

  function uploadRequest({ id, fileName, file: [content, declared], envelope }: Upload): FuzzRequest {
    const b = "fzB0undary";
    const part = `--${b}\r\nContent-Disposition: form-data; name="${envelope === "wrong-part" ? "other" : "file"}"; filename="${fileName}"\r\n${declared ? `Content-Type: ${declared}\r\n` : ""}\r\n`;
    let body = Buffer.concat([Buffer.from(part, "utf8"), content, Buffer.from(`\r\n--${b}--\r\n`)]);
    if (envelope === "truncated") body = body.subarray(0, Math.floor(body.length / 2));
    const type = envelope === "no-type" ? undefined : envelope === "no-boundary" ? "multipart/form-data" : `multipart/form-data; boundary=${b}`;
    return { method: "POST", path: `${SQ}/api/apps/${APP}/assets${id === undefined ? "" : `?id=${id}`}`, headers: { ...bearer(), ...(type ? { "content-type": type } : {}) }, body };
  }
  /** A seeded asset still served: otherwise an earlier run broke the store, and that run is the counterexample. */
  const storeIntact = async () => (await send(server, { method: "GET", path: "/api/assets/asset-hero/hero-landschaft.svg" })).status === 200;

  it(
    "multipart uploads with odd names and ids write only inside the asset store",
    () =>
      property("asset uploads", upload, async (u) => {
        fc.pre(await storeIntact());
        const strays = () => fs.readdirSync(server.dataDir).filter((f) => !allowedTopLevel.has(f));
        const before = new Set(strays());
        const req = uploadRequest(u);
        const up = await fz.request(`POST ${SQ}/api/apps/{app}/assets`, req);
        // Only what this upload wrote counts, so a re-run while shrinking is judged on its own.
        const outside = strays().filter((f) => !before.has(f));
        fz.expect(outside.length === 0, `POST ${SQ}/api/apps/{app}/assets`, "file outside the asset store", req, up, `the upload (${up.status}) wrote ${JSON.stringify(outside)} into DATA_DIR (${server.dataDir}), outside assets/`);
      }),
    T,
  );

  it(
    "deleting an uploaded asset (its id encoded once, twice or every character twice) leaves other assets and the database",
    () =>
      property("asset deletes", fc.record({ upload, encoding: fc.constantFrom("once", "twice", "every-char-twice") }), async ({ upload: u, encoding }) => {
        fc.pre(await storeIntact());
        const up = await fz.request(`POST ${SQ}/api/apps/{app}/assets`, uploadRequest(u));
        // 409: an earlier run uploaded this id already (it came in a query string, so decoded once); it is ours to delete as well.
        const uploaded = up.status === 201 ? (JSON.parse(up.body) as { id: string }).id : up.status === 409 && u.id !== undefined ? safeDecode(u.id) : undefined;
        if (uploaded === undefined) return;
        const everyChar = (x: string) => [...Buffer.from(x, "utf8")].map((c) => `%${c.toString(16).padStart(2, "0").toUpperCase()}`).join("");
        const encoded = encoding === "once" ? encodeURIComponent(uploaded) : encoding === "twice" ? encodeURIComponent(encodeURIComponent(uploaded)) : encodeURIComponent(everyChar(uploaded));
        const delReq: FuzzRequest = { method: "DELETE", path: `${SQ}/api/apps/${APP}/assets/${encoded}`, headers: bearer() };
        const gone = await fz.request(`DELETE ${SQ}/api/apps/{app}/assets/{id}`, delReq);
        const still = await fz.request("GET /api/assets/{id}", { method: "GET", path: "/api/assets/asset-hero/hero-landschaft.svg" });
        const dbFile = fs.existsSync(path.join(server.dataDir, "praxisnetz.sqlite"));
        fz.expect(
          still.status === 200 && dbFile,
          `DELETE ${SQ}/api/apps/{app}/assets/{id}`,
          "delete removed other data",
          delReq,
          gone,
          `deleting asset ${JSON.stringify(uploaded)} (${gone.status}) removed other data: seeded asset now ${still.status}, database file ${dbFile ? "present" : "gone"}`,
        );
      }),
    T,
  );
});

// ---- GraphQL ---------------------------------------------------------------------------------------

/** The demo schemas' fields as GraphQL selections (flatData and data): what generated documents ask for. */
const GQL_FIELDS = new Map<string, { flat: string; data: string }[]>(
  demoSchemas.map((schema) => [
    schema.name,
    schema.fields.map((f) => {
      const name = camelCase(f.name);
      const reference = f.properties.fieldType === "References" && f.properties.schemaIds?.length === 1;
      return { flat: reference ? `${name} { id }` : name, data: `${name} { ${f.partitioning === "language" ? "de en" : "iv"} }` };
    }),
  ]),
);
const gqlString = (s: string) => JSON.stringify(wellFormed(s));
const gqlArgs = fc
  .record(
    {
      top: fc.oneof(fc.integer({ min: -3, max: 260 }), fc.constantFrom(0, 1, 200, 2 ** 31 - 1)),
      skip: fc.integer({ min: -3, max: 20_000 }),
      filter: fc.oneof(odataFilter, hostile).map(gqlString),
      orderby: fc.oneof(fc.constantFrom("data/name/iv asc", "lastModified desc", "data/email/iv", "data/title/de desc,id asc"), hostile).map(gqlString),
      search: hostile.map(gqlString),
    },
    { requiredKeys: [] },
  )
  .map((args) => Object.entries(args).map(([k, v]) => `${k}: ${v}`).join(", "));
/** A query over one schema: a list (maybe with total) or one item by a seed or hostile id, with data, flatData and referrers. */
const gqlDocument = fc
  .record({
    schema: fc.constantFrom(...SCHEMAS),
    form: fc.constantFrom("list", "total", "find"),
    args: fc.oneof({ weight: 2, arbitrary: fc.constantFrom("", "top: 5", "top: 2, skip: 1") }, { weight: 1, arbitrary: gqlArgs }),
    id: fc.oneof(fc.constantFrom(...SEED_IDS), hostile),
    fields: fc.integer({ min: 0, max: 2 ** 16 }),
    referencing: fc.boolean(),
  })
  .map(({ schema, form, args, id, fields, referencing }) => {
    const type = pascalCase(schema);
    const chosen = (GQL_FIELDS.get(schema) ?? []).filter((_, i) => (fields >> i) & 1);
    const flat = chosen.length ? `flatData { ${chosen.map((f) => f.flat).join(" ")} }` : "";
    const data = chosen.length ? `data { ${chosen.map((f) => f.data).join(" ")} }` : "";
    const refs = referencing && schema === "gm-content-practitioners" ? "referencingGmAppointmentsContents(top: 3) { id flatData { start booked } }" : "";
    const selection = `{ id status version ${flat} ${data} ${refs} }`;
    if (form === "find") return `{ findItem: find${type}Content(id: ${gqlString(id)}) ${selection} }`;
    const call = args ? `(${args})` : "";
    if (form === "total") return `{ page: query${type}ContentsWithTotal${call} { total items ${selection} } }`;
    return `{ list: query${type}Contents${call} ${selection} }`;
  });
const anyGqlDocument = fc.oneof({ weight: 6, arbitrary: gqlDocument }, { weight: 1, arbitrary: hostileOrHuge }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 400 }).map((n) => `${"{ a ".repeat(n)}${"}".repeat(n)}`) });

describe("GraphQL", () => {
  it(
    "generated documents, anonymously on /api/graphql and with a token on the Squidex endpoint",
    async () => {
      // The control: some documents must get past validation and read data, or the property tests only the validator.
      let withData = 0;
      await property("graphql documents", fc.record({ document: anyGqlDocument, language: fc.constantFrom("de", "en"), squidex: fc.boolean() }), async ({ document, language, squidex }) => {
        let res: FuzzResponse;
        if (squidex) {
          res = await fz.request("POST squidex graphql", {
            method: "POST",
            path: `${SQ}/api/content/${APP}/graphql`,
            headers: { ...json, authorization: `Bearer ${token}`, "x-languages": language },
            body: JSON.stringify({ query: document }),
          });
        } else res = await fz.request("POST /api/graphql", { method: "POST", path: "/api/graphql", headers: json, body: JSON.stringify({ graphquery: document, language, unpublished: true }) });
        if (res.status === 200 && res.body.includes('"id"')) withData++;
      });
      expect(withData).toBeGreaterThan(5);
    },
    T,
  );
});

describe("after the campaign", () => {
  it("the server still answers /healthz and a page", async () => {
    expect((await send(server, { method: "GET", path: "/healthz" })).status).toBe(200);
    expect((await send(server, { method: "GET", path: "/" })).status).toBe(200);
  });
});

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Node's own answer to bytes its HTTP parser refuses (before the app sees the request). */
const rejectedByHttpParser = (res: FuzzResponse) => (res.status === 400 || res.status === 431) && res.headers.connection === "close" && res.body === "";
