import { describe, expect, it } from "vitest";
import { ContentError } from "./errors";
import { MAX_FILTER_DEPTH, MAX_FILTER_LEAVES, MAX_FILTER_VALUES, MAX_IDS, MAX_IN_VALUES, MAX_SEARCH_LENGTH, MAX_SORT_KEYS } from "./limits";
import { assertQueryUses, checkQueryShape, jsonNestingExceeds, MAX_TAKE, parseCollectionUrl, parseQuery, resolvePath, runQuery } from "./query";
import type { ContentData, ContentItem, ContentQuery } from "./types";

/** Pure unit tests of the in-memory query engine and the query parsers (no database). */

function item(id: string, data: ContentData, meta: Partial<ContentItem> = {}): ContentItem {
  return {
    id,
    schemaName: "test-articles",
    schemaId: "schema-1",
    status: "Published",
    version: 1,
    data,
    created: "2024-01-01T00:00:00.000Z",
    createdBy: "client:test",
    lastModified: "2024-01-01T00:00:00.000Z",
    lastModifiedBy: "client:test",
    ...meta,
  };
}

const ITEMS: ContentItem[] = [
  item(
    "a",
    { title: { de: "Apfel", en: "Apple" }, views: { iv: 10 }, tags: { iv: ["fruit", "red"] }, published: { iv: true } },
    { lastModified: "2024-01-03T00:00:00.000Z" },
  ),
  item(
    "b",
    { title: { de: "Birne", en: "Pear" }, views: { iv: 5 }, tags: { iv: ["fruit"] }, published: { iv: false } },
    { lastModified: "2024-01-05T00:00:00.000Z" },
  ),
  item("c", { title: { de: "Brokkoli" }, views: { iv: 20 }, tags: { iv: [] } }, { lastModified: "2024-01-04T00:00:00.000Z" }),
  item("d", { title: { de: "Dattel", en: "Date" }, views: { iv: 10 }, tags: { iv: ["fruit", "sweet"] } }, {
    lastModified: "2024-01-02T00:00:00.000Z",
  }),
];

const ids = (q: ContentQuery, language = "de") => runQuery(ITEMS, q, language).items.map((i) => i.id);

function expect400(fn: () => unknown, message: string | RegExp) {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught, "expected a ContentError to be thrown").toBeInstanceOf(ContentError);
  const err = caught as ContentError;
  expect(err.statusCode).toBe(400);
  if (typeof message === "string") expect(err.message).toBe(message);
  else expect(err.message).toMatch(message);
}

describe("resolvePath", () => {
  it("reads meta fields, raw partitions and language-resolved fields", () => {
    const a = ITEMS[0]!;
    const c = ITEMS[2]!;
    expect(resolvePath(a, "id", "de")).toBe("a");
    expect(resolvePath(a, "version", "de")).toBe(1);
    expect(resolvePath(a, "data.title.en", "de")).toBe("Apple");
    expect(resolvePath(a, "data/title/en", "de")).toBe("Apple");
    expect(resolvePath(a, "data.title", "en")).toBe("Apple");
    expect(resolvePath(c, "data.title", "en")).toBe("Brokkoli"); // falls back to de
    expect(resolvePath(c, "data.title.en", "en")).toBeUndefined(); // explicit partition: no fallback
    expect(resolvePath(a, "data.views", "en")).toBe(10);
    expect(resolvePath(a, "data.missing.iv", "de")).toBeUndefined();
    expect(resolvePath(a, "nonsense", "de")).toBeUndefined();
  });

  it("reads a dashed field through its OData underscore spelling", () => {
    const x = item("x", { "first-name": { iv: "Ada" } });
    expect(resolvePath(x, "data.first_name.iv", "de")).toBe("Ada");
  });
});

