// Content at scale: how the public site and the Squidex API behave with a large store.
// For each size N (BENCH_SCALE_SIZES, default "10000,100000") and each database (SQLite; PostgreSQL
// too when BENCH_DATABASE_URL or TEST_DATABASE_URL is set) it makes a throw-away store: the server
// starts once on it (migrations, demo seed, Squidex client), stops, N practitioners and
// BENCH_SCALE_SLOTS (100000) appointment slots are written straight into the database, and the
// server starts again. Then, against that server on 127.0.0.1:
//   - directory pages the page cache has not seen (distinct ?q= and ?page=), sequential, p50/p99;
//   - the directory right after a content change (cached reads of what changed are dropped), p50/p99;
//   - profiles by slug, distinct practitioners, p50/p99, and how many answered 200;
//   - Squidex API list with $filter + $orderby + $top=20, p50/p99;
//   - creates through the Squidex API (8 concurrent) and the bulk endpoint, if there is one;
//   - a cached page under load, alone and while ~50 booking changes/s go through the API;
//   - the directory's "N gefunden" count next to the number of visible practitioners written;
//   - the server's resident memory (now and peak).
// Every sequential measurement stops at BENCH_SCALE_SAMPLES (200) samples or after
// BENCH_SCALE_BUDGET_S (20) seconds, whichever comes first; the table says how many were taken.
//
// Also: BENCH_SCALE_CREATES (2000 API creates), BENCH_SCALE_CHANGES_PER_S (50), BENCH_SECONDS and
// BENCH_CONNECTIONS (as the page section), BENCH_SCALE_PORT (default: a free port), BENCH_SERVER_NODE_ARGS
// (extra Node flags for the server, e.g. to profile it).
//
// Run alone: `npm run bench -- --only=scale` (or BENCH_ONLY=scale npm run bench, or
// node bench/content-scale.mjs, which builds first when needed).
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import pg from "pg";

