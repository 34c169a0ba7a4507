// The machine's limit for serving a page: a bare Node `http` server answering each path with bytes
// compressed once in advance (gzip -9), no framework, no middleware. `npm run bench` compares the
// app's cached pages with it. Usage: node bench/bare-server.mjs <port> <dir with *.html files>
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { gzipSync } from "node:zlib";

const [port, dir] = process.argv.slice(2);
const pages = new Map();
for (const file of fs.readdirSync(dir)) {
  if (!file.endsWith(".html")) continue;
  pages.set(`/${file}`, gzipSync(fs.readFileSync(path.join(dir, file)), { level: 9 }));
}
http
  .createServer((req, res) => {
    const body = pages.get(req.url);
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-encoding": "gzip", "content-length": body.length });
    res.end(body);
  })
  .listen(Number(port), "127.0.0.1", () => console.log("ready"));
