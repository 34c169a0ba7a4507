// `npm run bench`: speed and size of the public site, measured in one run against the production build.
// For each page: requests/s and p99 latency, next to the same server's requests/s for a static file
// of the same size (the ratio is the figure that matters), then the gzip size of the JavaScript a
// public page loads. Uses its own throw-away data dir and port. Then the "content at scale" section
// (bench/content-scale.mjs): the same site with a large store.
//
// `npm run bench -- --only=scale` (or BENCH_ONLY=scale) runs just that section, `--only=pages` just
// the first; BENCH_SCALE_SIZES="" skips the scale section.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import { buildIfNeeded } from "../scripts/build-if-needed.mjs";
import { runContentScale } from "./content-scale.mjs";

const root = path.resolve(import.meta.dirname, "..");
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const port = Number(process.env.BENCH_PORT ?? 3288);
const base = `http://127.0.0.1:${port}`;
const only = process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length) ?? process.env.BENCH_ONLY ?? "";
if (only && only !== "scale" && only !== "pages") throw new Error(`--only must be "pages" or "scale", not "${only}"`);

buildIfNeeded();
if (only !== "scale") await benchPages();
if (only !== "pages") await runContentScale();

async function benchPages() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-bench-"));
  const server = spawn(process.execPath, [path.join(root, "server.js")], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const staticDir = path.join(root, "build/client/__bench");

  async function waitForServer() {
    for (let i = 0; i < 200; i++) {
      const ok = await fetch(`${base}/healthz`).then((r) => r.ok).catch(() => false);
      if (ok) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error("server did not start");
  }

  function load(url) {
    return new Promise((resolve, reject) => {
      autocannon({ url, connections, duration: seconds, headers: { "accept-encoding": "gzip" } }, (err, result) => (err ? reject(err) : resolve(result)));
    });
  }

  const pages = [
    ["home page", "/"],
    ["content page", "/ueber-uns"],
    ["practitioner profile", "/practitioners/juergen-weiss"],
  ];

  try {
    await waitForServer();
    fs.mkdirSync(staticDir, { recursive: true });
    const rows = [];
    for (const [name, urlPath] of pages) {
      const html = await (await fetch(`${base}${urlPath}`)).text();
      const file = `${name.replace(/\W+/g, "-")}.html`;
      fs.writeFileSync(path.join(staticDir, file), html);
      await load(`${base}${urlPath}`); // warm-up round, not counted
      const page = await load(`${base}${urlPath}`);
      const still = await load(`${base}/__bench/${file}`);
      if (page.non2xx || still.non2xx) throw new Error(`${name}: non-2xx answers during the run`);
      rows.push({
        page: `${name} (${urlPath})`,
        "html KB": +(html.length / 1024).toFixed(1),
        "req/s": Math.round(page.requests.average),
        "p99 ms": page.latency.p99,
        "static req/s": Math.round(still.requests.average),
        "static p99 ms": still.latency.p99,
        ratio: +(page.requests.average / still.requests.average).toFixed(2),
      });
    }
    console.log(`\nThroughput: ${connections} connections, ${seconds} s per run, one run each (after one warm-up run)`);
    console.table(rows);

    const jsRows = [];
    for (const [name, urlPath] of [...pages, ["directory", "/practitioners"]]) {
      const html = await (await fetch(`${base}${urlPath}`)).text();
      const scripts = new Set([...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]));
      let raw = 0;
      let gzip = 0;
      for (const src of scripts) {
        const body = Buffer.from(await (await fetch(`${base}${src}`)).arrayBuffer());
        raw += body.length;
        gzip += gzipSync(body, { level: 9 }).length;
      }
      jsRows.push({ page: `${name} (${urlPath})`, files: scripts.size, "raw KB": +(raw / 1024).toFixed(1), "gzip KB": +(gzip / 1024).toFixed(1) });
    }
    console.log("\nJavaScript a public page loads (modulepreload + scripts, gzip -9):");
    console.table(jsRows);
    const rss = fs.readFileSync(`/proc/${server.pid}/status`, "utf8").match(/VmRSS:\s+(\d+) kB/)?.[1];
    if (rss) console.log(`\nServer memory after the runs: ${(Number(rss) / 1024).toFixed(0)} MB resident`);
    const worstRatio = Math.min(...rows.map((r) => r.ratio));
    const worstJs = Math.max(...jsRows.map((r) => r["gzip KB"]));
    console.log(`\nTargets: ratio >= 0.5 (worst ${worstRatio}), JavaScript <= 130 KB gzip (worst ${worstJs} KB)`);
  } finally {
    fs.rmSync(staticDir, { recursive: true, force: true });
    const exited = server.exitCode === null ? new Promise((r) => server.once("exit", r)) : null;
    server.kill("SIGTERM");
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
