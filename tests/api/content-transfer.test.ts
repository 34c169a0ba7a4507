import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withPgRole } from "../support/pg-role";
import { fetchJson, squidexToken, startServer, tempDataDir, type RunningServer } from "../support/server";

/**
 * `npm run content:export` / `content:import` (scripts/content-*.mjs) against real servers: the demo
 * store is changed over the Squidex API (a new item edited twice, a pending draft, an asset),
 * exported, imported into an empty data dir, and the Squidex API answers of both compared. A second
 * import changes nothing; damaged archives are refused (exit 1, a message, no stack trace) with the
 * store untouched.
 */

const root = path.resolve(import.meta.dirname, "../..");
const APP = "praxisnetz";
const SCHEMAS = ["gm-content-practitioners", "core-pages", "gm-content-appointments"];
const SETTINGS_SCHEMA = "transfer-settings";
const PNG_2x1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGP8z8DwnwEIGAEAEOkC/4Ab7ZUAAAAASUVORK5CYII=", "base64");

function run(script: "export" | "import", args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(root, `scripts/content-${script}.mjs`), ...args], { cwd: root, env: { ...process.env, BUILD_DIR: "build", ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function api(server: RunningServer, token: string, url: string, unpublished = true) {
  const res = await fetchJson(`${server.url}/api/squidex/api/${url}`, { headers: { authorization: `Bearer ${token}`, ...(unpublished ? { "X-Unpublished": "1" } : {}) } });
  return { status: res.status, json: JSON.parse(res.text.replaceAll(server.url, "{server}")) as any };
}

let changed: { id: string; draftOf: string; assetId: string };

/** What a client sees of the store: schemas, items (drafts and live) of several schemas, versions, assets and their bytes. */
async function answers(server: RunningServer): Promise<Record<string, unknown>> {
  const t = await squidexToken(server);
  const out: Record<string, unknown> = { schemas: await api(server, t, `apps/${APP}/schemas`) };
  for (const schema of SCHEMAS) {
    out[`${schema} unpublished`] = await api(server, t, `content/${APP}/${schema}?$top=200`);
    out[`${schema} live`] = await api(server, t, `content/${APP}/${schema}?$top=200`, false);
  }
  for (const id of [changed.id, changed.draftOf]) {
    out[`${id}`] = await api(server, t, `content/${APP}/gm-content-practitioners/${id}`);
    out[`${id} live`] = await api(server, t, `content/${APP}/gm-content-practitioners/${id}`, false);
    for (const v of [0, 1, 2, 3]) out[`${id} v${v}`] = await api(server, t, `content/${APP}/gm-content-practitioners/${id}?version=${v}`);
  }
  const assets = await api(server, t, `apps/${APP}/assets?$top=200`);
  out.assets = assets;
  const bytes: Record<string, string> = {};
  for (const a of assets.json.items as Array<{ id: string }>) {
    const res = await fetch(`${server.url}/api/squidex/api/assets/${APP}/${a.id}`, { headers: { authorization: `Bearer ${t}` } });
    bytes[a.id] = `${res.status} ${createHash("sha256").update(Buffer.from(await res.arrayBuffer())).digest("hex")}`;
  }
  out.bytes = bytes;
  return out;
}

/** Every row of every table of a stopped server's SQLite file (FTS internals aside) and its asset files: "the store". */
function dumpDataDir(dataDir: string): Record<string, unknown> {
  const db = new SQLite(path.join(dataDir, "praxisnetz.sqlite"), { readonly: true });
  const out: Record<string, unknown> = {};
  try {
    const tables = db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '%_fts%' order by name").all() as Array<{ name: string }>;
    for (const { name } of tables) out[name] = db.prepare(`select * from "${name}"`).all().map((r) => JSON.stringify(r)).sort();
  } finally {
    db.close();
  }
  const files: Record<string, string> = {};
  const walk = (d: string) => {
    if (!fs.existsSync(d)) return;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else files[path.relative(dataDir, p)] = createHash("sha256").update(fs.readFileSync(p)).digest("hex");
    }
  };
  walk(path.join(dataDir, "assets"));
  out.files = files;
  return out;
}

let source: RunningServer;
let archive: string;
let expected: Record<string, unknown>;
const dirs: string[] = [];

beforeAll(async () => {
  source = await startServer();
  const t = await squidexToken(source);
  const headers = { authorization: `Bearer ${t}`, "content-type": "application/json", "X-Unpublished": "1" };
  const base = `${source.url}/api/squidex/api/content/${APP}/gm-content-practitioners`;
  // Published ones (no X-Unpublished): the second gets a pending draft below.
  const list = await fetchJson(`${base}?$top=2`, { headers: { authorization: headers.authorization } });
  const [first, second] = list.json.items as Array<{ id: string; data: Record<string, any> }>;
  // A new item (a draft), changed twice: versions 0, 1, 2.
  const created = await fetchJson(base, { method: "POST", headers, body: JSON.stringify(first!.data) });
  expect(created.status).toBe(201);
  for (const name of ["Transfer Probe", "Transfer Probe II"]) {
    const put = await fetchJson(`${base}/${created.json.id}`, { method: "PUT", headers, body: JSON.stringify({ ...first!.data, name: { iv: name } }) });
    expect(put.status, put.text).toBe(200);
  }
  // A published item with a pending draft: visitors keep the live data.
  const opened = await fetchJson(`${base}/${second!.id}/draft`, { method: "POST", headers: { authorization: headers.authorization } });
  expect(opened.status, opened.text).toBe(200);
  const draft = await fetchJson(`${base}/${second!.id}`, { method: "PUT", headers, body: JSON.stringify({ ...second!.data, name: { iv: "Draft Name" } }) });
  expect(draft.status, draft.text).toBe(200);
  // A schema with Squidex's settings and field flags: they travel with it, both ways.
  const settings = await fetchJson(`${source.url}/api/squidex/api/apps/${APP}/schemas`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      name: SETTINGS_SCHEMA,
      isPublished: true,
      category: "Transfer",
      previewUrls: { Web: "https://example.org/{{data.title.iv}}" },
      fieldsInLists: ["title"],
      fields: [
        { name: "title", isLocked: true, properties: { fieldType: "String" } },
        { name: "note", isDisabled: true, isHidden: true, properties: { fieldType: "String" } },
      ],
    }),
  });
  expect(settings.status, settings.text).toBe(201);
  const form = new FormData();
  form.append("file", new Blob([PNG_2x1], { type: "image/png" }), "transfer.png");
  const up = await fetch(`${source.url}/api/squidex/api/apps/${APP}/assets`, { method: "POST", headers: { authorization: `Bearer ${t}` }, body: form });
  expect(up.status).toBe(201);
  changed = { id: created.json.id, draftOf: second!.id, assetId: ((await up.json()) as { id: string }).id };
  expected = await answers(source);
  // The answers compared below hold what was changed.
  const at = (key: string) => expected[key] as { status: number; json: any };
  expect(at(changed.id)).toMatchObject({ status: 200, json: { version: 2, status: "Draft", data: { name: { iv: "Transfer Probe II" } } } });
  expect(at(`${changed.id} live`).status).toBe(404);
  expect(at(`${changed.draftOf}`).json.data.name).toEqual({ iv: "Draft Name" });
  expect(at(`${changed.draftOf} live`).json.data.name).not.toEqual({ iv: "Draft Name" });
  expect((expected.bytes as Record<string, string>)[changed.assetId]).toBe(`200 ${createHash("sha256").update(PNG_2x1).digest("hex")}`);
  expect(at("gm-content-practitioners unpublished").json.items.length).toBeGreaterThan(10);
  await source.stop();
  archive = path.join(tempDataDir("praxisnetz-archive-"), "export.ndjson.gz");
  dirs.push(path.dirname(archive), source.dataDir);
  const exported = await run("export", ["--out", archive], { DATA_DIR: source.dataDir });
  expect(exported.code, exported.stderr).toBe(0);
  expect(exported.stdout).toMatch(/^exported \d+ schemas, .* \d+ items, .* \d+ assets to /);
});
afterAll(async () => {
  await source?.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe("content transfer", () => {
  it("gives an empty data dir the same API answers, and a second import changes nothing", async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const imported = await run("import", [archive], { DATA_DIR: dataDir });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/^imported .* from /);
    // Not a terminal: plain progress lines, the last one complete.
    expect(imported.stderr).toMatch(/import: items (\d+)\/\1, assets (\d+)\/\2\n$/);
    const target = await startServer({ dataDir });
    try {
      expect(await answers(target)).toEqual(expected);
    } finally {
      await target.stop();
    }
    const before = dumpDataDir(dataDir);
    expect((await run("import", [archive], { DATA_DIR: dataDir })).code).toBe(0);
    expect(dumpDataDir(dataDir)).toEqual(before);
  });

  it("refuses a cut-off archive and a bad record half-way with a message, leaving the store as it was", async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    // A store with content of its own (the demo), then damaged archives into it.
    const own = await startServer({ dataDir });
    await own.stop();
    const before = dumpDataDir(dataDir);

    const bytes = fs.readFileSync(archive);
    const cut = `${archive}.cut.gz`;
    fs.writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const lines = gunzipSync(bytes).toString("utf8").trimEnd().split("\n");
    const half = lines.findIndex((l, i) => i > lines.length / 2 && l.startsWith('{"type":"item"'));
    const bad = `${archive}.bad.gz`;
    fs.writeFileSync(bad, gzipSync([...lines.slice(0, half), '{"type":"item","row":{"id":"x"}}', ...lines.slice(half)].join("\n")));
    for (const [file, message] of [
      [cut, /cut off/],
      [bad, /Line \d+ \(item "x"\): field "schema_name" is missing/],
      [path.join(dataDir, "no-such-file.gz"), /Cannot read the archive/],
    ] as const) {
      const res = await run("import", [file], { DATA_DIR: dataDir });
      expect(res.code, res.stderr).toBe(1);
      expect(res.stderr).toMatch(message);
      expect(res.stderr).toContain("Nothing was imported");
      expect(res.stderr).not.toMatch(/\n\s+at /);
    }
    expect((await run("import", [], { DATA_DIR: dataDir })).code).toBe(2);
    expect(dumpDataDir(dataDir)).toEqual(before);
  });
});

