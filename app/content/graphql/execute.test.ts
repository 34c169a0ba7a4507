import { parse } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ContentClient } from "../client";
import { openDemoStore } from "../demo-store.test-support";
import type { ContentStore } from "../store";
import { BatchLoader } from "./loader";
import { checkLimits, MAX_COST, runGraphQL, type RunOptions } from "./execute";
import { schemaFor } from "./schema";

/** GraphQL over a real store with the demo content, through the real content client (its reads counted). */
let store: ContentStore;
let client: ContentClient;
let close: () => Promise<void>;
let reads: string[] = [];

beforeAll(async () => {
  const demo = await openDemoStore("praxisnetz-graphql-");
  ({ store, close } = demo);
  const real = demo.client;
  client = { ...real, query: (schema, query, scope, opts) => (reads.push(schema), real.query(schema, query, scope, opts)) };
});
afterAll(() => close());

const run = (query: string, opts: Partial<RunOptions> = {}) =>
  runGraphQL({ query }, { store, client, audience: "visitor", unpublished: false, language: "de", ...opts });

describe("GraphQL execution", () => {
  it("reads references and referrers in batches, not once per item", async () => {
    reads = [];
    const answer = await run(
      "{ queryGmAppointmentsContents(top: 60) { id data { practitioner { iv } } flatData { practitioner { id flatData { name } data { description { de en } } referencingGmAppointmentsContents(top: 2) { id } } } } }",
    );
    expect(answer.body.errors).toBeUndefined();
    const appointments = (answer.body.data as any).queryGmAppointmentsContents as any[];
    expect(appointments.length).toBe(60);
    const practitioners = new Set(appointments.map((a) => a.flatData.practitioner[0].id));
    expect(practitioners.size).toBeGreaterThan(3);
    for (const a of appointments) expect(a.data.practitioner.iv).toEqual([a.flatData.practitioner[0].id]);
    // The list, the practitioners (de), their English texts, and their appointments: a handful of
    // reads whatever the number of items (chunks split only when a page comes back full).
    expect(reads.filter((r) => r === "gm-content-practitioners").length).toBe(2);
    expect(reads.filter((r) => r === "gm-appointments").length).toBeLessThanOrEqual(3);
    expect(reads.length).toBeLessThan(practitioners.size);
  });

  it("lists a reference into several schemas, or any, as Content items of their own types, batched per schema", async () => {
    const [practitioner] = (await store.query("gm-content-practitioners", { take: 1 }, {})).items;
    const [color] = (await store.query("core-theme-colors", { take: 1 }, {})).items;
    const refs = (name: string, schemaIds?: string[]) => ({ name, partitioning: "invariant" as const, properties: { fieldType: "References" as const, ...(schemaIds ? { schemaIds } : {}) } });
    await store.upsertSchema({ name: "gql-mixed", type: "Default", isPublished: true, properties: {}, fields: [refs("any"), refs("two", ["gm-content-practitioners", "core-theme-colors"])] });
    await store.create("gql-mixed", { any: { iv: [color!.id, practitioner!.id, "no-such-item"] }, two: { iv: [practitioner!.id, color!.id] } }, { id: "gql-mixed-1", publish: true });
    reads = [];
    const answer = await run(
      `{ findGqlMixedContent(id: "gql-mixed-1") { flatData {
          any { __typename id ... on GmContentPractitioners { flatData { name } } ... on CoreThemeColors { flatData { hexcode } } }
          two { id status ... on CoreThemeColors { flatData { hexcode } } } } } }`,
      { audience: "editor" },
    );
    expect(answer.body.errors, JSON.stringify(answer.body.errors)).toBeUndefined();
    const flat = (answer.body.data as any).findGqlMixedContent.flatData;
    expect(flat.any.map((i: any) => [i.__typename, i.id])).toEqual([["CoreThemeColors", color!.id], ["GmContentPractitioners", practitioner!.id]]);
    expect(flat.any[1].flatData.name).toBe(practitioner!.data.name!.iv);
    expect(flat.two.map((i: any) => i.id)).toEqual([practitioner!.id, color!.id]);
    expect(flat.two[1].flatData.hexcode).toBe(color!.data.hexcode!.iv);
    // A read per schema and field at most, whatever the number of ids (the two fields ask in turn).
    expect(reads.filter((r) => r === "gm-content-practitioners").length).toBeLessThanOrEqual(2);
    expect(reads.filter((r) => r === "core-theme-colors").length).toBeLessThanOrEqual(2);
  });

  it("rebuilds the schema when the store's schemas change", async () => {
    const before = schemaFor(await store.listSchemas(), "editor");
    expect(schemaFor(await store.listSchemas(), "editor")).toBe(before);
    const colors = (await store.getSchema("core-theme-colors"))!;
    const note = { name: "note", partitioning: "invariant" as const, properties: { fieldType: "String" as const } };
    await store.upsertSchema({ name: colors.name, type: colors.type, isPublished: true, properties: colors.properties, fields: [...colors.fields, note] });
    const after = schemaFor(await store.listSchemas(), "editor");
    expect(after).not.toBe(before);
    expect(after.getType("CoreThemeColorsFlatDataDto")?.toString()).toBe("CoreThemeColorsFlatDataDto");
    expect(Object.keys((after.getType("CoreThemeColorsFlatDataDto") as any).getFields())).toContain("note");
  });

  it("hides private fields and editor-only collections from visitors' schema", async () => {
    const visitor = schemaFor(await store.listSchemas(), "visitor");
    const editor = schemaFor(await store.listSchemas(), "editor");
    const fields = (schema: typeof visitor, type: string) => Object.keys((schema.getType(type) as any).getFields());
    expect(fields(visitor, "GmContentPractitionersFlatDataDto")).not.toContain("email");
    expect(fields(editor, "GmContentPractitionersFlatDataDto")).toContain("email");
    expect(fields(visitor, "Query")).not.toContain("queryCoreBackendNavigationContents");
    expect(fields(editor, "Query")).toContain("queryCoreBackendNavigationContents");
  });
});

