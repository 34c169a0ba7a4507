import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PageCache, pickEncoding } from "./page-cache";

describe("pickEncoding", () => {
  it("prefers brotli, then gzip, honouring q-values and *", () => {
    expect(pickEncoding(undefined)).toBe("identity");
    expect(pickEncoding("")).toBe("identity");
    expect(pickEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(pickEncoding("gzip")).toBe("gzip");
    expect(pickEncoding("GZIP;q=0.5")).toBe("gzip");
    expect(pickEncoding("br;q=0, gzip;q=0.8")).toBe("gzip");
    expect(pickEncoding("br;q=0,gzip;q=0")).toBe("identity");
    expect(pickEncoding("*")).toBe("br");
    expect(pickEncoding("*;q=0, identity")).toBe("identity");
    expect(pickEncoding("deflate")).toBe("identity");
    expect(pickEncoding("gzip;q=abc")).toBe("identity");
  });
});

describe("PageCache and private answers", () => {
  let server: http.Server;
  let base: string;
  const renders = new Map<string, number>();
  // CDN mode: its `public, s-maxage` must not reach a private answer.
  const cache = new PageCache({ ttlMs: 60_000, cdnSeconds: 60, trustProxy: () => false });

  beforeAll(async () => {
    const app = express();
    app.use(cache.capture());
    app.get(/.*/, (req, res) => {
      renders.set(req.path, (renders.get(req.path) ?? 0) + 1);
      // As React Router's adapter sends a route's headers: appended to what is there.
      if (req.path === "/private") res.append("Cache-Control", "private, no-store");
      res.type("html").end(`<p>${req.originalUrl}</p>`);
    });
    server = http.createServer((req, res) => cache.handle(req, res, () => app(req, res)));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const twice = async (path: string) => {
    const first = await fetch(base + path);
    await first.text();
    const second = await fetch(base + path);
    await second.text();
    return [first, second] as const;
  };

  it("keeps a public page", async () => {
    const [first, second] = await twice("/public");
    expect(first.headers.get("x-page-cache")).toBe("miss");
    expect(second.headers.get("x-page-cache")).toBe("hit");
    expect(renders.get("/public")).toBe(1);
  });

  it("never keeps an answer marked private or no-store, and sends only the route's Cache-Control", async () => {
    const [first, second] = await twice("/private");
    expect(renders.get("/private")).toBe(2);
    expect(second.headers.get("x-page-cache")).not.toBe("hit");
    for (const res of [first, second]) expect(res.headers.get("cache-control")).toBe("private, no-store");
  });

  it("never caches pages with an address in the path or a token in the query", async () => {
    for (const path of ["/en/newsletter/anna%40example.org", "/present/anna@example.org", "/appointments/cancel?token=abc.def"]) {
      const [first, second] = await twice(path);
      expect(first.headers.get("x-page-cache")).toBeNull();
      expect(second.headers.get("x-page-cache")).toBeNull();
      expect(renders.get(new URL(path, base).pathname)).toBe(2);
    }
    expect(cache.size).toBe(1);
  });
});
