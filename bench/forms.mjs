// Forms and booking: what the visitor flows cost (issue 9).
//   - the validation engine's size in the browser (engine + our React binding, minified, gzip -9), and
//     the JavaScript each form page loads next to a page without a form (budgets 150 / 130 KB gzip);
//   - server-side validation time per submission (the booking and registration forms, in process);
//   - bookings per second on distinct slots over HTTP (POST /api/appointments/{id}/book, BENCH_FORMS_CONNECTIONS
//     at once, BENCH_FORMS_BOOKINGS in all; target >= 300/s on SQLite);
//   - the 200-way race for one slot: exactly one 201, 199 × 409.
// Run alone: `npm run bench -- --only=forms`.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const BOOKINGS = Number(process.env.BENCH_FORMS_BOOKINGS ?? 2000);
const CONNECTIONS = (process.env.BENCH_FORMS_CONNECTIONS ?? "8,16").split(",").map(Number);
const RACE = 200;

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const kb = (n) => +(n / 1024).toFixed(1);
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/** The engine and binding as the browser gets them, and the engine for Node (to time validation in process). */
async function bundles(outDir) {
  const common = { bundle: true, absWorkingDir: root, alias: { "~": "./app" }, logLevel: "silent", jsx: "automatic" };
  const browser = await esbuild.build({
    ...common,
    entryPoints: ["app/forms/react.tsx"],
    platform: "browser",
    format: "esm",
    minify: true,
    external: ["react", "react-dom", "react/jsx-runtime"],
    write: false,
  });
  const code = browser.outputFiles[0].contents;
  const entry = path.join(outDir, "entry.ts");
  fs.writeFileSync(
    entry,
    `export { validateSubmission } from "${root}/app/forms/engine";\nexport { bookingForm } from "${root}/app/booking/form";\nexport { formFieldsFromSchema } from "${root}/app/forms/from-schema";\nexport { registrationDictionary } from "${root}/app/registration/dictionary";\n`,
  );
  const nodeFile = path.join(outDir, "engine.mjs");
  await esbuild.build({ ...common, entryPoints: [entry], platform: "node", format: "esm", outfile: nodeFile, packages: "external" });
  return { browser: { raw: code.length, gzip: gzipSync(code, { level: 9 }).length }, node: await import(nodeFile) };
}

async function validationTimes(engine, schema) {
  const booking = engine.bookingForm("de");
  const registration = { id: "registration", fields: engine.formFieldsFromSchema(schema.fields, engine.registrationDictionary.de) };
  const cases = [
    ["booking form, valid", booking, { name: "Alma Berg", email: "alma@example.org", phone: "+49 30 1234567", note: "", privacy: true }],
    ["booking form, 4 errors", booking, { name: "", email: "alma@", phone: "x", privacy: false }],
    ["registration form, valid", registration, { name: "Dr. Alma Berg", city: "Kassel", email: "alma@example.org", zip: "34117", website: "https://example.org", languages: "de, en" }],
  ];
  const rows = [];
  for (const [name, def, data] of cases) {
    // Every submission differs (a pooled checking tree re-runs the rules of the fields that changed).
    const variant = (i) => Object.fromEntries(Object.entries(data).map(([k, v]) => [k, typeof v === "string" && v && k !== "email" && k !== "zip" && k !== "website" ? `${v}${i % 10}` : v]));
    for (let i = 0; i < 200; i++) await engine.validateSubmission(def, variant(i), "de");
    const times = [];
    for (let i = 0; i < 2000; i++) {
      const input = variant(i);
      const t = performance.now();
      await engine.validateSubmission(def, input, "de");
      times.push(performance.now() - t);
    }
    // Throughput: 16 submissions at a time, as a busy server checks them.
    const started = performance.now();
    for (let i = 0; i < 2000; i += 16) await Promise.all(Array.from({ length: 16 }, (_, j) => engine.validateSubmission(def, variant(i + j), "de")));
    const perSecond = Math.round(2000 / ((performance.now() - started) / 1000));
    rows.push({ submission: name, fields: def.fields.length, "p50 ms": +percentile(times, 50).toFixed(3), "p99 ms": +percentile(times, 99).toFixed(3), "per s (one core, 16 at once)": perSecond });
  }
  return rows;
}

async function startServer(dataDir, port) {
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const proc = spawn(process.execPath, [...nodeArgs, path.join(root, "server.js")], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn", RATE_LIMIT_PER_HOUR: "1000000000" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  for (let i = 0; i < 3000; i++) {
    if (await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false)) return proc;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("server did not start");
}

async function token(base, dataDir) {
  const creds = JSON.parse(fs.readFileSync(path.join(dataDir, "squidex-client.json"), "utf8"));
  const res = await fetch(`${base}/api/squidex/identity-server/connect/token`, {
    method: "POST",
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: creds.clientId, client_secret: creds.clientSecret, scope: "squidex-api" }),
  });
  return (await res.json()).access_token;
}

/** `count` free slots, one minute apart from tomorrow on, for a practitioner visitors see (bulk API). */
async function createSlots(base, auth, practitioner, count, offsetMinutes) {
  const ids = [];
  const start = Date.now() + 24 * 3600 * 1000;
  for (let done = 0; done < count; done += 100) {
    const jobs = Array.from({ length: Math.min(100, count - done) }, (_, i) => ({
      type: "Upsert",
      status: "Published",
      data: {
        practitioner: { iv: [practitioner] },
        start: { iv: new Date(start + (offsetMinutes + done + i) * 60_000).toISOString() },
        durationMinutes: { iv: 30 },
        booked: { iv: false },
      },
    }));
    const res = await fetch(`${base}/api/squidex/api/content/praxisnetz/gm-appointments/bulk`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ jobs, publish: true }),
    });
    if (!res.ok) throw new Error(`bulk create: ${res.status} ${await res.text()}`);
    for (const r of await res.json()) ids.push(r.contentId ?? r.id);
  }
  return ids;
}

