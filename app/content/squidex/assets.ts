import { ContentError, badRequest, notFound } from "../errors";
import { assetUrl } from "../public-api";
import { checkIds, pagingParams } from "../query";
import type { Asset } from "../types";
import { parentIdOf, type AssetFolder } from "../assets";
import { isPlainObject } from "../validate";
import { authorize, type Principal } from "../policy";
import { empty, expectedVersion, json, queryParam, readJsonBody, type ApiAnswer, type ApiRequest, type SquidexHttpContext } from "./respond";

/**
 * Assets as Squidex serves them: `api/apps/{app}/assets` (list, metadata, upload, rename, move,
 * delete), asset folders (`.../assets/folders`), and the public content `api/assets/{app}/{id}`.
 */

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

export async function assets(request: ApiRequest, method: string, rest: string[], by: Principal, ctx: SquidexHttpContext): Promise<ApiAnswer> {
  const { store, appName } = ctx;
  const [area, id] = rest;
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

export async function assetContent(request: ApiRequest, id: string, ctx: SquidexHttpContext): Promise<ApiAnswer> {
  const asset = await ctx.store.assets.get(id);
  if (!asset) throw notFound(`Asset "${id}" not found.`);
  return empty(308, { Location: new URL(assetUrl(asset), request.url).href });
}
