import zlib from "node:zlib";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./helpers";

/**
 * The public page's JavaScript budget (issue 24, from the edit-mode issue): every script a visitor's
 * browser fetches for a page, until the network is quiet (the PWA code loaded after hydration and
 * any chunk a block asks for included), at most 122 KB gzip (level 9), in both languages. A size,
 * not a time: the same build gives the same figure on any machine.
 */
const BUDGET = 122 * 1024;
const PAGES = ["/", "/en", "/ueber-uns", "/practitioners", "/en/practitioners", "/practitioners/juergen-weiss", "/en/practitioners/juergen-weiss"];

for (const path of PAGES) {
  test(`a visitor's page stays within 122 KB of JavaScript (gzip): ${path}`, async ({ page }) => {
    const scripts = new Map<string, Promise<Buffer | null>>();
    page.on("response", (res) => {
      if (res.request().resourceType() === "script" && !scripts.has(res.url())) scripts.set(res.url(), res.body().catch(() => null));
    });
    await page.goto(path);
    await waitForHydration(page);
    // The PWA code (asked for after hydration) says when it is ready; then nothing else is on its way.
    await expect.poll(() => page.evaluate(() => (window as { praxisnetzPwa?: { offlineReady: boolean } }).praxisnetzPwa?.offlineReady === true)).toBe(true);
    await page.waitForLoadState("networkidle");
    const sizes: Array<[string, number]> = [];
    for (const [url, body] of scripts) {
      const bytes = await body;
      expect(bytes, `${url} was fetched but has no body`).not.toBeNull();
      sizes.push([new URL(url).pathname, zlib.gzipSync(bytes!, { level: 9 }).length]);
    }
    const total = sizes.reduce((sum, [, n]) => sum + n, 0);
    const listing = sizes.map(([name, n]) => `${name} ${(n / 1024).toFixed(2)} KB`).join(", ");
    // The entry, the site chunk and the PWA chunk at least: a page that loaded no scripts would pass for the wrong reason.
    expect(sizes.length, listing).toBeGreaterThanOrEqual(3);
    expect(total, `${(total / 1024).toFixed(2)} KB: ${listing}`).toBeLessThanOrEqual(BUDGET);
  });
}