const root = path.resolve(import.meta.dirname, "..");
const numEnv = (name, fallback) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} must be a positive number`);
  return v;
};

export function scaleSettings() {
  return {
    sizes: (process.env.BENCH_SCALE_SIZES ?? "10000,100000")
      .split(",")
      .map((s) => Number(s.trim()))
      .filter((n) => Number.isInteger(n) && n > 0),
    slots: numEnv("BENCH_SCALE_SLOTS", 100000),
    samples: numEnv("BENCH_SCALE_SAMPLES", 200),
    budgetMs: numEnv("BENCH_SCALE_BUDGET_S", 20) * 1000,
    creates: numEnv("BENCH_SCALE_CREATES", 2000),
    changesPerSecond: numEnv("BENCH_SCALE_CHANGES_PER_S", 50),
    seconds: numEnv("BENCH_SECONDS", 5),
    connections: numEnv("BENCH_CONNECTIONS", 20),
    pgUrl: process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || undefined,
  };
}

// ---- generated content ---------------------------------------------------------------------------

/** Deterministic PRNG (mulberry32): the same store for the same N on every run. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = [
  "Jürgen", "Özlem", "Günther", "Jörg", "Björn", "Käthe", "Sören", "Bärbel", "Dörte", "Ümit", "Gökhan", "Ömer",
  "Hans-Jürgen", "Marie-Luise", "Anna", "Lena", "Sophie", "Hannah", "Lukas", "Jonas", "Leon", "Felix", "Maximilian",
  "Paul", "Elias", "Emilia", "Mia", "Clara", "Ida", "Frieda", "Greta", "Mathilda", "Jannik", "Timo", "Tobias",
  "Stefan", "Andreas", "Thomas", "Michael", "Sabine", "Petra", "Ulrike", "Heike", "Karin", "Monika", "Renate",
  "Dagmar", "Wolfgang", "Klaus", "Dieter", "Helmut", "Ayşe", "Zeynep", "Małgorzata", "Agnieszka", "Piotr", "Łukasz",
  "Dmitri", "Olga", "Jörn",
];
const LAST = [
  "Müller", "Weiß", "Groß", "Schäfer", "Schröder", "Köhler", "Krüger", "Jäger", "Böhm", "Hübner", "Fuß", "Strauß",
  "Voß", "Günther", "Bäcker", "Möller", "Förster", "Dürr", "Kühn", "Lößner", "Süß", "Rößler", "Gärtner", "Härtel",
  "Schütz", "Blümel", "Würth", "Nüßlein", "Pöhlmann", "Öztürk", "Yılmaz", "Çelik", "Şahin", "Kowalski", "Nowak",
  "Wiśniewski", "Schmidt", "Schneider", "Fischer", "Meyer", "Wagner", "Becker", "Schulz", "Hoffmann", "Koch",
  "Richter", "Klein", "Wolf", "Neumann", "Schwarz", "Zimmermann", "Braun", "Hofmann", "Hartmann", "Lange", "Schmitt",
  "Werner", "Schmitz", "Krause", "Meier", "Lehmann", "Schmid", "Schulze", "Maier", "Köster", "Hermann", "König",
  "Walter", "Mayer", "Huber", "Kaiser", "Fuchs", "Peters", "Lang", "Scholz", "Möbius", "Brückner", "Wöhler",
  "Dreßler", "Maaß",
];
const CITIES = [
  ["Berlin", 52.52, 13.405, "10"], ["München", 48.1372, 11.5756, "80"], ["Köln", 50.9375, 6.9603, "50"],
  ["Düsseldorf", 51.2277, 6.7735, "40"], ["Würzburg", 49.7913, 9.9534, "97"], ["Göttingen", 51.5413, 9.9158, "37"],
  ["Lübeck", 53.8655, 10.6866, "23"], ["Nürnberg", 49.4521, 11.0767, "90"], ["Fürth", 49.4771, 10.9887, "90"],
  ["Görlitz", 51.1526, 14.9872, "02"], ["Hamburg", 53.5511, 9.9937, "20"], ["Kassel", 51.3127, 9.4797, "34"],
  ["Freiburg im Breisgau", 47.999, 7.8421, "79"], ["Münster", 51.9607, 7.6261, "48"], ["Dresden", 51.0504, 13.7373, "01"],
  ["Leipzig", 51.3397, 12.3731, "04"], ["Regensburg", 49.0134, 12.1016, "93"], ["Bremen", 53.0793, 8.8017, "28"],
  ["Potsdam", 52.3906, 13.0645, "14"], ["Augsburg", 48.3705, 10.8978, "86"],
].map(([name, lat, lon, zip]) => ({ name, lat, lon, zip }));
const SPECIALITIES = [
  ["Physiotherapie", "Physiotherapy"], ["Osteopathie", "Osteopathy"],
  ["Psychotherapie (Heilpraktikergesetz)", "Psychotherapy (non-medical practitioner)"], ["Ergotherapie", "Occupational therapy"],
  ["Logopädie", "Speech and language therapy"], ["Ernährungsberatung", "Nutrition counselling"],
  ["Akupunktur und TCM", "Acupuncture and TCM"], ["Hebamme", "Midwife"], ["Allgemeinmedizin", "General practice"],
  ["Podologie", "Podiatry"], ["Naturheilkunde", "Naturopathy"],
  ["Kinder- und Jugendlichenpsychotherapie", "Child and adolescent psychotherapy"],
];
const STREETS = ["Hauptstraße", "Bahnhofstraße", "Schloßallee", "Gartenweg", "Mühlenweg", "Königstraße", "Goethestraße", "Schillerplatz", "Lindenallee", "Am Rübenfeld", "Südring", "Brückenstraße"];
const EXTRA_LANGUAGES = [["en", 0.5], ["tr", 0.1], ["pl", 0.08], ["fr", 0.08], ["ar", 0.05], ["ru", 0.05], ["it", 0.05], ["es", 0.05]];
const ACTOR = "client:praxisnetz:default";

const round5 = (x) => Math.round(x * 1e5) / 1e5;
const pick = (rand, list) => list[Math.floor(rand() * list.length)];
const pad = (n, w = 6) => String(n).padStart(w, "0");

/** One practitioner's data, in the shape and field order of app/content/seed/practitioners.ts. */
export function practitionerData(rand, i) {
  const city = pick(rand, CITIES);
  const name = `${rand() < 0.08 ? "Dr. " : ""}${pick(rand, FIRST)} ${pick(rand, LAST)}`;
  const r = rand();
  const visibility = r < 0.85 ? "shown" : r < 0.93 ? "hidden" : "other-site";
  const websites = visibility === "other-site" ? ["HEILNETZ"] : rand() < 0.2 ? ["PRAXISNETZ", "HEILNETZ"] : ["PRAXISNETZ"];
  const near = (c) => ({ latitude: round5(c.lat + (rand() - 0.5) * 0.06), longitude: round5(c.lon + (rand() - 0.5) * 0.09) });
  const second = rand() < 0.05 ? pick(rand, CITIES) : undefined;
  const [de, en] = pick(rand, SPECIALITIES);
  const data = {
    name: { iv: name },
    display: { iv: visibility !== "hidden" },
    websites: { iv: websites },
    coords: { iv: near(city) },
    ...(second ? { coords2: { iv: near(second) } } : {}),
    languages: { iv: ["de", ...EXTRA_LANGUAGES.filter(([, p]) => rand() < p).map(([l]) => l)] },
    country: { iv: "DE" },
    city: { iv: city.name },
    street: { iv: `${pick(rand, STREETS)} ${1 + Math.floor(rand() * 120)}` },
    zip: { iv: `${city.zip}${pad(Math.floor(rand() * 1000), 3)}` },
    ...(rand() < 0.1 ? { adress2: { iv: `${1 + Math.floor(rand() * 4)}. OG` } } : {}),
    finishedPractitioner: { iv: rand() < 0.9 },
    speciality: { de, en },
    description: {
      de: `${de} in ${city.name}. Termine nach Vereinbarung, Hausbesuche auf Anfrage. Barrierefreier Zugang, Parkplätze im Hof.`,
      en: `${en} in ${city.name}. Appointments by arrangement, home visits on request. Step-free access, parking in the courtyard.`,
    },
    ...(rand() < 0.3 ? { website: { iv: `https://praxis-${pad(i)}.example.org` } } : {}),
    email: { iv: `praxis.${pad(i)}@example.org` },
    phone: { iv: `+49 30 ${pad(i, 8)}` },
  };
  return { data, name, visible: visibility === "shown" };
}

