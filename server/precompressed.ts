import { readdirSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { RequestHandler } from "express";
import { pickEncoding } from "./page-cache";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const TYPES: Record<string, string> = { ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8" };
/** A hashed build file's name: what the build writes into /assets (never a path). */
const ASSET = /^\/[A-Za-z0-9_.-]+\.(?:js|css)$/;

function listed(dir: string): ReadonlySet<string> {
  try {
    return new Set(readdirSync(dir));
  } catch {
    return new Set();
  }
}

interface Packed {
  type: string;
  br: Buffer;
  gzip: Buffer;
}

/**
 * The build's scripts and stylesheets, compressed once per process and kept (they are hashed and
 * never change), instead of once per request by the compression middleware: a visitor's or an
 * editor's first visit asks for 20–30 of them, and compressing each again cost the server's one
 * thread the time it needs to render pages. Anything else falls through to the static files.
 */
export function precompressedAssets(assetsDir: string): RequestHandler {
  const cache = new Map<string, Promise<Packed | null>>();
  // The build's files, listed once: only they are kept (a request for any other name is not, so
  // made-up names cannot fill the memory).
  let names: ReadonlySet<string> | undefined;
  const load = (name: string) => {
    names ??= listed(assetsDir);
    if (!names.has(name)) return Promise.resolve(null);
    let entry = cache.get(name);
    if (!entry) {
      entry = (async () => {
        try {
          const body = await fs.readFile(path.join(assetsDir, name));
          const [br, gz] = await Promise.all([brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }), gzip(body, { level: 9 })]);
          return { type: TYPES[path.extname(name)]!, br, gzip: gz };
        } catch {
          return null;
        }
      })();
      cache.set(name, entry);
    }
    return entry;
  };
  return (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || !ASSET.test(req.path)) return next();
    const encoding = pickEncoding(req.headers["accept-encoding"]);
    if (encoding === "identity") return next();
    load(req.path.slice(1)).then((packed) => {
      if (!packed) return next();
      const body = packed[encoding];
      res.setHeader("Content-Type", packed.type);
      res.setHeader("Content-Encoding", encoding);
      res.setHeader("Vary", "Accept-Encoding");
      res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
      res.setHeader("Content-Length", String(body.length));
      if (req.method === "HEAD") res.end();
      else res.end(body);
    }, next);
  };
}

/**
 * The theme's stylesheet (`/theme/{hash}.css`, made from the content: colours, fonts, classes used
 * in content) answered here for its current hash, compressed once per hash, ahead of the session
 * read, the route gate and React Router: it blocks every page's first paint, and through the whole
 * stack it took 15-45 ms a request instead of a few. Any other name (an older hash) falls through
 * to the route (app/routes/theme-css.ts), which answers the current sheet briefly cached.
 */
export function themeStylesheet(current: () => Promise<{ hash: string; css: string }>): RequestHandler {
  let packed: { hash: string; css: string; files: Promise<Packed> } | undefined;
  return (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || !/^\/theme\/[a-z0-9]{1,64}\.css$/.test(req.path)) return next();
    current().then(async (theme) => {
      if (req.path !== `/theme/${theme.hash}.css`) return next();
      if (packed?.hash !== theme.hash || packed.css !== theme.css) {
        const body = Buffer.from(theme.css);
        packed = {
          hash: theme.hash,
          css: theme.css,
          files: Promise.all([brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }), gzip(body, { level: 9 })]).then(([br, gz]) => ({ type: TYPES[".css"]!, br, gzip: gz, identity: body })),
        };
      }
      const files = (await packed.files) as Packed & { identity: Buffer };
      const encoding = pickEncoding(req.headers["accept-encoding"]);
      const body = encoding === "identity" ? files.identity : files[encoding];
      res.setHeader("Content-Type", files.type);
      if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
      res.setHeader("Vary", "Accept-Encoding");
      res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
      res.setHeader("ETag", `"${theme.hash}"`);
      res.setHeader("Content-Length", String(body.length));
      if (req.method === "HEAD") res.end();
      else res.end(body);
    }, next);
  };
}
