import { ContentError, badRequest, notFound } from "../errors";
import { checkIds, pageSize, parseCollectionUrl, parseQuery } from "../query";
import { LANGUAGES, MASTER_LANGUAGE, type ContentStore } from "../store";
import type { ContentData, ContentItem, ContentQuery, Schema } from "../types";
import { isPlainObject } from "../validate";
import { authorize, type Principal } from "../policy";
import { bulk, importItems } from "./bulk";
import { empty, expectedVersion, has, json, notImplemented, parseDueTime, queryParam, readJsonBody, type ApiAnswer, type ApiRequest, type SquidexHttpContext } from "./respond";

/**
 * Contents as Squidex serves them, `api/content/{app}/{schema}/...`: lists and queries (OData, JSON
 * `q`, ids), one item and its kept versions, create, update, patch, upsert, status, drafts, delete
 * and bulk (bulk.ts), shaped by `X-Languages`, `X-Flatten`, `X-Fields` and `X-Unpublished`.
 */

export const STATUS_COLORS: Record<string, string> = { Published: "#4bb958", Draft: "#8091a5", Archived: "#eb3142" };
const STATUSES = Object.entries(STATUS_COLORS)
  .map(([status, color]) => ({ status, color }))
  .sort((a, b) => a.status.localeCompare(b.status));

function shapeData(data: ContentData, schema: Schema, request: ApiRequest): Record<string, unknown> {
  const wanted = request.headers.get("x-languages")?.split(",").map((l) => l.trim()).filter((l) => (LANGUAGES as readonly string[]).includes(l));
  const languages = wanted?.length ? wanted : request.headers.has("x-languages") ? [MASTER_LANGUAGE] : [...LANGUAGES];
  const fields = request.headers.get("x-fields")?.split(",").map((f) => f.trim().replace(/^data\./, ""));
  const out: Record<string, unknown> = {};
  for (const field of schema.fields) {
    if (field.isHidden || (fields && !fields.includes(field.name))) continue;
    const partitions = data[field.name];
    if (!partitions) continue;
    let shaped: Record<string, unknown>;
    if (field.partitioning === "invariant") shaped = { iv: partitions.iv };
    else {
      shaped = {};
      for (const l of languages) {
        const own = partitions[l];
        const value = own ?? (has(request, "x-noresolvelanguages") ? undefined : partitions[MASTER_LANGUAGE]);
        if (value !== undefined) shaped[l] = value;
      }
    }
    const keys = Object.keys(shaped);
    if (!keys.length) continue;
    out[field.name] = has(request, "x-flatten") && keys.length === 1 ? shaped[keys[0]!] : shaped;
  }
  return out;
}

function contentDto(item: ContentItem, schema: Schema, request: ApiRequest, appName: string) {
  return {
    id: item.id,
    created: item.created,
    createdBy: item.createdBy,
    lastModified: item.lastModified,
    lastModifiedBy: item.lastModifiedBy,
    data: shapeData(item.data, schema, request),
    status: item.status,
    statusColor: STATUS_COLORS[item.status] ?? "#8091a5",
    ...(item.newStatus ? { newStatus: item.newStatus, newStatusColor: STATUS_COLORS[item.newStatus] } : {}),
    ...(item.scheduleJob ? { scheduleJob: { ...item.scheduleJob, color: STATUS_COLORS[item.scheduleJob.status] ?? "#8091a5" } } : {}),
    schemaId: schema.id,
    schemaName: schema.name,
    schemaDisplayName: schema.properties.label ?? schema.name,
    isDeleted: false,
    version: item.version,
    _links: { self: { href: `/api/content/${appName}/${schema.name}/${item.id}`, method: "GET" } },
  };
}

async function contentSchema(store: ContentStore, name: string): Promise<Schema> {
  const schema = await store.getSchema(name);
  if (!schema || schema.type === "Component") throw notFound(`Schema "${name}" not found.`);
  return schema;
}

/**
 * Items of any schema by their ids (`GET api/content/{app}?ids=a,b`, `POST api/content/{app}` with
 * `{"ids": [...]}`), in the order asked, each with its schema's name: what Squidex answers for
 * references that may point into several schemas. Ids that name nothing (or nothing this caller
 * may read) are left out, as in Squidex. By `referencing`/`references` they walk the reference rows
 * (crossSchemaWalk); by `scheduledFrom` and `scheduledTo` the items with a status change due then.
 */
