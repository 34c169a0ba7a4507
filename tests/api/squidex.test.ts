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

describe("Squidex asset folders, moves and renames", () => {
  const api = (rest: string) => `${server.url}/api/squidex/api/apps/praxisnetz/assets${rest}`;
  const send = async (method: string, rest: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(api(rest), {
      method,
      headers: { authorization: `Bearer ${await token()}`, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : null };
  };
  const upload = async (query: string, fields: Record<string, string> = {}, auth: Record<string, string> | undefined = undefined) => {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    form.append("file", new Blob([PNG_2x1], { type: "image/png" }), "im-ordner.png");
    const res = await fetch(api(query), { method: "POST", headers: auth ?? { authorization: `Bearer ${await token()}` }, body: form });
    return { status: res.status, json: await res.json() };
  };

  it("creates, lists (with path), renames, moves and deletes folders with Squidex's DTOs and status codes", async () => {
    const top = await send("POST", "/folders", { folderName: "Praxis", parentId: "" });
    expect(top.status).toBe(201);
    expect(top.json).toMatchObject({ id: expect.any(String), parentId: "00000000-0000-0000-0000-000000000000", folderName: "Praxis", version: 0, _links: expect.any(Object) });
    expect(top.headers.get("etag")).toBe('"0"');
    const child = await send("POST", "/folders", { folderName: "Team", parentId: top.json.id });
    expect(child.status).toBe(201);

    const list = await send("GET", `/folders?parentId=${top.json.id}`);
    expect(list.status).toBe(200);
    expect(list.json).toMatchObject({ total: 1, items: [{ id: child.json.id, folderName: "Team", parentId: top.json.id }], path: [{ id: top.json.id, folderName: "Praxis" }] });
    const root = await send("GET", "/folders");
    expect(root.json.items.map((f: { id: string }) => f.id)).toContain(top.json.id);
    expect(root.json.path).toEqual([]);
    expect((await send("GET", `/folders?parentId=${child.json.id}&scope=Path`)).json).toMatchObject({ total: 0, items: [], path: [{ folderName: "Praxis" }, { folderName: "Team" }] });
    expect((await send("GET", "/folders?parentId=no-such-folder")).status).toBe(404);

    const renamed = await send("PUT", `/folders/${child.json.id}`, { folderName: "Team 2025" }, { "If-Match": '"0"' });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toMatchObject({ folderName: "Team 2025", version: 1 });
    const stale = await send("PUT", `/folders/${child.json.id}`, { folderName: "Alt" }, { "If-Match": '"0"' });
    expect(stale.status).toBe(412);
    expect(stale.json).toMatchObject({ statusCode: 412, errorCode: "OBJECT_VERSION_CONFLICT" });

    // No cycles: a folder cannot go below itself.
    const cycle = await send("PUT", `/folders/${top.json.id}/parent`, { parentId: child.json.id });
    expect(cycle.status).toBe(400);
    expect(cycle.json.message).toMatch(/subfolders/);
    const moved = await send("PUT", `/folders/${child.json.id}/parent`, { parentId: null });
    expect(moved.status).toBe(200);
    expect(moved.json).toMatchObject({ parentId: "00000000-0000-0000-0000-000000000000", version: 2 });

    expect((await send("DELETE", `/folders/${child.json.id}`)).status).toBe(204);
    expect((await send("DELETE", `/folders/${child.json.id}`)).status).toBe(404);
  });

  it("refuses hostile folder input with 4xx and a message", async () => {
    for (const folderName of ["", "  ", "a/b", "a\\b", "tab\tname", "..", "x".repeat(101), 7]) {
      const res = await send("POST", "/folders", { folderName });
      expect(res.status, JSON.stringify(folderName)).toBe(400);
      expect(res.json.message).toBeTruthy();
    }
    for (const [body, status] of [
      [{ folderName: "X", parentId: "no-such-folder" }, 400],
      [{ folderName: "X", parentId: "../../etc" }, 400],
      [{ folderName: "X", parentId: 5 }, 400],
      ["{not json", 400],
      [[1, 2], 400],
    ] as const) {
      const res = await send("POST", "/folders", body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.json.message).toBeTruthy();
    }
    expect((await send("GET", "/folders?scope=Everything")).status).toBe(400);
    expect((await send("PUT", "/folders/..%2F..%2Fetc", { folderName: "X" })).status).toBe(400);
    expect((await send("PUT", "/folders/no-such-folder", { folderName: "X" })).status).toBe(404);
    expect((await send("GET", "/folders/x/y/z")).status).toBe(404);
    const anonymous = await fetch(api("/folders"));
    expect(anonymous.status).toBe(401);
  });

  it("uploads into a folder (query ParentId or form field), lists by parentId, and refuses an unknown folder", async () => {
    const folder = (await send("POST", "/folders", { folderName: "Uploads" })).json;
    const byQuery = await upload(`?ParentId=${folder.id}`);
    expect(byQuery.status).toBe(201);
    expect(byQuery.json.parentId).toBe(folder.id);
    const byField = await upload("", { parentId: folder.id });
    expect(byField.status).toBe(201);
    expect(byField.json.parentId).toBe(folder.id);
    const inFolder = await send("GET", `?parentId=${folder.id}`);
    expect(inFolder.json.items.map((a: { id: string }) => a.id).sort()).toEqual([byQuery.json.id, byField.json.id].sort());
    expect(inFolder.json.total).toBe(2);

    const unknown = await upload("?ParentId=no-such-folder");
    expect(unknown.status).toBe(400);
    expect(unknown.json.message).toMatch(/does not exist/);
    expect((await upload("?parentId=..%2F..%2Fetc")).status).toBe(400);

    // A folder that holds something is not deleted.
    const full = await send("DELETE", `/folders/${folder.id}`);
    expect(full.status).toBe(409);
    expect(full.json.message).toMatch(/not empty/);

    // Moving the assets out (PUT assets/{id}/parent) empties it.
    for (const asset of [byQuery.json, byField.json]) {
      const out = await send("PUT", `/${asset.id}/parent`, { parentId: "00000000-0000-0000-0000-000000000000" });
      expect(out.status).toBe(200);
      expect(out.json).toMatchObject({ parentId: "00000000-0000-0000-0000-000000000000", version: 1 });
    }
    expect((await send("PUT", `/${byQuery.json.id}/parent`, { parentId: "no-such-folder" })).status).toBe(400);
    expect((await send("DELETE", `/folders/${folder.id}`)).status).toBe(204);
  });

  it("renames an asset through PUT assets/{id} with versions, and refuses bad names", async () => {
    const asset = (await upload("")).json;
    const renamed = await send("PUT", `/${asset.id}`, { fileName: "Empfang.png" }, { "If-Match": `"${asset.version}"` });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toMatchObject({ fileName: "Empfang.png", slug: asset.slug, version: asset.version + 1 });
    expect(renamed.headers.get("etag")).toBe(`"${asset.version + 1}"`);
    expect((await send("PUT", `/${asset.id}`, { fileName: "Alt.png" }, { "If-Match": `"${asset.version}"` })).status).toBe(412);
    for (const fileName of ["", "a/b.png", "a\u0000.png", "x".repeat(201)]) expect((await send("PUT", `/${asset.id}`, { fileName })).status).toBe(400);
    expect((await send("PUT", `/${asset.id}`, { fileName: "x.png", slug: "Kein Slug" })).status).toBe(400);
    expect((await send("PUT", "/no-such-asset", { fileName: "x.png" })).status).toBe(404);
  });

  it("audits every upload with who made it: an editor's session and a client token alike", async () => {
    const { DEMO_ADMIN, openStore, signIn } = await import("../support/auth");
    const cookie = await signIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
    const origin = new URL(server.url).origin;
    const editor = await upload("", {}, { cookie, origin });
    expect(editor.status).toBe(201);
    expect(editor.json.createdBy).toMatch(/^subject:/);
    const client = await upload("");
    expect(client.status).toBe(201);
    const db = openStore(server.dataDir);
    try {
      const rows = db.prepare("select item_id, user_email, detail from audit_log where action = 'upload-asset'").all() as Array<{ item_id: string; user_email: string; detail: string }>;
      expect(rows).toContainEqual({ item_id: editor.json.id, user_email: DEMO_ADMIN.email, detail: "im-ordner.png" });
      expect(rows).toContainEqual({ item_id: client.json.id, user_email: "client:praxisnetz:default", detail: "im-ordner.png" });
    } finally {
      db.close();
    }
  });
});
