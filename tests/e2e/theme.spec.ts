import { expect, test } from "./fixtures";

test("text styles from content are styled by the generated Tailwind CSS, responsive variants included", async ({ page }) => {
  const heading = () => page.getByRole("heading", { level: 1 });
  await page.setViewportSize({ width: 600, height: 900 });
  await page.goto("/");
  // "heading-1": text-4xl md:text-5xl font-bold tracking-tight leading-tight
  await expect.poll(() => heading().evaluate((el) => getComputedStyle(el).fontSize)).toBe("36px");
  expect(await heading().evaluate((el) => getComputedStyle(el).fontWeight)).toBe("700");
  await page.setViewportSize({ width: 1200, height: 900 });
  await expect.poll(() => heading().evaluate((el) => getComputedStyle(el).fontSize)).toBe("48px");
});

test("theme colours and their shades are CSS variables computed on the server", async ({ page, request }) => {
  await page.goto("/");
  const vars = await page.evaluate(() => {
    const s = getComputedStyle(document.documentElement);
    return { main: s.getPropertyValue("--color-main").trim(), lighter: s.getPropertyValue("--color-main-12").trim(), darker: s.getPropertyValue("--color-main--18").trim() };
  });
  // The default theme "Standard": petrol #0F5E63, shifted by +12 and -18 points of lightness.
  expect(vars.main).toBe("#0f5e63");
  expect(vars.lighter).toMatch(/^#[0-9a-f]{6}$/);
  expect(vars.darker).toMatch(/^#[0-9a-f]{6}$/);
  expect(vars.lighter).not.toBe(vars.main);
  const href = await page.locator('link[rel="stylesheet"][href^="/theme/"]').getAttribute("href");
  const css = await request.get(href!);
  expect(css.headers()["cache-control"]).toContain("immutable");
  expect(await css.text()).toContain("@font-face");
  // The page's own theme class is applied to its content.
  await expect(page.locator("[data-page]").first()).toHaveClass(/theme-theme-standard/);
});

test("critical icons are inlined; the others go not loaded → loading → loaded in the browser", async ({ page, browser, baseURL }) => {
  const iconRequests: string[] = [];
  page.on("request", (r) => r.url().includes("/api/icons/") && iconRequests.push(new URL(r.url()).pathname));
  await page.goto("/");
  // heart (logo) and search are critical: in the HTML, loaded, never fetched.
  await expect(page.locator('header [data-icon="heart"]')).toHaveAttribute("data-state", "loaded");
  await expect(page.locator('[data-icon="heart"] svg').first()).toBeVisible();
  // calendar (in the columns block) is not critical: fetched after hydration.
  const calendar = page.locator('[data-icon="calendar"]').first();
  await expect(calendar).toHaveAttribute("data-state", "loaded");
  await expect(calendar.locator("svg")).toBeVisible();
  expect(iconRequests).toContain("/api/icons/calendar");
  expect(iconRequests).not.toContain("/api/icons/heart");

  // Without JavaScript the lazy icon stays "not loaded" and the page is still complete.
  const noJs = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const plain = await noJs.newPage();
  await plain.goto("/");
  await expect(plain.locator('[data-icon="calendar"]').first()).toHaveAttribute("data-state", "not loaded");
  await expect(plain.locator('[data-icon="heart"]').first()).toHaveAttribute("data-state", "loaded");
  await noJs.close();
});

test("icon SVGs are served sanitised and sandboxed", async ({ request }) => {
  const res = await request.get("/api/icons/calendar");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("image/svg+xml");
  expect(res.headers()["content-security-policy"]).toContain("sandbox");
  const svg = await res.text();
  expect(svg).toMatch(/^<svg[\s>]/);
  expect(svg).not.toMatch(/<script|on\w+=/i);
  expect((await request.get("/api/icons/does-not-exist")).status()).toBe(404);
});
