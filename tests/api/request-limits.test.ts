import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_FILTER_LEAVES, MAX_IDS, MAX_IN_VALUES, MAX_SEARCH_LENGTH, MAX_SEARCH_WORDS, MAX_SORT_KEYS, MAX_VISITOR_SKIP, MAX_VISITOR_SORT_KEYS } from "~/content/limits";
import { EVENT_LOOP_BOUND_MS, worstHealthzWhile } from "../support/event-loop";
import { postJson, squidexToken, startServer, type RunningServer } from "../support/server";

/**
 * The second security review's findings on request sizes and addresses (issue 20: 4, 8, 9, 11), over
 * real HTTP against the production build.
 */

const q = (collection: string, query: unknown) => `${collection}?q=${encodeURIComponent(JSON.stringify(query))}`;
const odata = (collection: string, filter: string) => `${collection}?$filter=${encodeURIComponent(filter)}`;
const many = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));

/** A sort by MAX_SORT_KEYS keys: more than a visitor's one, allowed signed in. */
const FIVE_KEYS = `$orderby=${many(MAX_SORT_KEYS, (i) => ["data/name/iv desc", "data/city/iv", "id", "created desc", "lastModified"][i % 5]!).join(",")}`;

/** Queries over a limit, each with the limit its 400 must name. */
const OVER_LIMIT: Array<[name: string, url: string, message: RegExp]> = [
  ["$orderby with 5 000 keys", `core-pages?$orderby=${many(5000, () => "id").join(",")}`, new RegExp(`at most ${MAX_SORT_KEYS} keys`)],
  ["$orderby with 500 keys", `gm-content-practitioners?$orderby=${many(500, (i) => (i % 2 ? "id" : "data/name/iv desc")).join(",")}`, new RegExp(`at most ${MAX_SORT_KEYS} keys`)],
  [`$orderby with ${MAX_SORT_KEYS + 1} keys`, `core-pages?$orderby=${many(MAX_SORT_KEYS + 1, () => "id").join(",")}`, new RegExp(`at most ${MAX_SORT_KEYS} keys`)],
  ["q.sort with 500 entries", q("core-pages", { sort: many(500, () => ({ path: "id" })) }), new RegExp(`at most ${MAX_SORT_KEYS} keys`)],
  ["q `in` with 800 values", q("gm-content-practitioners", { filter: { path: "id", op: "in", value: many(800, (i) => `${i}`) } }), new RegExp(`at most ${MAX_IN_VALUES} values`)],
  ["OData `in` with 700 values", odata("gm-content-practitioners", `id in (${many(700, (i) => `'${i}'`).join(",")})`), new RegExp(`at most ${MAX_IN_VALUES} values`)],
  ["OData with 500 conditions", odata("gm-content-practitioners", many(500, (i) => `id eq '${i}'`).join(" or ")), new RegExp(`at most ${MAX_FILTER_LEAVES} conditions`)],
  ["$search of 2 000 characters", `gm-content-practitioners?$search=${"ab ".repeat(667)}`, new RegExp(`at most ${MAX_SEARCH_LENGTH} characters`)],
  [`$search of ${MAX_SEARCH_WORDS + 1} words`, `gm-content-practitioners?$search=${many(MAX_SEARCH_WORDS + 1, (i) => `w${i}`).join("%20")}`, new RegExp(`at most ${MAX_SEARCH_WORDS} words`)],
  ["3 000 ids", `core-pages?ids=${many(3000, (i) => `i${i}`).join(",")}`, new RegExp(`at most ${MAX_IDS} ids`)],
  // Past the first key no index helps: sorting on the event loop (~300 ms at 100 000 for 5 keys).
  [`a visitor's $orderby with ${MAX_VISITOR_SORT_KEYS + 1} keys`, `gm-content-practitioners?$orderby=data/city/iv,data/name/iv desc`, new RegExp(`Visitors sort by at most ${MAX_VISITOR_SORT_KEYS} key`)],
  [`a visitor's $orderby with ${MAX_SORT_KEYS} keys`, `gm-content-practitioners?${FIVE_KEYS}`, new RegExp(`Visitors sort by at most ${MAX_VISITOR_SORT_KEYS} key`)],
  // An OFFSET walks its index on the event loop (~120 ms for 90 000 at 100 000 practitioners).
  [`a visitor's $skip of ${MAX_VISITOR_SKIP + 1}`, `gm-content-practitioners?$orderby=data/name/iv&$skip=${MAX_VISITOR_SKIP + 1}`, new RegExp(`Visitors skip at most ${MAX_VISITOR_SKIP} items`)],
];