describe("content import from a live Squidex app (--from-squidex)", () => {
  it("reads schemas, items (drafts and live data), folders and assets over the Squidex API", async () => {
    // Our own server speaks the Squidex API: the source store, started again.
    const live = await startServer({ dataDir: source.dataDir });
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    try {
      const creds = JSON.parse(fs.readFileSync(path.join(source.dataDir, "squidex-client.json"), "utf8")) as { clientId: string; clientSecret: string };
      const wrong = await run("import", ["--from-squidex", `${live.url}/api/squidex`, APP, creds.clientId, "not-the-secret"], { DATA_DIR: dataDir });
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toMatch(/Squidex refused the client credentials \(4\d\d/);
      const imported = await run("import", ["--from-squidex", `${live.url}/api/squidex`, APP, creds.clientId, creds.clientSecret], { DATA_DIR: dataDir });
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toMatch(/^read \d+ schemas, .* from Squidex app praxisnetz\nimported /);
    } finally {
      await live.stop();
    }
    const target = await startServer({ dataDir });
    try {
      // Squidex keeps no older versions than the current and the live one: those are not compared.
      const strip = (a: Record<string, unknown>) => Object.fromEntries(Object.entries(a).filter(([k]) => !/ v[0-3]$/.test(k)));
      expect(strip(await answers(target))).toEqual(strip(expected));
    } finally {
      await target.stop();
    }
  }, 90_000);
});

describe("content export into a live Squidex app (--to-squidex)", () => {
  it("writes items (live data, pending drafts, status) and assets over the Squidex API", async () => {
    // A fresh demo server: the same schemas and item ids, older data; the source's store goes into it.
    const target = await startServer();
    dirs.push(target.dataDir);
    try {
      const creds = JSON.parse(fs.readFileSync(path.join(target.dataDir, "squidex-client.json"), "utf8")) as { clientId: string; clientSecret: string };
      const sent = await run("export", ["--to-squidex", `${target.url}/api/squidex`, APP, creds.clientId, creds.clientSecret], { DATA_DIR: source.dataDir });
      expect(sent.code, sent.stderr).toBe(0);
      expect(sent.stdout).toMatch(/^wrote \d+ schemas, .* \d+ items, .* to Squidex app praxisnetz/);
      // Squidex keeps versions and stamps of its own: data and status are what travel.
      const shape = (answer: unknown) => Object.fromEntries(((answer as { json: { items: any[] } }).json.items ?? []).map((i) => [i.id, { status: i.status, data: i.data }]));
      const now = await answers(target);
      for (const schema of SCHEMAS) {
        expect(shape(now[`${schema} unpublished`]), schema).toEqual(shape(expected[`${schema} unpublished`]));
        expect(shape(now[`${schema} live`]), schema).toEqual(shape(expected[`${schema} live`]));
      }
      expect(now.bytes).toEqual(expected.bytes);
      // A schema the target lacked is made there with its settings and field flags.
      const made = ((now.schemas as { json: { items: any[] } }).json.items ?? []).find((x) => x.name === SETTINGS_SCHEMA);
      expect(made).toMatchObject({ category: "Transfer", previewUrls: { Web: "https://example.org/{{data.title.iv}}" }, fieldsInLists: ["title"] });
      expect(made.fields.map((f: any) => [f.name, f.isLocked, f.isDisabled, f.isHidden])).toEqual([["title", true, false, false], ["note", false, true, true]]);
    } finally {
      await target.stop();
    }
  }, 90_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("content transfer into PostgreSQL (TEST_DATABASE_URL)", () => {
  it("gives a PostgreSQL store the same API answers", async () => {
    await withPgRole("praxis_io", async ({ url }) => {
      const dataDir = tempDataDir();
      dirs.push(dataDir);
      const imported = await run("import", [archive], { DATA_DIR: dataDir, DATABASE_URL: url });
      expect(imported.code, imported.stderr).toBe(0);
      const target = await startServer({ dataDir, env: { DATABASE_URL: url } });
      try {
        expect(await answers(target)).toEqual(expected);
      } finally {
        await target.stop();
      }
    });
  });
});
