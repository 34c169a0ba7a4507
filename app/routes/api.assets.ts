import { Readable } from "node:stream";
import type { Route } from "./+types/api.assets";
import { errorResponse } from "~/lib/api.server";

/**
 * Asset content, public like Squidex's `/api/assets/{id}/{name}`. Served with its stored type, an
 * ETag from the file hash and a year of caching; SVGs get a sandboxing CSP so a script inside one
 * can never run on our origin.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  try {
    const asset = await context.services.store.assets.get(params.id);
    if (!asset) return Response.json({ message: `Asset "${params.id}" not found.`, statusCode: 404 }, { status: 404 });
    const etag = `"${asset.fileHash}"`;
    const headers = new Headers({
      ETag: etag,
      "Cache-Control": "public, max-age=31536000, immutable",
      "Last-Modified": new Date(asset.lastModified).toUTCString(),
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
    });
    if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
    const { stream } = await context.services.store.assets.open(asset.id);
    headers.set("Content-Type", asset.mimeType);
    headers.set("Content-Length", String(asset.fileSize));
    headers.set("Content-Disposition", `inline; filename*=UTF-8''${encodeURIComponent(asset.fileName)}`);
    return new Response(Readable.toWeb(stream) as ReadableStream, { status: 200, headers });
  } catch (error) {
    return errorResponse(error, context.requestId);
  }
}
