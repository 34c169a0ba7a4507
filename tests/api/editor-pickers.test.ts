import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, DEMO_ADMIN, postForm, signIn } from "../support/auth";
import { fetchJson, startServer, type RunningServer } from "../support/server";

/**
 * The admin pickers' endpoints over real HTTP against the production build: /api/editor/items/{schema},
 * /api/editor/assets and /api/editor/geocode. Signed-in people only; hostile input is a 400 with a
 * message in the person's language, never a 5xx. The geocoder is a real local HTTP server that can be
 * told to fail, so the directory's fallback answers.
 */

let server: RunningServer;
let geocoder: http.Server;
let geocoderFails = false;
const cookie = { editor: "", english: "" };

beforeAll(async () => {
  geocoder = http.createServer((req, res) => {
    if (geocoderFails) {
      res.statusCode = 503;
      return res.end("down");
    }
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify([{ display_name: "Glockengasse 3, 50667 Köln, Deutschland", lat: "50.9388", lon: "6.9531" }]));
  });
  await new Promise<void>((resolve) => geocoder.listen(0, "127.0.0.1", resolve));
  server = await startServer({ env: { MAP_STYLE_URL: "https://tiles.example.org/styles/plain", GEOCODER_URL: `http://127.0.0.1:${(geocoder.address() as AddressInfo).port}/search` } });
  const admin = await signIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
  cookie.editor = await createUser(server, admin, { email: "picker-editor@example.com", password: "editor-password-123" });
  cookie.english = await createUser(server, admin, { email: "picker-english@example.com", password: "editor-password-123" });
  const res = await postForm(server, "/manage/account", { intent: "language", language: "en" }, cookie.english);
  await res.arrayBuffer();
  expect(res.status).toBeLessThan(400);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => geocoder.close(() => resolve()));
});

const get = async (path: string, who?: string, method = "GET") => {
  const { json, status } = await fetchJson(`${server.url}${path}`, { method, headers: { accept: "application/json", origin: server.url, ...(who ? { cookie: who } : {}) } });
  return { status, body: json as any };
};

describe("signed out", () => {
  it("gets a 401 from every picker endpoint", async () => {
    for (const path of ["/api/editor/items/gm-content-practitioners?q=Maria", "/api/editor/assets", "/api/editor/geocode?q=Berlin"]) expect((await get(path)).status, path).toBe(401);
  });
});

describe("/api/editor/items/{schema}", () => {
  it("finds practitioners by name, told apart by their city, paged", async () => {
    const found = await get("/api/editor/items/gm-content-practitioners?q=Maria%20Schneider", cookie.editor);
    expect(found.status).toBe(200);
    expect(found.body.total).toBe(2);
    expect(found.body.items.map((i: any) => [i.title, i.detail])).toEqual([
      ["Maria Schneider", "Köln"],
      ["Maria Schneider", "Leipzig"],
    ]);
    const second = await get("/api/editor/items/gm-content-practitioners?q=Maria%20Schneider&skip=1", cookie.editor);
    expect(second.body.items.map((i: any) => i.id)).toEqual([found.body.items[1].id]);
    const all = await get("/api/editor/items/gm-content-practitioners", cookie.editor);
    expect(all.body.items).toHaveLength(20);
    expect(all.body.total).toBeGreaterThan(20);
  });

  it("refuses hostile input with a 400 and a message in the person's language, never a 5xx", async () => {
    for (const query of ["q=" + "x".repeat(3000), "q=%00", "skip=-1", "skip=abc", "skip=1e5", "skip=" + "9".repeat(30)]) {
      const res = await get(`/api/editor/items/gm-content-practitioners?${query}`, cookie.editor);
      expect(res.status, query).toBe(400);
      expect(typeof res.body.message, query).toBe("string");
    }
    expect((await get("/api/editor/items/gm-content-practitioners?skip=x", cookie.editor)).body.message).toBe("Die Position in der Liste muss eine ganze Zahl ab 0 sein.");
    expect((await get("/api/editor/items/gm-content-practitioners?skip=x", cookie.english)).body.message).toBe("The position in the list must be a whole number from 0.");
    for (const schema of ["no-such-collection", "component-seo", "%2E%2E", "a".repeat(300)]) expect((await get(`/api/editor/items/${schema}`, cookie.editor)).status, schema).toBe(404);
    expect((await get("/api/editor/items/gm-content-practitioners", cookie.editor, "POST")).status).toBe(405);
  });
});

describe("/api/editor/assets", () => {
  it("lists the library newest first, searches file names and refuses bad positions", async () => {
    const all = await get("/api/editor/assets", cookie.editor);
    expect(all.status).toBe(200);
    expect(all.body.total).toBeGreaterThan(0);
    const one = all.body.items[0];
    expect(one).toEqual({ id: expect.any(String), fileName: expect.any(String), url: expect.stringMatching(/^\/api\/assets\//), mimeType: expect.any(String), isImage: expect.any(Boolean) });
    const byName = await get(`/api/editor/assets?q=${encodeURIComponent(one.fileName)}`, cookie.editor);
    expect(byName.body.items.map((a: any) => a.id)).toContain(one.id);
    const images = await get("/api/editor/assets?images=1", cookie.editor);
    expect(images.body.items.every((a: any) => a.isImage)).toBe(true);
    expect((await get("/api/editor/assets?skip=-3", cookie.editor)).status).toBe(400);
  });
});

describe("/api/editor/geocode", () => {
  it("answers from the geocoder, and from the directory when the geocoder fails", async () => {
    geocoderFails = false;
    const asked = await get("/api/editor/geocode?q=Glockengasse%203%20K%C3%B6ln", cookie.editor);
    expect(asked.body).toEqual({ source: "geocoder", places: [{ label: "Glockengasse 3, 50667 Köln, Deutschland", latitude: 50.9388, longitude: 6.9531 }] });
    geocoderFails = true;
    const fallback = await get("/api/editor/geocode?q=Glockengasse%203", cookie.editor);
    expect(fallback.status).toBe(200);
    expect(fallback.body.source).toBe("directory");
    expect(fallback.body.places).toEqual([{ label: "Glockengasse 3, 50667 Köln", latitude: expect.any(Number), longitude: expect.any(Number) }]);
  });

  it("refuses addresses nobody types", async () => {
    for (const q of ["", "a", "x".repeat(201), "Berlin%00"]) expect((await get(`/api/editor/geocode?q=${q}`, cookie.editor)).status, q).toBe(400);
    expect((await get("/api/editor/geocode?q=a", cookie.english)).body.message).toBe("Please enter an address of 2 to 200 characters.");
  });
});

describe("the place control's map", () => {
  it("may load its style in the admin only; visitors' pages admit the tile service after consent alone", async () => {
    const admin = await fetch(`${server.url}/manage/content/gm-content-practitioners/prac-002`, { headers: { cookie: cookie.editor } });
    await admin.arrayBuffer();
    expect(admin.status).toBe(200);
    expect(admin.headers.get("content-security-policy")).toMatch(/connect-src 'self' https:\/\/tiles\.example\.org;/);
    const site = await fetch(`${server.url}/`);
    await site.arrayBuffer();
    expect(site.headers.get("content-security-policy")).toMatch(/connect-src 'self';/);
  });
});
