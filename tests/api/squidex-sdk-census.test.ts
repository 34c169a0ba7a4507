import path from "node:path";
import Database from "better-sqlite3";
import { AssetsApi, ContentsApi, LanguagesApi, PingApi, SchemasApi, SquidexError, type FieldPropertiesDto, type SchemaDto, type SquidexClient } from "@squidex/squidex";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../support/server";
import { authedApi, sdkClient } from "../support/squidex-sdk";

/**
 * Issue 23's census: every public method of the official SDK's (`@squidex/squidex`) ContentsApi,
 * AssetsApi, SchemasApi, LanguagesApi and PingApi, called once with realistic arguments against the
 * production build. Each either succeeds (the SDK resolves and parses the answer) or is one of the
 * calls this service deliberately does not offer, which answer 501 with a message (NOT_OFFERED,
 * with the reason). A coverage check reads the SDK's classes at run time, so a method a newer SDK
 * adds fails here until it is in one of the two tables.
 */
let server: RunningServer;
let client: SquidexClient;

/** The APIs of the census, by the name the SquidexClient gives them. */
const APIS = { contents: ContentsApi, assets: AssetsApi, schemas: SchemasApi, languages: LanguagesApi, ping: PingApi } as const;
type ApiName = keyof typeof APIS;

/** A 1×1 PNG, the smallest real image. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
const png = (name: string) => new File([PNG], name, { type: "image/png" });
const text = (name: string, body: string) => new File([body], name, { type: "text/plain" });

const ITEMS = "census-items";
const FIELDS = "census-fields";
const TOGGLE = "census-toggle";

/** What the calls work on, made in beforeAll through the same SDK. */
interface Fixture {
  /** Two published items of ITEMS; `b` references `a`. */
  a: string;
  b: string;
  fields: SchemaDto;
  asset: { id: string; slug: string };
  folder: string;
}
let f: Fixture;

let seq = 0;
const fresh = (prefix: string) => `${prefix}-${++seq}`;
const item = (title: string, extra: Record<string, unknown> = {}) => ({ title: { iv: title }, ...extra });
const fieldId = (schema: SchemaDto, name: string) => schema.fields.find((x) => x.name === name)!.fieldId;
const nestedId = (schema: SchemaDto, name: string) => schema.fields.find((x) => x.name === "rows")!.nested!.find((n) => n.name === name)!.fieldId;
const rowsId = () => fieldId(f.fields, "rows");
const nestedOf = (schema: SchemaDto, name: string) => schema.fields.find((x) => x.name === "rows")!.nested!.find((n) => n.name === name)!;
const fieldOf = (schema: SchemaDto, name: string) => schema.fields.find((x) => x.name === name)!;
const tomorrow = () => new Date(Date.now() + 86_400_000);

/** A draft item of ITEMS for a call that changes one. */
const newItem = async (publish = false) => (await client.contents.postContent(ITEMS, item(fresh("Eintrag")), { publish })).id;
const newAsset = async () => (await client.assets.postAsset({ file: png(`${fresh("census")}.png`) })).id;

type Call = () => Promise<void>;

/**
 * Every SDK method that this service offers: its call with what it needs, and what the answer must
 * say. One entry per method name, per API.
 */
