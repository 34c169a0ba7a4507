import fs from "node:fs";
import fsp from "node:fs/promises";
import { ContentError, badRequest, notFound } from "../errors";
import { imageOptions, resizedFile } from "../asset-resize";
import { etagMatches } from "../../lib/etag";
import { checkIds, pagingParams, parseQuery } from "../query";
import { parseODataFilter } from "../odata";
import type { Asset, FilterNode } from "../types";
import { ASSET_SORT_COLUMNS, parentIdOf, type AssetFolder, type AssetSort } from "../assets";
import { isPlainObject } from "../validate";
import { authorize, type Principal } from "../policy";
import { downloadPublicFile } from "../remote-file.server";
import { empty, expectedVersion, json, notImplemented, queryParam, readJsonBody, type ApiAnswer, type ApiRequest, type SquidexHttpContext } from "./respond";
import { assetBulk } from "./asset-bulk";

/**
 * Assets as Squidex serves them: `api/apps/{app}/assets` (list, metadata, upload, annotate, move,
 * a new file, upsert, delete, bulk jobs in asset-bulk.ts), asset folders (`.../assets/folders`),
 * tags (`.../assets/tags`), and the content `api/assets/{app}/{idOrSlug}` (public unless the asset
 * is protected).
 */

export function assetDto(asset: Asset, appName: string) {
  const size = asset.pixelWidth && asset.pixelHeight ? `${asset.pixelWidth}x${asset.pixelHeight}px, ` : "";
  return {
    id: asset.id,
    parentId: asset.parentId,
    fileName: asset.fileName,
    fileHash: asset.fileHash,
    isProtected: asset.isProtected,
    slug: asset.slug,
    mimeType: asset.mimeType,
    fileType: asset.fileName.includes(".") ? asset.fileName.split(".").pop()!.toLowerCase() : "blob",
    metadataText: `${size}${Math.max(1, Math.round(asset.fileSize / 1024))} kB`,
    metadata: { ...(asset.pixelWidth ? { pixelWidth: asset.pixelWidth, pixelHeight: asset.pixelHeight } : {}), ...asset.metadata },
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

/** Longer than any file name search a person types. */
const MAX_ASSET_SEARCH = 200;

/**
 * The asset list as Squidex answers it: full text (`$search`, or `fullText` in the JSON query `q`:
 * the file name contains it, any case), sorting (`$orderby`, or `sort` in `q`: file name, size,
 * type, created, last modified, version), `$top`/`$skip` (or `take`/`skip`), a folder, ids, and a
 * filter (`$filter`, `filter` in `q`) on the asset's fields (app/content/asset-filter.ts).
 */
async function listAssets(ask: { ids?: string[] | undefined; parentId: string | null; params: URLSearchParams }, ctx: SquidexHttpContext): Promise<ApiAnswer> {
  const { params } = ask;
  if (ask.ids) checkIds(ask.ids);
  const filters: FilterNode[] = [];
  const odata = params.get("$filter");
  if (odata !== null && odata.trim() !== "") filters.push(parseODataFilter(odata));
  // Squidex's JSON query (`q`): its full text, filter, sort, take and skip.
  let json_: Record<string, unknown> = {};
  const q = params.get("q");
  if (q !== null && q.trim() !== "") {
    try {
      json_ = JSON.parse(q) as Record<string, unknown>;
    } catch {
      throw badRequest('"q" must be a JSON query, e.g. {"fullText": "logo", "sort": [{"path": "fileName", "order": "ascending"}], "take": 10}.');
    }
    if (!isPlainObject(json_)) throw badRequest('"q" must be a JSON object.');
    if (json_.filter !== undefined && json_.filter !== null) filters.push(parseQuery({ filter: json_.filter }).filter!);
  }
  const text = json_.fullText ?? params.get("$search") ?? "";
  if (typeof text !== "string") throw badRequest('"fullText" must be a text.');
  const search = text.trim();
  if (search.length > MAX_ASSET_SEARCH || /[\u0000-\u001f]/.test(search)) throw badRequest(`Search at most ${MAX_ASSET_SEARCH} characters of a file name.`);
  const sort: AssetSort[] = [];
  const sortBy = (field: unknown, descending: boolean, shown: string) => {
    if (typeof field !== "string" || !Object.hasOwn(ASSET_SORT_COLUMNS, field)) throw badRequest(`Sort assets by ${Object.keys(ASSET_SORT_COLUMNS).join(", ")} (asc or desc), not "${shown.slice(0, 50)}".`);
    sort.push({ field: field as AssetSort["field"], descending });
  };
  if (json_.sort !== undefined) {
    if (!Array.isArray(json_.sort)) throw badRequest('"sort" must be a list of {"path": …, "order": "ascending" | "descending"}.');
    for (const s of json_.sort) sortBy(isPlainObject(s) ? s.path : undefined, isPlainObject(s) && s.order === "descending", JSON.stringify(s) ?? "");
  }
  for (const term of (params.get("$orderby") ?? "").split(",").map((t) => t.trim()).filter(Boolean)) {
    const match = /^([A-Za-z]+)(?:\s+(asc|desc))?$/i.exec(term);
    sortBy(match?.[1], match?.[2]?.toLowerCase() === "desc", term);
  }
  if (sort.length > 3) throw badRequest("Sort assets by at most 3 keys.");
  for (const [key, param] of [["take", "$top"], ["skip", "$skip"]] as const) {
    const value = json_[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0) throw badRequest(`"${key}" must be a whole number.`);
    if (!params.has(param)) params.set(param, String(value));
  }
  const { total, items } = await ctx.store.assets.list({
    ...(ask.ids ? { ids: ask.ids } : {}),
    ...(ask.parentId !== null ? { parentId: parentIdOf(ask.parentId) } : {}),
    ...(search ? { search } : {}),
    ...(filters.length ? { where: filters.length === 1 ? filters[0]! : { and: filters } } : {}),
    sort,
    ...pagingParams(params),
  });
  return json({ total, items: items.map((a) => assetDto(a, ctx.appName)), _links: {} });
}

export async function assets(request: ApiRequest, method: string, rest: string[], by: Principal, ctx: SquidexHttpContext): Promise<ApiAnswer> {
  const { store, appName } = ctx;
  const [area, id] = rest;
  if (area === "assets" && id?.toLowerCase() === "folders") return assetFolders(request, method, rest.slice(2), by, ctx);
  if (area === "assets" && id?.toLowerCase() === "tags") return assetTags(request, method, rest.slice(2), by, ctx);
  if (area === "assets") {
    const sub = rest[2]?.toLowerCase();
    if (rest.length > 3 || (sub !== undefined && (id === undefined || (sub !== "parent" && sub !== "content")))) throw notFound(`No Squidex endpoint for ${method} apps/${appName}/${rest.join("/")}.`);
    if (id === undefined && method === "GET") {
      const url = new URL(request.url);
      const ids = url.searchParams.get("ids")?.split(",").filter(Boolean);
      const parent = queryParam(url, "parentId");
      return listAssets({ ids, parentId: parent, params: url.searchParams }, ctx);
    }
    if (id?.toLowerCase() === "query" && sub === undefined && method === "POST") {
      // POST assets/query {q, ids, parentId, oData}: the same list, asked with a body.
      const body = await readJsonBody(request, ctx);
      if (!isPlainObject(body)) throw badRequest('Send {"q": "...", "oData": "$top=10&$orderby=fileName"}.');
      if (body.ids !== undefined && body.ids !== null && (!Array.isArray(body.ids) || !body.ids.every((i) => typeof i === "string"))) throw badRequest('"ids" must be an array of strings.');
      if (body.parentId !== undefined && body.parentId !== null && typeof body.parentId !== "string") throw badRequest('"parentId" must be a folder id.');
      const odata = body.oData ?? body.odata;
      if (odata !== undefined && odata !== null && typeof odata !== "string") throw badRequest('"oData" must be a string of OData query options.');
      const params = new URLSearchParams(typeof odata === "string" ? odata.replace(/^\?/, "") : "");
      // `q` is Squidex's JSON query (an object here, a JSON text in a URL).
      if (body.q !== undefined && body.q !== null) params.set("q", typeof body.q === "string" ? body.q : JSON.stringify(body.q));
      return listAssets({ ids: (body.ids as string[] | null | undefined) ?? undefined, parentId: (body.parentId as string | null | undefined) ?? null, params }, ctx);
    }
    if (id === undefined && method === "POST") return uploadAsset(request, by, ctx);
    // POST assets/bulk {jobs, continueOnError}: Annotate, Move and Delete jobs (asset-bulk.ts).
    if (id?.toLowerCase() === "bulk" && sub === undefined && method === "POST") return json(await assetBulk(await readJsonBody(request, ctx), by, store));
    if (id !== undefined && sub === "content" && method === "PUT") {
      // PUT assets/{id}/content: a new file for the asset (multipart part `file`).
      authorize(by, "changeAsset");
      const { file, body } = await readFilePart(request, ctx);
      const asset = await store.assets.replaceContent(id, { fileName: file.name, mimeType: file.type || undefined, body, expectedVersion: expectedVersion(request), by });
      return json(assetDto(asset, appName), 200, { ETag: `"${asset.version}"` });
    }
    if (id !== undefined && sub === undefined && method === "POST") {
      // POST assets/{id}: Squidex's upsert, a new asset under this id or a new file for it; 200 either way, as in Squidex.
      authorize(by, "uploadAsset");
      const { file, body, form } = await readFilePart(request, ctx);
      const parentId = parentOf(request, form);
      const { asset } = await store.assets.upsert(id, {
        fileName: file.name,
        mimeType: file.type || undefined,
        body,
        ...(parentId !== null ? { parentId: parentIdOf(parentId) } : {}),
        expectedVersion: expectedVersion(request),
        by,
      });
      return json(assetDto(asset, appName), 200, { ETag: `"${asset.version}"` });
    }
    if (id !== undefined && sub === "parent" && method === "PUT") {
      // PUT assets/{id}/parent {parentId}: moves the asset.
      const body = await readJsonBody(request, ctx);
      if (!isPlainObject(body) || (body.parentId !== undefined && body.parentId !== null && typeof body.parentId !== "string")) throw badRequest('Send {"parentId": "<folder id>"}.');
      const asset = await store.assets.move(id, (body.parentId as string | null | undefined) ?? "", { expectedVersion: expectedVersion(request), by });
      return json(assetDto(asset, appName), 200, { ETag: `"${asset.version}"` });
    }
    if (id !== undefined && sub === undefined && method === "PUT") {
      // PUT assets/{id} {fileName, slug, tags, metadata, isProtected}: Squidex's annotation; what is left out stays.
      const body = await readJsonBody(request, ctx);
      if (!isPlainObject(body)) throw badRequest('Send {"fileName": "<new name>", "slug": "…", "tags": ["…"], "metadata": {"…": "…"}, "isProtected": false}.');
      const { fileName, slug, tags, metadata, isProtected } = body;
      const asset = await store.assets.annotate(id, { fileName, slug, tags, metadata, isProtected }, { expectedVersion: expectedVersion(request), by });
      return json(assetDto(asset, appName), 200, { ETag: `"${asset.version}"` });
    }
    if (id !== undefined && sub === undefined && method === "GET") {
      const asset = await store.assets.get(id);
      if (!asset) throw notFound(`Asset "${id}" not found.`);
      return json(assetDto(asset, appName));
    }
    if (id !== undefined && sub === undefined && method === "DELETE") {
      await store.assets.delete(id, { expectedVersion: expectedVersion(request), by });
      return empty(204);
    }
  }
  throw notFound(`No Squidex endpoint for ${method} apps/${appName}/${rest.join("/")}.`);
}

/**
 * The file of a multipart request (the part `file`), for an upload, a new file and an upsert alike;
 * the caller asks the policy first, so a refused writer's body is never read. No multipart body, or
 * none with that part, is a 400; a `url` part instead is downloaded (see below).
 */
async function readFilePart(request: ApiRequest, ctx: SquidexHttpContext): Promise<{ file: File; body: Buffer; form: FormData }> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) throw badRequest("Send the file as multipart/form-data with a part named file.");
  // The multipart envelope adds a little to the file itself.
  const raw = await request.readBody(ctx.assetLimit + 64 * 1024);
  const form = await new Response(new Uint8Array(raw), { headers: { "content-type": type } }).formData().catch(() => {
    throw badRequest("The multipart body could not be read.");
  });
  const file = form.get("file");
  const url = form.get("url");
  // Squidex downloads a `url` part itself (with `name` as the file name): so does this service, from
  // public addresses only (remote-file.server.ts), up to the asset limit.
  if ((!file || typeof file === "string") && typeof url === "string") {
    const got = await downloadPublicFile(url, { limit: ctx.assetLimit, allowHosts: ctx.downloadAllowHosts });
    const named = form.get("name");
    const fileName = typeof named === "string" && named.trim() ? named.trim() : got.fileName;
    return { file: new File([new Uint8Array(got.body)], fileName, { type: got.mimeType ?? "" }), body: got.body, form };
  }
  if (!file || typeof file === "string") throw badRequest("The request has no part named file.");
  return { file, body: Buffer.from(await file.arrayBuffer()), form };
}

