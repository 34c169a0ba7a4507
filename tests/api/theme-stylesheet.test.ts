import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { squidexToken, startServer, type RunningServer } from "../support/server";

/**
 * The theme's stylesheet blocks every page's first paint: its current hash is answered ahead of
 * the session read and React Router (server/precompressed.ts themeStylesheet), compressed once,
 * cached for a year; a content change gives it a new name, and the old name still gets the
 * current sheet, briefly cached (app/routes/theme-css.ts).
 */
let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const themeHref = async () => /<link rel="stylesheet" href="(\/theme\/[a-z0-9]+\.css)"/.exec(await (await fetch(`${server.url}/ueber-uns`)).text())?.[1];
const raw = (href: string, encoding: string) =>
  new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    import("node:http").then(({ get }) =>
      get(`${server.url}${href}`, { headers: { "accept-encoding": encoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      }).on("error", reject),
    );
  });

describe("the theme stylesheet", () => {
  it("is answered for its hash in brotli, gzip or plain, the same text, cached for a year", async () => {
    const href = (await themeHref())!;
    expect(href).toBeTruthy();
    const br = await raw(href, "br");
    const gz = await raw(href, "gzip");
    const plain = await raw(href, "identity");
    for (const r of [br, gz, plain]) {
      expect(r.status).toBe(200);
      expect(r.headers["content-type"]).toBe("text/css; charset=utf-8");
      expect(r.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(r.headers["x-content-type-options"]).toBe("nosniff");
    }
    expect(br.headers["content-encoding"]).toBe("br");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    const text = plain.body.toString();
    expect(text).toContain("--color-");
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(text);
    expect(zlib.gunzipSync(gz.body).toString()).toBe(text);
  });

  it("a text style changed in the content gives the sheet a new name; the old name gets the current sheet, briefly cached", async () => {
    const before = (await themeHref())!;
    const oldSheet = (await raw(before, "identity")).body.toString();
    const token = await squidexToken(server);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const list = (await (await fetch(`${server.url}/api/squidex/api/content/praxisnetz/core-text-styles`, { headers })).json()) as { items: Array<{ id: string; data: Record<string, any> }> };
    const style = list.items[0]!;
    const put = await fetch(`${server.url}/api/squidex/api/content/praxisnetz/core-text-styles/${style.id}`, { method: "PUT", headers, body: JSON.stringify({ ...style.data, twclasses: { iv: "tracking-[0.123em]" } }) });
    expect(put.status).toBe(200);
    const after = (await themeHref())!;
    expect(after).not.toBe(before);
    const fresh = await raw(after, "identity");
    expect(fresh.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(fresh.body.toString()).not.toBe(oldSheet);
    const old = await raw(before, "identity");
    expect(old.status).toBe(200);
    expect(old.headers["cache-control"]).not.toContain("immutable");
    expect(old.body.toString()).toBe(fresh.body.toString());
  });

  it("names that are no hash are the route's (never a file read)", async () => {
    for (const p of ["/theme/..%2f..%2fpackage.json", "/theme/UPPER.css", "/theme/x.js"]) expect((await raw(p, "identity")).status, p).not.toBe(500);
  });
});
