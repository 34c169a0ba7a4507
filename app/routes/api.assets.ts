import fs from "node:fs";
import { Readable } from "node:stream";
import type { Route } from "./+types/api.assets";
import { VARIANT_WIDTHS } from "~/content/assets";
import { errorResponse, jsonResponse } from "~/lib/api.server";
import { etagMatches } from "~/lib/etag";

/**
 * Asset content, public like Squidex's `/api/assets/{id}/{name}`. Served with its stored type, an
 * ETag from the file hash and a year of caching; SVGs get a sandboxing CSP so a script inside one
 * can never run on our origin. `X-Content-Type-Options: nosniff` comes from helmet, as on every
 * answer of the server (server/app.ts); set here too, it went out twice. A protected asset (Squidex's
 * `isProtected`) is sent only to a signed-in person, never kept by shared caches.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  try {
    const asset = await context.services.store.assets.get(params.id);
    if (!asset) return jsonResponse({ message: `Asset "${params.id}" not found.`, statusCode: 404 }, { status: 404 });
    if (asset.isProtected && !context.user) return jsonResponse({ message: "This file is protected: sign in to see it.", statusCode: 403 }, { status: 403, headers: { "Cache-Control": "private, no-store" } });
    const headers = new Headers({
      ETag: `"${asset.fileHash}"`,
      "Cache-Control": asset.isProtected ? "private, no-store" : "public, max-age=31536000, immutable",
      "Last-Modified": new Date(asset.lastModified).toUTCString(),
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
    });
    const widthParam = new URL(request.url).searchParams.get("width");
    const width = widthParam === null ? null : Number(widthParam);
    if (width !== null && !(/^\d{1,5}$/.test(widthParam!) && VARIANT_WIDTHS.includes(width)))
      return jsonResponse({ message: `width must be one of ${VARIANT_WIDTHS.join(", ")}.`, statusCode: 400 }, { status: 400 });
    if (width !== null) headers.set("ETag", `"${asset.fileHash}-w${width}"`);
    if (etagMatches(request.headers.get("if-none-match"), headers.get("ETag")!)) return new Response(null, { status: 304, headers });
    let stream: NodeJS.ReadableStream;
    if (width !== null) {
      const variant = await context.services.store.assets.variant(asset.id, width);
      stream = fs.createReadStream(variant.file);
      headers.set("Content-Length", String(variant.size));
    } else {
      stream = (await context.services.store.assets.open(asset.id)).stream;
      headers.set("Content-Length", String(asset.fileSize));
    }
    headers.set("Content-Type", asset.mimeType);
    headers.set("Content-Disposition", `inline; filename*=UTF-8''${encodeURIComponent(asset.fileName)}`);
    return new Response(Readable.toWeb(stream as Readable) as ReadableStream, { status: 200, headers });
  } catch (error) {
    return errorResponse(error, context.requestId);
  }
}