/** The next weekday mornings/afternoons after today, as UTC instants (as the seed stores them). */
function slotStart(rand) {
  const now = new Date();
  for (;;) {
    const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1 + Math.floor(rand() * 60)));
    const wd = day.getUTCDay();
    if (wd === 0 || wd === 6) continue;
    return new Date(day.getTime() + (7 * 60 + 30 * Math.floor(rand() * 18)) * 60_000).toISOString();
  }
}

/** Appointment data, in the shape of app/content/seed/appointments.ts. */
const appointmentData = (rand, practitionerId) => ({
  practitioner: { iv: [practitionerId] },
  start: { iv: slotStart(rand) },
  durationMinutes: { iv: pick(rand, [30, 30, 45, 60]) },
  booked: { iv: rand() < 0.25 },
});

const practitionerId = (i) => `bench-p-${pad(i)}`;
const appointmentId = (i) => `bench-a-${pad(i)}`;

/**
 * All generated rows, as [id, schema, json, timestamp]. Timestamps are distinct (one a minute,
 * going back), as in a store that grew over time.
 */
function* generatedRows(n, slots, meta) {
  const rand = rng(20260101 + n);
  const t0 = Date.now() - 60_000;
  let k = 0;
  const stamp = () => new Date(t0 - 60_000 * k++).toISOString();
  for (let i = 1; i <= n; i++) {
    const p = practitionerData(rand, i);
    if (p.visible) meta.visible.push({ id: practitionerId(i), name: p.name, places: p.data.coords2 ? 2 : 1 });
    yield [practitionerId(i), "gm-content-practitioners", JSON.stringify(p.data), stamp()];
  }
  for (let j = 1; j <= slots; j++) {
    yield [appointmentId(j), "gm-appointments", JSON.stringify(appointmentData(rand, practitionerId(1 + ((j - 1) % n)))), stamp()];
  }
}

/** Which demo practitioners the site shows (they stay in the store beside the generated ones). */
function demoVisible(rows, siteName) {
  const out = [];
  for (const r of rows) {
    // Text on SQLite, already parsed from PostgreSQL's jsonb.
    const d = typeof r.published_data === "string" ? JSON.parse(r.published_data) : r.published_data;
    if (d.display?.iv === true && Array.isArray(d.websites?.iv) && d.websites.iv.includes(siteName)) out.push({ id: r.id, name: String(d.name?.iv ?? ""), places: (d.coords?.iv ? 1 : 0) + (d.coords2?.iv ? 1 : 0) });
  }
  return out;
}

const SITE = (process.env.SITE_NAME ?? "praxisnetz").toUpperCase();
const DEMO_PRACTITIONERS_SQL = "select id, published_data from contents where schema_name = 'gm-content-practitioners' and status = 'Published'";

export function fillSqlite(file, n, slots) {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  const meta = { visible: demoVisible(db.prepare(DEMO_PRACTITIONERS_SQL).all(), SITE) };
  const insert = db.prepare(
    "insert into contents (id, schema_name, status, new_status, version, data, published_data, created, created_by, last_modified, last_modified_by) values (?, ?, 'Published', null, 1, ?, ?, ?, ?, ?, ?)",
  );
  db.transaction(() => {
    for (const [id, schema, json, at] of generatedRows(n, slots, meta)) insert.run(id, schema, json, json, at, ACTOR, at, ACTOR);
  })();
  // Rows written past the store: its side tables (field-index.ts) are made anew at the next start.
  db.exec("delete from content_indexes");
  db.exec("analyze");
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  return meta;
}