async function crossSchema(request: ApiRequest, method: string, by: Principal, ctx: SquidexHttpContext): Promise<ApiAnswer> {
  const url = new URL(request.url);
  let ids: string[];
  if (method === "GET") {
    const walk = { referencing: url.searchParams.get("referencing"), references: url.searchParams.get("references") };
    if (url.searchParams.get("ids") === null && (walk.referencing !== null || walk.references !== null))
      return crossSchemaWalk(request, by, ctx, walk, parseCollectionUrl(`x${url.search}`).query);
    const period = scheduledPeriod(queryParam(url, "scheduledFrom") || queryParam(url, "scheduleFrom"), queryParam(url, "scheduledTo") || queryParam(url, "scheduleTo"));
    if (url.searchParams.get("ids") === null && period) ids = await scheduledIds(ctx.store, period);
    else {
      if (url.searchParams.has("q")) throw notImplemented("Cross-schema queries by q are not supported yet; ask by ids, by references or by schedule.");
      const raw = url.searchParams.get("ids");
      if (raw === null) throw badRequest("Name the items: ?ids=id1,id2 (or ?scheduledFrom=…&scheduledTo=…).");
      ids = raw.split(",").map((s) => s.trim()).filter(Boolean);
    }
  } else if (method === "POST") {
    const body = await readJsonBody(request, ctx);
    if (!isPlainObject(body)) throw badRequest('Send {"ids": ["id1", "id2"]}.');
    const given = (v: unknown) => v !== undefined && v !== null;
    if (!given(body.ids) && (given(body.referencing) || given(body.references))) {
      // Squidex's AllContentsByPostDto pages with its `q` (JSON) or `oData`.
      const query: ContentQuery = given(body.q) ? parseQuery(body.q) : {};
      const odata = body.odata ?? body.oData ?? body.OData;
      if (given(odata)) {
        if (typeof odata !== "string") throw badRequest('"odata" must be a string of OData query options, e.g. "$top=5&$skip=5".');
        Object.assign(query, parseCollectionUrl(`x?${odata.replace(/^\?/, "")}`).query);
      }
      return crossSchemaWalk(request, by, ctx, body, query);
    }
    const period = scheduledPeriod(body.scheduledFrom, body.scheduledTo);
    if (!given(body.ids) && period) ids = await scheduledIds(ctx.store, period);
    else {
      if (!Array.isArray(body.ids) || !body.ids.every((i) => typeof i === "string")) throw badRequest('"ids" must be an array of strings.');
      ids = body.ids as string[];
    }
  } else throw new ContentError(405, "Use GET or POST.");
  ids = [...new Set(checkIds(ids))];
  if (!ids.length) return json({ total: 0, items: [], statuses: STATUSES, _links: {} });
  const { store, appName } = ctx;
  const unpublished = has(request, "x-unpublished");
  // Which schema each id belongs to: one indexed read, then one query per schema found.
  const rows = await store.db.selectFrom("contents").select(["id", "schema_name"]).where("id", "in", ids).execute();
  const bySchema = new Map<string, string[]>();
  for (const row of rows) bySchema.set(row.schema_name, [...(bySchema.get(row.schema_name) ?? []), row.id]);
  const found = new Map<string, ReturnType<typeof contentDto>>();
  for (const [name, schemaIds] of bySchema) {
    const schema = await store.getSchema(name);
    if (!schema || schema.type === "Component") continue;
    if (unpublished) authorize(by, "readDraft", schema.name);
    const language = request.headers.get("x-languages")?.split(",")[0]?.trim() || MASTER_LANGUAGE;
    const result = await store.query(schema.name, { ids: schemaIds }, { unpublished, language, noTotal: true });
    for (const item of await store.withSchedules(result.items)) found.set(item.id, contentDto(item, schema, request, appName));
  }
  const items = ids.flatMap((id) => (found.has(id) ? [found.get(id)!] : []));
  return json({ total: items.length, items, statuses: STATUSES, _links: {} });
}

/**
 * The items `id` references (`references`) or that reference it (`referencing`), of every schema, in
 * Squidex's list shape (store.related: the reference rows), filtered, sorted and paged as any list
 * (a full-text search there is a 501). Drafts with X-Unpublished, asked of the policy for
 * each schema listed, as crossSchema asks. The caller has checked that `id` may be read.
 */
