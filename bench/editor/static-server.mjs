// A minimal static file server for the built Puck page: gzip (level 6, as the `compression`
// middleware does by default) for text files when the client accepts it, compressed once per file.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { gzipSync } from "node:zlib";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".woff2": "font/woff2",
};
const COMPRESSIBLE = new Set([".html", ".js", ".css", ".svg", ".json"]);

/**
 * Serves `dir` on 127.0.0.1:`port`; resolves to the server once it listens. With `fallback`,
 * paths without a file get index.html (a single-page app).
 */
export function serveStatic(dir, port, { fallback = false } = {}) {
  const cache = new Map();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    // The page a benchmark opens the editor from (driver.mjs openOnce): same site, loads nothing.
    if (url.pathname === "/start.txt") {
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-cache" }).end("start");
      return;
    }
    let rel = decodeURIComponent(url.pathname);
    if (rel.endsWith("/")) rel += "index.html";
    let file = path.join(dir, path.normalize(rel).replace(/^(\.\.[/\\])+/, ""));
    const exists = (f) => f.startsWith(dir) && fs.existsSync(f) && fs.statSync(f).isFile();
    if (!exists(file) && fallback && !path.extname(file)) file = path.join(dir, "index.html");
    if (!exists(file)) {
      res.writeHead(404).end("not found");
      return;
    }
    const ext = path.extname(file);
    const gzip = COMPRESSIBLE.has(ext) && /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
    const key = `${file}|${gzip}`;
    let body = cache.get(key);
    if (!body) {
      body = fs.readFileSync(file);
      if (gzip) body = gzipSync(body, { level: 6 });
      cache.set(key, body);
    }
    res.writeHead(200, {
      "content-type": TYPES[ext] ?? "application/octet-stream",
      "content-length": body.length,
      "cache-control": "no-cache",
      ...(gzip ? { "content-encoding": "gzip", vary: "accept-encoding" } : {}),
    });
    res.end(req.method === "HEAD" ? undefined : body);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}
