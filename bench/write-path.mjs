// The write path at size: what creating, changing and publishing practitioners costs through the
// Squidex API, on the demo store and with many practitioners (BENCH_WRITE_SIZES, default
// "0,100000"; 0 is the demo store as the seed makes it), side by side. For each size a throw-away
// store: the server seeds it, N practitioners are written straight into the database (as the scale
// section does), the server starts again. Then, sequentially (one request at a time):
//   - single create (a draft), update (PUT of a published item: its side-table row and search text
//     change too), publish (PUT …/status of a draft just created): ms p50 / p99;
//   - bulk create (500 Create jobs, drafts), bulk update (500 Upsert jobs of existing published items,
//     the case that grew with the store), bulk publish (500 ChangeStatus jobs of those drafts):
//     seconds per request of 500 (p50 / max), and items/s;
//   - every answer that is not 2xx is counted (a busy store must wait or answer 503, never 500).
// The 500 items changed are the same at every size: an update must cost the same whatever N is.
//
// BENCH_WRITE_SINGLES (100) single requests per kind, BENCH_WRITE_BATCHES (4) bulk requests per kind;
// PostgreSQL too when BENCH_DATABASE_URL or TEST_DATABASE_URL is set.
// Run alone: `npm run bench -- --only=writes` (or node bench/write-path.mjs, which builds first when needed).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { fillPostgres, fillSqlite, pct, practitionerData, rng, squidexToken, startServer } from "./content-scale.mjs";

const SCHEMA = "gm-content-practitioners";
const BATCH = 500;

export function writeSettings() {
  const positive = (name, fallback) => {
    const v = Number(process.env[name] ?? fallback);
    if (!Number.isInteger(v) || v <= 0) throw new Error(`${name} must be a positive whole number`);
    return v;
  };
  return {
    sizes: (process.env.BENCH_WRITE_SIZES ?? "0,100000")
      .split(",")
      .filter((s) => s.trim() !== "")
      .map((s) => Number(s.trim()))
      .filter((n) => Number.isInteger(n) && n >= 0),
    singles: positive("BENCH_WRITE_SINGLES", 100),
    batches: positive("BENCH_WRITE_BATCHES", 4),
    pgUrl: process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || undefined,
  };
}

const fmt = (x) => (!Number.isFinite(x) ? "–" : x >= 10 ? `${Math.round(x)}` : x.toFixed(1));

/** Measures one started server; returns { operation: figure } and the count of non-2xx answers. */
async function measure(server, dataDir, n, settings) {
  const { base } = server;
  const { token, app } = await squidexToken(base, dataDir);
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const url = (rest = "") => `${base}/api/squidex/api/content/${app}/${SCHEMA}${rest}`;
  const failures = {};
  const call = async (label, method, rest, body) => {
    const t = performance.now();
    const res = await fetch(url(rest), { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(180_000) });
    const text = await res.text();
    const ms = performance.now() - t;
    if (!res.ok) failures[`${label} ${res.status}`] = (failures[`${label} ${res.status}`] ?? 0) + 1;
    return { ms, status: res.status, json: res.ok ? JSON.parse(text) : undefined };
  };
  // Distinct names and ids at every size (the same data whatever N, so the work per item is the same).
  const rand = rng(4242);
  let serial = 0;
  const data = (tag) => {
    const p = practitionerData(rand, 900000 + serial++).data;
    return { ...p, name: { iv: `${p.name.iv} ${tag}` } };
  };
  const row = {};
  const single = (times) => `${fmt(pct(times, 0.5))} / ${fmt(pct(times, 0.99))}`;
  const batches = (times) => `${(pct(times, 0.5) / 1000).toFixed(2)} / ${(Math.max(...times) / 1000).toFixed(2)} s (${Math.round((BATCH * times.length * 1000) / times.reduce((a, b) => a + b, 0))}/s)`;

  // Published items to change, made beforehand (not measured): the same 500 at every size.
  const pool = Array.from({ length: BATCH }, (_, i) => `bench-w-${String(i).padStart(4, "0")}`);
  await call("setup", "POST", "/bulk", { publish: true, jobs: pool.map((id) => ({ type: "Create", id, data: data("pool") })) });

  const drafts = [];
  const creates = [];
  for (let i = 0; i < settings.singles; i++) {
    const r = await call("create", "POST", "", data("single"));
    creates.push(r.ms);
    if (r.json) drafts.push(r.json.id);
  }
  row.create = single(creates);
  const updates = [];
  for (let i = 0; i < settings.singles; i++) updates.push((await call("update", "PUT", `/${pool[i % pool.length]}`, data("update"))).ms);
  row.update = single(updates);
  const publishes = [];
  for (const id of drafts) publishes.push((await call("publish", "PUT", `/${id}/status`, { status: "Published" })).ms);
  row.publish = single(publishes);

  const bulkCreates = [];
  const bulkDrafts = [];
  for (let b = 0; b < settings.batches; b++) {
    const r = await call("bulk create", "POST", "/bulk", { jobs: Array.from({ length: BATCH }, () => ({ type: "Create", data: data("bulk") })) });
    bulkCreates.push(r.ms);
    for (const job of r.json ?? []) if (!job.error) bulkDrafts.push(job.id);
  }
  row["bulk create"] = batches(bulkCreates);
  const bulkUpdates = [];
  for (let b = 0; b < settings.batches; b++) {
    bulkUpdates.push((await call("bulk update", "POST", "/bulk", { jobs: pool.map((id) => ({ type: "Upsert", id, data: data(`v${b}`) })) })).ms);
  }
  row["bulk update"] = batches(bulkUpdates);
  const bulkPublishes = [];
  for (let b = 0; b < settings.batches && bulkDrafts.length >= (b + 1) * BATCH; b++) {
    const jobs = bulkDrafts.slice(b * BATCH, (b + 1) * BATCH).map((id) => ({ type: "ChangeStatus", id, status: "Published" }));
    bulkPublishes.push((await call("bulk publish", "POST", "/bulk", { jobs })).ms);
  }
  row["bulk publish"] = bulkPublishes.length ? batches(bulkPublishes) : "–";
  row["not 2xx"] = Object.keys(failures).length ? Object.entries(failures).map(([k, v]) => `${k}: ${v}`).join(", ") : "0";
  return row;
}

