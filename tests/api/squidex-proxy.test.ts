import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, DEMO_ADMIN, openStore, signIn } from "../support/auth";
import { squidexToken, startServer, type RunningServer } from "../support/server";

/**
 * The content proxy (spec §7, docs/decisions/0036-squidex-proxy.md) over real HTTP: our server
 * started with SQUIDEX_URL pointing at a Squidex-speaking server on loopback that records every
 * request it gets and answers the token, contents, schemas and assets. What the tests check is
 * what arrives there (and what does not), and what the browser gets back.
 */

interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const APP = "remote-app";
const BASE = "/squidex-base";
const SECRET = "remote-secret-0123456789abcdef";
const REMOTE_TOKEN = "remote-token-for-this-server-only";
const ID = "0b6f3e4c-2f7a-4e55-9a51-3f1c2d4b5a60";

const recorded: Recorded[] = [];
const tokenCalls: Recorded[] = [];
let remote: http.Server;
let remotePort: number;
let server: RunningServer;
let admin: string;
let editor: string;

/** What the remote was asked, token requests aside. */
const apiCalls = () => recorded.filter((r) => !r.url.endsWith("/identity-server/connect/token"));

function answer(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = body === null ? "" : JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "set-cookie": "remote-session=leaked; Path=/",
    "x-remote-internal": "do-not-forward",
    "access-control-allow-origin": "*",
    ...headers,
  });
  res.end(text);
}

function fakeSquidex(): http.Server {
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      recorded.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const url = new URL(req.url!, "http://remote.invalid");
      const path = url.pathname;
      if (path === `${BASE}/identity-server/connect/token`) {
        const form = new URLSearchParams(body.toString());
        if (form.get("client_secret") !== SECRET) return answer(res, 400, { error: "invalid_client" });
        return answer(res, 200, { access_token: REMOTE_TOKEN, token_type: "Bearer", expires_in: 3600, scope: "squidex-api" });
      }
      if (req.headers.authorization !== `Bearer ${REMOTE_TOKEN}`) return answer(res, 401, { message: "Unauthorized", statusCode: 401 });
      const content = path.match(new RegExp(`^${BASE}/api/content/${APP}/([a-z0-9-]+)(?:/([\\w-]+))?$`));
      if (path === `${BASE}/api/content/${APP}/redirecting`) return answer(res, 302, null, { location: "http://evil.example/" });
      // Never answers: the proxy's wait ends with the remote client's timeout.
      if (path === `${BASE}/api/content/${APP}/hanging`) return;
      if (path === `${BASE}/api/content/${APP}/graphql`) return answer(res, 200, { data: { queryCorePagesContents: [] } });
      if (content && req.method === "GET" && !content[2]) return answer(res, 200, { total: 1, items: [{ id: ID, version: 3, data: {} }] }, { etag: '"3"' });
      if (content && req.method === "GET") return answer(res, 200, { id: content[2], version: 3, data: {} }, { etag: '"3"' });
      if (content && req.method === "POST") return answer(res, 201, { id: "11111111-2222-4333-8444-555555555555", version: 0, data: JSON.parse(body.toString() || "{}") }, { etag: '"0"' });
      if (content && (req.method === "PUT" || req.method === "PATCH")) return answer(res, 200, { id: content[2], version: 4, data: {} }, { etag: '"4"' });
      if (content && req.method === "DELETE") return answer(res, 204, null);
      if (path === `${BASE}/api/apps/${APP}/schemas/core-pages`) return answer(res, 200, { name: "core-pages", fields: [] });
      if (path === `${BASE}/api/apps/${APP}/assets` && req.method === "POST") return answer(res, 201, { id: "asset-1", fileSize: body.length, version: 0 });
      if (path.startsWith(`${BASE}/api/apps/${APP}/assets/`) && req.method === "GET") return answer(res, 200, { id: path.split("/").pop(), fileName: "a.png" }, { "content-disposition": 'inline; filename="a.png"' });
      if (path.startsWith(`${BASE}/api/apps/${APP}/assets/`) && req.method === "DELETE") return answer(res, 204, null);
      answer(res, 404, { message: `No fake endpoint at ${path}`, statusCode: 404 });
    });
  });
}

async function listen(s: http.Server, port = 0): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    s.once("error", reject);
    s.listen(port, "127.0.0.1", () => resolve());
  });
  return (s.address() as AddressInfo).port;
}

