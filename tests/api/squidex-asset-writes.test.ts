import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, DEMO_ADMIN, openStore, signIn } from "../support/auth";
import { squidexToken, startServer, type RunningServer } from "../support/server";

/**
 * Squidex's asset writes beyond upload, rename and move, over HTTP against the production build:
 * annotations with slug, metadata and protection (`PUT assets/{id}`), a new file
 * (`PUT assets/{id}/content`), the upsert (`POST assets/{id}`) and bulk jobs (`POST assets/bulk`),
 * each through the one policy and audited, with Squidex's status codes and a 4xx with a message
 * for every bad input.
 */
let server: RunningServer;
let bearer: Record<string, string>;
let editor: Record<string, string>;
const APP = "praxisnetz";
const api = (rest: string) => `${server.url}/api/squidex/api/apps/${APP}/assets${rest}`;
const content = (idOrSlug: string, query = "") => `${server.url}/api/squidex/api/assets/${APP}/${idOrSlug}${query}`;

async function send(method: string, rest: string, body?: unknown, headers: Record<string, string> = bearer) {
  const res = await fetch(api(rest), {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : null };
}

/** A multipart request with the file as part `file` (or under `part`), and extra form fields. */
async function sendFile(method: string, rest: string, file: { name: string; type: string; bytes: Buffer | string }, opts: { part?: string; fields?: Record<string, string>; headers?: Record<string, string> } = {}) {
  const form = new FormData();
  for (const [key, value] of Object.entries(opts.fields ?? {})) form.append(key, value);
  form.append(opts.part ?? "file", new Blob([typeof file.bytes === "string" ? file.bytes : new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const res = await fetch(api(rest), { method, headers: { ...bearer, ...opts.headers }, body: form });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : null };
}

const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 200 } } }).png().toBuffer();

function audited(action: string): Array<{ item_id: string; user_email: string; version: number | null; detail: string | null }> {
  const db = openStore(server.dataDir);
  try {
    return db.prepare("select item_id, user_email, version, detail from audit_log where action = ? order by id").all(action) as ReturnType<typeof audited>;
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  server = await startServer({ env: { RATE_LIMIT_PER_HOUR: "100000" } });
  bearer = { authorization: `Bearer ${await squidexToken(server)}` };
  const admin = await signIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await createUser(server, admin, { email: "redaktion@praxisnetz.localhost", password: "redaktion-passwort-1" });
  editor = { cookie: await signIn(server, "redaktion@praxisnetz.localhost", "redaktion-passwort-1"), origin: new URL(server.url).origin };
}, 300_000);
afterAll(async () => {
  await server?.stop();
});

