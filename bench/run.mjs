// `npm run bench`: speed and size of the public site, measured in one run against the production build.
// For each page: requests/s and p99 latency of the cached page, next to the machine's limit — a bare
// Node server answering the same bytes compressed once (bench/bare-server.mjs; the ratio is the
// figure that matters) — and what a cache miss costs (rendering and compression), then the gzip size
// of the JavaScript a public page loads. Uses its own throw-away data dir and port. Then the "content at scale" section
// (bench/content-scale.mjs): the same site with a large store.
//
// `npm run bench -- --only=scale` (or BENCH_ONLY=scale) runs just that section, `--only=pages` just
// the first, `--only=forms` the visitor flows (bench/forms.mjs), `--only=auth` the password check for
// unknown addresses and wrong passwords (bench/auth.mjs), `--only=writes` the write path at size
// (bench/write-path.mjs: create, update, publish and their bulk forms, demo store and 100 000 side by side),
// `--only=hostile` how long hostile queries hold the event loop (bench/hostile-queries.mjs),
// `--only=analytics` how many analytics events a second POST /api/event takes and writes (bench/analytics.mjs);
// BENCH_SCALE_SIZES="" skips the scale section, BENCH_WRITE_SIZES="" the write path.
//
// Not part of this run: `npm run bench:editor` (bench/editor/run.mjs) measures the visual page
// editor (`/{slug}?edit=1`) side by side with Puck 0.23 at 20 and 200 blocks, in a headless
// Chromium: opening until the last block shows and the editor is interactive, a keystroke until the
// canvas shows it, duplicate, delete, move, undo, a long drag (frames per second, and release until
// the drop is committed), long tasks per action, and the editor page's JavaScript (gzip). Prints
// JSON with p50/p95 per figure and the ratios; BENCH_EDITOR_ONLY=puck|ours runs one side,
// BENCH_EDITOR_REPS the repetitions (default 10). See the header of bench/editor/run.mjs.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import { buildIfNeeded } from "../scripts/build-if-needed.mjs";
import { runContentScale } from "./content-scale.mjs";
import { runAuth } from "./auth.mjs";
import { runForms } from "./forms.mjs";
import { runWritePath } from "./write-path.mjs";
import { runHostileQueries } from "./hostile-queries.mjs";
import { runAnalytics } from "./analytics.mjs";

const root = path.resolve(import.meta.dirname, "..");
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const port = Number(process.env.BENCH_PORT ?? 3288);
const base = `http://127.0.0.1:${port}`;
const only = process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length) ?? process.env.BENCH_ONLY ?? "";
const SECTIONS = ["pages", "scale", "forms", "auth", "writes", "hostile", "analytics"];
if (only && !SECTIONS.includes(only)) throw new Error(`--only must be one of ${SECTIONS.map((s) => `"${s}"`).join(", ")}, not "${only}"`);

buildIfNeeded();
if (!only || only === "pages") await benchPages();
if (!only || only === "scale") await runContentScale();
if (!only || only === "forms") await runForms();
if (!only || only === "auth") await runAuth();
if (!only || only === "writes") await runWritePath();
if (!only || only === "hostile") await runHostileQueries();
if (!only || only === "analytics") await runAnalytics();

async function benchPages() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-bench-"));
  const startApp = () =>
    spawn(process.execPath, [path.join(root, "server.js")], {
      cwd: root,
      env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn" },
      stdio: ["ignore", "inherit", "inherit"],
    });
  const stopApp = async (proc) => {
    const exited = proc.exitCode === null ? new Promise((r) => proc.once("exit", r)) : null;
    proc.kill("SIGTERM");
    await exited;
  };
  // The first start creates and seeds the store; the second, measured, opens the existing one.
  let server = startApp();
  const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-bare-"));
  const barePort = port + 1;
  let bare;

  async function waitFor(urlPath) {
    for (let i = 0; i < 2000; i++) {
      const ok = await fetch(`${base}${urlPath}`).then((r) => r.ok).catch(() => false);
      if (ok) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`server did not answer ${urlPath}`);
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
    ["directory", "/practitioners"],
  ];

  /** Sequential requests the page cache cannot answer (a new query string each): rendering + compression. */
  async function missCost(urlPath) {
    const times = [];
    for (let i = 0; i < 40; i++) {
      const t = performance.now();
      const res = await fetch(`${base}${urlPath}${urlPath.includes("?") ? "&" : "?"}bench-miss=${i}`, { headers: { "accept-encoding": "gzip" } });
      await res.arrayBuffer();
      if (res.headers.get("x-page-cache") !== "miss") throw new Error(`${urlPath}: expected a cache miss`);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    return +times[times.length >> 1].toFixed(1);
  }

  try {
    await waitFor("/healthz");
    await stopApp(server);
    const started = performance.now();
    server = startApp();
    await waitFor("/healthz");
    const healthMs = performance.now() - started;
    await waitFor("/readyz");
    const readyMs = performance.now() - started;
    console.log(`\nStart on an existing store (process spawn included): /healthz 200 after ${healthMs.toFixed(0)} ms (target <= 800), /readyz 200 (renderer loaded, critical pages and theme CSS warm) after ${readyMs.toFixed(0)} ms`);
    const rows = [];
    const htmls = [];
    for (const [name, urlPath] of pages) {
      const html = await (await fetch(`${base}${urlPath}`)).text();
      htmls.push(html);
      fs.writeFileSync(path.join(staticDir, `${name.replace(/\W+/g, "-")}.html`), html);
    }
    bare = spawn(process.execPath, [path.join(root, "bench/bare-server.mjs"), String(barePort), staticDir], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise((resolve, reject) => {
      bare.stdout.once("data", resolve);
      bare.once("exit", () => reject(new Error("the bare server did not start")));
    });
    for (const [i, [name, urlPath]] of pages.entries()) {
      const file = `${name.replace(/\W+/g, "-")}.html`;
      const cached = await fetch(`${base}${urlPath}`, { headers: { "accept-encoding": "gzip" } });
      await cached.arrayBuffer();
      if (cached.headers.get("x-page-cache") !== "hit") throw new Error(`${name}: not served from the page cache`);
      await load(`${base}${urlPath}`); // warm-up round, not counted
      const page = await load(`${base}${urlPath}`);
      const limit = await load(`http://127.0.0.1:${barePort}/${file}`);
      if (page.non2xx || limit.non2xx) throw new Error(`${name}: non-2xx answers during the run`);
      rows.push({
        page: `${name} (${urlPath})`,
        "html KB": +(Buffer.byteLength(htmls[i]) / 1024).toFixed(1),
        "gzip KB": +(gzipSync(htmls[i], { level: 9 }).length / 1024).toFixed(1),
        "cached req/s": Math.round(page.requests.average),
        "p99 ms": page.latency.p99,
        "bare node req/s": Math.round(limit.requests.average),
        "bare p99 ms": limit.latency.p99,
        ratio: +(page.requests.average / limit.requests.average).toFixed(2),
        "miss ms p50": await missCost(urlPath),
      });
    }
    console.log(`\nCached pages against the machine's limit: ${connections} connections, ${seconds} s per run, one run each (after one warm-up run); miss: 40 sequential uncached requests`);
    console.table(rows);

    const jsRows = [];
    for (const [name, urlPath] of pages) {
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
    bare?.kill();
    fs.rmSync(staticDir, { recursive: true, force: true });
    await stopApp(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