/** The folder a file goes into: query `parentId` (the SDK sends `ParentId`) or a form field of either spelling; null when none is named. */
function parentOf(request: ApiRequest, form: FormData): string | null {
  const field = form.get("parentId") ?? form.get("ParentId");
  return queryParam(new URL(request.url), "parentId") ?? (typeof field === "string" ? field : null);
}

async function uploadAsset(request: ApiRequest, by: Principal, ctx: SquidexHttpContext): Promise<ApiAnswer> {
  // Refused before the body is read.
  authorize(by, "uploadAsset");
  const { file, body, form } = await readFilePart(request, ctx);
  const asset = await ctx.store.assets.upload({
    fileName: file.name,
    mimeType: file.type || undefined,
    body,
    id: new URL(request.url).searchParams.get("id") ?? undefined,
    parentId: parentIdOf(parentOf(request, form)),
    by,
  });
  return json(assetDto(asset, ctx.appName), 201, { Location: `/api/apps/${ctx.appName}/assets/${asset.id}`, ETag: `"${asset.version}"` });
}

/**
 * Asset tags as Squidex serves them: GET `assets/tags` (each tag with how many assets have it) and
 * PUT `assets/tags/{name}` `{"tagName": "…"}` (renames it on every asset; answers the tags then).
 */
