// Hostile queries: how long one request may hold the server's event loop. For the demo store and a
// store of BENCH_HOSTILE_SIZE practitioners (default 100000; "0" skips it), each query below is sent
// BENCH_HOSTILE_REPEAT (5) times, one at a time, through POST /api/rest as a visitor (past the read
// cache), while a probe asks /healthz every 5 ms; the table gives each query's answer, its median time
// and the slowest /healthz seen meanwhile: the time the event loop was held up, give or take the probe's
// own round trip (the "idle" row). Target: at most ~50 ms for every row. The tests hold the server to a
// far looser bound (EVENT_LOOP_BOUND_MS, 1.5 s), which a busy machine cannot fail.
//
// Run alone: `npm run bench -- --only=hostile` (or node bench/hostile-queries.mjs, which builds first).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fillSqlite, startServer } from "./content-scale.mjs";

const many = (n, make) => Array.from({ length: n }, (_, i) => make(i));
const q = (collection, query) => `${collection}?q=${encodeURIComponent(JSON.stringify(query))}`;
const odata = (collection, filter) => `${collection}?$filter=${encodeURIComponent(filter)}`;
const P = "gm-content-practitioners";

/** [name, url]: refused by a limit (400), then at the limits, then ordinary heavy reads of a large store. */
const QUERIES = [
  ["$orderby 5 000 keys (400)", `core-pages?$orderby=${many(5000, () => "id").join(",")}`],
  ["q.sort 500 keys (400)", q("core-pages", { sort: many(500, () => ({ path: "id" })) })],
  ["OData 500 conditions (400)", odata(P, many(500, (i) => `id eq '${i}'`).join(" or "))],
  ["q in 800 values (400)", q(P, { filter: { path: "id", op: "in", value: many(800, (i) => `${i}`) } })],
  ["3 000 ids (400)", `${P}?ids=${many(3000, (i) => `i${i}`).join(",")}`],
  ["$orderby 5 keys (visitor: 400)", `${P}?$orderby=${many(5, (i) => ["data/name/iv desc", "data/city/iv", "id", "created desc", "lastModified"][i % 5]).join(",")}`],
  ["$orderby 1 key (name)", `${P}?$orderby=data/name/iv desc`],
  ["$orderby 1 key (city)", `${P}?$orderby=data/city/iv`],
  ["$orderby 2 keys (visitor: 400)", `${P}?$orderby=data/city/iv,data/name/iv desc`],
  ["q in 500 values", q(P, { filter: { path: "data.city.iv", op: "in", value: many(500, (i) => `Stadt ${i}`) } })],
  ["OData 256 conditions", odata(P, many(256, (i) => `data/city/iv eq '${i}'`).join(" or "))],
  ["$search 16 words", `${P}?$search=${many(16, (i) => `wo${i}rt`).join("%20")}`],
  ["$search 1 word", `${P}?$search=berlin`],
  ["contains(name)", odata(P, "contains(data/name/iv, 'mü')")],
  ["500 ids", `${P}?ids=${many(500, (i) => `i${i}`).join(",")}`],
  ["$orderby name, $skip deep (visitor: 400)", `${P}?$orderby=data/name/iv desc&$skip=90000&$top=200`],
  ["$orderby name, $skip 10 000 (visitor's most)", `${P}?$orderby=data/name/iv desc&$skip=10000&$top=200`],
  ["$orderby name, deep page by filter", `${P}?$orderby=data/name/iv desc&$filter=${encodeURIComponent("data/name/iv lt 'B'")}&$top=200`],
];

async function probeWhile(base, work) {
  let running = true;
  let worst = 0;
  const probe = (async () => {
    while (running) {
      const t = performance.now();
      await (await fetch(`${base}/healthz`)).arrayBuffer();
      worst = Math.max(worst, performance.now() - t);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  try {
    return { result: await work(), worst };
  } finally {
    running = false;
    await probe;
    // The last probe may have finished after `worst` was read: read it again.
  }
}

async function measureStore(label, server, repeat) {
  const rows = [];
  const idle = await probeWhile(server.base, () => new Promise((r) => setTimeout(r, 500)));
  rows.push({ store: label, query: "idle (probe alone)", status: "", "answer ms p50": "", "worst /healthz ms": Math.round(idle.worst) });
  for (const [name, url] of QUERIES) {
    const times = [];
    let status = 0;
    const { worst } = await probeWhile(server.base, async () => {
      for (let i = 0; i < repeat; i++) {
        const t = performance.now();
        const res = await fetch(`${server.base}/api/rest`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url, language: "de", cache: false }) });
        await res.arrayBuffer();
        times.push(performance.now() - t);
        status = res.status;
      }
    });
    times.sort((a, b) => a - b);
    rows.push({ store: label, query: name, status, "answer ms p50": Math.round(times[times.length >> 1]), "worst /healthz ms": Math.round(worst) });
  }
  return rows;
}

export async function runHostileQueries() {
  const size = Number(process.env.BENCH_HOSTILE_SIZE ?? 100000);
  const repeat = Number(process.env.BENCH_HOSTILE_REPEAT ?? 5);
  console.log(`\nHostile queries: the demo store${size ? ` and ${size} practitioners` : ""}, each query ${repeat} times, one at a time, beside a /healthz probe`);
  const rows = [];
  for (const n of [0, ...(size ? [size] : [])]) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-hostile-"));
    let server;
    try {
      server = await startServer({ dataDir });
      if (n) {
        await server.stop();
        fillSqlite(path.join(dataDir, "praxisnetz.sqlite"), n, Number(process.env.BENCH_HOSTILE_SLOTS ?? 10000));
        server = await startServer({ dataDir });
      }
      // Let the start's own work (side tables, warm-up) settle before measuring.
      for (let i = 0; i < 600 && !(await fetch(`${server.base}/readyz`).then((r) => r.ok).catch(() => false)); i++) await new Promise((r) => setTimeout(r, 100));
      rows.push(...(await measureStore(n ? `${n}` : "demo", server, repeat)));
    } finally {
      await server?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  console.table(rows);
  const worst = Math.max(...rows.filter((r) => r.status).map((r) => r["worst /healthz ms"]));
  console.log(`Target: every query's worst /healthz <= ~50 ms (worst here ${worst} ms; the probe alone: ${rows.filter((r) => !r.status).map((r) => r["worst /healthz ms"]).join(", ")} ms)`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { buildIfNeeded } = await import("../scripts/build-if-needed.mjs");
  buildIfNeeded();
  await runHostileQueries();
}
