import { expect, test, type Page } from "./fixtures";
import { noScriptContext, waitForHydration } from "./helpers";

/**
 * The practitioner list block (on /ueber-uns, 6 a page) pages with plain links: in the browser with
 * JavaScript (client navigation) and without it (full page loads), in both languages.
 */
const list = (page: Page) => page.locator("[data-practitioner-list]");
const slugs = (page: Page) => list(page).locator("[data-practitioner]").evaluateAll((els) => els.map((e) => e.getAttribute("data-practitioner")));

async function walk(page: Page, path: string, next: RegExp, previous: RegExp) {
  await page.goto(path);
  const first = await slugs(page);
  expect(first).toHaveLength(6);
  await list(page).getByRole("link", { name: next }).click();
  await expect(page).toHaveURL(new RegExp(`${path}\\?list=2$`));
  await expect.poll(() => slugs(page)).not.toEqual(first);
  const second = await slugs(page);
  expect(second.filter((s) => first.includes(s))).toEqual([]);
  await list(page).getByRole("link", { name: previous }).click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  await expect.poll(() => slugs(page)).toEqual(first);
}

test("the list block pages with JavaScript, in German and English", async ({ page }) => {
  await page.goto("/ueber-uns");
  await waitForHydration(page);
  await walk(page, "/ueber-uns", /^Nächste Seite \(2 von \d+\)$/, /^Vorherige Seite \(1 von \d+\)$/);
  await walk(page, "/en/about-us", /^Next page \(2 of \d+\)$/, /^Previous page \(1 of \d+\)$/);
});

test("the list block pages without JavaScript", async ({ browser, baseURL }) => {
  const context = await noScriptContext(browser, baseURL);
  const page = await context.newPage();
  try {
    await walk(page, "/ueber-uns", /^Nächste Seite \(2 von \d+\)$/, /^Vorherige Seite \(1 von \d+\)$/);
  } finally {
    await context.close();
  }
});
