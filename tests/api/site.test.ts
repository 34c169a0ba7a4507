import http from "node:http";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, squidexToken, startServer, tempDataDir, type RunningServer } from "../support/server";

/** Public site behaviour that is about HTTP rather than the browser: variants, caching, failures. */
const FLUSH_TOKEN = "site-test-flush-token-0123456789";

describe("public site over HTTP", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ env: { FLUSH_TOKEN } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("serves anonymous page views from the page cache, answers If-None-Match with 304, and empties it on change", async () => {
    const first = await fetch(`${server.url}/ueber-uns`);
    const html1 = await first.text();
    const second = await fetch(`${server.url}/ueber-uns`);
    const html2 = await second.text();
    expect(second.headers.get("x-page-cache")).toBe("hit");
    expect(first.headers.get("vary")).toContain("Cookie");
    expect(second.headers.get("vary")).toContain("Cookie");
    // The same bytes and the same policy every time: nothing is rewritten per response.
    expect(html2).toBe(html1);
    expect(second.headers.get("content-security-policy")).toBe(first.headers.get("content-security-policy"));
    expect(second.headers.get("x-content-type-options")).toBe("nosniff");
    expect(second.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));

    const etag = second.headers.get("etag")!;
    const notModified = await fetch(`${server.url}/ueber-uns`, { headers: { "if-none-match": etag } });
    expect(notModified.status).toBe(304);

    const withSession = await fetch(`${server.url}/ueber-uns`, { headers: { cookie: "pn_session=abc" } });
    expect(withSession.headers.get("x-page-cache")).toBeNull();

    // An edit through the Squidex API empties the cache: the next view shows the new title.
    const patch = await fetch(`${server.url}/api/squidex/api/content/praxisnetz/core-pages/page-about`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${await squidexToken(server)}`, "content-type": "application/json" },
      body: JSON.stringify({ seo: { de: { schemaId: "component-seo", slug: "ueber-uns", seotitle: "Neuer Titel über uns" } } }),
    });
    expect(patch.status).toBe(200);
    const after = await fetch(`${server.url}/ueber-uns`);
    expect(after.headers.get("x-page-cache")).toBe("miss");
    expect(await after.text()).toContain("<title>Neuer Titel über uns</title>");
  });

  it("keeps a cached page as ready bytes: gzip and brotli compressed once, identity on request, HEAD without a body", async () => {
    // (Node's fetch would decompress: raw HTTP shows the bytes as sent.)
    const raw = (method: string, urlPath: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const req = http.request(`${server.url}${urlPath}`, { method, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c)).on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on("error", reject).end();
      });
    // A HEAD first must not leave an empty page in the cache for the GETs after it.
    const head = await raw("HEAD", "/datenschutz");
    expect(head.status).toBe(200);
    const plain = await raw("GET", "/datenschutz");
    expect(plain.headers["x-page-cache"]).toBe("miss");
    expect(plain.body.toString()).toContain("</html>");
    const identity = await raw("GET", "/datenschutz", { "accept-encoding": "identity" });
    expect(identity.headers["x-page-cache"]).toBe("hit");
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.body.equals(plain.body)).toBe(true);
    expect(identity.headers["content-length"]).toBe(String(plain.body.length));
    // The miss answered with the entry it made: same ETag, compressed once (not by the middleware again).
    expect(plain.headers.etag).toBe(identity.headers.etag);
    const gzMiss = await raw("GET", "/datenschutz?ready", { "accept-encoding": "gzip" });
    const gzHit = await raw("GET", "/datenschutz?ready", { "accept-encoding": "gzip" });
    expect([gzMiss.headers["x-page-cache"], gzHit.headers["x-page-cache"]]).toEqual(["miss", "hit"]);
    expect(gzMiss.headers["content-encoding"]).toBe("gzip");
    expect(gzMiss.body.equals(gzHit.body)).toBe(true);
    expect(gzMiss.headers["content-security-policy"]).toBe(gzHit.headers["content-security-policy"]);
    const gz = await raw("GET", "/datenschutz", { "accept-encoding": "gzip, deflate" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(gz.headers.vary).toBe("Accept-Encoding, Cookie");
    const br = await raw("GET", "/datenschutz", { "accept-encoding": "gzip, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(gz.body.length);
    expect((await raw("GET", "/datenschutz", { "accept-encoding": "br;q=0, gzip" })).headers["content-encoding"]).toBe("gzip");
    const headHit = await raw("HEAD", "/datenschutz", { "accept-encoding": "gzip" });
    expect(headHit.headers["x-page-cache"]).toBe("hit");
    expect(headHit.body.length).toBe(0);
    expect(headHit.headers["content-length"]).toBe(gz.headers["content-length"]);
  });

  it("renders a page once for visitors who ask for it at the same time", async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => fetch(`${server.url}/impressum?together`)));
    const kinds = answers.map((r) => r.headers.get("x-page-cache")).sort();
    expect(kinds).toEqual(["hit", "hit", "hit", "hit", "hit", "miss"]);
    const bodies = await Promise.all(answers.map((r) => r.text()));
    expect(new Set(bodies).size).toBe(1);
  });

  it("empties the caches from /manage/flushcache with FLUSH_TOKEN (empty layout, POST, at most every 10 s); without it nothing", async () => {
    await (await fetch(`${server.url}/impressum`)).text();
    expect((await fetch(`${server.url}/impressum`)).headers.get("x-page-cache")).toBe("hit");
    const page = await fetch(`${server.url}/manage/flushcache`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).not.toContain('id="consent"');
    const refused = await fetch(`${server.url}/manage/flushcache`, { method: "POST", body: new URLSearchParams({ token: "wrong-token-wrong-token" }) });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('data-flushed="false"');
    expect((await fetch(`${server.url}/impressum`)).headers.get("x-page-cache")).toBe("hit");
    // As a content service's webhook would call it: the secret in a header.
    const flush = await fetch(`${server.url}/manage/flushcache`, { method: "POST", headers: { "x-flush-token": FLUSH_TOKEN } });
    expect(flush.status).toBe(200);
    expect(await flush.text()).toContain('data-flushed="true"');
    expect((await fetch(`${server.url}/impressum`)).headers.get("x-page-cache")).toBe("miss");
    const again = await fetch(`${server.url}/manage/flushcache?token=${FLUSH_TOKEN}`, { method: "POST" });
    expect(again.status).toBe(429);
    expect(await again.text()).toContain('data-flushed="false"');
  });

  it("lists free appointments on profiles and in the directory in the booking variant", async () => {
    const html = await (await fetch(`${server.url}/practitioners/juergen-weiss`)).text();
    expect(html).toContain("data-appointments");
    const directory = await (await fetch(`${server.url}/practitioners?q=weiss`)).text();
    expect(directory).toContain("data-next-slot");
  });

  it("each directory card's next free appointment is the earliest free one of that practitioner", async () => {
    const html = await (await fetch(`${server.url}/practitioners`)).text();
    const cards = [...html.matchAll(/<article[^>]*data-practitioner="([^"]+)"[\s\S]*?<\/article>/g)].map((m) => ({
      slug: m[1]!,
      next: m[0].match(/data-next-slot[\s\S]*?dateTime="([^"]+)"/i)?.[1],
    }));
    expect(cards.length).toBeGreaterThan(3);
    expect(cards.filter((c) => c.next).length).toBeGreaterThan(0);
    const now = new Date().toISOString();
    for (const { slug, next } of cards) {
      const profile = await postJson(`${server.url}/api/rest`, { url: `gm-content-practitioners?$filter=slug eq '${slug}'`, language: "de" });
      const id = (profile.json.items as Array<{ id: string }>)[0]!.id;
      const filter = `data/practitioner/iv eq '${id}' and data/booked/iv ne true and data/start/iv gt '${now}'`;
      const slots = await postJson(`${server.url}/api/rest`, { url: `gm-appointments?$filter=${encodeURIComponent(filter)}&$orderby=data/start/iv&$top=1`, language: "de" });
      expect(next, slug).toBe((slots.json.items as Array<{ data: { start: string } }>)[0]?.data.start);
    }
  });
});

describe("search engines", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("every page type has a meta description in its language: its own, else the site's", async () => {
    const description = async (path: string) => {
      const html = await (await fetch(`${server.url}${path}`)).text();
      return html.match(/<meta name="description" content="([^"]*)"/)?.[1];
    };
    for (const path of ["/", "/en", "/ueber-uns", "/en/about-us", "/practitioners", "/en/practitioners", "/practitioners/juergen-weiss", "/en/practitioners/juergen-weiss", "/practitioners/register", "/login"]) {
      const text = await description(path);
      expect(text, path).toBeTruthy();
      expect(text!.length, path).toBeGreaterThan(10);
    }
    expect(await description("/practitioners")).toContain("Behandelnden");
    expect(await description("/en/practitioners")).toContain("practitioner");
  });
});

describe("server errors", () => {
  it("answer 500 with the generic page and go to the structured log with the request id", async () => {
    const server = await startServer({ env: { TEST_ROUTES: "true" } });
    try {
      const res = await fetch(`${server.url}/__test/error`);
      expect(res.status).toBe(500);
      const html = await res.text();
      expect(html).toContain("Interner Serverfehler");
      expect(html).not.toContain("Deliberate failure");
      const requestId = res.headers.get("x-request-id")!;
      await expect.poll(() => server.output()).toContain('"msg":"request failed"');
      const line = server.output().split("\n").find((l) => l.includes('"msg":"request failed"'))!;
      expect(JSON.parse(line)).toMatchObject({ level: 50, requestId, url: "/__test/error", err: { message: "Deliberate failure for the error page test" } });
    } finally {
      await server.stop();
    }
  });

  it("keep the test route closed unless TEST_ROUTES=true", async () => {
    const server = await startServer();
    try {
      expect((await fetch(`${server.url}/__test/error`)).status).toBe(404);
    } finally {
      await server.stop();
    }
  });
});

describe("directory variant", () => {
  it("lists no appointments", async () => {
    const server = await startServer({ env: { SITE_VARIANT: "directory" } });
    try {
      const html = await (await fetch(`${server.url}/practitioners/juergen-weiss`)).text();
      expect(html).toContain("Jürgen Weiß");
      expect(html).not.toContain("data-appointments");
      expect(await (await fetch(`${server.url}/practitioners`)).text()).not.toContain("data-next-slot");
    } finally {
      await server.stop();
    }
  });
});

/** A seeded store changed behind the app's back (as another tool or an older version might), then served. */
async function serveAfter(change: (db: Database.Database) => void): Promise<RunningServer> {
  const dataDir = tempDataDir();
  const seeded = await startServer({ dataDir });
  await seeded.stop();
  const db = new Database(path.join(dataDir, "praxisnetz.sqlite"));
  change(db);
  db.close();
  return startServer({ dataDir });
}

describe("content fetch failures", () => {
  it("logs the spec's message and still renders the page with defaults", async () => {
    // Break two collections the layout reads: their schemas vanish from the store.
    const server = await serveAfter((db) => db.prepare("delete from schemas where name in ('core-theme-colors', 'core-theme-languages')").run());
    try {
      const res = await fetch(`${server.url}/ueber-uns`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("Über uns");
      await expect.poll(() => server.output()).toContain('"msg":"Error Fetching Colors"');
      expect(server.output()).toContain('"msg":"Languages"');
    } finally {
      await server.stop();
    }
  });
});

describe("content the app cannot show", () => {
  it("logs an unknown block once as 'The variant does not exist' and renders the rest; a page a route shadows gets no address", async () => {
    const server = await serveAfter((db) => {
      const row = db.prepare("select published_data from contents where id = 'page-about'").get() as { published_data: string };
      const data = JSON.parse(row.published_data) as { blocks: { de: Array<Record<string, unknown>> } };
      data.blocks.de.splice(1, 0, { schemaId: "block-video", id: "about-de-video", url: "https://video.example/x" });
      db.prepare("update contents set data = ?, published_data = ? where id = 'page-about'").run(JSON.stringify(data), JSON.stringify(data));
      // The imprint's English slug now starts with "practitioners", which the directory route owns.
      const imprint = db.prepare("select published_data from contents where id = 'page-imprint'").get() as { published_data: string };
      const d = JSON.parse(imprint.published_data) as { seo: { en: { slug: string } } };
      d.seo.en.slug = "practitioners/imprint";
      db.prepare("update contents set data = ?, published_data = ? where id = 'page-imprint'").run(JSON.stringify(d), JSON.stringify(d));
    });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${server.url}/ueber-uns`, { headers: { cookie: "pn_session=no-cache" } });
        expect(res.status).toBe(200);
        const html = await res.text();
        expect(html).not.toContain("video.example");
        expect(html).toContain('data-block="block-richtext"');
      }
      // Logged when the site data was built, not on every view.
      await expect.poll(() => server.output()).toContain('"msg":"The variant does not exist"');
      expect(server.output().match(/"msg":"The variant does not exist"/g)).toHaveLength(1);
      expect(server.output()).toMatch(/"schemaId":"block-video"/);

      expect(server.output()).toContain('"msg":"page slug is shadowed by a route and cannot be reached"');
      const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
      expect(sitemap).not.toContain("/en/practitioners/imprint");
      expect(sitemap).toContain("/impressum");
      const english = await (await fetch(`${server.url}/en`)).text();
      expect(english).not.toContain('href="/en/practitioners/imprint"');
      // The German imprint now names the English home page as its alternate.
      const imprintDe = await (await fetch(`${server.url}/impressum`)).text();
      expect(imprintDe).toMatch(/<link rel="alternate" hrefLang="en" href="[^"]+\/en"\/>/);
    } finally {
      await server.stop();
    }
  });
});

