import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../support/server";

/** The build's scripts are sent compressed once per process; made-up names and the manifest are not files to serve. */
describe("hashed assets", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("sends a build script brotli- or gzip-compressed, immutable, the same bytes each time", async () => {
    const name = fs.readdirSync(path.resolve("build/client/assets")).find((f) => f.startsWith("entry.client") && f.endsWith(".js"))!;
    const raw = fs.readFileSync(path.resolve("build/client/assets", name));
    for (const encoding of ["br", "gzip"]) {
      const res = await fetch(`${server.url}/assets/${name}`, { headers: { "accept-encoding": encoding } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-encoding")).toBe(encoding);
      expect(res.headers.get("cache-control")).toContain("immutable");
      // fetch decodes the body: the file as built.
      expect(Buffer.from(await res.arrayBuffer()).equals(raw)).toBe(true);
    }
  });

  it("answers 404 for names the build does not have, and for the build's manifest", async () => {
    for (const p of ["/assets/made-up-1234.js", "/assets/..%2F..%2Fserver.js", "/.vite/manifest.json"]) {
      const res = await fetch(`${server.url}${p}`, { headers: { "accept-encoding": "br" } });
      expect(res.status, p).toBe(404);
    }
  });
});
