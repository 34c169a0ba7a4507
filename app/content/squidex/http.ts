import { ContentError, badRequest, contentErrorOf, notFound } from "../errors";
import { assetUrl } from "../public-api";
import { checkIds, pageSize, pagingParams, parseCollectionUrl, parseQuery } from "../query";
import { TOKEN_SECONDS } from "./auth";
import { BatchItemError, LANGUAGES, MASTER_LANGUAGE, type ContentStore } from "../store";
import type { Asset, ContentData, ContentItem, ContentQuery, Schema } from "../types";
import { parentIdOf, type AssetFolder } from "../assets";
import { isPlainObject } from "../validate";
import { decodeComponent } from "../../lib/input";
import { readBody, readForm } from "../../lib/body";
import { authorize, type Principal } from "../policy";
import { appResource, appsRoot, info, ping } from "./apps";
import { schemas } from "./schemas";
import { empty, error, expectedVersion, has, json, queryParam, readJsonBody, type ApiAnswer, type ApiRequest, type SquidexHttpContext } from "./respond";

export type { ApiAnswer, ApiRequest, SquidexHttpContext } from "./respond";

/**
 * The Squidex HTTP API answered by the embedded store, under `/api/squidex` (so a Squidex client's
 * base URL is `{site}/api/squidex`): client-credentials tokens, contents, schemas, languages and
 * assets, with Squidex's headers (`X-Unpublished`, `X-Languages`, `X-Flatten`), status codes,
 * `If-Match`/`ETag` versions and `ErrorDto` bodies. See shared/squidex-contract.md.
 *
 * This module routes and answers contents, assets and the token; ping/info/the app and languages
 * live in apps.ts, schemas in schemas.ts, and the request/response layer they share in respond.ts
 * (docs/decisions/0028-squidex-api-modules.md).
 */

export function fromFetchRequest(request: ApiRequest): ApiRequest {
  return { method: request.method, url: request.url, headers: request.headers, readBody: (limit) => readBody(request, limit) };
}

const STATUS_COLORS: Record<string, string> = { Published: "#4bb958", Draft: "#8091a5", Archived: "#eb3142" };
const STATUSES = Object.entries(STATUS_COLORS)
  .map(([status, color]) => ({ status, color }))
  .sort((a, b) => a.status.localeCompare(b.status));

export async function handleSquidex(request: ApiRequest, subpath: string, ctx: SquidexHttpContext): Promise<ApiAnswer> {
  try {
    const parts = subpath.split("/").filter(Boolean).map((part) => {
      const decoded = decodeComponent(part);
      if (decoded === undefined) throw badRequest(`The path segment "${part.slice(0, 100)}" is not valid percent-encoding.`);
      return decoded;
    });
    const method = request.method.toUpperCase();
    if (parts[0]?.toLowerCase() === "identity-server" && parts[1]?.toLowerCase() === "connect" && parts[2]?.toLowerCase() === "token") {
      if (method !== "POST") throw new ContentError(405, "Use POST.");
      return await token(request, ctx);
    }
    if (parts[0]?.toLowerCase() !== "api") throw notFound(`No Squidex endpoint at /${subpath}.`);
    const [, areaName, app, ...rest] = parts;
    const area = areaName?.toLowerCase();
    // Anonymous in Squidex: the service's ping and info.
    if (area === "ping" && app === undefined) {
      if (method !== "GET") throw new ContentError(405, "Use GET.");
      return ping();
    }
    if (area === "info" && app === undefined) {
      if (method !== "GET") throw new ContentError(405, "Use GET.");
      return info();
    }
    // Asset content is public, as in Squidex for unprotected assets.
    if (area === "assets" && method === "GET") return await assetContent(request, rest[0] ?? app ?? "", ctx);
    const by = await principalOf(request, ctx);
    if (!by) throw new ContentError(401, "Send a valid bearer token (POST identity-server/connect/token).");
    if (area === "apps" && app === undefined) return await appsRoot(request, method, by, ctx);
    if (app !== ctx.appName) throw notFound(`App "${app}" not found.`);
    // The app's ping needs access to the app (it is not anonymous).
    if (area === "ping" && !rest.length) {
      if (method !== "GET") throw new ContentError(405, "Use GET.");
      return ping();
    }
    // What each principal may do is the store's policy (policy.ts): every write below names `by`.
    if (area === "content") return await contents(request, method, rest, by, ctx);
    if (area === "apps") return (await appResource(method, rest, by, ctx)) ?? (await apps(request, method, rest, by, ctx));
    throw notFound(`No Squidex endpoint at /${subpath}.`);
  } catch (e) {
    if (e instanceof ContentError) return error(e);
    throw e;
  }
}

