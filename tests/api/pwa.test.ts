import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../support/auth";
import { squidexToken, startServer, type RunningServer } from "../support/server";

/** The PWA's server side: the worker script, build pointers, manifests, icons, and what must never be cached. */
describe("PWA endpoints", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });
  const get = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);

  it("serves the worker at /sw.js, revalidated every time, naming the current build", async () => {
    const res = await get("/sw.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const latest = await get("/builds/latest.json");
    expect(latest.headers.get("cache-control")).toBe("no-cache");
    const { id } = (await latest.json()) as { id: string };
    expect(id).toMatch(/^[0-9a-f]{8}$/);
    expect(await res.text()).toContain(`const BUILD = "${id}"`);
    const meta = await get(`/builds/meta/${id}.json`);
    expect(meta.status).toBe(200);
    expect(await meta.json()).toMatchObject({ id, pages: "network-first", offline: { de: "/offline", en: "/en/offline" } });
    const unknown = await get("/builds/meta/0000.json");
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { message: string }).message).toContain(id);
  });

  it("lists the pages marked critical for the worker to keep, and follows the content", async () => {
    const list = async () => {
      const res = await get("/pwa/critical.json");
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-cache");
      return ((await res.json()) as { paths: string[] }).paths;
    };
    // The demo's home page is critical, in both languages; the about page is not.
    expect(await list()).toEqual(expect.arrayContaining(["/", "/en"]));
    expect(await list()).not.toContain("/ueber-uns");
    // Marked critical through the Squidex API: listed on the next ask, no new worker needed.
    const patch = await fetch(`${server.url}/api/squidex/api/content/praxisnetz/core-pages/page-about`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${await squidexToken(server)}`, "content-type": "application/json" },
      body: JSON.stringify({ critical: { iv: true } }),
    });
    expect(patch.status).toBe(200);
    expect(await list()).toEqual(expect.arrayContaining(["/ueber-uns", "/en/about-us"]));
    expect(await (await get("/sw.js")).text()).toContain('const CRITICAL = "/pwa/critical.json"');
  });

  it("offers a manifest per language with icons that exist, including a maskable one", async () => {
    for (const [path, lang, start] of [["/manifest.webmanifest", "de", "/"], ["/en/manifest.webmanifest", "en", "/en"]] as const) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/manifest\+json/);
      const manifest = (await res.json()) as { lang: string; start_url: string; scope: string; theme_color: string; icons: Array<{ src: string; sizes: string; purpose: string }> };
      expect(manifest).toMatchObject({ lang, start_url: start, scope: "/" });
      expect(manifest.theme_color).toMatch(/^#[0-9a-f]{3,8}$/i);
      expect(manifest.icons.map((i) => i.purpose).sort()).toEqual(["any", "any", "maskable"]);
      for (const icon of manifest.icons) {
        const png = await get(icon.src);
        expect(png.status, icon.src).toBe(200);
        expect(png.headers.get("content-type")).toBe("image/png");
        const bytes = Buffer.from(await png.arrayBuffer());
        // PNG signature, and the IHDR width as the manifest says.
        expect(bytes.subarray(1, 4).toString()).toBe("PNG");
        expect(`${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`).toBe(icon.sizes);
      }
    }
    const bad = await get("/pwa/icons/icon-9999.png");
    expect(bad.status).toBe(404);
  });

  it("renders the offline pages in both languages, without scripts", async () => {
    for (const [path, title] of [["/offline", "Sie sind offline"], ["/en/offline", "You are offline"]] as const) {
      const html = await (await get(path)).text();
      expect(html).toContain(title);
      expect(html).not.toMatch(/<script/);
    }
  });

  it("marks every answer to a signed-in browser private, no-store; anonymous pages stay shareable", async () => {
    const anonymous = await get("/practitioners");
    expect(anonymous.headers.get("cache-control") ?? "").not.toMatch(/no-store|private/);
    const cookie = await signIn(server, "admin@praxisnetz.localhost", "praxisnetz-demo");
    for (const path of ["/practitioners", "/", "/en", "/manage/pages"]) {
      const res = await get(path, { headers: { cookie } });
      expect(res.headers.get("cache-control"), path).toMatch(/private/);
      expect(res.headers.get("cache-control"), path).toMatch(/no-store/);
    }
  });

  it("answers no-store for pages carrying booker or subscriber data", async () => {
    const html = await (await get("/termine")).text();
    const book = /href="(\/appointments\/book\/[^"?]+)"/.exec(html)?.[1];
    expect(book, "the appointments page links a booking page").toBeTruthy();
    for (const path of [book!, "/appointments/cancel?token=x", "/newsletter/a%40example.org", "/en/present/a%40example.org", "/login"]) {
      const res = await get(path);
      expect(res.headers.get("cache-control"), path).toMatch(/no-store/);
    }
  });
});