const booker = (i) => ({ name: `Bench Booker ${i}`, email: `bench${i}@example.org`, phone: "+49 30 1234567", language: "de", privacy: true });
const book = (base, id, i) =>
  fetch(`${base}/api/appointments/${id}/book`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(booker(i)) }).then(async (r) => {
    await r.arrayBuffer();
    return r.status;
  });

async function pageJs(base, urlPath) {
  const html = await (await fetch(`${base}${urlPath}`)).text();
  const scripts = new Set([...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]));
  let gzip = 0;
  for (const src of scripts) gzip += gzipSync(Buffer.from(await (await fetch(`${base}${src}`)).arrayBuffer()), { level: 9 }).length;
  return { files: scripts.size, gzip };
}

export async function runForms() {
  // Inside the repository (.tmp is ignored), so the bundle for Node finds the packages in node_modules.
  fs.mkdirSync(path.join(root, ".tmp"), { recursive: true });
  const tmp = fs.mkdtempSync(path.join(root, ".tmp", "bench-forms-"));
  const dataDir = path.join(tmp, "data");
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let server;
  try {
    const { browser, node: engine } = await bundles(tmp);
    console.log(`\nValidation engine in the browser (FormKit core + validation + rules + i18n de/en + our binding, minified): ${kb(browser.raw)} KB, ${kb(browser.gzip)} KB gzip`);
    server = await startServer(dataDir, port);
    const auth = { authorization: `Bearer ${await token(base, dataDir)}` };
    const schema = await (await fetch(`${base}/api/squidex/api/apps/praxisnetz/schemas/gm-content-practitioners`, { headers: auth })).json();
    console.log("\nServer-side validation per submission (in process, 2 000 runs each after 200 warm-up):");
    console.table(await validationTimes(engine, schema));
    const list = await (await fetch(`${base}/api/rest`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url: "gm-content-practitioners?$top=1", language: "de" }) })).json();
    const practitioner = list.items[0].id;
    const WARM_UP = 300;
    const ids = await createSlots(base, auth, practitioner, BOOKINGS * CONNECTIONS.length + 1 + WARM_UP, 0);
    // Warm-up (JIT, caches, the rate limiter's table), not counted.
    const warm = ids.splice(ids.length - WARM_UP);
    for (let i = 0; i < WARM_UP; i += 8) await Promise.all(warm.slice(i, i + 8).map((id, j) => book(base, id, 900_000 + i + j)));

    const pages = [
      ["content page, no form", "/ueber-uns"],
      ["registration", "/practitioners/register"],
      ["newsletter", "/newsletter/bench%40example.org"],
      ["booking page", `/appointments/book/${ids[0]}`],
    ];
    const jsRows = [];
    for (const [name, p] of pages) {
      const js = await pageJs(base, p);
      jsRows.push({ page: `${name} (${p.length > 40 ? `${p.slice(0, 40)}…` : p})`, files: js.files, "gzip KB": kb(js.gzip), budget: name.includes("no form") ? 130 : 150 });
    }
    console.log("\nJavaScript a page loads (modulepreload + scripts, gzip -9):");
    console.table(jsRows);

    // Distinct slots, `connections` at a time.
    const runs = [];
    for (const [r, connections] of CONNECTIONS.entries()) {
      let next = 0;
      const statuses = new Map();
      const started = performance.now();
      await Promise.all(
        Array.from({ length: connections }, async () => {
          for (let i = next++; i < BOOKINGS; i = next++) {
            const s = await book(base, ids[1 + r * BOOKINGS + i], r * BOOKINGS + i);
            statuses.set(s, (statuses.get(s) ?? 0) + 1);
          }
        }),
      );
      const perSecond = Math.round(BOOKINGS / ((performance.now() - started) / 1000));
      runs.push({
        run: `${BOOKINGS} distinct slots, ${connections} at once`,
        "bookings/s": perSecond,
        "target (>= 300/s)": perSecond >= 300 ? "met" : "MISSED",
        statuses: [...statuses].map(([s, n]) => `${n}×${s}`).join(" "),
      });
    }

    // The race: 200 requests for one new slot at once.
    const [raceSlot] = await createSlots(base, auth, practitioner, 1, BOOKINGS + 10);
    const race = await Promise.all(Array.from({ length: RACE }, (_, i) => book(base, raceSlot, 100_000 + i)));
    const count = (s) => race.filter((x) => x === s).length;
    console.log("\nBookings over HTTP (SQLite, validation + spam check + rate limits + transaction + mail into the outbox):");
    console.table([
      ...runs,
      { run: `${RACE} requests for one slot`, "bookings/s": "", "target (>= 300/s)": count(201) === 1 && count(409) === RACE - 1 ? "1 × 201, rest 409: met" : "MISSED", statuses: `${count(201)}×201 ${count(409)}×409 ${RACE - count(201) - count(409)}×other` },
    ]);
  } finally {
    if (server) {
      const exited = new Promise((r) => server.once("exit", r));
      server.kill("SIGTERM");
      await exited;
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { buildIfNeeded } = await import("../scripts/build-if-needed.mjs");
  buildIfNeeded();
  await runForms();
}