describe("PUT assets/{id}: slug, metadata and protection", () => {
  it("annotates in one new version, answers the AssetDto with them, and serves the file by its slug", async () => {
    const made = (await sendFile("POST", "", { name: "Praxis Logo.png", type: "image/png", bytes: await png(60, 40) })).json;
    expect(made).toMatchObject({ slug: "praxis-logo.png", isProtected: false, metadata: { pixelWidth: 60, pixelHeight: 40 } });
    const res = await send("PUT", `/${made.id}`, { slug: "logo-der-praxis.png", metadata: { description: "Logo", year: 2026, onHome: true, pixelWidth: 1 }, tags: ["logo"] }, { ...bearer, "If-Match": `"${made.version}"` });
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBe(`"${made.version + 1}"`);
    expect(res.json).toMatchObject({ id: made.id, slug: "logo-der-praxis.png", tags: ["logo"], version: made.version + 1, metadata: { pixelWidth: 60, pixelHeight: 40, description: "Logo", year: 2026, onHome: true } });
    expect((await send("GET", `/${made.id}`)).json).toMatchObject({ slug: "logo-der-praxis.png", metadata: { description: "Logo" } });
    const bySlug = await fetch(content("logo-der-praxis.png"));
    expect(bySlug.status).toBe(200);
    expect((await sharp(Buffer.from(await bySlug.arrayBuffer())).metadata()).width).toBe(60);
    expect(audited("annotate-asset")).toContainEqual(expect.objectContaining({ item_id: made.id, user_email: "client:praxisnetz:default", version: made.version + 1 }));
  });

  it("refuses a bad slug, a taken slug, metadata that is not flat or too large, a stale version and an unknown id, changing nothing", async () => {
    const a = (await sendFile("POST", "", { name: "a.txt", type: "text/plain", bytes: "A" })).json;
    const b = (await sendFile("POST", "", { name: "b.txt", type: "text/plain", bytes: "B" })).json;
    await send("PUT", `/${a.id}`, { slug: "vergeben.txt" });
    const cases: Array<[unknown, RegExp]> = [
      [{ slug: "Mit Leerzeichen.TXT" }, /slug .*lower-case.*e\.g\. "mit-leerzeichen\.txt"/],
      [{ slug: "../etc/passwd" }, /lower-case/],
      [{ slug: "vergeben.txt" }, /taken by another asset/],
      [{ slug: a.id }, /taken by another asset/],
      [{ slug: 7 }, /slug must be a string/],
      [{ metadata: { nested: { deep: 1 } } }, /flat/],
      [{ metadata: ["x"] }, /metadata must be an object/],
      [{ metadata: Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`key${i}`, "x".repeat(600)])) }, /at most 4096/],
      [{ isProtected: "ja" }, /isProtected must be true or false/],
    ];
    for (const [body, message] of cases) {
      const res = await send("PUT", `/${b.id}`, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json.message).toMatch(message);
    }
    expect((await send("PUT", `/${b.id}`, { slug: "frei.txt" }, { ...bearer, "If-Match": '"7"' })).status).toBe(412);
    const unknown = await send("PUT", "/no-such-asset", { slug: "frei.txt" });
    expect(unknown.status).toBe(404);
    expect(unknown.json.message).toMatch(/not found/);
    expect((await send("PUT", `/${b.id}`, "not json")).status).toBe(400);
    expect((await send("GET", `/${b.id}`)).json).toMatchObject({ slug: "b.txt", version: b.version, metadata: {} });
  });

  it("a protected file goes only to a token or a signed-in person, on both content routes, and visitors' asset list leaves it out", async () => {
    const made = (await sendFile("POST", "", { name: "befund.txt", type: "text/plain", bytes: "vertraulich" })).json;
    const res = await send("PUT", `/${made.id}`, { isProtected: true });
    expect(res.json).toMatchObject({ isProtected: true });
    const anonymous = await fetch(content(made.id));
    expect(anonymous.status).toBe(403);
    expect(((await anonymous.json()) as { message: string }).message).toMatch(/protected/);
    const withToken = await fetch(content(made.id), { headers: bearer });
    expect(withToken.status).toBe(200);
    expect(withToken.headers.get("cache-control")).toBe("private, no-store");
    expect(await withToken.text()).toBe("vertraulich");
    expect((await fetch(content(made.id), { headers: { cookie: editor.cookie! } })).status).toBe(200);
    // The site's own route.
    expect((await fetch(`${server.url}/api/assets/${made.id}`)).status).toBe(403);
    const signedIn = await fetch(`${server.url}/api/assets/${made.id}`, { headers: { cookie: editor.cookie! } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get("cache-control")).toBe("private, no-store");
    const filtered = await send("GET", `?$filter=${encodeURIComponent("isProtected eq true")}`);
    expect(filtered.json.items.map((i: { id: string }) => i.id)).toEqual([made.id]);
    const visitorList = (await (await fetch(`${server.url}/api/getassets`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ language: "de", cache: false }) })).json()) as { items: Array<{ id: string }> };
    expect(visitorList.items.map((i) => i.id)).not.toContain(made.id);
    // Unprotected again: public.
    await send("PUT", `/${made.id}`, { isProtected: false });
    expect((await fetch(content(made.id))).status).toBe(200);
  });
});

describe("PUT assets/{id}/content: a new file", () => {
  it("keeps the id, moves version and file version on, takes name, type, size and pixel sizes from the new file, and drops the old file's variants", async () => {
    const made = (await sendFile("POST", "", { name: "alt.png", type: "image/png", bytes: await png(80, 60) })).json;
    expect((await fetch(content(made.id, "?width=40"))).status).toBe(200);
    const dir = path.join(server.dataDir, "assets", made.id);
    expect(fs.readdirSync(dir).some((f) => f.startsWith("0-r-"))).toBe(true);
    const res = await sendFile("PUT", `/${made.id}/content`, { name: "neu.webp", type: "image/webp", bytes: await sharp(await png(30, 20)).webp().toBuffer() }, { headers: { "If-Match": `"${made.version}"` } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: made.id, slug: made.slug, fileName: "neu.webp", mimeType: "image/webp", pixelWidth: 30, pixelHeight: 20, version: made.version + 1, fileVersion: made.fileVersion + 1 });
    expect(res.json.fileSize).not.toBe(made.fileSize);
    expect(res.headers.get("etag")).toBe(`"${made.version + 1}"`);
    expect(fs.readdirSync(dir)).toEqual(["1"]);
    const served = await fetch(content(made.id));
    expect(served.headers.get("content-type")).toBe("image/webp");
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(30);
    expect(audited("replace-asset-content")).toContainEqual(expect.objectContaining({ item_id: made.id, user_email: "client:praxisnetz:default", version: made.version + 1, detail: "neu.webp" }));
  });

  it("refuses what is no file upload, a file its type contradicts, a stale version and an unknown id, with a message", async () => {
    const made = (await sendFile("POST", "", { name: "bleibt.txt", type: "text/plain", bytes: "bleibt" })).json;
    const json = await send("PUT", `/${made.id}/content`, { file: "x" });
    expect(json.status).toBe(400);
    expect(json.json.message).toMatch(/multipart\/form-data/);
    const noFile = await sendFile("PUT", `/${made.id}/content`, { name: "x.txt", type: "text/plain", bytes: "x" }, { part: "datei" });
    expect(noFile.status).toBe(400);
    expect(noFile.json.message).toMatch(/no part named file/);
    const lying = await sendFile("PUT", `/${made.id}/content`, { name: "x.jpg", type: "image/jpeg", bytes: await png(4, 4) });
    expect(lying.status).toBe(400);
    expect(lying.json.message).toMatch(/image\/png/);
    expect((await sendFile("PUT", `/${made.id}/content`, { name: "x.txt", type: "text/plain", bytes: "x" }, { headers: { "If-Match": '"9"' } })).status).toBe(412);
    const unknown = await sendFile("PUT", "/no-such-asset/content", { name: "x.txt", type: "text/plain", bytes: "x" });
    expect(unknown.status).toBe(404);
    expect(unknown.json.message).toMatch(/not found/);
    expect(await (await fetch(content(made.id))).text()).toBe("bleibt");
    // Not signed in: no body is read, nothing changes.
    const anonymous = await fetch(api(`/${made.id}/content`), { method: "PUT", body: new FormData() });
    expect(anonymous.status).toBe(401);
  });
});

