import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withTwoPgNodes } from "../support/pg-role";
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
