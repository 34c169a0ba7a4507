import AxeBuilder from "@axe-core/playwright";
import { E2E_PORT, expect, test, type Page } from "./fixtures";
import { signIn } from "./admin-helpers";
import { startOwnServer, waitForHydration } from "./helpers";

/**
 * Analytics (issue 24): nothing is sent before the visitor allows statistics; after that, page views
 * reach our own /api/event and show on /manage/plausible; the localStorage opt-out silences it.
 * Headless Chromium calls itself HeadlessChrome, which the endpoint ignores as a bot: these
 * visitors use an ordinary Chrome user agent.
 */
test.use({ userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36" });

function eventRequests(page: Page): Array<{ n: string; u: string }> {
  const sent: Array<{ n: string; u: string }> = [];
  page.on("request", (req) => {
    if (new URL(req.url()).pathname === "/api/event") sent.push(JSON.parse(req.postData() ?? "{}"));
  });
  return sent;
}

test("no analytics request before consent, nor with necessary cookies only", async ({ page }) => {
  const sent = eventRequests(page);
  await page.goto("/ueber-uns");
  await waitForHydration(page);
  await page.getByRole("navigation", { name: "Hauptnavigation" }).getByRole("link").first().click();
  await page.waitForLoadState("networkidle");
  await page.locator("section#consent").getByRole("button", { name: "Nur notwendige" }).click();
  await expect(page.locator("section#consent")).toBeHidden();
  await waitForHydration(page);
  await page.goto("/practitioners");
  await waitForHydration(page);
  await page.waitForLoadState("networkidle");
  expect(sent).toEqual([]);
});

test("after accepting statistics, page views are sent (also on client-side navigation) and show on the dashboard", async ({ browser }) => {
  // An English-speaking browser in Vienna: the country comes from the time zone, not the language.
  const context = await browser.newContext({ locale: "en-US", timezoneId: "Europe/Vienna" });
  const page = await context.newPage();
  const sent = eventRequests(page);
  await page.goto("/ueber-uns");
  const first = page.waitForResponse((res) => new URL(res.url()).pathname === "/api/event");
  await page.locator("section#consent").getByRole("button", { name: "Alle akzeptieren" }).click();
  expect((await first).status()).toBe(202);
  expect(sent[0]).toMatchObject({ n: "pageview", u: expect.stringMatching(/\/ueber-uns$/) });
  await waitForHydration(page);

  // A navigation without a new document is a page view too.
  const link = page.getByRole("navigation", { name: "Hauptnavigation" }).locator('a:not([href="/ueber-uns"])').first();
  const target = (await link.getAttribute("href"))!;
  const next = page.waitForRequest((req) => new URL(req.url()).pathname === "/api/event" && new URL(JSON.parse(req.postData()!).u).pathname === target);
  let documents = 0;
  page.on("framenavigated", (frame) => frame === page.mainFrame() && documents++);
  await link.click();
  await next;
  expect(documents).toBe(1); // the history entry, not a new document load

  await signIn(page, "/manage/plausible");
  await expect(page.getByRole("heading", { level: 1, name: "Statistik (Plausible)" })).toBeVisible();
  const pages = page.getByRole("region", { name: "Meistbesuchte Seiten" }).or(page.locator("section", { has: page.getByRole("heading", { name: "Meistbesuchte Seiten" }) }));
  await expect(pages.getByRole("cell", { name: "/ueber-uns", exact: true })).toBeVisible();
  await expect(pages.getByRole("cell", { name: target, exact: true })).toBeVisible();
  await expect(page.locator("[data-analytics-totals] dd").first()).not.toHaveText("0");
  await expect(page.locator("[data-analytics-chart] canvas")).toHaveCount(1);
  // Countries by name in the admin's language: Austria, from the time zone (Accept-Language says en-US).
  expect(sent[0]).toMatchObject({ tz: "Europe/Vienna" });
  await expect(page.locator("section", { has: page.getByRole("heading", { name: "Länder" }) }).getByRole("cell", { name: "Österreich" })).toBeVisible();
  // With data in every table (the admin screens' a11y spec sees it empty): AAA contrast as there.
  const { violations } = await new AxeBuilder({ page }).options({ rules: { "color-contrast-enhanced": { enabled: true } } }).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);

  // Another period, by its form.
  await page.getByRole("combobox", { name: "Zeitraum" }).selectOption("12mo");
  await page.getByRole("button", { name: "Anzeigen" }).click();
  await expect(page).toHaveURL(/period=12mo/);
  await expect(pages.getByRole("cell", { name: "/ueber-uns", exact: true })).toBeVisible();
  await context.close();
});

test("nothing is sent with the opt-out flag, even with statistics allowed", async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem("plausible_ignore", "true"));
  const sent = eventRequests(page);
  await page.goto("/ueber-uns");
  await page.locator("section#consent").getByRole("button", { name: "Alle akzeptieren" }).click();
  await expect(page.locator("section#consent")).toBeHidden();
  await waitForHydration(page);
  await page.getByRole("navigation", { name: "Hauptnavigation" }).getByRole("link").first().click();
  await page.waitForLoadState("networkidle");
  expect(sent).toEqual([]);
});

test("nothing is sent on localhost (a server that does not let the tracker count there), even with statistics allowed", async ({ page }) => {
  // The shared test server lets the tracker count on 127.0.0.1 (ANALYTICS_TRACK_LOCALHOST); this one does not, as a real site.
  const own = await startOwnServer(E2E_PORT + 38, { ANALYTICS_TRACK_LOCALHOST: "false" });
  try {
    const sent = eventRequests(page);
    await page.goto(`${own.base}/ueber-uns`);
    await page.locator("section#consent").getByRole("button", { name: "Alle akzeptieren" }).click();
    await expect(page.locator("section#consent")).toBeHidden();
    await waitForHydration(page);
    // The tracker's chunk did load (statistics are allowed): it is the tracker that stays silent.
    await expect.poll(() => page.evaluate(() => performance.getEntriesByType("resource").some((e) => /\/assets\/tracker-[^/]+\.js$/.test(e.name)))).toBe(true);
    await page.getByRole("navigation", { name: "Hauptnavigation" }).getByRole("link").first().click();
    await page.waitForLoadState("networkidle");
    expect(sent).toEqual([]);
  } finally {
    own.kill();
  }
});
