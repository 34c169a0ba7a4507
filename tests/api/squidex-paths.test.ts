import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../support/auth";
import { squidexToken, startServer, type RunningServer } from "../support/server";

/**
 * `/api/squidex/...` (§7): signed-in editors and the API client reach the content service there, and
 * nothing else. Every path trick gets a 4xx with a message and never an answer from another place:
 * dot segments (plain, encoded, double-encoded, overlong UTF-8), encoded and doubled slashes,
 * backslashes, absolute URLs and other hosts, NUL bytes, overlong paths. Sent raw over node:http,
 * as written (fetch would tidy the path before it leaves).
 */
let server: RunningServer;
let token: string;
let cookie: string;

beforeAll(async () => {
  server = await startServer();
  token = await squidexToken(server);
  cookie = await signIn(server, "admin@praxisnetz.localhost", "praxisnetz-demo");
});
afterAll(async () => {
  await server?.stop();
});

function rawRequest(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<{ status: number; body: string; type: string }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, path, method, headers, setHost: true }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), type: String(res.headers["content-type"] ?? "") }));
    });
    req.on("error", reject);
    req.end();
  });
}

const APP = "/api/squidex/api/content/praxisnetz";

describe("who reaches /api/squidex", () => {
  it("refuses calls without a token or a session with 401 and a message", async () => {
    for (const path of [`${APP}/core-pages`, "/api/squidex/api/apps/praxisnetz/schemas/core-pages", "/api/squidex/api/apps/praxisnetz/assets"]) {
      const res = await rawRequest(path);
      expect(res.status, path).toBe(401);
      expect(JSON.parse(res.body).message, path).toMatch(/bearer token/i);
    }
  });

  it("lets the API client (token) and a signed-in editor (session) read content", async () => {
    const byToken = await rawRequest(`${APP}/core-pages`, { authorization: `Bearer ${token}` });
    expect(byToken.status).toBe(200);
    const bySession = await rawRequest(`${APP}/core-pages`, { cookie });
    expect(bySession.status).toBe(200);
    expect(JSON.parse(bySession.body).items.length).toBeGreaterThan(0);
  });
});

describe("path tricks", () => {
  // Each is tried with a valid token: authorisation must not be what stops it.
  const ATTEMPTS: Array<[string, string]> = [
    ["dot segments out of the API", `${APP}/../../../../etc/passwd`],
    ["dot segments to the site's own API", `${APP}/../../../../api/_auth/session`],
    ["dot segments to the admin", "/api/squidex/../../manage/users"],
    ["encoded dot segments", `${APP}/%2e%2e/%2e%2e/%2e%2e/etc/passwd`],
    ["mixed-case encoded dots", `${APP}/%2E%2e/%2e%2E/schemas`],
    ["double-encoded dot segments", `${APP}/%252e%252e/%252e%252e/etc/passwd`],
    ["overlong UTF-8 dots", `${APP}/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd`],
    ["encoded slash in the schema name", `${APP}/core-pages%2F..%2F..%2Fusers`],
    ["encoded backslash in the schema name", `${APP}/core-pages%5C..%5C..%5Cusers`],
    ["backslash dot segments", `${APP}/..\\..\\..\\etc\\passwd`],
    ["absolute URL as the path", "/api/squidex/http://evil.example/api/content/praxisnetz/core-pages"],
    ["protocol-relative host", "/api/squidex//evil.example/api/content/praxisnetz/core-pages"],
    ["encoded absolute URL", "/api/squidex/http%3A%2F%2Fevil.example%2Fapi%2Fcontent"],
    ["user-info style host", "/api/squidex/@evil.example/api/content/praxisnetz/core-pages"],
    ["another app", "/api/squidex/api/content/other-app/core-pages"],
    ["another app by dot segments", `${APP}/../other-app/core-pages`],
    ["NUL byte in a segment", `${APP}/core-pages%00.json`],
    ["invalid percent-encoding", `${APP}/core-pages%zz`],
    ["an id with dot segments", `${APP}/core-pages/..%2F..%2F..%2Fetc%2Fpasswd`],
    ["an asset id with dot segments", "/api/squidex/api/apps/praxisnetz/assets/..%2F..%2F..%2Fetc%2Fpasswd"],
    ["an asset file with dot segments", "/api/squidex/api/assets/praxisnetz/%2e%2e%2f%2e%2e%2fpackage.json"],
    ["a path far too long", `${APP}/${"a".repeat(20_000)}`],
    ["an unknown area", "/api/squidex/api/proxy/praxisnetz?url=http://evil.example/"],
    ["the identity server elsewhere", "/api/squidex/identity-server/../../../identity-server/connect/token"],
  ];

  for (const [what, path] of ATTEMPTS) {
    it(`refuses ${what}`, async () => {
      const res = await rawRequest(path, { authorization: `Bearer ${token}`, cookie });
      // A 4xx with words, never a 5xx, never a 2xx or a redirect from somewhere else.
      expect(res.status, `${path.slice(0, 120)} → ${res.status} ${res.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${path.slice(0, 120)} → ${res.status}`).toBeLessThan(500);
      expect(res.body, path.slice(0, 120)).not.toMatch(/root:x:0|"dependencies"|"email"|pn_session/);
      if (res.type.includes("json")) expect(typeof JSON.parse(res.body).message).toBe("string");
    });
  }

  it("tried at least twenty tricks", () => {
    expect(ATTEMPTS.length).toBeGreaterThanOrEqual(20);
  });
});