describe("query limits", () => {
  it("refuse a fragment bomb on the real schema before executing it", async () => {
    const fragments = Array.from({ length: 40 }, (_, i) => `fragment F${i} on GmContentPractitioners { id ${i < 39 ? `...F${i + 1} flatData { name } ...F${i + 1}` : ""} }`).join(" ");
    const answer = await run(`{ queryGmContentPractitionersContents(top: 1) { ...F0 } } ${fragments}`);
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0]?.message).toMatch(/selections/);
  });

  it("measure depth through fragments and cost through nested lists and variables", () => {
    const deep = parse("query { a { ...F } } fragment F on X { b { c { d { e { f { g { h { i { id } } } } } } } } }");
    expect(checkLimits(deep, {})).toMatch(/9 levels deep/);
    expect(checkLimits(parse("{ queryXContents(top: 50) { referencingYContents(top: 50) { id } } }"), {})).toBeNull();
    expect(checkLimits(parse("{ queryXContents(top: 200) { referencingYContents(top: 100) { id } } }"), {})).toMatch(new RegExp(`at most ${MAX_COST}`));
    expect(checkLimits(parse("query Q($n: Int) { queryXContents(top: $n) { referencingYContents(top: $n) { id } } }"), { n: 120 })).toMatch(/items/);
    // Aliases add up.
    const many = Array.from({ length: 60 }, (_, i) => `a${i}: queryXContents { id }`).join(" ");
    expect(checkLimits(parse(`{ ${many} }`), {})).toMatch(/items/);
    // Fragments that spread the next one twice expand exponentially: refused by the count of selections.
    const fragments = Array.from({ length: 30 }, (_, i) => `fragment F${i} on X { a${i}: id ${i < 29 ? `...F${i + 1} b${i}: id ...F${i + 1}` : ""} }`).join(" ");
    expect(checkLimits(parse(`{ findXContent(id: "a") { ...F0 } } ${fragments}`), {})).toMatch(/more than 5000 selections/);
    // Introspection is bounded by the schema, not counted.
    expect(checkLimits(parse("{ __schema { types { fields { type { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } } }"), {})).toBeNull();
  });
});

describe("the batch loader", () => {
  it("answers the keys asked for in one round with one call, each key once", async () => {
    const calls: string[][] = [];
    const loader = new BatchLoader<number>(async (keys) => {
      calls.push(keys);
      return new Map(keys.filter((k) => k !== "missing").map((k) => [k, k.length]));
    });
    loader.prime("primed", 42);
    const values = await Promise.all([loader.load("a"), loader.load("bb"), loader.load("a"), loader.load("missing"), loader.load("primed")]);
    expect(values).toEqual([1, 2, 1, undefined, 42]);
    expect(calls).toEqual([["a", "bb", "missing"]]);
    expect(await loader.load("bb")).toBe(2);
    expect(calls).toHaveLength(1);
  });
});