/** A request exactly as written: no URL parser resolves `..`, backslashes or absolute forms on the way. */
function raw(method: string, target: string, headers: Record<string, string> = {}, body?: Buffer | string): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: Number(port), method, path: target, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString() }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const api = (p: string) => `${server.url}/api/squidex/${p}`;

beforeAll(async () => {
  remote = fakeSquidex();
  remotePort = await listen(remote);
  server = await startServer({
    // No polling by the mirror (remote/mirror.ts): only what a test asks for reaches the remote after the start.
    env: { SQUIDEX_URL: `http://127.0.0.1:${remotePort}${BASE}/`, SQUIDEX_APP: APP, SQUIDEX_CLIENT_ID: `${APP}:default`, SQUIDEX_CLIENT_SECRET: SECRET, SQUIDEX_SYNC_INTERVAL_MS: "0" },
  });
  // The mirror's pull at start asked for the server's token: kept apart to check what it carried.
  tokenCalls.push(...recorded.filter((r) => r.url === `${BASE}/identity-server/connect/token`));
  admin = await signIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
  editor = await createUser(server, admin, { email: "proxy-editor@example.com", password: "proxy-editor-password-1" });
});

afterAll(async () => {
  await server?.stop();
  remote?.closeAllConnections();
  await new Promise((resolve) => remote?.close(resolve));
});