async function related(request: ApiRequest, direction: "references" | "referencing", id: string, query: ContentQuery, by: Principal, ctx: SquidexHttpContext): Promise<ApiAnswer> {
  const { store, appName } = ctx;
  if (query.fullText !== undefined) throw notImplemented("Lists of references take filters, sorting, ids and paging; a full-text search there is not supported: search the schema's own list.");
  const unpublished = has(request, "x-unpublished");
  const result = await store.related(direction, id, {
    unpublished,
    skip: query.skip,
    take: query.take,
    noTotal: has(request, "x-nototal"),
    ...(query.filter ? { filter: query.filter } : {}),
    ...(query.sort?.length ? { sort: query.sort } : {}),
    ...(query.ids ? { ids: query.ids } : {}),
  });
  const schemas = new Map<string, Schema>();
  for (const item of result.items) {
    if (schemas.has(item.schemaName)) continue;
    const schema = await store.getSchema(item.schemaName);
    if (!schema) continue;
    if (unpublished) authorize(by, "readDraft", schema.name);
    schemas.set(schema.name, schema);
  }
  const items = (await store.withSchedules(result.items)).flatMap((item) => {
    const schema = schemas.get(item.schemaName);
    return schema ? [contentDto(item, schema, request, appName)] : [];
  });
  return json({ total: result.total, items, statuses: STATUSES, _links: {} });
}

/**
 * Cross-schema walks (`api/content/{app}?referencing=X` or `?references=X`, or the same in a POST
 * body): Squidex's `referencing` names the item whose references are listed, `references` the item
 * whose referrers are. X is read as GET …/{id} reads it: a draft only with X-Unpublished.
 */
async function crossSchemaWalk(request: ApiRequest, by: Principal, ctx: SquidexHttpContext, walk: { referencing?: unknown; references?: unknown }, query: ContentQuery): Promise<ApiAnswer> {
  const [key, raw] = walk.referencing !== undefined && walk.referencing !== null ? (["referencing", walk.referencing] as const) : (["references", walk.references] as const);
  if (typeof raw !== "string" || raw === "") throw badRequest(`"${key}" must be the id of a content item.`);
  const [id] = checkIds([raw]);
  const unpublished = has(request, "x-unpublished");
  const row = await ctx.store.db.selectFrom("contents").select("schema_name").where("id", "=", id!).executeTakeFirst();
  const schema = row && (await ctx.store.getSchema(row.schema_name));
  if (schema && unpublished) authorize(by, "readDraft", schema.name);
  if (!schema || schema.type === "Component" || !(await ctx.store.get(schema.name, id!, { unpublished }))) throw notFound(`Content item "${id}" not found.`);
  return related(request, key === "referencing" ? "references" : "referencing", id!, query, by, ctx);
}