/** A client token stands for the site's owner; a session cookie for its signed-in person. */
async function principalOf(request: ApiRequest, ctx: SquidexHttpContext): Promise<Principal | null> {
  if (await ctx.auth.verify(request.headers.get("authorization"))) return { kind: "client", clientId: ctx.auth.clientId };
  const session = request.session;
  return session ? { kind: "user", userId: session.userId, email: session.email, superuser: session.superuser } : null;
}

const TOKEN_FORM_LIMIT = 8 * 1024;

async function token(request: ApiRequest, ctx: SquidexHttpContext): Promise<ApiAnswer> {
  const form = await readForm(request, TOKEN_FORM_LIMIT).catch((e: unknown) => {
    if (e instanceof ContentError && e.statusCode === 415) return undefined;
    throw e;
  });
  if (!form) return json({ error: "invalid_request", error_description: "Send the token request as application/x-www-form-urlencoded." }, 400);
  let clientId = form.get("client_id") ?? "";
  let clientSecret = form.get("client_secret") ?? "";
  const basic = request.headers.get("authorization")?.match(/^Basic\s+(\S+)$/i);
  if (basic) {
    // RFC 6749 §2.3.1: both halves are form-encoded; a half that is not counts as no credentials.
    const [id = "", secret = ""] = Buffer.from(basic[1]!, "base64").toString("utf8").split(":", 2);
    clientId = decodeComponent(id.replace(/\+/g, " ")) ?? "";
    clientSecret = decodeComponent(secret.replace(/\+/g, " ")) ?? "";
  }
  if (form.get("grant_type") !== "client_credentials")
    return json({ error: "unsupported_grant_type", error_description: "Only client_credentials is supported." }, 400);
  const scope = form.get("scope") ?? "squidex-api";
  if (scope !== "squidex-api") return json({ error: "invalid_scope", error_description: "The scope must be squidex-api." }, 400);
  const access = await ctx.auth.issueToken(clientId, clientSecret);
  if (!access) return json({ error: "invalid_client", error_description: "The client credentials are invalid." }, 401);
  return json({ access_token: access, token_type: "Bearer", expires_in: TOKEN_SECONDS, scope: "squidex-api" });
}

// ---- contents ---------------------------------------------------------------------------------

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

async function contents(request: ApiRequest, method: string, rest: string[], by: Principal, ctx: SquidexHttpContext): Promise<ApiAnswer> {
  const { store, appName } = ctx;
  const [schemaName = "", id, sub] = rest;
  const schema = await contentSchema(store, schemaName);
  const unpublished = has(request, "x-unpublished");
  if (unpublished) authorize(by, "readDraft", schema.name);
  const url = new URL(request.url);
  const written = (item: ContentItem, status = 200) =>
    json(contentDto(item, schema, request, appName), status, {
      ETag: `"${item.version}"`,
      ...(status === 201 ? { Location: `/api/content/${appName}/${schema.name}/${item.id}` } : {}),
    });
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
      items: result.items.map((i) => contentDto(i, schema, request, appName)),
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
  const opts = { expectedVersion: expectedVersion(request), by };
  if (sub === "status" && method === "PUT") {
    const body = await readJsonBody(request, ctx);
    if (!isPlainObject(body) || typeof body.status !== "string") throw badRequest('Send {"status": "Published" | "Draft" | "Archived"}.');
    if (body.dueTime) throw badRequest("Scheduled status changes are not supported.");
    return written(await store.changeStatus(schema.name, id, body.status, opts));
  }
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
        const item = await contentVersion(store, schema, id, Number(raw), unpublished);
        return json(contentDto(item, schema, request, appName), 200, { ETag: `"${item.version}"` });
      }
      const item = await store.get(schema.name, id, { unpublished });
      if (!item) throw notFound(`Content item "${id}" not found.`);
      return json(contentDto(item, schema, request, appName), 200, { ETag: `"${item.version}"` });
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