describe("runQuery", () => {
  it("sorts by lastModified descending with no sort, id ascending as tie-breaker", () => {
    expect(ids({})).toEqual(["b", "c", "a", "d"]);
  });

  it("sorts ascending and descending, breaking ties by id ascending", () => {
    expect(ids({ sort: [{ path: "data.views.iv", order: "ascending" }] })).toEqual(["b", "a", "d", "c"]);
    expect(ids({ sort: [{ path: "data.views.iv", order: "descending" }] })).toEqual(["c", "a", "d", "b"]);
    expect(ids({ sort: [{ path: "data.title.de" }] })).toEqual(["a", "b", "c", "d"]);
    expect(ids({ sort: [{ path: "data.title.de", order: "descending" }] })).toEqual(["d", "c", "b", "a"]);
  });

  it("sorts missing values first when ascending", () => {
    expect(ids({ sort: [{ path: "data.title.en" }] })).toEqual(["c", "a", "d", "b"]);
  });

  it("filters with comparison operators", () => {
    const f = (op: string, value: unknown, path = "data.views.iv") =>
      ids({ filter: { path, op: op as never, value }, sort: [{ path: "id" }] });
    expect(f("eq", 10)).toEqual(["a", "d"]);
    expect(f("ne", 10)).toEqual(["b", "c"]);
    expect(f("lt", 10)).toEqual(["b"]);
    expect(f("le", 10)).toEqual(["a", "b", "d"]);
    expect(f("gt", 10)).toEqual(["c"]);
    expect(f("ge", 10)).toEqual(["a", "c", "d"]);
    expect(f("in", [5, 20])).toEqual(["b", "c"]);
    expect(f("eq", "10")).toEqual([]); // no type coercion
    expect(f("contains", "IR", "data.title.de")).toEqual(["b"]);
    expect(f("startsWith", "b", "data.title.de")).toEqual(["b", "c"]);
    expect(f("endsWith", "EL", "data.title.de")).toEqual(["a", "d"]);
    expect(f("exists", null, "data.title.en")).toEqual(["a", "b", "d"]);
    expect(f("empty", null, "data.title.en")).toEqual(["c"]);
    expect(f("empty", null, "data.tags.iv")).toEqual(["c"]);
    expect(f("eq", true, "data.published.iv")).toEqual(["a"]);
  });

  it("treats eq on an array field as 'contains the element'", () => {
    const f = (op: string, value: unknown) =>
      ids({ filter: { path: "data.tags.iv", op: op as never, value }, sort: [{ path: "id" }] });
    expect(f("eq", "fruit")).toEqual(["a", "b", "d"]);
    expect(f("eq", "red")).toEqual(["a"]);
    expect(f("ne", "fruit")).toEqual(["c"]);
    expect(f("in", ["red", "sweet"])).toEqual(["a", "d"]);
  });

  it("combines filters with and/or/not", () => {
    const sort = [{ path: "id" }];
    expect(
      ids({
        filter: { and: [{ path: "data.views.iv", op: "eq", value: 10 }, { path: "data.tags.iv", op: "eq", value: "red" }] },
        sort,
      }),
    ).toEqual(["a"]);
    expect(
      ids({
        filter: { or: [{ path: "data.views.iv", op: "gt", value: 15 }, { path: "data.title.de", op: "eq", value: "Birne" }] },
        sort,
      }),
    ).toEqual(["b", "c"]);
    expect(ids({ filter: { not: { path: "data.tags.iv", op: "eq", value: "fruit" } }, sort })).toEqual(["c"]);
  });

  it("resolves an unpartitioned path for the query language with fallback to de", () => {
    expect(ids({ filter: { path: "data.title", op: "eq", value: "Pear" } }, "en")).toEqual(["b"]);
    expect(ids({ filter: { path: "data.title", op: "eq", value: "Brokkoli" } }, "en")).toEqual(["c"]);
    expect(ids({ filter: { path: "data.title", op: "eq", value: "Pear" } }, "de")).toEqual([]);
  });

  it("pages with skip/take and reports the total before paging", () => {
    const q = { sort: [{ path: "id" }] };
    expect(runQuery(ITEMS, { ...q, skip: 1, take: 2 }, "de")).toMatchObject({ total: 4 });
    expect(ids({ ...q, skip: 1, take: 2 })).toEqual(["b", "c"]);
    expect(ids({ ...q, skip: 3, take: 2 })).toEqual(["d"]);
    expect(runQuery(ITEMS, { ...q, skip: 10 }, "de")).toEqual({ total: 4, items: [] });
    const filtered = runQuery(ITEMS, { filter: { path: "data.tags.iv", op: "eq", value: "fruit" }, take: 1 }, "de");
    expect(filtered.total).toBe(3);
    expect(filtered.items).toHaveLength(1);
  });

  it("caps take at MAX_TAKE", () => {
    const many = Array.from({ length: MAX_TAKE + 5 }, (_, i) => item(`i${String(i).padStart(3, "0")}`, {}));
    const res = runQuery(many, { take: 1000 }, "de");
    expect(res.total).toBe(MAX_TAKE + 5);
    expect(res.items).toHaveLength(MAX_TAKE);
  });

  it("returns ids in the order given, skipping unknown ids, unless a sort is given", () => {
    expect(ids({ ids: ["d", "zzz", "a", "c"] })).toEqual(["d", "a", "c"]);
    expect(runQuery(ITEMS, { ids: ["d", "zzz", "a", "c"] }, "de").total).toBe(3);
    expect(ids({ ids: ["d", "a", "c"], sort: [{ path: "id" }] })).toEqual(["a", "c", "d"]);
    expect(ids({ ids: ["d", "a", "c"], take: 2 })).toEqual(["d", "a"]);
    expect(ids({ ids: [] })).toEqual([]);
  });

  it("full-text searches every string in the data, case-insensitively, ANDed with the filter", () => {
    expect(ids({ fullText: "pear" })).toEqual(["b"]);
    expect(ids({ fullText: "FRUIT", sort: [{ path: "id" }] })).toEqual(["a", "b", "d"]);
    expect(ids({ fullText: "fruit", filter: { path: "data.views.iv", op: "eq", value: 10 }, sort: [{ path: "id" }] })).toEqual([
      "a",
      "d",
    ]);
    expect(ids({ fullText: "nothing-matches" })).toEqual([]);
  });

  it("does not mutate its input", () => {
    const before = ITEMS.map((i) => i.id);
    runQuery(ITEMS, { sort: [{ path: "data.views.iv", order: "descending" }] }, "de");
    expect(ITEMS.map((i) => i.id)).toEqual(before);
  });
});