export async function fillPostgres(url, n, slots) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const meta = { visible: demoVisible((await client.query(DEMO_PRACTITIONERS_SQL)).rows, SITE) };
    await client.query("begin");
    let chunk = [[], [], [], []];
    const flush = async () => {
      if (!chunk[0].length) return;
      await client.query(
        `insert into contents (id, schema_name, status, new_status, version, data, published_data, created, created_by, last_modified, last_modified_by)
         select id, s, 'Published', null, 1, d::jsonb, d::jsonb, at, $5, at, $5 from unnest($1::text[], $2::text[], $3::text[], $4::text[]) as t(id, s, d, at)`,
        [...chunk, ACTOR],
      );
      chunk = [[], [], [], []];
    };
    for (const row of generatedRows(n, slots, meta)) {
      row.forEach((v, i) => chunk[i].push(v));
      if (chunk[0].length >= 5000) await flush();
    }
    await flush();
    await client.query("delete from content_indexes");
    await client.query("commit");
    await client.query("analyze contents");
    return meta;
  } finally {
    await client.end();
  }
}


// ---- the server --------------------------------------------------------------------------------

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

export async function startServer({ dataDir, databaseUrl }) {
  const port = process.env.BENCH_SCALE_PORT ? Number(process.env.BENCH_SCALE_PORT) : await freePort();
  const env = { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn" };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const started = performance.now();
  // BENCH_SERVER_NODE_ARGS: extra Node flags for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(/\s+/).filter(Boolean);
  const proc = spawn(process.execPath, [...nodeArgs, path.join(root, "server.js")], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const keep = (d) => (out = (out + d).slice(-20000));
  proc.stdout.on("data", keep);
  proc.stderr.on("data", keep);
  const exited = new Promise((resolve) => proc.once("exit", (code, signal) => resolve(signal ?? code)));
  const base = `http://127.0.0.1:${port}`;
  let dead = null;
  void exited.then((c) => (dead = c));
  for (let i = 0; ; i++) {
    if (dead !== null) throw new Error(`server exited (${dead}) during start:\n${out}`);
    if (i > 1800) throw new Error(`server did not answer /healthz in 180 s:\n${out}`);
    if (await fetch(`${base}/healthz`).then((r) => r.ok).catch(() => false)) break;
    await sleep(100);
  }
  return {
    base,
    proc,
    startMs: performance.now() - started,
    output: () => out,
    exitCode: () => dead,
    async stop() {
      if (dead === null) {
        proc.kill("SIGTERM");
        const timer = setTimeout(() => proc.kill("SIGKILL"), 20_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function memory(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (k) => Number(status.match(new RegExp(`${k}:\\s+(\\d+) kB`))?.[1] ?? NaN);
    return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
  } catch {
    return { rss: NaN, peak: NaN };
  }
}

// ---- measuring ---------------------------------------------------------------------------------

async function timed(url, init = {}) {
  const t = performance.now();
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(180_000) });
  const body = await res.text();
  return { ms: performance.now() - t, status: res.status, body, headers: res.headers };
}

/** Runs `one(i)` one after another until `max` samples or the time budget is used up. */
async function sequential(max, budgetMs, one) {
  const times = [];
  const results = [];
  const until = performance.now() + budgetMs;
  for (let i = 0; i < max && performance.now() < until; i++) {
    const r = await one(i);
    times.push(r.ms);
    results.push(r);
  }
  return { times, results };
}

export function pct(times, p) {
  if (!times.length) return NaN;
  const s = [...times].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
}

const ms = (x) => (!Number.isFinite(x) ? "–" : x >= 10 ? `${Math.round(x)}` : x.toFixed(1));
const latency = ({ times }) => (times.length ? `${ms(pct(times, 0.5))} / ${ms(pct(times, 0.99))} (${times.length})` : "–");

function load(url, seconds, connections) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, headers: { "accept-encoding": "gzip" } }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

export async function squidexToken(base, dataDir) {
  const creds = JSON.parse(fs.readFileSync(path.join(dataDir, "squidex-client.json"), "utf8"));
  const res = await fetch(`${base}/api/squidex/identity-server/connect/token`, {
    method: "POST",
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: creds.clientId, client_secret: creds.clientSecret, scope: "squidex-api" }),
  });
  if (!res.ok) throw new Error(`token: HTTP ${res.status}`);
  return { token: (await res.json()).access_token, app: creds.clientId.split(":")[0] };
}

const LETTERS = "abcdefghijklmnoprstuwz";

/** Signs in as the demo superuser the server creates when ADMIN_EMAIL is unset; the session cookie. */
async function signIn(base) {
  const res = await fetch(`${base}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: base, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: "admin@praxisnetz.localhost", password: "praxisnetz-demo" }),
  });
  await res.text();
  const cookie = res.headers.getSetCookie().map((c) => c.split(";")[0]).find((c) => c.startsWith("pn_session="));
  if (!cookie) throw new Error(`sign-in: HTTP ${res.status}, no session cookie`);
  return cookie;
}

/**
 * Measures one started server, filling `row` (one table row) as it goes, so a server that dies
 * half-way still leaves what was measured before.
 */
async function measure(server, { dataDir, n, meta, settings, log }, row) {
  const { base } = server;
  const { samples, budgetMs } = settings;
  const { token, app } = await squidexToken(base, dataDir);
  const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const contentUrl = (schema, rest = "") => `${base}/api/squidex/api/content/${app}/${schema}${rest}`;
  const rand = rng(7 + n);
  let bookedFlip = false;
  const patchSlot = (i) =>
    fetch(contentUrl("gm-appointments", `/${appointmentId(1 + (i % settings.slots))}`), {
      method: "PATCH",
      headers: auth,
      body: JSON.stringify({ booked: { iv: (bookedFlip = !bookedFlip) } }),
      signal: AbortSignal.timeout(180_000),
    }).then(async (r) => (await r.text(), r.status));

  // Let the start-up warm-up (critical pages) finish, so it does not land in the first samples.
  await timed(`${base}/`);

  // Correctness: the directory's count against what was written.
  const first = await timed(`${base}/practitioners`);
  const shown = Number(first.body.match(/(\d+) Behandelnde(?::r)? gefunden/)?.[1] ?? NaN);
  row.found = `${shown} / ${meta.visible.length}`;
  log(`directory says ${shown} found; ${meta.visible.length} visible practitioners in the store`);

  // Directory pages the page cache has not seen: distinct city+letter searches and page numbers.
  let pageCacheHits = 0;
  const shownSlugs = new Set();
  const dir = await sequential(samples, budgetMs, async (i) => {
    const qs = i % 2 === 0 ? `q=${encodeURIComponent(`${CITIES[(i >> 1) % CITIES.length].name} ${LETTERS[Math.floor(i / 2 / CITIES.length) % LETTERS.length]}`)}` : `page=${(i >> 1) + 1}`;
    const r = await timed(`${base}/practitioners?${qs}`);
    if (r.headers.get("x-page-cache") === "hit") pageCacheHits++;
    if (r.status !== 200) throw new Error(`directory ?${qs}: HTTP ${r.status}`);
    // The profile links the directory shows are the slugs the profile bench asks for.
    for (const m of r.body.matchAll(/data-practitioner="([^"]+)"/g)) shownSlugs.add(m[1]);
    return { ms: r.ms, bytes: Buffer.byteLength(r.body) };
  });
  const dirKb = dir.results.reduce((s, r) => s + r.bytes, 0) / Math.max(1, dir.results.length) / 1024;
  row["directory ms p50/p99 (n)"] = latency(dir);
  row["dir KB"] = dirKb.toFixed(0);
  log(`directory: ${latency(dir)} ms, ${dirKb.toFixed(0)} KB${pageCacheHits ? `, ${pageCacheHits} page-cache hits (!)` : ""}`);

  // Profiles of distinct practitioners, by the links the directory pages showed.
  const picks = [...shownSlugs].map((slug) => [rand(), slug]).sort((a, b) => a[0] - b[0]).slice(0, samples).map(([, slug]) => slug);
  const statuses = {};
  const profile = await sequential(picks.length, budgetMs, async (i) => {
    const r = await timed(`${base}/practitioners/${picks[i]}`);
    statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    return r;
  });
  row["profile ms"] = latency(profile);
  row["profiles 200"] = `${statuses[200] ?? 0}/${profile.times.length}`;
  log(`profiles: ${latency(profile)} ms, HTTP ${JSON.stringify(statuses)}`);

  // The directory right after a content change: the change empties every cache.
  const afterChange = await sequential(Math.min(samples, 20), budgetMs, async (i) => {
    const status = await patchSlot(i);
    if (status !== 200) throw new Error(`PATCH appointment: HTTP ${status}`);
    return timed(`${base}/practitioners?q=${encodeURIComponent(`${CITIES[i % CITIES.length].name} ${LETTERS[(i + 7) % LETTERS.length]}`)}`);
  });
  row["dir after change ms"] = latency(afterChange);
  log(`directory after a change: ${latency(afterChange)} ms`);

  // Squidex API list: filter, order, top 20.
  const api = await sequential(samples, budgetMs, async (i) => {
    const city = CITIES[i % CITIES.length].name.replace(/'/g, "''");
    const params = new URLSearchParams({
      $filter: `data/city/iv eq '${city}' and data/display/iv eq true`,
      $orderby: "data/name/iv asc",
      $top: "20",
      $skip: String(20 * Math.floor(i / CITIES.length)),
    });
    const r = await timed(contentUrl("gm-content-practitioners", `?${params}`), { headers: auth });
    if (r.status !== 200) throw new Error(`Squidex list: HTTP ${r.status} ${r.body.slice(0, 300)}`);
    return r;
  });
  row["API list ms"] = latency(api);
  log(`Squidex list: ${latency(api)} ms`);

  // The directory map's markers (api.practitioners-map.ts): the whole world once, cold, must count
  // every visible place; then distinct map views (1280 × 400 px) around the cities, zoom 6 to 12.
  const places = meta.visible.reduce((sum, p) => sum + p.places, 0);
  const world = await timed(`${base}/api/practitioners/map?zoom=0&west=-180&south=-85&east=180&north=85`);
  const worldTotal = JSON.parse(world.body).total;
  row["map places"] = `${worldTotal} / ${places}`;
  row["map world ms"] = ms(world.ms);
  const map = await sequential(samples, budgetMs, async (i) => {
    const zoom = 6 + (i % 7);
    const city = CITIES[i % CITIES.length];
    const shift = Math.floor(i / CITIES.length) * 0.37;
    const w = (1280 / (256 * 2 ** zoom)) * 360;
    const h = w * (400 / 1280) * 0.65;
    const area = `zoom=${zoom}&west=${city.lon + shift - w / 2}&south=${city.lat - h / 2}&east=${city.lon + shift + w / 2}&north=${city.lat + h / 2}`;
    const r = await timed(`${base}/api/practitioners/map?${area}`);
    if (r.status !== 200) throw new Error(`map ${area}: HTTP ${r.status} ${r.body.slice(0, 200)}`);
    return { ms: r.ms, bytes: Buffer.byteLength(r.body) };
  });
  row["map ms"] = latency(map);
  log(`map: world ${ms(world.ms)} ms (${worldTotal} of ${places} places), views ${latency(map)} ms, ${(map.results.reduce((s, r) => s + r.bytes, 0) / Math.max(1, map.results.length) / 1024).toFixed(1)} KB each`);

  // The admin lists an editor pages through (signed in as the demo superuser): the practitioners'
  // list at distinct pages, its status filter, a full-text search over editors' data (drafts
  // included), and the new registrations. HTML size must not grow with N.
  const cookie = await signIn(base);
  const adminGet = async (pathAndQuery) => {
    const r = await timed(`${base}${pathAndQuery}`, { headers: { cookie } });
    if (r.status !== 200) throw new Error(`${pathAndQuery}: HTTP ${r.status}`);
    return { ms: r.ms, bytes: Buffer.byteLength(r.body) };
  };
  const list = "/manage/content/gm-content-practitioners";
  const pages = Math.max(1, Math.floor(n / 25));
  const adminList = await sequential(samples, budgetMs, (i) => adminGet(`${list}?page=${1 + Math.floor((i * 7919) % pages)}`));
  const adminKb = adminList.results.reduce((sum, r) => sum + r.bytes, 0) / Math.max(1, adminList.results.length) / 1024;
  const adminStatus = await sequential(Math.min(samples, 40), budgetMs, (i) => adminGet(`${list}?status=${["Draft", "Published", "Changed"][i % 3]}&page=${1 + (i % 5)}`));
  const adminSearch = await sequential(Math.min(samples, 20), budgetMs, (i) => adminGet(`${list}?q=${encodeURIComponent(`${CITIES[i % CITIES.length].name} ${LAST[i % LAST.length]}`)}`));
  const registrations = await sequential(Math.min(samples, 40), budgetMs, (i) => adminGet(`/manage/registrations?page=${1 + (i % 20)}`));
  row["admin list ms"] = latency(adminList);
  row["admin KB"] = adminKb.toFixed(0);
  row["admin status ms"] = latency(adminStatus);
  row["admin search ms"] = latency(adminSearch);
  row["registrations ms"] = latency(registrations);
  log(`admin: list ${latency(adminList)} ms (${adminKb.toFixed(0)} KB), status ${latency(adminStatus)} ms, search ${latency(adminSearch)} ms, registrations ${latency(registrations)} ms`);

  // Creates through the API, 8 at a time (before the load runs, which leave the server busy).
  let created = 0;
  let createErrors = 0;
  let next = 0;
  const createStart = performance.now();
  const until = createStart + budgetMs;
  const slotBody = () => JSON.stringify(appointmentData(rand, meta.visible[Math.floor(rand() * meta.visible.length)].id));
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < settings.creates && performance.now() < until) {
        next++;
        const r = await fetch(contentUrl("gm-appointments", "?publish=true"), { method: "POST", headers: auth, body: slotBody(), signal: AbortSignal.timeout(180_000) });
        await r.text();
        if (r.status === 201) created++;
        else createErrors++;
      }
    }),
  );
  const createSecs = (performance.now() - createStart) / 1000;
  row["creates/s"] = `${(created / createSecs).toFixed(0)}${created < settings.creates ? ` (${created})` : ""}`;
  log(`creates: ${created} in ${createSecs.toFixed(1)} s, ${(created / createSecs).toFixed(0)}/s${createErrors ? `, ${createErrors} failed` : ""}`);

  // Bulk creates, if the server has the endpoint (Squidex: POST …/{schema}/bulk with jobs).
  let bulk = "n/a¹";
  const bulkBatch = () => ({ jobs: Array.from({ length: 100 }, () => ({ type: "Upsert", data: JSON.parse(slotBody()), status: "Published" })), publish: true });
  const probe = await timed(contentUrl("gm-appointments", "/bulk"), { method: "POST", headers: auth, body: JSON.stringify(bulkBatch()) });
  if (probe.status >= 200 && probe.status < 300) {
    let result;
    try {
      result = JSON.parse(probe.body);
    } catch {}
    if (!Array.isArray(result)) {
      bulk = `n/a (HTTP ${probe.status}, not a bulk result)`;
    } else {
      let items = result.filter((r) => !r.error).length;
      let secs = probe.ms / 1000;
      const bulkUntil = performance.now() + budgetMs;
      while (items < settings.creates && performance.now() < bulkUntil) {
        const r = await timed(contentUrl("gm-appointments", "/bulk"), { method: "POST", headers: auth, body: JSON.stringify(bulkBatch()) });
        secs += r.ms / 1000;
        if (r.status < 200 || r.status >= 300) break;
        items += JSON.parse(r.body).filter((x) => !x.error).length;
      }
      bulk = `${Math.round(items / secs)}`;
    }
  }
  row["bulk items/s"] = bulk;
  log(`bulk: ${bulk === "n/a¹" ? `n/a (no bulk endpoint: POST …/bulk answers HTTP ${probe.status})` : bulk}`);

  // A cached page under load, alone and while bookings change.
  const cachedPath = "/ueber-uns";
  await timed(`${base}${cachedPath}`);
  const warm = await timed(`${base}${cachedPath}`);
  if (warm.headers.get("x-page-cache") !== "hit") log(`note: ${cachedPath} was not a page-cache hit before the run`);
  row["cached KB"] = (Buffer.byteLength(warm.body) / 1024).toFixed(0);
  await load(`${base}${cachedPath}`, Math.min(2, settings.seconds), settings.connections); // warm-up, not counted
  const alone = await load(`${base}${cachedPath}`, settings.seconds, settings.connections);
  const problems = (r) => r.non2xx + r.errors + r.timeouts;
  row["cached req/s"] = `${Math.round(alone.requests.average)}${problems(alone) ? ` (${problems(alone)} failed)` : ""}`;
  let changes = 0;
  let changeErrors = 0;
  let inFlight = 0;
  let k = 0;
  const pending = new Set();
  const ticker = setInterval(() => {
    if (inFlight >= 8) return;
    inFlight++;
    const p = patchSlot(1000 + k++)
      .then((s) => (s === 200 ? changes++ : changeErrors++))
      .catch(() => changeErrors++)
      .finally(() => {
        inFlight--;
        pending.delete(p);
      });
    pending.add(p);
  }, 1000 / settings.changesPerSecond);
  const changeStart = performance.now();
  // Beside the load: does the page stay cached while bookings change (targeted invalidation)?
  let probing = true;
  const probes = { hit: 0, all: 0 };
  const prober = (async () => {
    while (probing) {
      const r = await timed(`${base}${cachedPath}`).catch(() => null);
      if (r) {
        probes.all++;
        if (r.headers.get("x-page-cache") === "hit") probes.hit++;
      }
      await new Promise((done) => setTimeout(done, 20));
    }
  })();
  const busy = await load(`${base}${cachedPath}`, settings.seconds, settings.connections);
  probing = false;
  await prober;
  clearInterval(ticker);
  row["hits under changes"] = probes.all ? `${Math.round((100 * probes.hit) / probes.all)}% of ${probes.all}` : "n/a";
  const changeSecs = (performance.now() - changeStart) / 1000;
  await Promise.allSettled([...pending]);
  row["+changes req/s"] = `${Math.round(busy.requests.average)} @${(changes / changeSecs).toFixed(0)}/s${problems(busy) ? ` (${problems(busy)} failed)` : ""}`;
  row.ratio = (busy.requests.average / alone.requests.average).toFixed(2);
  log(
    `cached page (${row["cached KB"]} KB): ${Math.round(alone.requests.average)} req/s alone, ${Math.round(busy.requests.average)} req/s with ${(changes / changeSecs).toFixed(0)} changes/s` +
      (problems(alone) + problems(busy) + changeErrors ? ` (failed: alone ${problems(alone)}, busy ${problems(busy)}, changes ${changeErrors})` : ""),
  );
}

// ---- one database, one size --------------------------------------------------------------------

async function pgRole(adminUrl) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const role = `bench_scale_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  // As a database administrator would once: the role itself may not create extensions (README).
  await admin.query("create extension if not exists pg_trgm with schema public");
  await admin.query(`create role ${role} login`);
  await admin.query(`create schema ${role} authorization ${role}`);
  const url = new URL(adminUrl);
  url.username = role;
  url.password = "";
  return {
    url: url.toString(),
    async drop() {
      await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where usename = $1`, [role]);
      await admin.query(`drop schema ${role} cascade`);
      await admin.query(`drop role ${role}`);
      await admin.end();
    },
  };
}

async function runOne(dbName, n, settings) {
  const log = (msg) => console.log(`  [${dbName} N=${n}] ${msg}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-scale-"));
  const role = dbName === "PostgreSQL" ? await pgRole(settings.pgUrl) : null;
  let server;
  const t0 = performance.now();
  const row = { N: String(n) };
  try {
    // Migrations, demo seed and the Squidex client come from the app itself.
    const first = await startServer({ dataDir, databaseUrl: role?.url });
    await first.stop();
    const genStart = performance.now();
    const meta = role ? await fillPostgres(role.url, n, settings.slots) : fillSqlite(path.join(dataDir, "praxisnetz.sqlite"), n, settings.slots);
    const genS = (performance.now() - genStart) / 1000;
    log(`wrote ${n} practitioners and ${settings.slots} slots in ${genS.toFixed(1)} s`);
    server = await startServer({ dataDir, databaseUrl: role?.url });
    log(`server up in ${(server.startMs / 1000).toFixed(1)} s`);
    row["write s"] = genS.toFixed(1);
    row["start s"] = (server.startMs / 1000).toFixed(1);
    await measure(server, { dataDir, n, meta, settings, log }, row);
  } catch (error) {
    const exit = server?.exitCode();
    log(`failed: ${error instanceof Error ? error.message : error}${exit != null ? ` (server exited: ${exit})\n${server.output().slice(-3000)}` : ""}`);
    row.error = exit != null ? `server exited (${exit})` : String(error instanceof Error ? error.message : error).slice(0, 80);
  } finally {
    if (server && server.exitCode() === null) {
      const mem = memory(server.proc.pid);
      row["RSS MB (peak)"] = `${mem.rss.toFixed(0)} (${mem.peak.toFixed(0)})`;
    }
    await server?.stop();
    await role?.drop().catch((e) => log(`dropping the PostgreSQL role failed: ${e.message}`));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  row["total s"] = ((performance.now() - t0) / 1000).toFixed(0);
  return row;
}

function printTable(title, rows) {
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? "").length)));
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(width[i])).join(" | ")} |`;
  console.log(`\n${title}`);
  console.log(line(cols));
  console.log(`|${width.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const r of rows) console.log(line(cols.map((c) => r[c] ?? "")));
}