describe("the content proxy to a remote Squidex", () => {
  it("passes an editor's read to the configured Squidex with the server's token, not the browser's cookie or Authorization", async () => {
    recorded.length = 0;
    const res = await fetch(api(`api/content/${APP}/core-pages?$top=5&$filter=data/slug/iv eq 'home'`), {
      headers: { cookie: `${editor}; other=1`, authorization: "Bearer from-the-browser", "X-Unpublished": "1", "X-Languages": "de", "X-Flatten": "1", "x-custom": "no", "accept-language": "de" },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ total: 1, items: [{ id: ID, version: 3, data: {} }] });
    const [call] = apiCalls();
    expect(apiCalls()).toHaveLength(1);
    expect(call!.method).toBe("GET");
    const url = new URL(call!.url, "http://remote.invalid");
    expect(url.pathname).toBe(`${BASE}/api/content/${APP}/core-pages`);
    expect(url.searchParams.get("$top")).toBe("5");
    expect(url.searchParams.get("$filter")).toBe("data/slug/iv eq 'home'");
    expect(call!.headers.authorization).toBe(`Bearer ${REMOTE_TOKEN}`);
    expect(call!.headers.cookie).toBeUndefined();
    expect(call!.headers["x-custom"]).toBeUndefined();
    expect(call!.headers["x-unpublished"]).toBe("1");
    expect(call!.headers["x-languages"]).toBe("de");
    expect(call!.headers["x-flatten"]).toBe("1");
    expect(call!.headers["accept-language"]).toBe("de");
    // The token request carried the server's own credentials.
    const tokenCall = [...tokenCalls, ...recorded].find((r) => r.url === `${BASE}/identity-server/connect/token`);
    expect(new URLSearchParams(tokenCall!.body.toString()).get("client_id")).toBe(`${APP}:default`);
    // Back: the remote's answer with safe headers only; never its cookies or its token.
    expect(res.headers.get("etag")).toBe('"3"');
    expect(res.headers.getSetCookie().some((c) => c.startsWith("remote-session"))).toBe(false);
    expect(res.headers.get("x-remote-internal")).toBeNull();
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toMatch(/no-store/);
  });

  it("refuses without a session (401), whatever token is sent, and asks nothing of the remote", async () => {
    recorded.length = 0;
    const embeddedToken = await fetch(api("identity-server/connect/token"), {
      method: "POST",
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: `${APP}:default`, client_secret: SECRET, scope: "squidex-api" }),
    });
    expect(embeddedToken.status).toBe(401);
    for (const headers of [{}, { authorization: `Bearer ${REMOTE_TOKEN}` }, { authorization: "Bearer anything" }] as Array<Record<string, string>>) {
      const res = await fetch(api(`api/content/${APP}/core-pages`), { headers });
      expect(res.status).toBe(401);
      expect((await res.json()).message).toMatch(/Sign in/);
    }
    // Without a session, not even the allow-list answers: every trick is a 401 too.
    for (const target of [`/api/squidex/api/content/${APP}/%2e%2e/x`, `/api/squidex/api/rules`, `/api/squidex/api/content/${APP}\\..\\x`]) expect((await raw("GET", target)).status).toBe(401);
    expect(recorded).toHaveLength(0);
  });

  it("answers the token endpoint itself for a session, never with the server's credentials or token", async () => {
    recorded.length = 0;
    const res = await fetch(api("identity-server/connect/token"), {
      method: "POST",
      headers: { cookie: editor },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: "x", client_secret: "y", scope: "squidex-api" }),
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ token_type: "Bearer", scope: "squidex-api" });
    expect(text).not.toContain(REMOTE_TOKEN);
    expect(text).not.toContain(SECRET);
    expect(recorded).toHaveLength(0);
  });

  it("refuses every path and host trick with a 4xx, and nothing reaches the remote", async () => {
    recorded.length = 0;
    const tricks: Array<[string, string]> = [
      ["GET", `/api/squidex/api/content/${APP}/../../../api/apps/${APP}/clients`],
      ["GET", `/api/squidex/api/content/${APP}/core-pages/..`],
      ["GET", `/api/squidex/api/content/${APP}/./core-pages`],
      ["GET", `/api/squidex/api/content/${APP}/%2e%2e/%2e%2e/api/apps/${APP}/clients`],
      ["GET", `/api/squidex/api/content/${APP}/%2E%2E/x`],
      ["GET", `/api/squidex/api/content/${APP}/.%2e/x`],
      ["GET", `/api/squidex/api/content/${APP}/core-pages%2f..%2f..%2fapps`],
      ["GET", `/api/squidex/api/content/${APP}/core-pages%5c..%5capps`],
      ["GET", `/api/squidex/api/content/${APP}\\..\\..\\apps\\${APP}\\clients`],
      ["GET", `/api/squidex//evil.example/api/content/${APP}/core-pages`],
      ["GET", `/api/squidex/api//content/${APP}/core-pages`],
      ["GET", `http://evil.example/api/squidex/api/content/${APP}/core-pages`],
      ["GET", `/api/squidex/http://evil.example/api/content/${APP}/core-pages`],
      ["GET", `/api/squidex/https:%2f%2fevil.example/`],
      ["GET", `/api/squidex/api/content/${APP}/core-pages%00`],
      ["GET", `/api/squidex/api/content/${APP}/core-pages%0d%0aHost:%20evil.example`],
      ["GET", `/api/squidex/api/content/${APP}/core-pages%252e%252e`],
      ["GET", `/api/squidex/api/content/${APP}/${"a".repeat(1100)}`],
      ["GET", `/api/squidex/api/content/${APP}/core-pages?$filter=${"a".repeat(9000)}`],
      ["GET", `/api/squidex/api/content/praxisnetz/core-pages`],
      ["GET", `/api/squidex/api/content/${APP.toUpperCase()}/core-pages`],
      ["GET", `/api/squidex/api/apps/${APP}/clients`],
      ["GET", `/api/squidex/api/apps/${APP}/contributors`],
      ["PUT", `/api/squidex/api/apps/${APP}/schemas/core-pages`],
      ["GET", `/api/squidex/api/rules`],
      ["GET", `/api/squidex/api/apps`],
      ["GET", `/api/squidex/api/assets/${APP}/${ID}`],
      ["POST", `/api/squidex/api/content/${APP}/core-pages/bulk`],
      ["GET", `/api/squidex/api/content/${APP}/core-pages?url=http://evil.example`],
      ["GET", `/api/squidex/api/content/${APP}/core-pages?$top=1&$top=2`],
    ];
    for (const [method, target] of tricks) {
      const res = await raw(method, target, { cookie: admin, "content-type": "application/json" }, method === "GET" ? undefined : "{}");
      expect(res.status >= 400 && res.status < 500, `${method} ${target.slice(0, 100)} → ${res.status} ${res.text.slice(0, 200)}`).toBe(true);
      expect(() => JSON.parse(res.text), `${target.slice(0, 100)} answers JSON`).not.toThrow();
    }
    expect(recorded.map((r) => r.url)).toEqual([]);
  });

  it("passes writes with their body, If-Match and publish flag, and writes each to the audit log", async () => {
    recorded.length = 0;
    const created = await fetch(api(`api/content/${APP}/core-pages?publish=true`), {
      method: "POST",
      headers: { cookie: editor, "content-type": "application/json" },
      body: JSON.stringify({ title: { de: "Neu" } }),
    });
    expect(created.status).toBe(201);
    const updated = await fetch(api(`api/content/${APP}/core-pages/${ID}`), {
      method: "PUT",
      headers: { cookie: editor, "content-type": "application/json", "If-Match": '"3"' },
      body: JSON.stringify({ title: { de: "Geändert" } }),
    });
    expect(updated.status).toBe(200);
    expect(updated.headers.get("etag")).toBe('"4"');
    const patched = await fetch(api(`api/content/${APP}/core-pages/${ID}`), { method: "PATCH", headers: { cookie: editor, "content-type": "application/json" }, body: "{}" });
    expect(patched.status).toBe(200);
    const [create, update, patch] = apiCalls();
    expect(create!.url).toBe(`${BASE}/api/content/${APP}/core-pages?publish=true`);
    expect(JSON.parse(create!.body.toString())).toEqual({ title: { de: "Neu" } });
    expect(create!.headers["content-type"]).toBe("application/json");
    expect(update!.method).toBe("PUT");
    expect(update!.headers["if-match"]).toBe('"3"');
    expect(JSON.parse(update!.body.toString())).toEqual({ title: { de: "Geändert" } });
    expect(patch!.method).toBe("PATCH");

    const db = openStore(server.dataDir);
    try {
      const rows = db.prepare("select user_email, action, schema_name, item_id, detail from audit_log where action like 'proxy-%' order by at, rowid").all() as Array<Record<string, string>>;
      expect(rows).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ user_email: "proxy-editor@example.com", action: "proxy-create-content", schema_name: "core-pages", item_id: "11111111-2222-4333-8444-555555555555", detail: `POST api/content/${APP}/core-pages?publish=true → 201` }),
          expect.objectContaining({ user_email: "proxy-editor@example.com", action: "proxy-update-content", item_id: ID, detail: `PUT api/content/${APP}/core-pages/${ID} → 200` }),
          expect.objectContaining({ action: "proxy-patch-content", item_id: ID }),
        ]),
      );
    } finally {
      db.close();
    }
  });

  it("asks the one policy: an editor may not delete content or assets, nor write the superuser collections", async () => {
    recorded.length = 0;
    const refusals = [
      await fetch(api(`api/content/${APP}/core-pages/${ID}`), { method: "DELETE", headers: { cookie: editor } }),
      await fetch(api(`api/apps/${APP}/assets/${ID}`), { method: "DELETE", headers: { cookie: editor } }),
      await fetch(api(`api/content/${APP}/core-global-settings`), { method: "POST", headers: { cookie: editor, "content-type": "application/json" }, body: "{}" }),
      await fetch(api(`api/content/${APP}/graphql`), { method: "POST", headers: { cookie: editor, "content-type": "application/json" }, body: JSON.stringify({ query: "mutation { deleteCorePagesContent(id: \"x\") { id } }" }) }),
    ];
    for (const res of refusals) expect(res.status).toBe(403);
    expect(apiCalls()).toHaveLength(0);
    // A GraphQL read is fine; a superuser may delete.
    const read = await fetch(api(`api/content/${APP}/graphql`), { method: "POST", headers: { cookie: editor, "content-type": "application/json" }, body: JSON.stringify({ query: "{ queryCorePagesContents { id } }" }) });
    expect(read.status).toBe(200);
    const deleted = await fetch(api(`api/content/${APP}/core-pages/${ID}`), { method: "DELETE", headers: { cookie: admin, "If-Match": '"4"' } });
    expect(deleted.status).toBe(204);
    expect(apiCalls().map((c) => `${c.method} ${c.url}`)).toEqual([`POST ${BASE}/api/content/${APP}/graphql`, `DELETE ${BASE}/api/content/${APP}/core-pages/${ID}`]);
    expect(apiCalls()[1]!.headers["if-match"]).toBe('"4"');
  });

  it("passes a multipart upload byte for byte, schemas and asset metadata", async () => {
    recorded.length = 0;
    const bytes = new Uint8Array(70_000).map((_, i) => (i * 31) % 256);
    const form = new FormData();
    form.append("file", new Blob([bytes], { type: "image/png" }), "bild.png");
    const sent = new Request("http://x.invalid", { method: "POST", body: form });
    const type = sent.headers.get("content-type")!;
    const body = Buffer.from(await sent.arrayBuffer());
    const upload = await fetch(api(`api/apps/${APP}/assets/`), { method: "POST", headers: { cookie: editor, "content-type": type }, body });
    expect(upload.status).toBe(201);
    const [call] = apiCalls();
    expect(call!.url).toBe(`${BASE}/api/apps/${APP}/assets`);
    expect(call!.headers["content-type"]).toBe(type);
    expect(call!.body.equals(body)).toBe(true);
    // Not multipart: refused here.
    const plain = await fetch(api(`api/apps/${APP}/assets`), { method: "POST", headers: { cookie: editor, "content-type": "application/octet-stream" }, body: "x" });
    expect(plain.status).toBe(415);

    const schema = await fetch(api(`api/apps/${APP}/schemas/core-pages`), { headers: { cookie: editor } });
    expect(await schema.json()).toEqual({ name: "core-pages", fields: [] });
    const asset = await fetch(api(`api/apps/${APP}/assets/${ID}`), { headers: { cookie: editor } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-disposition")).toBe('inline; filename="a.png"');

    const db = openStore(server.dataDir);
    try {
      const row = db.prepare("select user_email, detail from audit_log where action = 'proxy-upload-asset'").get() as { user_email: string; detail: string };
      expect(row).toEqual({ user_email: "proxy-editor@example.com", detail: `POST api/apps/${APP}/assets → 201` });
    } finally {
      db.close();
    }
  });

  it("keeps body limits: a JSON body past API_BODY_LIMIT_BYTES is 413 and never sent on", async () => {
    recorded.length = 0;
    const res = await fetch(api(`api/content/${APP}/core-pages`), { method: "POST", headers: { cookie: editor, "content-type": "application/json" }, body: JSON.stringify({ x: "a".repeat(1024 * 1024 + 10) }) });
    expect(res.status).toBe(413);
    expect(apiCalls()).toHaveLength(0);
  });

  it("does not follow the remote's redirects", async () => {
    recorded.length = 0;
    const res = await fetch(api(`api/content/${APP}/redirecting`), { headers: { cookie: editor }, redirect: "manual" });
    expect(res.status).toBe(502);
    expect(res.headers.get("location")).toBeNull();
    expect(apiCalls().map((c) => c.url)).toEqual([`${BASE}/api/content/${APP}/redirecting`]);
  });

  it("answers 504 with a message when the remote does not answer in time (a POST is not tried twice)", { timeout: 30_000 }, async () => {
    recorded.length = 0;
    const res = await fetch(api(`api/content/${APP}/hanging`), { method: "POST", headers: { cookie: editor, "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(504);
    expect((await res.json()).message).toMatch(/did not answer in time/);
    expect(apiCalls()).toHaveLength(1);
    // The log line comes over the server's stdout, which may trail its answer.
    await expect.poll(() => server.output(), { timeout: 10_000 }).toMatch(/the content service did not answer the proxy in time/);
    // It may have happened at the remote all the same: recorded.
    const db = openStore(server.dataDir);
    try {
      const row = db.prepare("select user_email, detail from audit_log where action = 'proxy-create-content' and detail like '%hanging%'").get();
      expect(row).toEqual({ user_email: "proxy-editor@example.com", detail: `POST api/content/${APP}/hanging → 504` });
    } finally {
      db.close();
    }
  });

  it("answers 502 with a message while the remote is down, and works again when it is back", async () => {
    remote.closeAllConnections();
    await new Promise((resolve) => remote.close(resolve));
    const res = await fetch(api(`api/apps/${APP}/schemas/core-pages`), { headers: { cookie: editor } });
    expect(res.status).toBe(502);
    expect((await res.json()).message).toMatch(/cannot be reached/);
    const write = await fetch(api(`api/content/${APP}/core-pages`), { method: "POST", headers: { cookie: editor, "content-type": "application/json" }, body: "{}" });
    expect(write.status).toBe(502);
    await expect.poll(() => server.output(), { timeout: 10_000 }).toMatch(/the content service could not be reached by the proxy/);

    remote = fakeSquidex();
    await listen(remote, remotePort);
    const back = await fetch(api(`api/apps/${APP}/schemas/core-pages`), { headers: { cookie: editor } });
    expect(back.status).toBe(200);
  });
});

describe("the embedded store's own API beside it", () => {
  it("is not what /api/squidex answers with a remote set: its client token opens nothing", async () => {
    const token = await squidexToken(server).catch(() => "none");
    const res = await fetch(api("api/content/praxisnetz/core-pages"), { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(401);
  });
});