// ---- bulk -------------------------------------------------------------------------------------

const BULK_TYPES = ["Upsert", "Create", "Update", "Patch", "ChangeStatus", "Delete"] as const;
type BulkType = (typeof BULK_TYPES)[number];
export const MAX_BULK_JOBS = 1000;

interface BulkJob {
  type: BulkType;
  id?: string;
  data?: unknown;
  status?: string;
  expectedVersion?: number;
  patch?: boolean;
}

interface BulkResult {
  jobIndex: number;
  id?: string;
  contentId?: string;
  error?: ReturnType<ContentError["toJSON"]>;
}

function parseBulk(body: unknown): { jobs: BulkJob[]; continueOnError: boolean; publish: boolean } {
  if (!isPlainObject(body) || !Array.isArray(body.jobs)) throw badRequest('Send {"jobs": [...]} with one entry per job.');
  if (body.jobs.length > MAX_BULK_JOBS) throw badRequest(`Send at most ${MAX_BULK_JOBS} jobs per request (got ${body.jobs.length}).`);
  const jobs = body.jobs.map((job, i): BulkJob => {
    if (!isPlainObject(job)) throw badRequest(`jobs[${i}] must be an object.`);
    const type = BULK_TYPES.find((t) => t.toLowerCase() === String(job.type).toLowerCase());
    if (!type) throw badRequest(`jobs[${i}].type must be one of ${BULK_TYPES.join(", ")}.`);
    if (job.id !== undefined && typeof job.id !== "string") throw badRequest(`jobs[${i}].id must be a string.`);
    if (job.status !== undefined && typeof job.status !== "string") throw badRequest(`jobs[${i}].status must be a string.`);
    const version = job.expectedVersion;
    if (version !== undefined && version !== null && !Number.isInteger(version)) throw badRequest(`jobs[${i}].expectedVersion must be a whole number.`);
    if (type !== "Create" && type !== "Upsert" && job.id === undefined) throw badRequest(`jobs[${i}] (${type}) needs an id.`);
    if (type === "ChangeStatus" && job.status === undefined) throw badRequest(`jobs[${i}] (ChangeStatus) needs a status.`);
    // Squidex sends -2 for "any version".
    const expectedVersion = typeof version === "number" && version >= 0 ? version : undefined;
    return { type, id: job.id as string | undefined, data: job.data, status: job.status as string | undefined, expectedVersion, patch: job.patch === true };
  });
  return { jobs, continueOnError: body.continueOnError === true, publish: body.publish === true };
}

/**
 * Runs one job. `present` (when given) holds the Upsert ids that name an item: kept up to date here
 * as jobs create and delete, so the bulk run never asks the database again per job.
 */
async function runJob(store: ContentStore, schema: string, job: BulkJob, publishAll: boolean, by: Principal, present?: Set<string>): Promise<string> {
  const opts = { expectedVersion: job.expectedVersion, by };
  const publish = job.status === "Published" || (job.status === undefined && publishAll);
  switch (job.type) {
    case "Create": {
      // A taken id is a 409 from the insert itself (ON CONFLICT DO NOTHING: the transaction goes on).
      const id = (await store.create(schema, job.data, { id: job.id, publish, by })).id;
      present?.add(id);
      return id;
    }
    case "Upsert": {
      const existing = job.id === undefined ? undefined : await store.get(schema, job.id, { unpublished: true });
      if (!existing) {
        const id = (await store.create(schema, job.data, { id: job.id, publish, by })).id;
        present?.add(id);
        return id;
      }
      const item = job.patch ? await store.patch(schema, existing.id, job.data, opts) : await store.update(schema, existing.id, job.data, opts);
      if (job.status && job.status !== item.status) await store.changeStatus(schema, item.id, job.status, { by });
      return item.id;
    }
    case "Update":
      return (await store.update(schema, job.id!, job.data, opts)).id;
    case "Patch":
      return (await store.patch(schema, job.id!, job.data, opts)).id;
    case "ChangeStatus":
      return (await store.changeStatus(schema, job.id!, job.status!, opts)).id;
    case "Delete":
      await store.delete(schema, job.id!, opts);
      present?.delete(job.id!);
      return job.id!;
  }
}