export async function contents(request: ApiRequest, method: string, rest: string[], by: Principal, ctx: SquidexHttpContext): Promise<ApiAnswer> {
  const { store, appName } = ctx;
  const [schemaName = "", id, sub] = rest;
  if (schemaName === "") return crossSchema(request, method, by, ctx);
  if (schemaName === "bulk" && id === undefined) {
    // App-wide bulk jobs (Squidex's route before any schema's): each job names its schema, or ?schema= does.
    if (method !== "POST") throw new ContentError(405, "Use POST for bulk jobs.");
    const fallback = queryParam(new URL(request.url), "schema") || undefined;
    return json(await bulk(fallback, await readJsonBody(request, ctx), by, store));
  }
  const schema = await contentSchema(store, schemaName);
  const unpublished = has(request, "x-unpublished");
  if (unpublished) authorize(by, "readDraft", schema.name);
  const url = new URL(request.url);
  const written = async (found: ContentItem, status = 200) => {
    // A new item has no schedule yet: only changes of existing items read it.
    const item = found.scheduleJob || status === 201 ? found : ((await store.withSchedules([found]))[0] ?? found);
    return json(contentDto(item, schema, request, appName), status, {
      ETag: `"${item.version}"`,
      ...(status === 201 ? { Location: `/api/content/${appName}/${schema.name}/${item.id}` } : {}),
    });
  };
  const list = async (query: ContentQuery) => {
    const language = request.headers.get("x-languages")?.split(",")[0]?.trim() || MASTER_LANGUAGE;
    // X-NoTotal skips counting; X-NoSlowTotal only when there is a filter to count by.
    const noTotal = has(request, "x-nototal") || (has(request, "x-noslowtotal") && (query.filter !== undefined || query.fullText !== undefined));
    const result = await store.query(schema.name, query, { unpublished, language, noTotal });
    // As Squidex: without counting, a page that is not full and starts at the beginning still
    // tells the total (its length); only a full page or one after a skip answers -1.
    const total = noTotal ? (result.items.length >= pageSize(query) || (query.skip ?? 0) > 0 ? -1 : result.items.length) : result.total;
    return json({
      total,
      items: (await store.withSchedules(result.items)).map((i) => contentDto(i, schema, request, appName)),
      statuses: STATUSES,
      _links: {},
    });
  };

  if (id === undefined) {
    if (method === "GET") return list(parseCollectionUrl(`${schema.name}${url.search}`).query);
    if (method === "POST") {
      const data = await readJsonBody(request, ctx);
      const publish = url.searchParams.get("status") === "Published" || url.searchParams.get("publish") === "true";
      const status = url.searchParams.get("status");
      if (status && status !== "Published" && status !== "Draft") throw badRequest(`Cannot create an item with status ${status}.`);
      return written(await store.create(schema.name, data, { publish, id: url.searchParams.get("id") ?? undefined, by }), 201);
    }
    throw new ContentError(405, "Use GET or POST.");
  }
  if (id === "bulk") {
    if (method !== "POST") throw new ContentError(405, "Use POST for bulk jobs.");
    return json(await bulk(schema.name, await readJsonBody(request, ctx), by, store));
  }
  if (id === "import" && sub === undefined) {
    if (method !== "POST") throw new ContentError(405, "Use POST to import items.");
    return json(await importItems(schema.name, await readJsonBody(request, ctx), by, store));
  }
  if (id === "query" && method === "POST") {
    const body = await readJsonBody(request, ctx);
    if (!isPlainObject(body)) throw badRequest("The query body must be an object.");
    const query: ContentQuery = body.q !== undefined ? parseQuery(body.q) : {};
    if (body.ids !== undefined) {
      if (!Array.isArray(body.ids) || !body.ids.every((i) => typeof i === "string")) throw badRequest('"ids" must be an array of strings.');
      query.ids = checkIds(body.ids);
    }
    // Squidex's QueryDto names it `odata`; the SDK sends `oData` (ASP.NET binds either).
    const odata = body.odata ?? body.oData ?? body.OData;
    if (odata !== undefined && odata !== null) {
      if (typeof odata !== "string") throw badRequest('"odata" must be a string of OData query options, e.g. "$top=5&$filter=...".');
      Object.assign(query, parseCollectionUrl(`x?${odata.replace(/^\?/, "")}`).query);
    }
    return list(query);
  }
  if ((sub === "references" || sub === "referencing") && rest.length === 3) {
    if (method !== "GET") throw new ContentError(405, "Use GET.");
    // The item itself under the same rule as GET …/{id}: drafts only with X-Unpublished (authorized above).
    if (!(await store.get(schema.name, id, { unpublished }))) throw notFound(`Content item "${id}" not found.`);
    return related(request, sub, id, parseCollectionUrl(`${schema.name}${url.search}`).query, by, ctx);
  }
  if (sub === "validity" && rest.length === 3) {
    if (method !== "GET") throw new ContentError(405, "Use GET.");
    // As Squidex, the item's current data (a draft before it is published is what one checks), so
    // asked as a read of drafts whatever X-Unpublished says.
    authorize(by, "readDraft", schema.name);
    await store.checkValidity(schema.name, id, { unpublished: true });
    return empty(204);
  }
  const opts = { expectedVersion: expectedVersion(request), by };
  if (sub === "defaults" && rest.length === 3) {
    if (method !== "PUT") throw new ContentError(405, "Use PUT.");
    return written(await store.enrichDefaults(schema.name, id, opts));
  }
  if (sub === "status" && rest.length === 3 && method === "PUT") {
    const body = await readJsonBody(request, ctx);
    if (!isPlainObject(body) || typeof body.status !== "string") throw badRequest('Send {"status": "Published" | "Draft" | "Archived", "dueTime": null | "2026-12-01T08:00:00Z"}.');
    // As Squidex: with a due time the change waits for it (scheduleJob); without, it is made now.
    const dueTime = parseDueTime(body.dueTime, "dueTime");
    if (dueTime) return written(await store.scheduleStatus(schema.name, id, body.status, dueTime, opts));
    return written(await store.changeStatus(schema.name, id, body.status, opts));
  }
  if (sub === "status" && rest.length === 3 && method === "DELETE") return written(await store.cancelSchedule(schema.name, id, opts));
  if (sub === "draft") {
    if (method === "POST") return written(await store.createDraft(schema.name, id, opts));
    if (method === "DELETE") return written(await store.discardDraft(schema.name, id, opts));
  }
  if (sub !== undefined && method === "GET" && /^-?\d+$/.test(sub)) {
    // GET .../{id}/{version} (obsolete in Squidex, still served): the version's data alone.
    const item = await contentVersion(store, schema, id, Number(sub), unpublished);
    return json(contentDto(item, schema, request, appName).data, 200, { ETag: `"${item.version}"` });
  }
  if (sub !== undefined) throw notFound(`No Squidex endpoint for ${method} .../${sub}.`);
  switch (method) {
    case "GET": {
      const raw = url.searchParams.get("version");
      if (raw !== null && raw !== "") {
        if (!/^-?\d+$/.test(raw.trim())) throw badRequest(`version must be a whole number, got "${raw.slice(0, 40)}".`);
        const [item] = await store.withSchedules([await contentVersion(store, schema, id, Number(raw), unpublished)]);
        return json(contentDto(item!, schema, request, appName), 200, { ETag: `"${item!.version}"` });
      }
      const found = await store.get(schema.name, id, { unpublished });
      if (!found) throw notFound(`Content item "${id}" not found.`);
      const [item] = await store.withSchedules([found]);
      return json(contentDto(item!, schema, request, appName), 200, { ETag: `"${item!.version}"` });
    }
    case "PUT":
      return written(await store.update(schema.name, id, await readJsonBody(request, ctx), opts));
    case "PATCH":
      return written(await store.patch(schema.name, id, await readJsonBody(request, ctx), opts));
    case "POST": {
      // Upsert: create with this id, or update (patch=true merges).
      const data = await readJsonBody(request, ctx);
      const existing = await store.get(schema.name, id, { unpublished: true });
      if (!existing) {
        const publish = url.searchParams.get("status") === "Published" || url.searchParams.get("publish") === "true";
        return written(await store.create(schema.name, data, { id, publish, by }), 201);
      }
      const item = url.searchParams.get("patch") === "true" ? await store.patch(schema.name, id, data, opts) : await store.update(schema.name, id, data, opts);
      return written(item);
    }
    case "DELETE":
      await store.delete(schema.name, id, opts);
      return empty(204);
  }
  throw new ContentError(405, `Method ${method} is not allowed here.`);
}