describe("POST assets/{id}: upsert", () => {
  it("creates the asset under that id (into parentId), then gives it a new file; 200 both times, as in Squidex", async () => {
    const folder = (await send("POST", "/folders", { folderName: "Upsert-Ordner" })).json;
    const created = await sendFile("POST", `/upsert-logo?parentId=${folder.id}`, { name: "logo.txt", type: "text/plain", bytes: "eins" });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ id: "upsert-logo", parentId: folder.id, fileName: "logo.txt", version: 0, fileVersion: 0 });
    expect(audited("upload-asset")).toContainEqual(expect.objectContaining({ item_id: "upsert-logo" }));
    const replaced = await sendFile("POST", "/upsert-logo", { name: "logo-2.txt", type: "text/plain", bytes: "zwei" });
    expect(replaced.status).toBe(200);
    expect(replaced.json).toMatchObject({ id: "upsert-logo", parentId: folder.id, fileName: "logo-2.txt", version: 1, fileVersion: 1 });
    expect(await (await fetch(content("upsert-logo"))).text()).toBe("zwei");
    // A form field names the folder as well: the root.
    const moved = await sendFile("POST", "/upsert-logo", { name: "logo-3.txt", type: "text/plain", bytes: "drei" }, { fields: { parentId: "" } });
    expect(moved.json).toMatchObject({ parentId: "00000000-0000-0000-0000-000000000000", version: 2 });
  });

  it("refuses a bad id, an unknown folder, a missing file and a body that is no multipart, creating nothing", async () => {
    const badId = await sendFile("POST", "/bad%20id", { name: "x.txt", type: "text/plain", bytes: "x" });
    expect(badId.status).toBe(400);
    expect(badId.json.message).toMatch(/not a valid asset id/);
    const unknownFolder = await sendFile("POST", "/upsert-x?parentId=no-such-folder", { name: "x.txt", type: "text/plain", bytes: "x" });
    expect(unknownFolder.status).toBe(400);
    expect(unknownFolder.json.message).toMatch(/does not exist/);
    expect((await sendFile("POST", "/upsert-x", { name: "x.txt", type: "text/plain", bytes: "x" }, { part: "upload" })).status).toBe(400);
    const notMultipart = await send("POST", "/upsert-x", { fileName: "x.txt" });
    expect(notMultipart.status).toBe(400);
    expect(notMultipart.json.message).toMatch(/multipart/);
    expect((await send("GET", "/upsert-x")).status).toBe(404);
  });
});