const OFFERED: { [A in ApiName]?: Record<string, Call> } = {
  ping: {
    getPing: async () => expect(await client.ping.getPing()).toBeUndefined(),
    getAppPing: async () => expect(await client.ping.getAppPing()).toBeUndefined(),
    getInfo: async () => expect(Object.keys(await client.ping.getInfo()).length).toBeGreaterThan(0),
  },
  languages: {
    getLanguages: async () => expect((await client.languages.getLanguages()).map((l) => l.iso2Code)).toEqual(expect.arrayContaining(["de", "en"])),
  },
  contents: {
    getContents: async () => {
      const page = await client.contents.getContents(ITEMS, { $orderby: "created asc", $top: 10 });
      expect(page.items.map((i) => i.id)).toEqual(expect.arrayContaining([f.a, f.b]));
      expect(page.total).toBeGreaterThanOrEqual(2);
    },
    getContentsPost: async () => {
      const page = await client.contents.getContentsPost(ITEMS, { oData: `$filter=id eq '${f.a}'` }, {});
      expect(page.items.map((i) => i.id)).toEqual([f.a]);
    },
    getContent: async () => expect(await client.contents.getContent(ITEMS, f.a, {})).toMatchObject({ id: f.a, status: "Published", data: { title: { iv: "A" } } }),
    getContentValidity: async () => expect(await client.contents.getContentValidity(ITEMS, f.a)).toBeUndefined(),
    getContentVersion: async () => {
      const current = await client.contents.getContent(ITEMS, f.a, {});
      const blob = await client.contents.getContentVersion(ITEMS, f.a, current.version, {});
      expect(JSON.parse(await blob.text())).toMatchObject({ title: { iv: "A" } });
    },
    getReferences: async () => expect((await client.contents.getReferences(ITEMS, f.b, {})).items.map((i) => i.id)).toEqual([f.a]),
    getReferencing: async () => expect((await client.contents.getReferencing(ITEMS, f.a, {})).items.map((i) => i.id)).toEqual([f.b]),
    postContent: async () => {
      const made = await client.contents.postContent(ITEMS, item("Neu", { count: { iv: 7 } }), { publish: true });
      expect(made).toMatchObject({ status: "Published", version: 1, data: { title: { iv: "Neu" }, count: { iv: 7 } } });
    },
    postContents: async () => {
      const results = await client.contents.postContents(ITEMS, { datas: [item("Import 1"), item("Import 2")], publish: true });
      expect(results.map((r) => [r.jobIndex, r.error ?? null])).toEqual([
        [0, null],
        [1, null],
      ]);
      expect((await client.contents.getContent(ITEMS, results[1]!.contentId!, {})).data.title).toEqual({ iv: "Import 2" });
    },
    postUpsertContent: async () => {
      const id = fresh("census-upsert");
      expect(await client.contents.postUpsertContent(ITEMS, id, item("Upsert"), { publish: true })).toMatchObject({ id, status: "Published" });
      expect((await client.contents.postUpsertContent(ITEMS, id, item("Upsert 2"), {})).data.title).toEqual({ iv: "Upsert 2" });
    },
    putContent: async () => {
      const id = await newItem();
      expect((await client.contents.putContent(ITEMS, id, item("Ersetzt"), {})).data).toEqual({ title: { iv: "Ersetzt" } });
    },
    patchContent: async () => {
      const id = await newItem();
      expect((await client.contents.patchContent(ITEMS, id, { count: { iv: 9 } }, {})).data).toMatchObject({ title: expect.anything(), count: { iv: 9 } });
    },
    putContentDefaults: async () => {
      const id = await newItem();
      expect((await client.contents.putContentDefaults(ITEMS, id, { unpublished: true })).data.count).toEqual({ iv: 3 });
    },
    putContentStatus: async () => {
      const id = await newItem();
      expect((await client.contents.putContentStatus(ITEMS, id, { status: "Published" }, {})).status).toBe("Published");
    },
    deleteContentStatus: async () => {
      const id = await newItem();
      const scheduled = await client.contents.putContentStatus(ITEMS, id, { status: "Published", dueTime: tomorrow() }, {});
      expect(scheduled.scheduleJob?.status).toBe("Published");
      const cancelled = await client.contents.deleteContentStatus(ITEMS, id, {});
      expect(cancelled.scheduleJob ?? null).toBeNull();
      expect(cancelled.status).toBe("Draft");
    },
    createDraft: async () => {
      const id = await newItem(true);
      expect(await client.contents.createDraft(ITEMS, id, {})).toMatchObject({ status: "Published", newStatus: "Draft" });
    },
    deleteVersion: async () => {
      const id = await newItem(true);
      await client.contents.createDraft(ITEMS, id, {});
      const discarded = await client.contents.deleteVersion(ITEMS, id, {});
      expect(discarded.status).toBe("Published");
      expect(discarded.newStatus ?? null).toBeNull();
    },
    deleteContent: async () => {
      const id = await newItem();
      expect(await client.contents.deleteContent(ITEMS, id, {})).toBeUndefined();
      expect((await refusal(client.contents.getContent(ITEMS, id, { unpublished: true }))).statusCode).toBe(404);
    },
    bulkUpdateContents: async () => {
      const id = await newItem();
      const results = await client.contents.bulkUpdateContents(ITEMS, {
        jobs: [
          { type: "Upsert", id: fresh("census-bulk"), data: item("Bulk") },
          { type: "ChangeStatus", id, status: "Published" },
        ],
      });
      expect(results.map((r) => r.error ?? null)).toEqual([null, null]);
      expect((await client.contents.getContent(ITEMS, id, {})).status).toBe("Published");
    },
    bulkUpdateAllContents: async () => {
      const id = fresh("census-all");
      const results = await client.contents.bulkUpdateAllContents({ jobs: [{ type: "Create", schema: ITEMS, id, data: item("Überall") }] }, {});
      expect(results.map((r) => [r.contentId, r.error ?? null])).toEqual([[id, null]]);
    },
    getAllContents: async () => {
      const got = await client.contents.getAllContents({ ids: `${f.b},${f.a}` });
      expect(got.items.map((i) => [i.id, i.schemaName])).toEqual([
        [f.b, ITEMS],
        [f.a, ITEMS],
      ]);
    },
    getAllContentsPost: async () => expect((await client.contents.getAllContentsPost({ ids: [f.a] }, {})).items.map((i) => i.id)).toEqual([f.a]),
    getGraphQL: async () => {
      const answer = await client.contents.getGraphQL({ theQueryString: `{ findCensusItemsContent(id: "${f.a}") { id flatData { title } } }` });
      expect(answer).toEqual({ data: { findCensusItemsContent: { id: f.a, flatData: { title: "A" } } } });
    },
    getGraphQLBatch: async () => {
      const answer = await client.contents.getGraphQLBatch({ theQueryString: "query Two($id: String!) { findCensusItemsContent(id: $id) { id } }", variables: JSON.stringify({ id: f.b }), operationName: "Two" });
      expect(answer).toEqual({ data: { findCensusItemsContent: { id: f.b } } });
    },
    postGraphQL: async () => {
      const answer = await client.contents.postGraphQL({ body: { query: "query Items($top: Int) { queryCensusItemsContents(top: $top, orderby: \"created asc\") { id } }", variables: { top: 1 } } });
      expect(answer).toEqual({ data: { queryCensusItemsContents: [{ id: f.a }] } });
    },
    postGraphQLBatch: async () => {
      const answer = await client.contents.postGraphQLBatch({
        body: [{ query: `{ findCensusItemsContent(id: "${f.a}") { id } }` }, { query: `{ findCensusItemsContent(id: "${f.b}") { flatData { ref { id } } } }` }],
      });
      expect(answer).toEqual([{ data: { findCensusItemsContent: { id: f.a } } }, { data: { findCensusItemsContent: { flatData: { ref: [{ id: f.a }] } } } }]);
    },
  },
  assets: {
    getAssets: async () => expect((await client.assets.getAssets({ ids: f.asset.id })).items.map((a) => a.id)).toEqual([f.asset.id]),
    getAssetsPost: async () => {
      const found = await client.assets.getAssetsPost({ q: { filter: { path: "tags", op: "eq", value: "census" } } }, {});
      expect(found.items.map((a) => a.id)).toContain(f.asset.id);
    },
    getAsset: async () => expect(await client.assets.getAsset(f.asset.id)).toMatchObject({ id: f.asset.id, mimeType: "image/png", isImage: true, pixelWidth: 1 }),
    getAssetContent: async () => expect(Buffer.from(await (await client.assets.getAssetContent(f.asset.id, {})).arrayBuffer())).toEqual(PNG),
    getAssetContentBySlug: async () => expect(Buffer.from(await (await client.assets.getAssetContentBySlug(f.asset.slug, {})).arrayBuffer())).toEqual(PNG),
    postAsset: async () => {
      const made = await client.assets.postAsset({ file: text("notiz.txt", "Hallo"), parentId: f.folder });
      expect(made).toMatchObject({ fileName: "notiz.txt", mimeType: "text/plain", fileSize: 5, parentId: f.folder });
    },
    postUpsertAsset: async () => {
      const id = crypto.randomUUID();
      expect(await client.assets.postUpsertAsset(id, { file: png("upsert.png") })).toMatchObject({ id, fileName: "upsert.png" });
      expect(await client.assets.postUpsertAsset(id, { file: text("upsert.txt", "zwei") })).toMatchObject({ id, fileSize: 4 });
    },
    putAsset: async () => {
      const id = await newAsset();
      const annotated = await client.assets.putAsset(id, { fileName: "umbenannt.png", tags: ["census", "logo"], metadata: { alt: "Ein Punkt" } });
      expect(annotated).toMatchObject({ fileName: "umbenannt.png", tags: ["census", "logo"], metadata: expect.objectContaining({ alt: "Ein Punkt" }) });
    },
    putAssetContent: async () => {
      const id = await newAsset();
      const replaced = await client.assets.putAssetContent(id, { file: text("ersetzt.txt", "neu") });
      expect(replaced).toMatchObject({ id, fileSize: 3, mimeType: "text/plain", fileVersion: 1 });
    },
    putAssetParent: async () => {
      const id = await newAsset();
      expect((await client.assets.putAssetParent(id, { parentId: f.folder })).parentId).toBe(f.folder);
    },
    deleteAsset: async () => {
      const id = await newAsset();
      expect(await client.assets.deleteAsset(id, {})).toBeUndefined();
      expect((await refusal(client.assets.getAsset(id))).statusCode).toBe(404);
    },
    bulkUpdateAssets: async () => {
      const [one, two] = [await newAsset(), await newAsset()];
      const results = await client.assets.bulkUpdateAssets({
        jobs: [
          { type: "Annotate", id: one, tags: ["bulk"] },
          { type: "Move", id: two, parentId: f.folder },
        ],
      });
      expect(results.map((r) => [r.id, r.error ?? null])).toEqual([
        [one, null],
        [two, null],
      ]);
      expect((await client.assets.getAsset(two)).parentId).toBe(f.folder);
    },
    getTags: async () => {
      const tags = await client.assets.getTags();
      expect(tags.census).toBeGreaterThanOrEqual(1);
    },
    putTag: async () => {
      const id = await newAsset();
      await client.assets.putAsset(id, { tags: ["alt-census", "bleibt"] });
      const tags = await client.assets.putTag("alt-census", { tagName: "neu-census" });
      expect(tags["neu-census"]).toBe(1);
      expect(tags["alt-census"]).toBeUndefined();
      expect((await client.assets.getAsset(id)).tags).toEqual(["neu-census", "bleibt"]);
    },
    getAssetFolders: async () => expect((await client.assets.getAssetFolders({})).items.map((x) => x.id)).toContain(f.folder),
    postAssetFolder: async () => {
      const made = await client.assets.postAssetFolder({ folderName: "Unterordner", parentId: f.folder });
      expect(made).toMatchObject({ folderName: "Unterordner", parentId: f.folder });
    },
    putAssetFolder: async () => {
      const folder = await client.assets.postAssetFolder({ folderName: "Alt" });
      expect((await client.assets.putAssetFolder(folder.id, { folderName: "Neu" })).folderName).toBe("Neu");
    },
    putAssetFolderParent: async () => {
      const folder = await client.assets.postAssetFolder({ folderName: "Wandert" });
      expect((await client.assets.putAssetFolderParent(folder.id, { parentId: f.folder })).parentId).toBe(f.folder);
    },
    deleteAssetFolder: async () => {
      const folder = await client.assets.postAssetFolder({ folderName: "Weg" });
      expect(await client.assets.deleteAssetFolder(folder.id)).toBeUndefined();
      expect((await client.assets.getAssetFolders({})).items.map((x) => x.id)).not.toContain(folder.id);
    },
  },
  schemas: {
    getSchemas: async () => expect((await client.schemas.getSchemas()).items.map((s) => s.name)).toEqual(expect.arrayContaining([ITEMS, FIELDS, TOGGLE])),
    getSchema: async () => expect(await client.schemas.getSchema(ITEMS)).toMatchObject({ name: ITEMS, isPublished: true }),
    postSchema: async () => {
      const name = fresh("census-new");
      const made = await client.schemas.postSchema({ name, isPublished: true, fields: [{ name: "title", properties: { fieldType: "String" } }] });
      expect(made).toMatchObject({ name, isPublished: true, fields: [{ name: "title" }] });
    },
    putSchema: async () => expect((await client.schemas.putSchema(FIELDS, { label: "Felder", hints: "Für die Zählung" })).properties).toMatchObject({ label: "Felder", hints: "Für die Zählung" }),
    publishSchema: async () => expect((await client.schemas.publishSchema(TOGGLE)).isPublished).toBe(true),
    unpublishSchema: async () => expect((await client.schemas.unpublishSchema(TOGGLE)).isPublished).toBe(false),
    deleteSchema: async () => {
      const name = fresh("census-gone");
      await client.schemas.postSchema({ name, fields: [] });
      expect(await client.schemas.deleteSchema(name)).toBeUndefined();
      expect((await refusal(client.schemas.getSchema(name))).statusCode).toBe(404);
    },
    putCategory: async () => expect((await client.schemas.putCategory(FIELDS, { name: "Zählung" })).category).toBe("Zählung"),
    putPreviewUrls: async () => expect((await client.schemas.putPreviewUrls(FIELDS, { web: "https://example.org/{{id}}" })).previewUrls).toEqual({ web: "https://example.org/{{id}}" }),
    putSchemaUIFields: async () => expect((await client.schemas.putSchemaUIFields(FIELDS, { fieldsInLists: ["title"], fieldsInReferences: ["title"] })).fieldsInLists).toEqual(["title"]),
    postField: async () => expect(fieldOf(await client.schemas.postField(FIELDS, { name: "added", properties: { fieldType: "Boolean" } }), "added").properties.fieldType).toBe("Boolean"),
    putField: async () => {
      const changed = await client.schemas.putField(FIELDS, fieldId(f.fields, "putMe"), { properties: { fieldType: "String", maxLength: 40, label: "Geändert" } as FieldPropertiesDto });
      expect(fieldOf(changed, "putMe").properties).toMatchObject({ maxLength: 40, label: "Geändert" });
    },
    deleteField: async () => expect((await client.schemas.deleteField(FIELDS, fieldId(f.fields, "deleteMe"))).fields.map((x) => x.name)).not.toContain("deleteMe"),
    hideField: async () => expect(fieldOf(await client.schemas.hideField(FIELDS, fieldId(f.fields, "hideMe")), "hideMe").isHidden).toBe(true),
    showField: async () => expect(fieldOf(await client.schemas.showField(FIELDS, fieldId(f.fields, "showMe")), "showMe").isHidden).toBe(false),
    disableField: async () => expect(fieldOf(await client.schemas.disableField(FIELDS, fieldId(f.fields, "disableMe")), "disableMe").isDisabled).toBe(true),
    enableField: async () => expect(fieldOf(await client.schemas.enableField(FIELDS, fieldId(f.fields, "enableMe")), "enableMe").isDisabled).toBe(false),
    lockField: async () => expect(fieldOf(await client.schemas.lockField(FIELDS, fieldId(f.fields, "lockMe")), "lockMe").isLocked).toBe(true),
    putSchemaFieldOrdering: async () => {
      const ids = (await client.schemas.getSchema(FIELDS)).fields.map((x) => x.fieldId).reverse();
      expect((await client.schemas.putSchemaFieldOrdering(FIELDS, { fieldIds: ids })).fields.map((x) => x.fieldId)).toEqual(ids);
    },
    postNestedField: async () => expect(nestedOf(await client.schemas.postNestedField(FIELDS, rowsId(), { name: "added", properties: { fieldType: "Number" } }), "added").properties.fieldType).toBe("Number"),
    putNestedField: async () => {
      const changed = await client.schemas.putNestedField(FIELDS, rowsId(), nestedId(f.fields, "putMe"), { properties: { fieldType: "String", label: "Zeile" } as FieldPropertiesDto });
      expect(nestedOf(changed, "putMe").properties).toMatchObject({ label: "Zeile" });
    },
    deleteNestedField: async () => expect(fieldOf(await client.schemas.deleteNestedField(FIELDS, rowsId(), nestedId(f.fields, "deleteMe")), "rows").nested!.map((n) => n.name)).not.toContain("deleteMe"),
    hideNestedField: async () => expect(nestedOf(await client.schemas.hideNestedField(FIELDS, rowsId(), nestedId(f.fields, "hideMe")), "hideMe").isHidden).toBe(true),
    showNestedField: async () => expect(nestedOf(await client.schemas.showNestedField(FIELDS, rowsId(), nestedId(f.fields, "showMe")), "showMe").isHidden).toBe(false),
    disableNestedField: async () => expect(nestedOf(await client.schemas.disableNestedField(FIELDS, rowsId(), nestedId(f.fields, "disableMe")), "disableMe").isDisabled).toBe(true),
    enableNestedField: async () => expect(nestedOf(await client.schemas.enableNestedField(FIELDS, rowsId(), nestedId(f.fields, "enableMe")), "enableMe").isDisabled).toBe(false),
    lockNestedField: async () => expect(nestedOf(await client.schemas.lockNestedField(FIELDS, rowsId(), nestedId(f.fields, "lockMe")), "lockMe").isLocked).toBe(true),
    putSchemaSync: async () => {
      const made = await client.schemas.postSchema({ name: `census-sync-${Date.now()}`, isPublished: true, fields: [{ name: "keep", properties: { fieldType: "String" } }, { name: "drop", properties: { fieldType: "Number" } }] });
      const synced = await client.schemas.putSchemaSync(made.name, { fields: [{ name: "keep", properties: { fieldType: "String", label: "Behalten" } as FieldPropertiesDto }, { name: "added", properties: { fieldType: "Boolean" } }], category: "Census" });
      expect(synced.fields.map((x) => [x.name, x.properties.fieldType])).toEqual([["keep", "String"], ["added", "Boolean"]]);
      expect(synced.fields[0]!.fieldId).toBe(made.fields[0]!.fieldId);
      expect(synced.category).toBe("Census");
    },
    putNestedFieldOrdering: async () => {
      const ids = fieldOf(await client.schemas.getSchema(FIELDS), "rows").nested!.map((n) => n.fieldId).reverse();
      expect(fieldOf(await client.schemas.putNestedFieldOrdering(FIELDS, rowsId(), { fieldIds: ids }), "rows").nested!.map((n) => n.fieldId)).toEqual(ids);
    },
  },
};