describe("parseQuery", () => {
  it("accepts empty input and a full query", () => {
    expect(parseQuery(undefined)).toEqual({});
    expect(parseQuery(null)).toEqual({});
    const q = parseQuery({
      skip: 2,
      take: 5,
      filter: { and: [{ path: "data.views.iv", op: "GT", value: 1 }, { not: { path: "data.tags.iv", op: "empty" } }] },
      sort: [{ path: "data.views.iv" }, { path: "id", order: "descending" }],
      ids: ["a", "b"],
      fullText: "x",
    });
    expect(q).toEqual({
      skip: 2,
      take: 5,
      filter: { and: [{ path: "data.views.iv", op: "gt", value: 1 }, { not: { path: "data.tags.iv", op: "empty", value: undefined } }] },
      sort: [
        { path: "data.views.iv", order: "ascending" },
        { path: "id", order: "descending" },
      ],
      ids: ["a", "b"],
      fullText: "x",
    });
  });

  it("normalises operator case and accepts top as an alias of take", () => {
    expect(parseQuery({ filter: { path: "x", op: "startswith", value: "a" } }).filter).toEqual({ path: "x", op: "startsWith", value: "a" });
    expect(parseQuery({ top: 7 }).take).toBe(7);
    expect(parseQuery({ or: undefined, filter: { or: [{ path: "id", op: "eq", value: "a" }] } }).filter).toEqual({
      or: [{ path: "id", op: "eq", value: "a" }],
    });
  });

  it("rejects bad input with a 400 and a helpful message", () => {
    expect400(() => parseQuery("text"), "Query must be a JSON object.");
    expect400(() => parseQuery([1]), "Query must be a JSON object.");
    expect400(() => parseQuery({ skip: -1 }), 'Query "skip" must be a whole number from 0 to 1000000000.');
    expect400(() => parseQuery({ skip: 1.5 }), 'Query "skip" must be a whole number from 0 to 1000000000.');
    expect400(() => parseQuery({ skip: "3" }), 'Query "skip" must be a whole number from 0 to 1000000000.');
    expect400(() => parseQuery({ skip: 1e20 }), 'Query "skip" must be a whole number from 0 to 1000000000.');
    expect400(() => parseQuery({ take: MAX_TAKE + 1 }), `Query "take" must be a whole number from 0 to ${MAX_TAKE}.`);
    expect400(() => parseQuery({ top: -5 }), `Query "take" must be a whole number from 0 to ${MAX_TAKE}.`);
    expect400(() => parseQuery({ sort: { path: "id" } }), 'Query "sort" must be an array.');
    expect400(() => parseQuery({ sort: [{ order: "ascending" }] }), 'Each sort entry needs a "path".');
    expect400(() => parseQuery({ sort: ["id"] }), 'Each sort entry needs a "path".');
    expect400(() => parseQuery({ sort: [{ path: "id", order: "desc" }] }), "Sort \"order\" must be ascending or descending.");
    expect400(() => parseQuery({ ids: "a,b" }), 'Query "ids" must be an array of strings.');
    expect400(() => parseQuery({ ids: ["a", 2] }), 'Query "ids" must be an array of strings.');
    expect400(() => parseQuery({ fullText: 3 }), 'Query "fullText" must be a string.');
    expect400(() => parseQuery({ filter: "views > 3" }), "Each filter node must be an object.");
    expect400(() => parseQuery({ filter: [] }), "Each filter node must be an object.");
    expect400(() => parseQuery({ filter: { and: [null] } }), "Each filter node must be an object.");
    expect400(() => parseQuery({ filter: { op: "eq", value: 1 } }), 'A filter node needs "path" and "op", or "and", "or" or "not".');
    expect400(() => parseQuery({ filter: { path: "id", op: "like", value: "a" } }), 'Unknown filter operator "like".');
    expect400(() => parseQuery({ filter: { path: "id" } }), 'Unknown filter operator "undefined".');
    expect400(() => parseQuery({ filter: { path: "id", op: "in", value: "a" } }), 'The "in" operator needs an array of strings, numbers, booleans or nulls.');
    expect400(() => parseQuery({ filter: { path: "id", op: "in", value: [["a"]] } }), 'The "in" operator needs an array of strings, numbers, booleans or nulls.');
    expect400(() => parseQuery({ filter: { path: "id", op: "eq", value: { toString: 1 } } }), 'The "eq" operator needs a string, number, boolean or null value.');
    expect400(
      () => parseQuery({ filter: { or: [{ path: "id", op: "eq", value: "a" }, { not: { path: "id", op: "nope" } }] } }),
      'Unknown filter operator "nope".',
    );
  });
});

