// Analytics events (issue 24): how many `POST /api/event` a second the production server takes and
// writes into the daily rollups (target ≥ 2 000/s). autocannon against a started server with its
// own data dir; each request is a page view of one of 5 000 visitors (distinct user agents) on one
// of 200 pages. The server's per-address limit is lifted for the run (all requests come from one
// address). Afterwards the stored page views are counted: events/s is what was written, not only
// answered. Run alone: `npm run bench -- --only=analytics` (BENCH_SECONDS, BENCH_CONNECTIONS).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import Database from "better-sqlite3";

const root = path.resolve(import.meta.dirname, "..");

export async function runAnalytics() {
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
  const port = Number(process.env.BENCH_PORT ?? 3288) + 5;
  const base = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-bench-analytics-"));
  const server = spawn(process.execPath, [path.join(root, "server.js")], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn", ANALYTICS_EVENTS_PER_MINUTE: "100000000" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  try {
    for (let i = 0; ; i++) {
      if (await fetch(`${base}/readyz`).then((r) => r.ok).catch(() => false)) break;
      if (i > 3000) throw new Error("server did not start");
      await new Promise((r) => setTimeout(r, 10));
    }
    let n = 0;
    const result = await autocannon({
      url: `${base}/api/event`,
      connections,
      duration: seconds,
      requests: [
        {
          method: "POST",
          setupRequest: (req) => {
            n++;
            const body = JSON.stringify({ n: "pageview", u: `https://praxis.example/seite-${n % 200}`, d: "praxis.example", r: n % 3 ? "https://www.google.de/" : null, w: 360 + (n % 1600) });
            return { ...req, body, headers: { "content-type": "text/plain", "user-agent": `Mozilla/5.0 (X11; Linux x86_64) Firefox/${n % 5000}`, "accept-language": "de-DE" } };
          },
        },
      ],
    });
    const accepted = result["2xx"];
    // The last events are written within a second.
    await new Promise((r) => setTimeout(r, 1500));
    const db = new Database(path.join(dataDir, "praxisnetz.sqlite"), { readonly: true });
    const stored = db.prepare("select coalesce(sum(pageviews), 0) as n from analytics_daily").get().n;
    const visitors = db.prepare("select coalesce(sum(visitors), 0) as n from analytics_daily").get().n;
    db.close();
    console.log(
      `\nAnalytics events (${connections} connections, ${seconds} s): ${Math.round(accepted / seconds)} events/s answered 202 ` +
        `(p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}); ${stored} page views of ${visitors} visitors stored ` +
        `= ${Math.round(stored / seconds)} events/s written` +
        (stored < accepted ? ` (MISSING: ${accepted - stored} accepted but not stored)` : stored > accepted ? ` (${stored - accepted} answered after the run's end)` : ""),
    );
  } finally {
    const exited = server.exitCode === null ? new Promise((r) => server.once("exit", r)) : null;
    server.kill("SIGTERM");
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