/** Which of the jobs' Upsert ids name an item of the schema now: one lookup for the whole request. */
async function presentUpsertIds(store: ContentStore, schema: string, jobs: readonly BulkJob[]): Promise<Set<string>> {
  const ids = [...new Set(jobs.flatMap((job) => (job.type === "Upsert" && job.id !== undefined ? [job.id] : [])))];
  return ids.length ? store.existingIds(schema, ids) : new Set();
}

/**
 * How many jobs from `start` on simply create an item: Create jobs, and Upsert jobs whose id is new
 * (at most 1 000 at a time). `present`: the Upsert ids that name an item now (presentUpsertIds).
 * It used to ask the database for the next 1 000 jobs' ids at every job: 500 updates made 500
 * lookups of up to 500 ids each (5.5 s at 100 000 items).
 */
function createRun(jobs: readonly BulkJob[], start: number, present: ReadonlySet<string>): number {
  let end = start;
  while (end < jobs.length && end - start < 1000 && (jobs[end]!.type === "Create" || jobs[end]!.type === "Upsert")) end++;
  // An Upsert of an id that exists, or that an earlier job of the run creates, updates: the run ends before it.
  const seen = new Set<string>();
  for (let i = start; i < end; i++) {
    const { type, id } = jobs[i]!;
    if (type === "Upsert" && id !== undefined && (present.has(id) || seen.has(id))) return i - start;
    if (id !== undefined) seen.add(id);
  }
  return end - start;
}

/**
 * Squidex bulk jobs. By default all jobs run in one transaction: a failing job leaves nothing
 * written, and every job is reported as not applied (a busy database fails the whole request with a
 * 503 and Retry-After: nothing was applied, the same request may be sent again). With
 * `continueOnError` each job stands alone.
 */
async function bulk(schema: string, body: unknown, by: Principal, store: ContentStore): Promise<BulkResult[]> {
  const { jobs, continueOnError, publish } = parseBulk(body);
  const failure = (e: unknown) => {
    if (e instanceof ContentError) return e.toJSON();
    throw e;
  };
  if (continueOnError) {
    const results: BulkResult[] = [];
    for (const [jobIndex, job] of jobs.entries()) {
      try {
        const id = await runJob(store, schema, job, publish, by);
        results.push({ jobIndex, id, contentId: id });
      } catch (e) {
        // A busy database refused this job alone: its own 503, the other jobs stand.
        const known = contentErrorOf(e);
        if (!known) throw e;
        results.push({ jobIndex, ...(job.id ? { id: job.id, contentId: job.id } : {}), error: known.toJSON() });
      }
    }
    return results;
  }
  let failed: { index: number; error: ReturnType<ContentError["toJSON"]> } | undefined;
  const ids: string[] = [];
  const createJob = (job: BulkJob) => ({ data: job.data, id: job.id, publish: job.status === "Published" || (job.status === undefined && publish) });
  // Only new items: one createMany, atomic by itself (on PostgreSQL one statement, no transaction).
  if (jobs.length > 1 && jobs.every((job) => job.type === "Create" || job.type === "Upsert") && createRun(jobs, 0, await presentUpsertIds(store, schema, jobs)) === jobs.length) {
    try {
      for (const item of await store.createMany(schema, jobs.map(createJob), { by })) ids.push(item.id);
    } catch (e) {
      if (!(e instanceof BatchItemError)) throw e;
      failed = { index: e.index, error: failure(e.error) };
    }
    return bulkResults(jobs, ids, failed);
  }
  try {
    await store.transaction(async (tx) => {
      const present = await presentUpsertIds(tx, schema, jobs);
      for (let index = 0; index < jobs.length; ) {
        // A run of creates goes in as one batch (multi-row inserts); the rest one job at a time.
        const creates = createRun(jobs, index, present);
        if (creates > 1) {
          try {
            const items = await tx.createMany(schema, jobs.slice(index, index + creates).map(createJob), { by });
            for (const item of items) {
              ids.push(item.id);
              present.add(item.id);
            }
          } catch (e) {
            if (e instanceof BatchItemError) failed = { index: index + e.index, error: failure(e.error) };
            throw e;
          }
          index += creates;
          continue;
        }
        try {
          ids.push(await runJob(tx, schema, jobs[index]!, publish, by, present));
        } catch (e) {
          failed = { index, error: failure(e) };
          throw e;
        }
        index++;
      }
    });
  } catch (e) {
    if (!failed) throw e;
  }
  return bulkResults(jobs, ids, failed);
}