/** Queries at the limits: allowed, and still quick. */
const AT_LIMIT: Array<[name: string, url: string]> = [
  [`$orderby with ${MAX_VISITOR_SORT_KEYS} key`, `gm-content-practitioners?$orderby=data/name/iv desc`],
  [`$skip of ${MAX_VISITOR_SKIP}`, `gm-content-practitioners?$orderby=data/name/iv&$skip=${MAX_VISITOR_SKIP}`],
  [`q \`in\` with ${MAX_IN_VALUES} values`, q("gm-content-practitioners", { filter: { path: "data.city.iv", op: "in", value: many(MAX_IN_VALUES, (i) => `Stadt ${i}`) } })],
  [`OData with ${MAX_FILTER_LEAVES} conditions`, odata("gm-content-practitioners", many(MAX_FILTER_LEAVES, (i) => `data/city/iv eq '${i}'`).join(" or "))],
  [`$search of ${MAX_SEARCH_WORDS} words`, `gm-content-practitioners?$search=${many(MAX_SEARCH_WORDS, (i) => `wo${i}rt`).join("%20")}`],
  [`${MAX_IDS} ids`, `gm-content-practitioners?ids=${many(MAX_IDS, (i) => `i${i}`).join(",")}`],
];

describe("query sizes are bounded before any work is done", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  /** POST /api/rest as a visitor, past the read cache (as an attacker would). */
  const rest = (url: string) => postJson(`${server.url}/api/rest`, { url, language: "de", cache: false });

  it("refuses a query over a limit with a 400 that names the limit", async () => {
    for (const [name, url, message] of OVER_LIMIT) {
      const res = await rest(url);
      expect(res.status, `${name}: ${res.text.slice(0, 200)}`).toBe(400);
      expect(res.json.message, name).toMatch(message);
    }
  });

  it("answers a query at the limits", async () => {
    for (const [name, url] of AT_LIMIT) {
      const res = await rest(url);
      expect(res.status, `${name}: ${res.text.slice(0, 200)}`).toBe(200);
    }
  });

  it("the Squidex API refuses the same (GET with OData, POST query with q)", async () => {
    const token = await squidexToken(server);
    const base = `${server.url}/api/squidex/api/content/praxisnetz/core-pages`;
    const auth = { authorization: `Bearer ${token}` };
    const get = await fetch(`${base}?$orderby=${many(2000, () => "id").join(",")}`, { headers: auth });
    expect(get.status).toBe(400);
    expect(JSON.stringify(await get.json())).toMatch(new RegExp(`at most ${MAX_SORT_KEYS} keys`));
    const post = await postJson(`${base}/query`, { q: { sort: many(2000, () => ({ path: "id" })) } }, { headers: auth });
    expect(post.status).toBe(400);
    expect(post.text).toMatch(new RegExp(`at most ${MAX_SORT_KEYS} keys`));
    const odataBody = await postJson(`${base}/query`, { odata: `$orderby=${many(2000, () => "id").join(",")}` }, { headers: auth });
    expect(odataBody.status).toBe(400);
    // Signed in (a client token), the sort a visitor may not send: up to MAX_SORT_KEYS keys.
    const signedIn = await fetch(`${server.url}/api/squidex/api/content/praxisnetz/gm-content-practitioners?${FIVE_KEYS}`, { headers: auth });
    expect(signedIn.status, await signedIn.clone().text()).toBe(200);
    const deep = await fetch(`${server.url}/api/squidex/api/content/praxisnetz/gm-content-practitioners?$skip=${MAX_VISITOR_SKIP + 1}`, { headers: auth });
    expect(deep.status).toBe(200);
  });

  it(`hostile queries, three at a time, keep /healthz waiting less than ${EVENT_LOOP_BOUND_MS} ms`, async () => {
    const statuses: number[] = [];
    const { worstMs, probes } = await worstHealthzWhile(server.url, async () => {
      for (const url of [...OVER_LIMIT.map(([, u]) => u), ...AT_LIMIT.map(([, u]) => u)]) {
        const answers = await Promise.all([rest(url), rest(url), rest(url)]);
        statuses.push(...answers.map((a) => a.status));
      }
    });
    console.log(`hostile queries: slowest /healthz ${worstMs} ms over ${probes} probes`);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(probes).toBeGreaterThan(0);
    expect(worstMs, `the slowest /healthz while hostile queries ran (${probes} probes)`).toBeLessThan(EVENT_LOOP_BOUND_MS);
  }, 120_000);
});