describe("parseCollectionUrl", () => {
  it("takes the collection from the last path segment", () => {
    expect(parseCollectionUrl("gm-content-practitioners")).toEqual({ collection: "gm-content-practitioners", query: {} });
    expect(parseCollectionUrl("/api/content/app/core-pages/").collection).toBe("core-pages");
    expect(parseCollectionUrl("").collection).toBe("");
  });

  it("parses q as a JSON query", () => {
    const q = encodeURIComponent(JSON.stringify({ take: 3, filter: { path: "data.views.iv", op: "gt", value: 1 } }));
    expect(parseCollectionUrl(`core-pages?q=${q}`)).toEqual({
      collection: "core-pages",
      query: { take: 3, filter: { path: "data.views.iv", op: "gt", value: 1 } },
    });
  });

  it("parses the OData-style parameters", () => {
    const { query } = parseCollectionUrl("x?$top=5&$skip=10&$orderby=data/name/iv desc, created&$search=hello%20world&ids=a, b,,c");
    expect(query).toEqual({
      take: 5,
      skip: 10,
      sort: [
        { path: "data.name.iv", order: "descending" },
        { path: "created", order: "ascending" },
      ],
      fullText: "hello world",
      ids: ["a", "b", "c"],
    });
  });

  it("refuses $top beyond MAX_TAKE with a 400 instead of capping it silently", () => {
    expect(parseCollectionUrl(`x?$top=${MAX_TAKE}`).query.take).toBe(MAX_TAKE);
    expect400(() => parseCollectionUrl(`x?$top=${MAX_TAKE + 1}`), `Query parameter "$top" may be at most ${MAX_TAKE}; page with "$skip" for more.`);
  });

  it("keeps an unencoded '?' inside the query string", () => {
    expect(parseCollectionUrl("x?$search=wer?").query.fullText).toBe("wer?");
    expect(parseCollectionUrl("x?$search=a?b&$top=2").query).toEqual({ fullText: "a?b", take: 2 });
  });

  it("rejects bad parameters with a 400", () => {
    expect400(() => parseCollectionUrl("x?q={oops"), 'Query parameter "q" is not valid JSON.');
    expect400(() => parseCollectionUrl("x?q=[]"), "Query must be a JSON object.");
    expect400(() => parseCollectionUrl(`x?q=${encodeURIComponent('{"take":-1}')}`), /Query "take" must be a whole number/);
    expect400(() => parseCollectionUrl("x?$top=ten"), 'Query parameter "$top" must be a whole number.');
    expect400(() => parseCollectionUrl("x?$top=-1"), 'Query parameter "$top" must be a whole number.');
    expect400(() => parseCollectionUrl("x?$skip=1.5"), 'Query parameter "$skip" must be a whole number.');
  });
});