/** Squidex's per-job answers: without continueOnError, when one job failed none was applied. */
function bulkResults(jobs: readonly BulkJob[], ids: readonly string[], failed: { index: number; error: ReturnType<ContentError["toJSON"]> } | undefined): BulkResult[] {
  return jobs.map((job, jobIndex) => {
    const id = ids[jobIndex] ?? job.id;
    const base = { jobIndex, ...(id ? { id, contentId: id } : {}) };
    if (!failed) return base;
    if (jobIndex === failed.index) return { ...base, error: failed.error };
    const message = `Not applied: job ${failed.index} failed, and without continueOnError all jobs are applied together or not at all.`;
    return { ...base, error: new ContentError(409, message, undefined, "OBJECT_CONFLICT").toJSON() };
  });
}

// ---- apps: schemas, languages, assets ---------------------------------------------------------

function assetDto(asset: Asset, appName: string) {
  const size = asset.pixelWidth && asset.pixelHeight ? `${asset.pixelWidth}x${asset.pixelHeight}px, ` : "";
  return {
    id: asset.id,
    parentId: asset.parentId,
    fileName: asset.fileName,
    fileHash: asset.fileHash,
    isProtected: false,
    slug: asset.slug,
    mimeType: asset.mimeType,
    fileType: asset.fileName.includes(".") ? asset.fileName.split(".").pop()!.toLowerCase() : "blob",
    metadataText: `${size}${Math.max(1, Math.round(asset.fileSize / 1024))} kB`,
    metadata: asset.pixelWidth ? { pixelWidth: asset.pixelWidth, pixelHeight: asset.pixelHeight } : {},
    tags: asset.tags,
    fileSize: asset.fileSize,
    fileVersion: asset.fileVersion,
    type: asset.type,
    isImage: asset.type === "Image",
    ...(asset.pixelWidth ? { pixelWidth: asset.pixelWidth, pixelHeight: asset.pixelHeight } : {}),
    created: asset.created,
    createdBy: asset.createdBy,
    lastModified: asset.lastModified,
    lastModifiedBy: asset.lastModifiedBy,
    version: asset.version,
    _links: { content: { href: `/api/assets/${appName}/${asset.id}/${asset.slug}`, method: "GET" } },
  };
}