/**
 * The SDK methods this service deliberately does not offer, each answering 501 with a message that
 * says so; the reason is why it is not offered.
 */
const NOT_OFFERED: { [A in ApiName]?: Record<string, { reason: string; call: () => Promise<unknown> }> } = {
  schemas: {
    putScripts: { reason: "the service runs no scripts, so it keeps none", call: () => client.schemas.putScripts(FIELDS, { create: "ctx.data" } as never) },
    putRules: { reason: "field rules are rules for Squidex's own editor, which this service does not host", call: () => client.schemas.putRules(FIELDS, { fieldRules: [] }) },
  },
};

/** What an SDK call threw. */
async function refusal(call: Promise<unknown>): Promise<SquidexError<{ message?: string; statusCode?: number }>> {
  try {
    await call;
  } catch (e) {
    if (e instanceof SquidexError) return e as SquidexError<{ message?: string; statusCode?: number }>;
    throw e;
  }
  throw new Error("The call succeeded; a refusal was expected.");
}

/** The public methods of an SDK API class: not the `…Raw` variants, not private helpers. */
const sdkMethods = (api: ApiName) =>
  Object.getOwnPropertyNames(APIS[api].prototype).filter((m) => m !== "constructor" && !m.startsWith("_") && !m.endsWith("Raw") && typeof APIS[api].prototype[m as never] === "function");

