import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { backoffMs, createHttpClient, RETRY_STATUSES, retryAfterMs } from "./http";

/** A real server on loopback that answers from a script of statuses, one per request. */
let server: http.Server;
let base = "";
let script: { status: number; headers?: Record<string, string>; body?: string; drop?: boolean }[] = [];
let seen: { method: string; url: string; body: string; headers: http.IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, body, headers: req.headers });
      const next = script.shift() ?? { status: 200, body: '{"ok":true}' };
      if (next.drop) return req.socket.destroy();
      res.writeHead(next.status, { "content-type": "application/json", ...next.headers });
      res.end(next.body ?? JSON.stringify({ status: next.status }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  script = [];
  seen = [];
});

const waits: number[] = [];
const client = () => {
  waits.length = 0;
  return createHttpClient({ baseURL: base, sleep: async (ms) => void waits.push(ms), random: () => 0.5 });
};

describe("the HTTP client", () => {
  it("retries an idempotent request on each of 408, 409, 425, 429, 500, 502, 503, 504, then answers", async () => {
    expect([...RETRY_STATUSES].sort()).toEqual([408, 409, 425, 429, 500, 502, 503, 504]);
    for (const status of RETRY_STATUSES) {
      script = [{ status }, { status: 200, body: '{"n":1}' }];
      seen = [];
      const c = client();
      expect(await (await c("/thing")).json()).toEqual({ n: 1 });
      expect(seen.map((s) => s.method)).toEqual(["GET", "GET"]);
      expect(waits).toEqual([300]);
    }
  });

  it("does not retry other failures, and gives up after its retries with the last answer", async () => {
    script = [{ status: 404 }];
    expect((await client()("/missing")).status).toBe(404);
    expect(seen).toHaveLength(1);
    seen = [];
    script = [{ status: 503 }, { status: 503 }, { status: 503 }, { status: 200 }];
    const c = client();
    expect((await c("/busy")).status).toBe(503);
    expect(seen).toHaveLength(3);
    // Doubling waits.
    expect(waits).toEqual([300, 600]);
  });

  it("never sends a POST twice on its own; a POST marked idempotent is retried", async () => {
    script = [{ status: 503 }, { status: 201 }];
    expect((await client()("/book", { json: { a: 1 } })).status).toBe(503);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: "POST", body: '{"a":1}' });
    expect(seen[0]!.headers["content-type"]).toBe("application/json");
    seen = [];
    script = [{ status: 503 }, { status: 201 }];
    expect((await client()("/book", { json: { a: 1 }, idempotent: true, headers: { "idempotency-key": "k1" } })).status).toBe(201);
    expect(seen.map((s) => s.headers["idempotency-key"])).toEqual(["k1", "k1"]);
  });

  it("retry: false (the session read) tries once", async () => {
    script = [{ status: 503 }, { status: 200 }];
    expect((await client()("/api/_auth/session", { retry: false })).status).toBe(503);
    expect(seen).toHaveLength(1);
  });

  it("follows Retry-After (seconds), capped", async () => {
    script = [{ status: 429, headers: { "retry-after": "2" } }, { status: 200 }];
    const c = client();
    await c("/limited");
    expect(waits).toEqual([2000]);
    script = [{ status: 503, headers: { "retry-after": "3600" } }, { status: 200 }];
    const d = client();
    await d("/limited");
    expect(waits).toEqual([5000]);
    expect(retryAfterMs("Wed, 21 Oct 2015 07:28:00 GMT", Date.parse("Wed, 21 Oct 2015 07:27:58 GMT"))).toBe(2000);
    expect(retryAfterMs("soon")).toBeUndefined();
  });

  it("retries a dropped connection for a GET, not for a POST", async () => {
    script = [{ status: 0, drop: true }, { status: 200, body: '{"back":true}' }];
    expect(await (await client()("/flaky")).json()).toEqual({ back: true });
    script = [{ status: 0, drop: true }, { status: 200 }];
    await expect(client()("/flaky", { method: "POST", body: "x" })).rejects.toThrow();
  });

  it("an aborted request is not retried", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(client()("/x", { signal: controller.signal })).rejects.toThrow();
    expect(seen).toHaveLength(0);
  });

  it("answers any status as it came; query values are encoded and undefined ones left out", async () => {
    script = [{ status: 400, body: '{"message":"Bitte prüfen"}' }];
    const res = await client()("/form", { method: "POST", json: {} });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: "Bitte prüfen" });
    await client()("/search", { query: { q: "Ärztin & Zahn", page: 2, skip: undefined } });
    expect(seen.at(-1)!.url).toBe("/search?q=%C3%84rztin+%26+Zahn&page=2");
  });

  it("waits grow with jitter within ±25 % and never past the cap", () => {
    const cfg = { retryDelayMs: 300, maxRetryDelayMs: 5000 };
    expect(backoffMs(1, cfg, () => 0)).toBe(225);
    expect(backoffMs(1, cfg, () => 0.999)).toBe(375);
    expect(backoffMs(10, cfg, () => 0.5)).toBe(5000);
  });
});