describe("limits on queries from outside", () => {
  const status = (fn: () => unknown) => {
    try {
      fn();
      return 200;
    } catch (e) {
      return e instanceof ContentError ? e.statusCode : 500;
    }
  };

  it("refuses more ids than MAX_IDS", () => {
    const ids = Array.from({ length: MAX_IDS + 1 }, (_, i) => `id-${i}`);
    expect(status(() => parseCollectionUrl(`core-pages?ids=${ids.join(",")}`))).toBe(400);
    expect(status(() => parseQuery({ ids }))).toBe(400);
    expect(status(() => parseCollectionUrl(`core-pages?ids=${ids.slice(1).join(",")}`))).toBe(200);
  });

  it("refuses more sort keys, in-values, conditions and search characters than the limits, naming them", () => {
    const message = (fn: () => unknown) => {
      try {
        fn();
        return "";
      } catch (e) {
        return (e as Error).message;
      }
    };
    const keys = (n: number) => Array.from({ length: n }, () => "id").join(",");
    expect(status(() => parseCollectionUrl(`x?$orderby=${keys(MAX_SORT_KEYS)}`))).toBe(200);
    expect(message(() => parseCollectionUrl(`x?$orderby=${keys(MAX_SORT_KEYS + 1)}`))).toMatch(`at most ${MAX_SORT_KEYS} keys`);
    expect(message(() => parseQuery({ sort: Array.from({ length: 5000 }, () => ({ path: "id" })) }))).toMatch(`at most ${MAX_SORT_KEYS} keys`);
    const values = (n: number) => Array.from({ length: n }, (_, i) => `'${i}'`).join(",");
    expect(status(() => parseCollectionUrl(`x?$filter=${encodeURIComponent(`id in (${values(MAX_IN_VALUES)})`)}`))).toBe(200);
    expect(message(() => parseCollectionUrl(`x?$filter=${encodeURIComponent(`id in (${values(MAX_IN_VALUES + 1)})`)}`))).toMatch(`at most ${MAX_IN_VALUES} values`);
    const or = (n: number) => Array.from({ length: n }, (_, i) => `id eq '${i}'`).join(" or ");
    expect(status(() => parseCollectionUrl(`x?$filter=${encodeURIComponent(or(MAX_FILTER_LEAVES))}`))).toBe(200);
    expect(message(() => parseCollectionUrl(`x?$filter=${encodeURIComponent(or(MAX_FILTER_LEAVES + 1))}`))).toMatch(`at most ${MAX_FILTER_LEAVES} conditions`);
    expect(message(() => parseCollectionUrl(`x?$search=${"a".repeat(MAX_SEARCH_LENGTH + 1)}`))).toMatch(`at most ${MAX_SEARCH_LENGTH} characters`);
    // Built in code (the Squidex API, our own pages): the store's check counts the same.
    const inOf = (n: number) => ({ path: "id", op: "in" as const, value: Array.from({ length: n }, (_, i) => `${i}`) });
    expect(message(() => checkQueryShape({ filter: { and: [inOf(MAX_IN_VALUES), inOf(MAX_IN_VALUES), inOf(1)] } }))).toMatch(`at most ${MAX_FILTER_VALUES} values in all`);
    expect(message(() => checkQueryShape({ sort: Array.from({ length: MAX_SORT_KEYS + 1 }, () => ({ path: "id", order: "ascending" as const })) }))).toMatch(`at most ${MAX_SORT_KEYS} keys`);
  });

  it("refuses deep or huge filters before they can exhaust the stack", () => {
    const parens = (n: number) => `${"(".repeat(n)}id eq 'x'${")".repeat(n)}`;
    expect(status(() => parseCollectionUrl(`x?$filter=${parens(MAX_FILTER_DEPTH)}`))).toBe(200);
    expect(status(() => parseCollectionUrl(`x?$filter=${parens(MAX_FILTER_DEPTH + 1)}`))).toBe(400);
    expect(status(() => parseCollectionUrl(`x?$filter=${parens(5000)}`))).toBe(400);
    expect(status(() => parseCollectionUrl(`x?$filter=${"not ".repeat(100_000)}id eq 'x'`))).toBe(400);
    expect(status(() => parseCollectionUrl(`x?$filter=${"not ".repeat(MAX_FILTER_DEPTH + 1)}id eq 'x'`))).toBe(400);
    const nested = (n: number) => `${'{"not":'.repeat(n)}{"path":"id","op":"eq","value":"x"}${"}".repeat(n)}`;
    expect(status(() => parseCollectionUrl(`x?q=${encodeURIComponent(`{"filter":${nested(20_000)}}`)}`))).toBe(400);
    expect(status(() => parseCollectionUrl(`x?q=${encodeURIComponent(`{"filter":${nested(MAX_FILTER_DEPTH + 1)}}`)}`))).toBe(400);
    expect(status(() => parseCollectionUrl(`x?q=${encodeURIComponent(`{"filter":${nested(10)}}`)}`))).toBe(200);
    expect(status(() => parseQuery({ filter: JSON.parse(nested(MAX_FILTER_DEPTH + 1)) }))).toBe(400);
  });

  it("finds JSON nesting without parsing, ignoring brackets inside strings", () => {
    expect(jsonNestingExceeds('{"a":[{"b":"[[[[[["}]}', 3)).toBe(false);
    expect(jsonNestingExceeds('{"a":[{"b":[1]}]}', 3)).toBe(true);
    expect(jsonNestingExceeds('{"a":"\\"[[[["}', 1)).toBe(false);
  });
});