const outcome = new Map<string, "pass" | "501" | "fail">();

beforeAll(async () => {
  server = await startServer();
  client = sdkClient(server);
  const items = await client.schemas.postSchema({
    name: ITEMS,
    isPublished: true,
    fields: [
      { name: "title", properties: { fieldType: "String" } },
      { name: "count", properties: { fieldType: "Number", defaultValue: 3 } as FieldPropertiesDto },
    ],
  });
  // References to items of its own schema: GraphQL types them (flatData { ref { id } }).
  await client.schemas.postField(ITEMS, { name: "ref", properties: { fieldType: "References", schemaIds: [items.id] } as FieldPropertiesDto });
  const a = await client.contents.postContent(ITEMS, item("A"), { publish: true });
  const b = await client.contents.postContent(ITEMS, item("B", { ref: { iv: [a.id] } }), { publish: true });
  const names = ["hideMe", "showMe", "disableMe", "enableMe", "lockMe", "deleteMe", "putMe"];
  const flags = (n: string) => ({ isHidden: n === "showMe", isDisabled: n === "enableMe" });
  const fields = await client.schemas.postSchema({
    name: FIELDS,
    isPublished: true,
    fields: [
      { name: "title", properties: { fieldType: "String" } },
      ...names.map((n) => ({ name: n, properties: { fieldType: "String" as const }, ...flags(n) })),
      { name: "rows", properties: { fieldType: "Array" }, nested: names.map((n) => ({ name: n, properties: { fieldType: "String" as const }, ...flags(n) })) },
    ],
  });
  await client.schemas.postSchema({ name: TOGGLE, fields: [{ name: "title", properties: { fieldType: "String" } }] });
  const folder = await client.assets.postAssetFolder({ folderName: "Zählung" });
  const asset = await client.assets.postAsset({ file: png("census-logo.png") });
  await client.assets.putAsset(asset.id, { tags: ["census"], slug: "census-logo.png" });
  f = { a: a.id, b: b.id, fields, asset: { id: asset.id, slug: "census-logo.png" }, folder: folder.id };
}, 120_000);