async function pgRole(adminUrl) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const role = `bench_writes_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  await admin.query("create extension if not exists pg_trgm with schema public");
  await admin.query(`create role ${role} login`);
  await admin.query(`create schema ${role} authorization ${role}`);
  const u = new URL(adminUrl);
  u.username = role;
  u.password = "";
  return {
    url: u.toString(),
    async drop() {
      await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where usename = $1", [role]);
      await admin.query(`drop schema ${role} cascade`);
      await admin.query(`drop role ${role}`);
      await admin.end();
    },
  };
}

async function runOne(dbName, n, settings) {
  const label = n ? `N=${n}` : "demo";
  const log = (msg) => console.log(`  [${dbName} ${label}] ${msg}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-writes-"));
  const role = dbName === "PostgreSQL" ? await pgRole(settings.pgUrl) : null;
  let server;
  try {
    const first = await startServer({ dataDir, databaseUrl: role?.url });
    await first.stop();
    if (n) {
      if (role) await fillPostgres(role.url, n, 0);
      else fillSqlite(path.join(dataDir, "praxisnetz.sqlite"), n, 0);
    }
    server = await startServer({ dataDir, databaseUrl: role?.url });
    const row = await measure(server, dataDir, n, settings);
    for (const [k, v] of Object.entries(row)) log(`${k}: ${v}`);
    return row;
  } catch (error) {
    log(`failed: ${error instanceof Error ? error.message : error}\n${server?.output().slice(-2000) ?? ""}`);
    return { error: String(error instanceof Error ? error.message : error).slice(0, 80) };
  } finally {
    await server?.stop();
    await role?.drop().catch((e) => log(`dropping the PostgreSQL role failed: ${e.message}`));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function runWritePath(settings = writeSettings()) {
  if (!settings.sizes.length) {
    console.log("\nWrite path: skipped (BENCH_WRITE_SIZES is empty)");
    return;
  }
  const databases = ["SQLite", ...(settings.pgUrl ? ["PostgreSQL"] : [])];
  console.log(`\nWrite path: practitioners through the Squidex API, ${settings.sizes.map((n) => (n ? n : "demo")).join(" and ")}, on ${databases.join(" and ")}`);
  for (const dbName of databases) {
    const columns = [];
    for (const n of settings.sizes) columns.push([n ? `N=${n}` : "demo", await runOne(dbName, n, settings)]);
    const ops = [...new Set(columns.flatMap(([, row]) => Object.keys(row)))];
    const width = [Math.max(12, ...ops.map((o) => o.length)), ...columns.map(([name, row]) => Math.max(name.length, ...ops.map((o) => String(row[o] ?? "").length)))];
    const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(width[i])).join(" | ")} |`;
    console.log(`\nWrite path, ${dbName} (singles: ms p50 / p99 of ${settings.singles}; bulk: s per ${BATCH} jobs p50 / max of ${settings.batches}, items/s):`);
    console.log(line(["", ...columns.map(([name]) => name)]));
    console.log(`|${width.map((w) => "-".repeat(w + 2)).join("|")}|`);
    for (const op of ops) console.log(line([op, ...columns.map(([, row]) => row[op] ?? "")]));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { buildIfNeeded } = await import("../scripts/build-if-needed.mjs");
  buildIfNeeded();
  await runWritePath();
}
