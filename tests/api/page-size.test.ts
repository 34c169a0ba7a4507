import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { iv, startFilledServer } from "../support/fill";
import { postJson, type RunningServer } from "../support/server";

/**
 * Pages do not grow with the data: with 10 000 practitioners and 10 000 appointment slots in the
 * store, every public page type stays under 60 KB of HTML (hydration data included).
 */
const PRACTITIONERS = 10_000;
const LIMIT = 60 * 1024;
const CITIES = ["Köln", "München", "Düsseldorf", "Würzburg", "Lübeck"];

describe("page size with 10 000 practitioners", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startFilledServer((put) => {
      for (let i = 0; i < PRACTITIONERS; i++) {
        put(`size-${i}`, "gm-content-practitioners", {
          name: iv(`Änne Größer-Müller ${i}`),
          display: iv(true),
          websites: iv(["PRAXISNETZ"]),
          languages: iv(["de", "en"]),
          country: iv("DE"),
          city: iv(CITIES[i % CITIES.length]),
          speciality: iv("Physiotherapie und manuelle Therapie"),
          coords: iv({ latitude: 50 + (i % 100) / 100, longitude: 7 + (i % 97) / 100 }),
          finishedPractitioner: iv(true),
        });
        put(`size-slot-${i}`, "gm-appointments", { practitioner: iv([`size-${i}`]), start: iv(new Date(Date.now() + (i + 2) * 600_000).toISOString()), durationMinutes: iv(30), booked: iv(false) });
      }
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  it("keeps every public page type under 60 KB of HTML", async () => {
    const pages = await postJson(`${server.url}/api/rest`, { url: "core-pages", language: "de" });
    const slugs = (pages.json.items as Array<{ data: { seo?: { slug?: string } } }>).map((p) => p.data.seo?.slug).filter((s): s is string => !!s);
    const pagesEn = await postJson(`${server.url}/api/rest`, { url: "core-pages", language: "en" });
    const slugsEn = (pagesEn.json.items as Array<{ data: { seo?: { slug?: string } } }>).map((p) => p.data.seo?.slug).filter((s): s is string => !!s);
    expect(slugs.length).toBeGreaterThan(3);
    const paths = [
      "/",
      "/en",
      ...slugs.map((s) => `/${s}`),
      ...slugsEn.map((s) => `/en/${s}`),
      "/practitioners",
      "/en/practitioners",
      "/practitioners?q=K%C3%B6ln",
      `/practitioners?page=${Math.ceil(PRACTITIONERS / 12)}`,
      "/en/practitioners/juergen-weiss",
    ];
    // A generated practitioner's profile, as the directory's last page links it.
    const lastPage = await (await fetch(`${server.url}/practitioners?page=${Math.ceil(PRACTITIONERS / 12)}`)).text();
    const slug = lastPage.match(/data-practitioner="([^"]+)"/)?.[1];
    expect(slug).toBeTruthy();
    paths.push(`/practitioners/${slug}`);
    const sizes: string[] = [];
    for (const p of paths) {
      const res = await fetch(`${server.url}${p}`);
      const body = Buffer.from(await res.arrayBuffer());
      if (res.status === 404 && /\/newsletter$/.test(p)) continue; // the demo's newsletter page: its slug is a route's
      expect(res.status, p).toBe(200);
      sizes.push(`${p}: ${(body.length / 1024).toFixed(1)} KB`);
      expect(body.length, `${p} is ${body.length} bytes`).toBeLessThan(LIMIT);
    }
    console.log(`HTML sizes with ${PRACTITIONERS} practitioners:\n  ${sizes.join("\n  ")}`);
    // The directory counts them all while showing one page.
    expect(await (await fetch(`${server.url}/practitioners`)).text()).toMatch(/10[.\s ]?0\d\d Behandelnde gefunden/);
  });

  it("pages the practitioner list block: one page in the HTML, links to the next, any page by the URL", async () => {
    /** The list block's section: its cards' slugs, its count and its paging links. */
    const list = async (query: string) => {
      const html = await (await fetch(`${server.url}/ueber-uns${query}`)).text();
      const section = html.match(/<div[^>]*data-practitioner-list[^>]*>([\s\S]*?)<\/nav>/)?.[1] ?? "";
      expect(section, query).not.toBe("");
      return {
        slugs: [...section.matchAll(/data-practitioner="([^"]+)"/g)].map((m) => m[1]),
        total: Number(section.match(/([\d.]+) Behandelnde gefunden/)?.[1]?.replaceAll(".", "")),
        // Page numbers print with thousands separators ("2 von 1.672"): read without them.
        next: section.match(/<a rel="next"[^>]*href="([^"]+)"[^>]*>Nächste Seite \(([\d.]+) von ([\d.]+)\)/)?.map((part, i) => (i > 1 ? part.replaceAll(".", "") : part)) ?? null,
        prev: section.match(/<a rel="prev"[^>]*href="([^"]+)"/)?.[1],
      };
    };
    const first = await list("");
    expect(first.slugs).toHaveLength(6);
    expect(first.total).toBeGreaterThanOrEqual(PRACTITIONERS);
    const pages = Math.ceil(first.total / 6);
    expect(first.next?.slice(1)).toEqual(["/ueber-uns?list=2", "2", String(pages)]);
    expect(first.prev).toBeUndefined();
    const second = await list("?list=2");
    expect(second.slugs).toHaveLength(6);
    expect(second.slugs.filter((s) => first.slugs.includes(s))).toEqual([]);
    expect(second.prev).toBe("/ueber-uns");
    const last = await list(`?list=${pages}`);
    expect(last.slugs.length).toBe(first.total - (pages - 1) * 6);
    expect(last.next).toBeNull();
    // Past the end: the last page; nonsense: the first.
    expect((await list("?list=99999999")).slugs).toEqual(last.slugs);
    expect((await list("?list=abc")).slugs).toEqual(first.slugs);
    expect((await list("?list=-3")).slugs).toEqual(first.slugs);
  });
});
