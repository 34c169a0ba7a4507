import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withPgRole, withTwoPgNodes } from "../support/pg-role";
import { squidexToken, startServer, type RunningServer } from "../support/server";

/**
 * A change drops only what read the changed schema: a booking-shaped change to an appointment empties
 * the cached pages that show appointments and leaves the others warm, on one node and across nodes.
 */
const PLAIN_PAGE = "/ueber-uns";
const WITH_SLOTS = "/practitioners/juergen-weiss";

const cacheState = async (server: RunningServer, path: string) => {
  const res = await fetch(`${server.url}${path}`);
  await res.text();
  expect(res.status, path).toBe(200);
  return res.headers.get("x-page-cache");
};

async function book(server: RunningServer, booked: boolean) {
  const res = await fetch(`${server.url}/api/squidex/api/content/praxisnetz/gm-appointments/appt-001-02`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${await squidexToken(server)}`, "content-type": "application/json" },
    body: JSON.stringify({ booked: { iv: booked } }),
  });
  expect(res.status).toBe(200);
}

describe("targeted invalidation on one node", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ env: { CACHE_TTL_SECONDS: "3600" } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("a booking keeps pages without appointments cached and renders the ones with appointments again", async () => {
    for (const path of [PLAIN_PAGE, WITH_SLOTS]) {
      await cacheState(server, path);
      expect(await cacheState(server, path), path).toBe("hit");
    }
    await book(server, true);
    expect(await cacheState(server, PLAIN_PAGE)).toBe("hit");
    expect(await cacheState(server, WITH_SLOTS)).toBe("miss");
    expect(await cacheState(server, WITH_SLOTS)).toBe("hit");
  });

  it("a change to a schema every page reads (the pages) empties them all", async () => {
    for (const path of [PLAIN_PAGE, WITH_SLOTS]) {
      await cacheState(server, path);
      expect(await cacheState(server, path), path).toBe("hit");
    }
    const res = await fetch(`${server.url}/api/squidex/api/content/praxisnetz/core-pages/page-about`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${await squidexToken(server)}`, "content-type": "application/json" },
      body: JSON.stringify({ critical: { iv: false } }),
    });
    expect(res.status).toBe(200);
    expect(await cacheState(server, PLAIN_PAGE)).toBe("miss");
    expect(await cacheState(server, WITH_SLOTS)).toBe("miss");
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("targeted invalidation across two app nodes on PostgreSQL", () => {
  it("a booking through one node drops only the pages with appointments on the other", async () => {
    await withTwoPgNodes("praxis_inv", async (a, b) => {
      for (const path of [PLAIN_PAGE, WITH_SLOTS]) {
        await cacheState(b, path);
        expect(await cacheState(b, path), path).toBe("hit");
      }
      await book(a, true);
      await expect.poll(() => cacheState(b, WITH_SLOTS), { timeout: 3000 }).toBe("miss");
      expect(await cacheState(b, PLAIN_PAGE)).toBe("hit");
    });
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("two sites in two schemas of one PostgreSQL database", () => {
  it("a change on one site leaves the other site's cached pages alone", async () => {
    await withPgRole("praxis_site_a", async ({ url: urlA }) => {
      await withPgRole("praxis_site_b", async ({ url: urlB }) => {
        const a = await startServer({ env: { DATABASE_URL: urlA, CACHE_TTL_SECONDS: "3600" } });
        const b = await startServer({ env: { DATABASE_URL: urlB, CACHE_TTL_SECONDS: "3600" } });
        try {
          for (const server of [a, b]) {
            await cacheState(server, WITH_SLOTS);
            expect(await cacheState(server, WITH_SLOTS)).toBe("hit");
          }
          await book(a, true);
          // Site a drops its own page at once; site b, which heard nothing, keeps its page.
          expect(await cacheState(a, WITH_SLOTS)).toBe("miss");
          await new Promise((r) => setTimeout(r, 500));
          expect(await cacheState(b, WITH_SLOTS)).toBe("hit");
        } finally {
          await b.stop();
          await a.stop();
        }
      });
    });
  });
});

describe("behind a CDN (CDN_CACHE_SECONDS, CDN_PURGE_URL)", () => {
  let server: RunningServer;
  let hook: http.Server;
  const calls: Array<{ auth?: string; body: unknown }> = [];
  beforeAll(async () => {
    hook = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c)).on("end", () => {
        calls.push({ auth: req.headers.authorization, body: JSON.parse(body) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
    const { port } = hook.address() as AddressInfo;
    server = await startServer({ env: { CDN_CACHE_SECONDS: "120", CDN_PURGE_URL: `http://127.0.0.1:${port}/purge`, CDN_PURGE_TOKEN: "purge-secret" } });
  });
  afterAll(async () => {
    await server?.stop();
    await new Promise((resolve) => hook?.close(resolve));
  });

  it("lets shared caches keep pages, tags them with what they read, and purges the tags a change touched", async () => {
    const miss = await fetch(`${server.url}${WITH_SLOTS}`);
    await miss.text();
    const hit = await fetch(`${server.url}${WITH_SLOTS}`);
    await hit.text();
    expect(hit.headers.get("x-page-cache")).toBe("hit");
    for (const res of [miss, hit]) {
      expect(res.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=120, stale-while-revalidate=120");
      expect(res.headers.get("cache-tag")?.split(",")).toContain("gm-appointments");
      expect(res.headers.get("surrogate-key")?.split(" ")).toContain("gm-content-practitioners");
      expect(res.headers.get("vary")).toContain("Cookie");
    }
    const plain = await fetch(`${server.url}${PLAIN_PAGE}`);
    await plain.text();
    expect(plain.headers.get("cache-tag")?.split(",")).not.toContain("gm-appointments");
    // Only pages carry tags.
    const api = await fetch(`${server.url}/healthz`);
    expect(api.headers.get("cache-tag")).toBeNull();

    await book(server, true);
    await book(server, false);
    await expect.poll(() => calls.length, { timeout: 5000 }).toBeGreaterThan(0);
    // Both changes within half a second: one call.
    await new Promise((r) => setTimeout(r, 700));
    expect(calls).toEqual([{ auth: "Bearer purge-secret", body: { tags: ["gm-appointments"] } }]);
  });
});

describe("without a CDN (the default)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("asks every cache to revalidate and sends no tags", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${server.url}${PLAIN_PAGE}`);
      await res.text();
      expect(res.headers.get("cache-control")).toBe("no-cache");
      expect(res.headers.get("cache-tag")).toBeNull();
    }
  });
});