export async function runContentScale(settings = scaleSettings()) {
  if (!settings.sizes.length) {
    console.log("\nContent at scale: skipped (BENCH_SCALE_SIZES is empty)");
    return;
  }
  const started = performance.now();
  const databases = ["SQLite", ...(settings.pgUrl ? ["PostgreSQL"] : [])];
  console.log(
    `\nContent at scale: ${settings.sizes.join(", ")} practitioners, ${settings.slots} appointment slots, on ${databases.join(" and ")}` +
      ` (at most ${settings.samples} samples or ${settings.budgetMs / 1000} s per measurement)`,
  );
  const tables = [];
  for (const dbName of databases) {
    const rows = [];
    for (const n of settings.sizes) rows.push(await runOne(dbName, n, settings));
    tables.push([dbName, rows]);
  }
  for (const [dbName, rows] of tables) {
    printTable(`Content at scale, ${dbName} (latencies in ms, sequential, p50 / p99 (samples); pages the page cache has not seen):`, rows);
  }
  console.log(
    "\nfound: the directory's own count / visible practitioners in the store. directory: distinct ?q=city+letter and ?page=k." +
      "\ndir after change: an appointment PATCHed through the API just before each request (what read appointments is dropped)." +
      "\nadmin: signed in; the practitioners' list at distinct pages (admin KB: its HTML), ?status= filters, ?q= full text over editors' data (drafts too), /manage/registrations pages." +
      `\ncreates/s: single Squidex API creates, 8 concurrent. cached req/s: ${settings.connections} connections, ${settings.seconds} s on /ueber-uns; +changes: the same` +
      " (hits under changes: share of page-cache hits seen by a probe beside that load)" +
      ` while booking PATCHes go through the API (target ${settings.changesPerSecond}/s, achieved shown). ¹ n/a: no bulk endpoint.`,
  );
  console.log(`Content at scale took ${((performance.now() - started) / 1000).toFixed(0)} s.`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { buildIfNeeded } = await import("../scripts/build-if-needed.mjs");
  buildIfNeeded();
  await runContentScale();
}