describe("assertQueryUses", () => {
  const fields = new Set(["name", "city"]);
  const refused = (query: ContentQuery) => {
    try {
      assertQueryUses(query, fields, "people");
      return undefined;
    } catch (e) {
      return (e as ContentError).message;
    }
  };

  it("allows visible fields and the public meta fields", () => {
    expect(refused({ filter: { and: [{ path: "data.city.iv", op: "eq", value: "Köln" }, { not: { path: "data/name", op: "startsWith", value: "A" } }] } })).toBeUndefined();
    expect(refused({ sort: [{ path: "lastModified" }, { path: "data.name.de", order: "descending" }], filter: { path: "id", op: "in", value: ["a"] } })).toBeUndefined();
  });

  it.each([
    [{ filter: { path: "data.email.iv", op: "startsWith", value: "j" } }, "email"],
    [{ filter: { or: [{ path: "data.city.iv", op: "eq", value: 1 }, { not: { path: "data/phone/iv", op: "exists" } }] } }, "phone"],
    [{ sort: [{ path: "data.email.iv" }] }, "email"],
    [{ filter: { path: "createdBy", op: "eq", value: "x" } }, "createdBy"],
    [{ filter: { path: "data", op: "exists" } }, "data"],
    [{ filter: { path: "data.__proto__.iv", op: "exists" } }, "__proto__"],
    [{ filter: { path: "status", op: "eq", value: "Draft" } }, "status"],
  ] as Array<[ContentQuery, string]>)("refuses %j naming %s", (query, name) => {
    expect(refused(query)).toContain(`"${name}"`);
  });
});