/**
 * One version of an item. The store keeps an item's current version and, while it is published, the
 * published one (a newer draft may sit on top of it); earlier versions are not kept, and asking for
 * one is a 404 that says so, never another version's data. A negative version means "any" (Squidex
 * sends -2), so the newest the caller may see. Draft versions need `X-Unpublished`, as without a version.
 */
async function contentVersion(store: ContentStore, schema: Schema, id: string, version: number, unpublished: boolean): Promise<ContentItem> {
  const [live, published] = await Promise.all([store.get(schema.name, id, { unpublished: true }), store.get(schema.name, id, {})]);
  const visible = unpublished ? live : published;
  if (!visible) throw notFound(`Content item "${id}" not found.`);
  if (version < 0) return visible;
  for (const item of unpublished ? [live, published] : [published]) if (item?.version === version) return item;
  if (!unpublished && live?.version === version) throw notFound(`Version ${version} of content item "${id}" is not published; send X-Unpublished to read it.`);
  const kept = [...new Set([live?.version, published?.version].filter((v): v is number => v !== undefined))].sort((a, b) => a - b);
  throw notFound(`Version ${version} of content item "${id}" is not kept: this store keeps the current and the published version of an item (here ${kept.join(" and ")}).`);
}

/** Squidex's scheduledFrom/scheduledTo (both, or neither). */
function scheduledPeriod(from: unknown, to: unknown): { from: Date; to: Date } | undefined {
  const [start, end] = [parseDueTime(from, "scheduledFrom"), parseDueTime(to, "scheduledTo")];
  if (!start && !end) return undefined;
  if (!start || !end) throw badRequest('Give both "scheduledFrom" and "scheduledTo".');
  return { from: start, to: end };
}

/** The items with a status change scheduled within the period, soonest first (at most 200). */
async function scheduledIds(store: ContentStore, period: { from: Date; to: Date }): Promise<string[]> {
  const rows = await store.db
    .selectFrom("content_schedules")
    .select("content_id")
    .where("due_time", ">=", period.from.toISOString())
    .where("due_time", "<=", period.to.toISOString())
    .orderBy("due_time")
    .orderBy("content_id")
    .limit(200)
    .execute();
  return rows.map((r) => r.content_id);
}