describe("start-up", () => {
  it("renders the critical pages into the page cache under the host visitors use", async () => {
    const server = await startServer();
    try {
      await expect.poll(() => server.output(), { timeout: 15_000 }).toContain('"msg":"critical pages cached"');
      const port = new URL(server.url).port;
      const cached = (path: string) =>
        new Promise<string | undefined>((resolve, reject) =>
          http.get({ host: "127.0.0.1", port, path, headers: { host: `localhost:${port}` } }, (res) => {
            res.resume();
            resolve(res.headers["x-page-cache"] as string | undefined);
          }).on("error", reject),
        );
      expect(await cached("/")).toBe("hit");
      expect(await cached("/en")).toBe("hit");
      expect(await cached("/ueber-uns")).toBe("miss");
    } finally {
      await server.stop();
    }
  });
});

describe("form routes", () => {
  it("exist in both languages and are kept out of search engines and caches", async () => {
    const server = await startServer();
    try {
      const pages: Array<[string, number]> = [
        ["/login", 200],
        ["/en/login", 200],
        ["/newsletter/anna%40example.org", 200],
        ["/en/newsletter/anna%40example.org", 200],
        ["/present/anna%40example.org", 200],
        ["/practitioners/register", 200],
        ["/en/practitioners/register", 200],
        // A continue link without its signed token: a clear page, not the form.
        ["/practitioners/register/prac-001", 403],
      ];
      for (const [path, status] of pages) {
        const res = await fetch(`${server.url}${path}`);
        expect(res.status, path).toBe(status);
        expect(res.headers.get("cache-control"), path).toBe("private, no-store");
        const html = await res.text();
        expect(html, path).toContain('<meta name="robots" content="noindex"/>');
        expect(html, path).not.toContain("data-placeholder-page");
      }
    } finally {
      await server.stop();
    }
  });
});

