import { describe, expect, it } from "vitest";
import { buildDemoContent } from "~/content/seed/content";
import { RESERVED_FIRST_SEGMENTS } from "~/site/reserved";
import { startServer } from "../support/server";

/**
 * The demo content has no page a route shadows (issue 20, finding 10d): its newsletter page had
 * the slug `newsletter`, which /newsletter/{email} owns, so it could not be reached and every start
 * logged so.
 */

const pages = buildDemoContent(new Date()).filter((item) => item.schema === "core-pages");

describe("the demo pages", () => {
  it("have slugs in both languages whose first segment no route owns", () => {
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) {
      const seo = page.data.seo as Record<string, { slug?: string }>;
      for (const language of ["de", "en"]) {
        const slug = seo[language]?.slug;
        expect(typeof slug, `${page.id} ${language}`).toBe("string");
        expect(RESERVED_FIRST_SEGMENTS.has(slug!.split("/")[0]!), `${page.id} ${language}: ${slug}`).toBe(false);
      }
    }
  });

  it("start without a shadowed page in the log, and the newsletter page has an address", async () => {
    const server = await startServer();
    try {
      await expect.poll(() => server.output(), { timeout: 15_000 }).toContain('"msg":"critical pages cached"');
      expect(server.output()).not.toContain("page slug is shadowed by a route");
      const de = await fetch(`${server.url}/newsletter-anmeldung`);
      expect(de.status).toBe(200);
      expect(await de.text()).toContain("Der Praxisnetz-Newsletter");
      expect((await fetch(`${server.url}/en/newsletter-signup`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