async function assetTags(request: ApiRequest, method: string, rest: string[], by: Principal, ctx: SquidexHttpContext): Promise<ApiAnswer> {
  const [name, ...more] = rest;
  if (more.length) throw notFound(`No Squidex endpoint for ${method} assets/tags/${rest.join("/")}.`);
  if (name === undefined) {
    if (method !== "GET") throw new ContentError(405, "Use GET for the tags; PUT assets/tags/{name} renames one.");
    return json(await ctx.store.assets.tagCounts());
  }
  if (method !== "PUT") throw new ContentError(405, 'Use PUT with {"tagName": "<new name>"} to rename a tag.');
  // Refused before the body is read.
  authorize(by, "changeAsset");
  const body = await readJsonBody(request, ctx);
  if (!isPlainObject(body)) throw badRequest('Send {"tagName": "<new name>"}.');
  await ctx.store.assets.renameTag(name, body.tagName, { by });
  return json(await ctx.store.assets.tagCounts());
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

/**
 * An asset's bytes, public as in Squidex for unprotected assets: `api/assets/{app}/{idOrSlug}` (and
 * the older `api/assets/{id}`), with Squidex's image options (width, height, mode, quality, format;
 * app/content/asset-resize.ts), `download=1` for an attachment, `version` for the current version
 * (the only one kept). An SVG is sent as it is, sandboxed. A protected asset is sent only to a
 * client token or a signed-in person (`who`, asked only then), never kept by shared caches.
 */
export async function assetContent(request: ApiRequest, id: string, ctx: SquidexHttpContext, who: () => Promise<Principal | null>, again = false): Promise<ApiAnswer> {
  const asset = await ctx.store.assets.getByIdOrSlug(id);
  if (!asset) throw notFound(`Asset "${id}" not found.`);
  if (asset.isProtected && !(await who())) throw new ContentError(403, "This file is protected: send a bearer token (POST identity-server/connect/token) or sign in.", undefined, "FORBIDDEN");
  const url = new URL(request.url);
  const version = queryParam(url, "version");
  if (version !== null && version !== "" && version !== String(asset.version)) {
    if (!/^\d{1,9}$/.test(version)) throw badRequest("version must be a whole number.");
    throw notFound(`Version ${version} of asset "${id}" is not kept: only the current one (${asset.version}) is.`);
  }
  const image = imageOptions(url.searchParams);
  const tag = image ? `${asset.fileHash}-${[image.width ?? "", image.height ?? "", image.mode, image.quality ?? "", image.format ?? ""].join(".")}` : asset.fileHash;
  const headers: Record<string, string> = {
    ETag: `"${tag}"`,
    "Cache-Control": asset.isProtected ? "private, no-store" : "public, max-age=31536000, immutable",
    "Last-Modified": new Date(asset.lastModified).toUTCString(),
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
    "Content-Disposition": `${queryParam(url, "download") === "1" ? "attachment" : "inline"}; filename*=UTF-8''${encodeURIComponent(asset.fileName)}`,
  };
  if (etagMatches(request.headers.get("if-none-match"), headers.ETag!)) return { status: 304, headers, body: null };
  const original = ctx.store.assets.filePath(asset);
  let chosen: { file: string; mimeType: string; temporary: boolean };
  let body: Buffer;
  try {
    chosen = image ? await resizedFile(asset, original, image) : { file: original, mimeType: asset.mimeType, temporary: false };
    body = await fsp.readFile(chosen.file);
  } catch (e) {
    // A new file came meanwhile and the one read of has gone: once more, with the asset as it is now.
    if (!again && !fs.existsSync(original)) return assetContent(request, id, ctx, who, true);
    throw e;
  }
  if (chosen.temporary) await fsp.rm(chosen.file, { force: true });
  return { status: 200, headers: { ...headers, "Content-Type": chosen.mimeType }, body };
}