describe("a sitemap past its size limit", () => {
  it("becomes an index of parts that list every visible practitioner once, none over the limit", async () => {
    // 20 URLs a file: the demo's pages and practitioners need several.
    const server = await startServer({ env: { SITEMAP_URLS_PER_FILE: "20" } });
    try {
      const get = async (path: string) => {
        const res = await fetch(`${server.url}${path}`);
        return { status: res.status, text: await res.text() };
      };
      const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));
      const index = await get("/sitemap.xml");
      expect(index.status).toBe(200);
      expect(index.text).toContain("<sitemapindex");
      const parts = locs(index.text).map((loc) => new URL(loc).pathname + new URL(loc).search);
      expect(parts[0]).toBe("/sitemap.xml?part=pages");
      expect(parts.length).toBeGreaterThan(2);

      const seen: string[] = [];
      for (const part of parts) {
        const { status, text } = await get(part);
        expect(status, part).toBe(200);
        expect(text).toContain("<urlset");
        const urls = locs(text);
        expect(urls.length, part).toBeLessThanOrEqual(20);
        seen.push(...urls.map((u) => new URL(u).pathname));
      }
      expect(seen).toContain("/impressum");
      expect(new Set(seen).size).toBe(seen.length);
      const profiles = seen.filter((p) => p.startsWith("/practitioners/"));
      const visible = await postJson(`${server.url}/api/rest`, { url: "gm-content-practitioners?$top=0", language: "de" });
      expect(profiles).toHaveLength(visible.json.total);
      expect(profiles).toContain("/practitioners/juergen-weiss");
      expect(seen.filter((p) => p.startsWith("/en/practitioners/"))).toHaveLength(visible.json.total);

      for (const bad of [`/sitemap.xml?part=${parts.length}`, "/sitemap.xml?part=0", "/sitemap.xml?part=abc", "/sitemap.xml?part=99999999"]) expect((await get(bad)).status, bad).toBe(404);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