afterAll(async () => {
  const count = (o: string) => [...outcome.values()].filter((v) => v === o).length;
  console.log(`SDK census: ${count("pass")} calls pass, ${count("501")} answered 501 (not offered), ${count("fail")} fail`);
  await server?.stop();
});

describe("the SDK census: every ContentsApi, AssetsApi, SchemasApi, LanguagesApi and PingApi method", () => {
  it("has every public SDK method in exactly one table, and no name the SDK lacks", () => {
    const missing: string[] = [];
    const unknown: string[] = [];
    const twice: string[] = [];
    for (const api of Object.keys(APIS) as ApiName[]) {
      const inSdk = sdkMethods(api);
      const offered = Object.keys(OFFERED[api] ?? {});
      const refused = Object.keys(NOT_OFFERED[api] ?? {});
      for (const m of inSdk) if (!offered.includes(m) && !refused.includes(m)) missing.push(`${api}.${m}`);
      for (const m of [...offered, ...refused]) if (!inSdk.includes(m)) unknown.push(`${api}.${m}`);
      for (const m of offered) if (refused.includes(m)) twice.push(`${api}.${m}`);
    }
    expect(missing, "SDK methods missing from the census tables").toEqual([]);
    expect(unknown, "table entries the SDK does not have").toEqual([]);
    expect(twice, "methods in both tables").toEqual([]);
    // The census is not empty by mistake (an SDK whose classes read differently).
    expect(sdkMethods("contents").length).toBeGreaterThan(20);
  });

  for (const api of Object.keys(APIS) as ApiName[]) {
    for (const [method, call] of Object.entries(OFFERED[api] ?? {})) {
      it(`${api}.${method} succeeds`, async () => {
        outcome.set(`${api}.${method}`, "fail");
        await call();
        outcome.set(`${api}.${method}`, "pass");
      });
    }
    for (const [method, { reason, call }] of Object.entries(NOT_OFFERED[api] ?? {})) {
      it(`${api}.${method} answers 501: ${reason}`, async () => {
        outcome.set(`${api}.${method}`, "fail");
        const refused = await refusal(call());
        expect(refused.statusCode).toBe(501);
        expect(refused.body).toMatchObject({ statusCode: 501, message: expect.stringMatching(/not supported/) });
        outcome.set(`${api}.${method}`, "501");
      });
    }
  }

  it("takes the URL variants of the upload calls from public addresses only: a private one is a 400 before any request", async () => {
    const id = await newAsset();
    for (const call of [
      () => client.assets.postAsset({ url: "http://127.0.0.1:1/logo.png", name: "logo.png" }),
      () => client.assets.postUpsertAsset(crypto.randomUUID(), { url: "http://127.0.0.1:1/logo.png", name: "logo.png" }),
      () => client.assets.putAssetContent(id, { url: "http://127.0.0.1:1/logo.png", name: "logo.png" }),
    ]) {
      const refused = await refusal(call());
      expect(refused.statusCode).toBe(400);
      expect(refused.body?.message).toMatch(/private network \(127\.0\.0\.1\)/);
    }
  });
});