async function apps(request: ApiRequest, method: string, rest: string[], by: Principal, ctx: SquidexHttpContext): Promise<ApiAnswer> {
  const { store, appName } = ctx;
  const [area, id] = rest;
  if (area === "schemas") return schemas(method, rest.slice(1), ctx);
  if (area === "assets" && id?.toLowerCase() === "folders") return assetFolders(request, method, rest.slice(2), by, ctx);
  if (area === "assets") {
    const sub = rest[2];
    if (rest.length > 3 || (sub !== undefined && (id === undefined || sub.toLowerCase() !== "parent"))) throw notFound(`No Squidex endpoint for ${method} apps/${appName}/${rest.join("/")}.`);
    if (id === undefined && method === "GET") {
      const url = new URL(request.url);
      const ids = url.searchParams.get("ids")?.split(",").filter(Boolean);
      if (ids) checkIds(ids);
      const parent = queryParam(url, "parentId");
      const { total, items } = await store.assets.list({ ids, ...(parent !== null ? { parentId: parentIdOf(parent) } : {}), ...pagingParams(url.searchParams) });
      return json({ total, items: items.map((a) => assetDto(a, appName)), _links: {} });
    }
    if (id === undefined && method === "POST") return uploadAsset(request, by, ctx);
    if (id !== undefined && sub !== undefined && method === "PUT") {
      // PUT assets/{id}/parent {parentId}: moves the asset.
      const body = await readJsonBody(request, ctx);
      if (!isPlainObject(body) || (body.parentId !== undefined && body.parentId !== null && typeof body.parentId !== "string")) throw badRequest('Send {"parentId": "<folder id>"}.');
      const asset = await store.assets.move(id, (body.parentId as string | null | undefined) ?? "", { expectedVersion: expectedVersion(request), by });
      return json(assetDto(asset, appName), 200, { ETag: `"${asset.version}"` });
    }
    if (id !== undefined && sub === undefined && method === "PUT") {
      // PUT assets/{id} {fileName, ...}: of the annotations, the file name is what this store keeps.
      const body = await readJsonBody(request, ctx);
      if (!isPlainObject(body)) throw badRequest('Send {"fileName": "<new name>"}.');
      const unsupported = ["slug", "metadata", "tags"].filter((key) => body[key] !== undefined && body[key] !== null);
      if (body.isProtected === true) unsupported.push("isProtected");
      if (unsupported.length) throw badRequest(`Changing ${unsupported.join(", ")} is not supported; send fileName.`);
      const opts = { expectedVersion: expectedVersion(request), by };
      const asset = body.fileName === undefined || body.fileName === null ? await store.assets.get(id) : await store.assets.rename(id, body.fileName as string, opts);
      if (!asset) throw notFound(`Asset "${id}" not found.`);
      return json(assetDto(asset, appName), 200, { ETag: `"${asset.version}"` });
    }
    if (id !== undefined && sub === undefined && method === "GET") {
      const asset = await store.assets.get(id);
      if (!asset) throw notFound(`Asset "${id}" not found.`);
      return json(assetDto(asset, appName));
    }
    if (id !== undefined && sub === undefined && method === "DELETE") {
      await store.assets.delete(id, { by });
      return empty(204);
    }
  }
  throw notFound(`No Squidex endpoint for ${method} apps/${appName}/${rest.join("/")}.`);
}

async function uploadAsset(request: ApiRequest, by: Principal, ctx: SquidexHttpContext): Promise<ApiAnswer> {
  // Refused before the body is read.
  authorize(by, "uploadAsset");
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) throw badRequest("Upload the file as multipart/form-data with a part named file.");
  // The multipart envelope adds a little to the file itself.
  const body = await request.readBody(ctx.assetLimit + 64 * 1024);
  const form = await new Response(new Uint8Array(body), { headers: { "content-type": type } }).formData().catch(() => {
    throw badRequest("The multipart body could not be read.");
  });
  const file = form.get("file");
  if (!file || typeof file === "string") throw badRequest("The upload has no part named file.");
  const url = new URL(request.url);
  // The folder: query `parentId` (the SDK sends `ParentId`) or a form field of either spelling.
  const field = form.get("parentId") ?? form.get("ParentId");
  const parentId = queryParam(url, "parentId") ?? (typeof field === "string" ? field : null);
  const asset = await ctx.store.assets.upload({
    fileName: file.name,
    mimeType: file.type || undefined,
    body: Buffer.from(await file.arrayBuffer()),
    id: url.searchParams.get("id") ?? undefined,
    parentId: parentIdOf(parentId),
    by,
  });
  return json(assetDto(asset, ctx.appName), 201, { Location: `/api/apps/${ctx.appName}/assets/${asset.id}`, ETag: `"${asset.version}"` });
}

