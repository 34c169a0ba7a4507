import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { SquidexClient } from "@squidex/squidex";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { squidexToken, startServer, type RunningServer } from "../support/server";

/**
 * The embedded store's Squidex HTTP API, driven by the official Squidex SDK (a client we did not
 * write) and by plain fetch for the protocol details.
 */
let server: RunningServer;
let client: SquidexClient;
let credentials: { clientId: string; clientSecret: string };
const PNG_2x1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGP8z8DwnwEIGAEAEOkC/4Ab7ZUAAAAASUVORK5CYII=", "base64");

const token = () => squidexToken(server);

beforeAll(async () => {
  server = await startServer();
  credentials = JSON.parse(fs.readFileSync(path.join(server.dataDir, "squidex-client.json"), "utf8"));
  client = new SquidexClient({ appName: "praxisnetz", clientId: credentials.clientId, clientSecret: credentials.clientSecret, url: `${server.url}/api/squidex` });
});
afterAll(async () => {
  await server?.stop();
});

/** A GET with node:http, so the body arrives as sent (fetch would decompress it). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

describe("Squidex API answers", () => {
  it("carry headers for data, not documents, and go out gzipped when large and the client takes gzip", async () => {
    const auth = { authorization: `Bearer ${await token()}` };
    const list = `${server.url}/api/squidex/api/content/praxisnetz/gm-content-practitioners?$top=20`;
    const zipped = await rawGet(list, { ...auth, "accept-encoding": "gzip, deflate" });
    expect(zipped.status).toBe(200);
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(Number(zipped.headers["content-length"])).toBe(zipped.body.length);
    expect(zipped.headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(zipped.headers["x-content-type-options"]).toBe("nosniff");
    expect(zipped.headers["content-type"]).toMatch(/^application\/json/);
    expect(zipped.headers["x-request-id"]).toBeTruthy();
    const plain = await rawGet(list, { ...auth, "accept-encoding": "identity" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(gunzipSync(zipped.body).toString("utf8"))).toEqual(JSON.parse(plain.body.toString("utf8")));
    expect(JSON.parse(plain.body.toString("utf8")).items).toHaveLength(20);
    // A small answer (an error here) is not worth compressing.
    const small = await rawGet(`${server.url}/api/squidex/api/content/praxisnetz/gm-content-practitioners/no-such-item`, { ...auth, "accept-encoding": "gzip" });
    expect(small.status).toBe(404);
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(small.body.toString("utf8")).statusCode).toBe(404);
  });
});

describe("Squidex HTTP API", () => {
  it("issues tokens for the app client and refuses wrong credentials", async () => {
    const ok = await fetch(`${server.url}/api/squidex/identity-server/connect/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: credentials.clientId, client_secret: credentials.clientSecret, scope: "squidex-api" }),
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ token_type: "Bearer", expires_in: 2592000, scope: "squidex-api" });
    const bad = await fetch(`${server.url}/api/squidex/identity-server/connect/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: credentials.clientId, client_secret: "wrong-secret-000000", scope: "squidex-api" }),
    });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ error: "invalid_client" });
  });

  it("requires a bearer token for content, and hides other apps", async () => {
    const anon = await fetch(`${server.url}/api/squidex/api/content/praxisnetz/core-pages`);
    expect(anon.status).toBe(401);
    expect(await anon.json()).toMatchObject({ statusCode: 401 });
    const forged = await fetch(`${server.url}/api/squidex/api/content/praxisnetz/core-pages`, { headers: { authorization: "Bearer abc.def.ghi" } });
    expect(forged.status).toBe(401);
    const other = await fetch(`${server.url}/api/squidex/api/content/other-app/core-pages`, { headers: { authorization: `Bearer ${await token()}` } });
    expect(other.status).toBe(404);
  });

  it("lists, filters and reads content through the SDK", async () => {
    const all = await client.contents.getContents("gm-content-practitioners", {});
    expect(all.total).toBeGreaterThanOrEqual(30);
    expect(all.items[0]!.data.name).toHaveProperty("iv");
    const berlin = await client.contents.getContents("gm-content-practitioners", { $filter: "data/city/iv eq 'Berlin'", $orderby: "data/name/iv asc" });
    expect(berlin.items.length).toBeGreaterThan(0);
    for (const item of berlin.items) expect(item.data.city!.iv).toBe("Berlin");
    const one = await client.contents.getContent("gm-content-practitioners", berlin.items[0]!.id, {});
    expect(one.id).toBe(berlin.items[0]!.id);
  });

  it("shapes data by X-Languages and X-Flatten and hides drafts without X-Unpublished", async () => {
    const t = await token();
    const res = await fetch(`${server.url}/api/squidex/api/content/praxisnetz/core-pages?$top=50`, {
      headers: { authorization: `Bearer ${t}`, "X-Languages": "en", "X-Flatten": "1" },
    });
    const body = (await res.json()) as { items: Array<{ status: string; data: { title: unknown } }> };
    expect(body.items.every((i) => i.status === "Published")).toBe(true);
    expect(typeof body.items[0]!.data.title).toBe("string");
    const withDrafts = await fetch(`${server.url}/api/squidex/api/content/praxisnetz/core-pages?$top=50`, {
      headers: { authorization: `Bearer ${t}`, "X-Unpublished": "1" },
    });
    const drafts = (await withDrafts.json()) as { items: Array<{ status: string }> };
    expect(drafts.items.some((i) => i.status === "Draft")).toBe(true);
  });

  it("creates, updates, patches, publishes and deletes with versions and Squidex status codes", async () => {
    const created = await client.contents.postContent("core-theme-colors", { name: { iv: "Testgrün" }, hexcode: { iv: "#00aa00" } }, { publish: true });
    expect(created.status).toBe("Published");
    expect(created.version).toBe(1);
    const updated = await client.contents.putContent("core-theme-colors", created.id, { name: { iv: "Testgrün 2" }, hexcode: { iv: "#00bb00" } }, {});
    expect(updated.version).toBe(2);

    const t = await token();
    const stale = await fetch(`${server.url}/api/squidex/api/content/praxisnetz/core-theme-colors/${created.id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${t}`, "content-type": "application/json", "If-Match": '"1"' },
      body: JSON.stringify({ hexcode: { iv: "#ff0000" } }),
    });
    expect(stale.status).toBe(412);
    expect(await stale.json()).toMatchObject({ statusCode: 412, errorCode: "OBJECT_VERSION_CONFLICT" });

    const invalid = await fetch(`${server.url}/api/squidex/api/content/praxisnetz/core-theme-colors/${created.id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${t}`, "content-type": "application/json" },
      body: JSON.stringify({ hexcode: { iv: "green" }, nope: { iv: 1 } }),
    });
    expect(invalid.status).toBe(400);
    const err = (await invalid.json()) as { message: string; details: string[] };
    expect(err.message).toBe("Validation error");
    expect(err.details).toEqual(expect.arrayContaining(["nope: Not a known field.", "hexcode.iv: Must follow the pattern."]));

    const patched = await fetch(`${server.url}/api/squidex/api/content/praxisnetz/core-theme-colors/${created.id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${t}`, "content-type": "application/json", "If-Match": '"2"' },
      body: JSON.stringify({ hexcode: { iv: "#00cc00" } }),
    });
    expect(patched.status).toBe(200);
    expect(patched.headers.get("etag")).toBe('"3"');

    // The internal API sees the change at once: writes clear the cache.
    const visitor = await fetch(`${server.url}/api/rest`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url: "core-theme-colors" }) });
    const colors = (await visitor.json()) as { items: Array<{ id: string; data: { hexcode: string } }> };
    expect(colors.items.find((c) => c.id === created.id)?.data.hexcode).toBe("#00cc00");

    const unpublished = await client.contents.putContentStatus("core-theme-colors", created.id, { status: "Draft" }, {});
    expect(unpublished.status).toBe("Draft");
    const del = await fetch(`${server.url}/api/squidex/api/content/praxisnetz/core-theme-colors/${created.id}`, { method: "DELETE", headers: { authorization: `Bearer ${t}` } });
    expect(del.status).toBe(204);
    const gone = await fetch(`${server.url}/api/squidex/api/content/praxisnetz/core-theme-colors/${created.id}`, { headers: { authorization: `Bearer ${t}`, "X-Unpublished": "1" } });
    expect(gone.status).toBe(404);
  });

  it("serves schemas and languages", async () => {
    const schema = await client.schemas.getSchema("core-pages");
    expect(schema.name).toBe("core-pages");
    const t = await token();
    const raw = await (await fetch(`${server.url}/api/squidex/api/apps/praxisnetz/schemas/core-pages`, { headers: { authorization: `Bearer ${t}` } })).text();
    // Squidex writes the discriminator first; some clients depend on it.
    expect(raw).toMatch(/"properties":\{"fieldType":"String"/);
    const langs = await (await fetch(`${server.url}/api/squidex/api/apps/praxisnetz/languages`, { headers: { authorization: `Bearer ${t}` } })).json();
    expect(langs).toMatchObject({ items: [{ iso2Code: "de", isMaster: true }, { iso2Code: "en", fallback: ["de"] }] });
  });

  it("uploads an asset (multipart), serves it, rejects a lying MIME type, and deletes it", async () => {
    const asset = await client.assets.postAsset({ file: new Blob([PNG_2x1], { type: "image/png" }), id: "sdk-test-png" } as never);
    expect(asset).toMatchObject({ id: "sdk-test-png", mimeType: "image/png", fileSize: PNG_2x1.length, pixelWidth: 2, pixelHeight: 1, isImage: true });
    const content = await fetch(`${server.url}/api/assets/sdk-test-png/x.png`);
    expect(Buffer.from(await content.arrayBuffer())).toEqual(PNG_2x1);

    const t = await token();
    const form = new FormData();
    form.append("file", new Blob([PNG_2x1], { type: "image/jpeg" }), "photo.jpg");
    const lying = await fetch(`${server.url}/api/squidex/api/apps/praxisnetz/assets`, { method: "POST", headers: { authorization: `Bearer ${t}` }, body: form });
    expect(lying.status).toBe(400);
    expect(((await lying.json()) as { message: string }).message).toContain("image/png");

    const empty = await fetch(`${server.url}/api/squidex/api/apps/praxisnetz/assets`, { method: "POST", headers: { authorization: `Bearer ${t}` }, body: new FormData() });
    expect(empty.status).toBe(400);

    const del = await fetch(`${server.url}/api/squidex/api/apps/praxisnetz/assets/sdk-test-png`, { method: "DELETE", headers: { authorization: `Bearer ${t}` } });
    expect(del.status).toBe(204);
    expect((await fetch(`${server.url}/api/assets/sdk-test-png/x.png`)).status).toBe(404);
  });

  it("serves resized variants of raster images for srcset", async () => {
    const { default: sharp } = await import("sharp");
    const big = await sharp({ create: { width: 1600, height: 800, channels: 3, background: "#0f5e63" } }).png().toBuffer();
    await client.assets.postAsset({ file: new Blob([big], { type: "image/png" }), id: "wide-png" } as never);
    const small = await fetch(`${server.url}/api/assets/wide-png/wide.png?width=480`);
    expect(small.status).toBe(200);
    expect(small.headers.get("content-type")).toBe("image/png");
    const meta = await sharp(Buffer.from(await small.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([480, 240]);
    const wider = await fetch(`${server.url}/api/assets/wide-png/wide.png?width=1920`);
    expect(Buffer.from(await wider.arrayBuffer())).toEqual(big);
    const odd = await fetch(`${server.url}/api/assets/wide-png/wide.png?width=123`);
    expect(odd.status).toBe(400);
    expect(((await odd.json()) as { message: string }).message).toContain("width must be one of");
  });

  it("refuses uploads over the size limit with 413", async () => {
    const small = await startServer({ env: { ASSET_MAX_BYTES: "1000", SEED_DEMO: "false" } });
    try {
      const t = await squidexToken(small);
      const big = Buffer.concat([PNG_2x1, Buffer.alloc(5000)]);
      const form = new FormData();
      form.append("file", new Blob([big], { type: "image/png" }), "big.png");
      const up = await fetch(`${small.url}/api/squidex/api/apps/praxisnetz/assets`, { method: "POST", headers: { authorization: `Bearer ${t}` }, body: form });
      expect(up.status).toBe(413);
    } finally {
      await small.stop();
    }
  });
});