describe("odd request targets", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  const get = (target: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const { port } = new URL(server.url);
      http
        .get({ host: "127.0.0.1", port, path: target }, (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (c: string) => (body += c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        })
        .on("error", reject);
    });

  it("GET //, /// and //?a=1 are answered as paths (the home page or a 404), not with a 500", async () => {
    for (const target of ["//", "///", "//?a=1", "//x", "/\\"]) {
      const res = await get(target);
      expect([200, 404], `${target}: ${res.status} ${res.body.slice(0, 200)}`).toContain(res.status);
    }
  });

  it("no spelling of an admin path with // opens it to a visitor", async () => {
    for (const target of ["//manage", "//manage/users", "///manage/pages", "//x/manage"]) {
      const res = await get(target);
      expect(res.status, target).toBeLessThan(500);
      expect(res.body, target).not.toContain("data-admin-layout");
    }
  });
});

/**
 * Sends `total` bytes chunked (no Content-Length) and writes all of them whatever the server does,
 * as most clients do: the answer must come through, not a reset.
 */
function chunkedUpload(base: string, requestPath: string, headers: Record<string, string>, total: number) {
  const { port } = new URL(base);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method: "POST", path: requestPath, headers: { ...headers, "transfer-encoding": "chunked" } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
    const chunk = Buffer.alloc(64 * 1024, "x");
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      req.end();
    };
    req.write('{"url":"core-pages","pad":"');
    pump();
  });
}

describe("bodies over the limit without a Content-Length", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("a 2 MB chunked body to /api/rest → 413 with its message (no connection reset)", async () => {
    const res = await chunkedUpload(server.url, "/api/rest", { "content-type": "application/json" }, 2 * 1024 * 1024);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).message).toMatch(/larger than \d+ bytes/);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it("a 30 MB chunked form to /api/consent → 413 (no connection reset)", async () => {
    const res = await chunkedUpload(server.url, "/api/consent", { "content-type": "application/x-www-form-urlencoded", origin: server.url }, 30 * 1024 * 1024);
    expect(res.status).toBe(413);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  }, 60_000);

  it("a 3 MB chunked Squidex write → 413 (no connection reset)", async () => {
    const token = await squidexToken(server);
    const res = await chunkedUpload(server.url, "/api/squidex/api/content/praxisnetz/core-theme-colors", { "content-type": "application/json", authorization: `Bearer ${token}` }, 3 * 1024 * 1024);
    expect(res.status).toBe(413);
  }, 60_000);
});

describe("X-Forwarded-For counts only from the proxies TRUST_PROXY names", () => {
  const subscribe = (server: RunningServer, i: number, ip: string) =>
    postJson(`${server.url}/api/newsletter/subscribe`, { email: `xff${i}@example.org`, language: "en" }, { headers: { "x-forwarded-for": ip } });

  it("by default a client cannot pick a new address by the header: the per-address limit still hits", async () => {
    const server = await startServer({ env: { RATE_LIMIT_PER_HOUR: "2" } });
    try {
      expect((await subscribe(server, 1, "198.51.100.1")).status).toBe(202);
      expect((await subscribe(server, 2, "198.51.100.2")).status).toBe(202);
      expect((await subscribe(server, 3, "198.51.100.3")).status).toBe(429);
      // Nor does X-Forwarded-Proto make a plain request a secure one.
      const page = await fetch(`${server.url}/`, { headers: { "x-forwarded-proto": "https" } });
      expect(page.headers.get("strict-transport-security")).toBeNull();
      // An X-Forwarded-Host nobody trusts is ignored, its port too (as React Router's adapter does), not a 400.
      expect((await fetch(`${server.url}/`, { headers: { "x-forwarded-host": "a.example:0" } })).status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it("with TRUST_PROXY naming the proxy (here: loopback), each forwarded address is counted on its own", async () => {
    const server = await startServer({ env: { RATE_LIMIT_PER_HOUR: "2", TRUST_PROXY: "loopback" } });
    try {
      for (let i = 1; i <= 4; i++) expect((await subscribe(server, i, `198.51.100.${i}`)).status).toBe(202);
      expect((await subscribe(server, 5, "198.51.100.1")).status).toBe(202);
      expect((await subscribe(server, 6, "198.51.100.1")).status).toBe(429);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it("with a hop count, the address one hop back is the visitor's", async () => {
    const server = await startServer({ env: { RATE_LIMIT_PER_HOUR: "1", TRUST_PROXY: "1" } });
    try {
      // A client's own X-Forwarded-For entry is left of what the proxy appended: not trusted.
      expect((await subscribe(server, 1, "203.0.113.9, 198.51.100.1")).status).toBe(202);
      expect((await subscribe(server, 2, "203.0.113.10, 198.51.100.1")).status).toBe(429);
      expect((await subscribe(server, 3, "203.0.113.10, 198.51.100.2")).status).toBe(202);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it("a bad TRUST_PROXY stops the start with a message naming it", async () => {
    for (const value of ["true", "proxy.example"]) await expect(startServer({ env: { TRUST_PROXY: value } })).rejects.toThrow(/TRUST_PROXY/);
  }, 60_000);
});