function assetFolderDto(folder: AssetFolder, appName: string) {
  const href = `/api/apps/${appName}/assets/folders/${folder.id}`;
  return {
    id: folder.id,
    parentId: folder.parentId,
    folderName: folder.folderName,
    version: folder.version,
    _links: {
      update: { href, method: "PUT" },
      move: { href: `${href}/parent`, method: "PUT" },
      delete: { href, method: "DELETE" },
    },
  };
}

const FOLDER_SCOPES = ["All", "PathAndItems", "Path", "Items"] as const;

/**
 * Asset folders as Squidex serves them: GET/POST `assets/folders` (query `parentId`, `scope`),
 * PUT/DELETE `assets/folders/{id}`, PUT `assets/folders/{id}/parent`.
 */
async function assetFolders(request: ApiRequest, method: string, rest: string[], by: Principal, ctx: SquidexHttpContext): Promise<ApiAnswer> {
  const { store, appName } = ctx;
  const [id, sub, ...more] = rest;
  const written = (folder: AssetFolder, status = 200) =>
    json(assetFolderDto(folder, appName), status, {
      ETag: `"${folder.version}"`,
      ...(status === 201 ? { Location: `/api/apps/${appName}/assets/folders?parentId=${encodeURIComponent(folder.parentId)}` } : {}),
    });
  if (more.length || (sub !== undefined && sub.toLowerCase() !== "parent")) throw notFound(`No Squidex endpoint for ${method} assets/folders/${rest.join("/")}.`);
  if (id === undefined) {
    if (method === "GET") {
      const url = new URL(request.url);
      const parentId = parentIdOf(queryParam(url, "parentId"));
      const scopeParam = queryParam(url, "scope");
      const scope = scopeParam === null ? "PathAndItems" : FOLDER_SCOPES.find((s) => s.toLowerCase() === scopeParam.toLowerCase());
      if (!scope) throw badRequest(`scope must be one of ${FOLDER_SCOPES.join(", ")}.`);
      const [folders, path] = await Promise.all([
        scope === "Path" ? { total: 0, items: [] } : store.assets.listFolders(parentId),
        scope === "Items" ? [] : store.assets.folderPath(parentId),
      ]);
      const version = folders.items.reduce((sum, f) => sum + f.version + 1, folders.total);
      return json(
        { total: folders.total, items: folders.items.map((f) => assetFolderDto(f, appName)), path: path.map((f) => assetFolderDto(f, appName)), _links: {} },
        200,
        { ETag: `"${version}"` },
      );
    }
    if (method === "POST") {
      const body = await readJsonBody(request, ctx);
      if (!isPlainObject(body)) throw badRequest('Send {"folderName": "...", "parentId": "<folder id>"}.');
      if (body.parentId !== undefined && body.parentId !== null && typeof body.parentId !== "string") throw badRequest("parentId must be a string.");
      return written(await store.assets.createFolder({ folderName: body.folderName, parentId: body.parentId ?? undefined, by }), 201);
    }
    throw new ContentError(405, "Use GET or POST.");
  }
  const opts = { expectedVersion: expectedVersion(request), by };
  if (sub !== undefined) {
    if (method !== "PUT") throw new ContentError(405, "Use PUT to move a folder.");
    const body = await readJsonBody(request, ctx);
    if (!isPlainObject(body) || (body.parentId !== undefined && body.parentId !== null && typeof body.parentId !== "string")) throw badRequest('Send {"parentId": "<folder id>"}.');
    return written(await store.assets.moveFolder(id, body.parentId ?? "", opts));
  }
  if (method === "PUT") {
    const body = await readJsonBody(request, ctx);
    if (!isPlainObject(body)) throw badRequest('Send {"folderName": "..."}.');
    return written(await store.assets.renameFolder(id, body.folderName, opts));
  }
  if (method === "DELETE") {
    await store.assets.deleteFolder(id, opts);
    return empty(204);
  }
  throw new ContentError(405, "Use PUT or DELETE.");
}

async function assetContent(request: ApiRequest, id: string, ctx: SquidexHttpContext): Promise<ApiAnswer> {
  const asset = await ctx.store.assets.get(id);
  if (!asset) throw notFound(`Asset "${id}" not found.`);
  return empty(308, { Location: new URL(assetUrl(asset), request.url).href });
}