describe("POST assets/bulk", () => {
  it("runs Annotate, Move and Delete jobs one by one; a failed job is reported and undoes nothing", async () => {
    const folder = (await send("POST", "/folders", { folderName: "Bulk-Ordner" })).json;
    const one = (await sendFile("POST", "", { name: "eins.txt", type: "text/plain", bytes: "1" })).json;
    const two = (await sendFile("POST", "", { name: "zwei.txt", type: "text/plain", bytes: "2" })).json;
    const three = (await sendFile("POST", "", { name: "drei.txt", type: "text/plain", bytes: "3" })).json;
    const res = await send("POST", "/bulk", {
      jobs: [
        { type: "Annotate", id: one.id, fileName: "eins-neu.txt", slug: "eins-bulk.txt", tags: ["bulk"], metadata: { quelle: "bulk" }, expectedVersion: one.version },
        { type: "Annotate", id: two.id, slug: "Kein Slug" },
        { type: "move", id: two.id, parentId: folder.id },
        { type: "Delete", id: three.id, permanent: true },
        { type: "Delete", id: "no-such-asset" },
        { type: "Annotate", id: one.id, fileName: "stale.txt", expectedVersion: one.version },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.json).toHaveLength(6);
    expect(res.json.map((r: { jobIndex: number; id: string }) => [r.jobIndex, r.id])).toEqual([[0, one.id], [1, two.id], [2, two.id], [3, three.id], [4, "no-such-asset"], [5, one.id]]);
    expect(res.json.map((r: { error?: { statusCode: number } }) => r.error?.statusCode ?? null)).toEqual([null, 400, null, null, 404, 412]);
    expect(res.json[1].error.message).toMatch(/slug/);
    expect((await send("GET", `/${one.id}`)).json).toMatchObject({ fileName: "eins-neu.txt", slug: "eins-bulk.txt", tags: ["bulk"], metadata: { quelle: "bulk" }, version: one.version + 1 });
    expect((await send("GET", `/${two.id}`)).json).toMatchObject({ parentId: folder.id, slug: "zwei.txt" });
    expect((await send("GET", `/${three.id}`)).status).toBe(404);
    expect(audited("move-asset")).toContainEqual(expect.objectContaining({ item_id: two.id, user_email: "client:praxisnetz:default" }));
    expect(audited("delete-asset")).toContainEqual(expect.objectContaining({ item_id: three.id }));
  });

  it("with continueOnError false stops at the first failed job and reports the rest as not run", async () => {
    const a = (await sendFile("POST", "", { name: "a.txt", type: "text/plain", bytes: "a" })).json;
    const res = await send("POST", "/bulk", {
      continueOnError: false,
      jobs: [
        { type: "Annotate", id: a.id, tags: ["erst"] },
        { type: "Move", id: a.id, parentId: "no-such-folder" },
        { type: "Annotate", id: a.id, tags: ["nie"] },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.json.map((r: { error?: { statusCode: number } }) => r.error?.statusCode ?? null)).toEqual([null, 400, 409]);
    expect(res.json[2].error.message).toMatch(/Not run: job 1 failed/);
    expect((await send("GET", `/${a.id}`)).json.tags).toEqual(["erst"]);
  });

  it("asks the policy for each job: an editor annotates, but deleting is for superusers", async () => {
    const made = (await sendFile("POST", "", { name: "redaktion.txt", type: "text/plain", bytes: "r" })).json;
    const res = await send("POST", "/bulk", { jobs: [{ type: "Annotate", id: made.id, tags: ["redaktion"] }, { type: "Delete", id: made.id }] }, editor);
    expect(res.status).toBe(200);
    expect(res.json[0].error).toBeUndefined();
    expect(res.json[1].error).toMatchObject({ statusCode: 403 });
    expect((await send("GET", `/${made.id}`)).json.tags).toEqual(["redaktion"]);
    expect(audited("annotate-asset")).toContainEqual(expect.objectContaining({ item_id: made.id, user_email: "redaktion@praxisnetz.localhost" }));
    expect((await fetch(api("/bulk"), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jobs: [] }) })).status).toBe(401);
  });

  it("refuses a request it cannot read whole with a 400 and a message, before any job runs", async () => {
    const made = (await sendFile("POST", "", { name: "ruhig.txt", type: "text/plain", bytes: "r" })).json;
    const cases: Array<[unknown, RegExp]> = [
      [{ jobs: [{ type: "Annotate", id: made.id, tags: ["x"] }, { type: "Explode", id: made.id }] }, /jobs\[1\]\.type must be one of Annotate, Move, Delete/],
      [{ jobs: [{ type: "Delete" }] }, /jobs\[0\] \(Delete\) needs the asset's "id"/],
      [{ jobs: [{ type: "Move", id: made.id, parentId: 5 }] }, /parentId/],
      [{ jobs: [{ type: "Annotate", id: made.id, expectedVersion: "1" }] }, /expectedVersion/],
      [{ jobs: {} }, /Send \{"jobs"/],
      [{ jobs: [], continueOnError: "nein" }, /continueOnError/],
      [{ jobs: Array.from({ length: 201 }, () => ({ type: "Delete", id: made.id })) }, /at most 200/],
      [[1, 2], /Send \{"jobs"/],
    ];
    for (const [body, message] of cases) {
      const res = await send("POST", "/bulk", body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json.message).toMatch(message);
    }
    expect((await send("GET", `/${made.id}`)).json).toMatchObject({ version: made.version, tags: [] });
    expect(await send("POST", "/bulk", { jobs: [] })).toMatchObject({ status: 200, json: [] });
  });
});