describe("what the census made work, with its refusals", () => {
  const authed = (p: string, init: RequestInit = {}) => authedApi(server, p, init);

  it("renames a tag on every asset that has it, each an audited annotation; refuses a bad name (400), an unknown tag (404), no token (401)", async () => {
    const [one, two] = [await newAsset(), await newAsset()];
    await client.assets.putAsset(one, { tags: ["praxis-alt", "praxis-neu"] });
    await client.assets.putAsset(two, { tags: ["praxis-alt"] });
    expect(await client.assets.getTags()).toMatchObject({ "praxis-alt": 2, "praxis-neu": 1 });
    const tags = await client.assets.putTag("praxis-alt", { tagName: "praxis-neu" });
    expect(tags["praxis-neu"]).toBe(2);
    expect(tags).not.toHaveProperty("praxis-alt");
    // Once, where the asset had both.
    expect((await client.assets.getAsset(one)).tags).toEqual(["praxis-neu"]);
    const db = new Database(path.join(server.dataDir, "praxisnetz.sqlite"), { readonly: true });
    try {
      const rows = db.prepare("select item_id from audit_log where action = 'annotate-asset' and detail = ?").all('tag "praxis-alt" renamed to "praxis-neu"') as Array<{ item_id: string }>;
      expect(rows.map((r) => r.item_id).sort()).toEqual([one, two].sort());
    } finally {
      db.close();
    }

    const unknown = await authed("/apps/praxisnetz/assets/tags/no-such-tag", { method: "PUT", body: JSON.stringify({ tagName: "x" }) });
    expect(unknown.status).toBe(404);
    expect(unknown.json.message).toMatch(/No asset has the tag "no-such-tag"/);
    for (const body of [JSON.stringify({ tagName: "" }), JSON.stringify({ tagName: 5 }), JSON.stringify({ tagName: "x".repeat(101) }), JSON.stringify({}), "[1]", "{"]) {
      const res = await authed("/apps/praxisnetz/assets/tags/praxis-neu", { method: "PUT", body });
      expect(res.status, body).toBe(400);
      expect(res.json.message, body).toBeTruthy();
    }
    expect((await client.assets.getAsset(two)).tags).toEqual(["praxis-neu"]);
    expect((await authed("/apps/praxisnetz/assets/tags", { method: "POST", body: "{}" })).status).toBe(405);
    expect((await authed("/apps/praxisnetz/assets/tags/praxis-neu", { method: "DELETE" })).status).toBe(405);
    expect((await authed("/apps/praxisnetz/assets/tags/a/b", { method: "PUT", body: "{}" })).status).toBe(404);
    const api = (p: string) => `${server.url}/api/squidex/api${p}`;
    expect((await fetch(api("/apps/praxisnetz/assets/tags"))).status).toBe(401);
    expect((await fetch(api("/apps/praxisnetz/assets/tags/praxis-neu"), { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ tagName: "x" }) })).status).toBe(401);
  });

  it("reads a GraphQL GET by Squidex's query parameter and by the SDK's name for it, on graphql and graphql/batch alike", async () => {
    const document = encodeURIComponent(`{ findCensusItemsContent(id: "${f.a}") { id } }`);
    const expected = { data: { findCensusItemsContent: { id: f.a } } };
    for (const p of [`/content/praxisnetz/graphql?query=${document}`, `/content/praxisnetz/graphql?The%20query%20string=${document}`, `/content/praxisnetz/graphql/batch?query=${document}`]) {
      const res = await authed(p);
      expect(res.status, p).toBe(200);
      expect(res.json, p).toEqual(expected);
    }
    // No document: a 400 that says so; a batch by POST is still an array.
    expect((await authed("/content/praxisnetz/graphql/batch")).status).toBe(400);
    expect((await authed("/content/praxisnetz/graphql/batch", { method: "POST", body: JSON.stringify({ query: "{ __typename }" }) })).status).toBe(400);
    expect((await authed("/content/praxisnetz/graphql/batch", { method: "PUT", body: "[]" })).status).toBe(405);
  });
});
