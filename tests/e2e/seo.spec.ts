import { expect, test } from "./fixtures";
import { originOf } from "./helpers";

interface SitemapEntry {
  loc: string;
  alternates: Record<string, string>;
}

function parseSitemap(xml: string): SitemapEntry[] {
  return [...xml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map(([, body]) => ({
    loc: body!.match(/<loc>([^<]+)<\/loc>/)![1]!,
    alternates: Object.fromEntries([...body!.matchAll(/<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\s*\/>/g)].map((m) => [m[1]!, m[2]!])),
  }));
}

test("the sitemap lists pages and practitioners in both languages with hreflang alternates", async ({ request, baseURL }) => {
  const origin = originOf(baseURL);
  const response = await request.get("/sitemap.xml");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toMatch(/xml/);
  const xml = await response.text();
  expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
  expect(xml).toContain('xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"');
  expect(xml).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');

  const entries = parseSitemap(xml);
  const byLoc = new Map(entries.map((e) => [e.loc, e]));

  const pairs: Array<[de: string, en: string]> = [
    ["/", "/en"],
    ["/ueber-uns", "/en/about-us"],
    ["/ratgeber/rueckenschmerzen", "/en/guide/back-pain"],
    ["/practitioners", "/en/practitioners"],
    ["/practitioners/juergen-weiss", "/en/practitioners/juergen-weiss"],
    ["/practitioners/kaethe-suessmann", "/en/practitioners/kaethe-suessmann"],
    ["/practitioners/maria-schneider", "/en/practitioners/maria-schneider"],
    ["/practitioners/maria-schneider-2", "/en/practitioners/maria-schneider-2"],
  ];
  for (const [de, en] of pairs) {
    for (const loc of [origin + de, origin + en]) {
      const entry = byLoc.get(loc);
      expect(entry, `${loc} is in the sitemap`).toBeDefined();
      expect(entry!.alternates, loc).toEqual({ de: origin + de, en: origin + en });
    }
  }
  // Every entry has both alternates, absolute and on this origin, and lists itself as one of them.
  for (const e of entries) {
    expect(Object.keys(e.alternates).sort(), e.loc).toEqual(["de", "en"]);
    expect(Object.values(e.alternates), e.loc).toContain(e.loc);
    for (const href of [e.loc, ...Object.values(e.alternates)]) expect(href.startsWith(`${origin}/`), href).toBe(true);
  }

  const hidden = ["dr-friedrich-baer", "felix-maeurer", "clara-loewenstein", "ingrid-kiessling", "karl-heinz-doerfler", "anton-hoess", "theresa-gruen"];
  for (const slug of hidden) expect(xml, slug).not.toContain(`/practitioners/${slug}`);
  expect(xml).not.toContain("entwurf-sommeraktion");
  expect(xml).not.toContain("draft-summer-campaign");
});

test("no URL is listed twice in the sitemap", async ({ request }) => {
  const locs = parseSitemap(await (await request.get("/sitemap.xml")).text()).map((e) => e.loc);
  const twice = locs.filter((loc, i) => locs.indexOf(loc) !== i);
  expect(twice).toEqual([]);
});

test("every practitioner in the sitemap has a working profile in both languages", async ({ request, baseURL }) => {
  const origin = originOf(baseURL);
  const xml = await (await request.get("/sitemap.xml")).text();
  const profiles = parseSitemap(xml)
    .map((e) => e.loc)
    .filter((loc) => /\/practitioners\/[^/]+$/.test(loc));
  expect(profiles.length).toBeGreaterThan(20);
  for (const loc of profiles) {
    const res = await request.get(loc.replace(origin, ""), { maxRedirects: 0 });
    expect(res.status(), loc).toBe(200);
  }
});

test("robots.txt points to the sitemap", async ({ request, baseURL }) => {
  const response = await request.get("/robots.txt");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toMatch(/^text\/plain/);
  const body = await response.text();
  expect(body).toMatch(/^User-agent: \*$/m);
  expect(body).toContain(`Sitemap: ${originOf(baseURL)}/sitemap.xml`);
  // The sitemap it names is really there.
  expect((await request.get("/sitemap.xml")).status()).toBe(200);
});

test("absolute URLs in a page do not depend on the Host header of an earlier request (page cache)", async ({ page, playwright, baseURL }) => {
  const origin = originOf(baseURL);
  const path = "/ueber-uns?host-check=1";
  const other = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Host: "evil.example" } });
  try {
    await other.get(path);
  } finally {
    await other.dispose();
  }
  await page.goto(path);
  const canonical = await page.locator('head link[rel="canonical"]').getAttribute("href");
  expect(canonical).toBe(`${origin}/ueber-uns`);
});
