import { expect, test } from "./fixtures";
import { noScriptContext, originOf } from "./helpers";

test("a nested German slug renders its title and an accordion that opens", async ({ page }) => {
  const response = await page.goto("/ratgeber/rueckenschmerzen");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Rückenschmerzen: Was wirklich hilft");
  const accordion = page.locator("[data-block=block-accordion]");
  await expect(accordion.getByRole("heading", { name: "Häufige Fragen" })).toBeVisible();
  const answer = accordion.getByText(/^Bewegung\. Spaziergänge und gewohnte Tätigkeiten/);
  await expect(answer).toBeHidden();
  await accordion.getByText("Bettruhe oder Bewegung?").click();
  await expect(answer).toBeVisible();
  await expect(accordion.locator("details").filter({ hasText: "Bettruhe oder Bewegung?" })).toHaveAttribute("open", "");
});

test("a nested English slug renders its title and an accordion that opens", async ({ page }) => {
  const response = await page.goto("/en/guide/back-pain");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Back pain: what really helps");
  const accordion = page.locator("[data-block=block-accordion]");
  await expect(accordion.getByRole("heading", { name: "Frequently asked questions" })).toBeVisible();
  const answer = accordion.getByText(/^Many people find a hot-water bottle/);
  await expect(answer).toBeHidden();
  await accordion.getByText("Does heat really help?").click();
  await expect(answer).toBeVisible();
});

test("a draft page is not published: /entwurf-sommeraktion is 404", async ({ page }) => {
  const response = await page.goto("/entwurf-sommeraktion");
  expect(response?.status()).toBe(404);
  await expect(page.locator("[data-error-status]")).toHaveAttribute("data-error-status", "404");
  await expect(page.locator("[data-error-message]")).toHaveText("Seite nicht gefunden: /entwurf-sommeraktion");
  await expect(page.getByText("Bewegt durch den Sommer")).toHaveCount(0);
  // Nor under its English slug.
  expect((await page.request.get("/en/draft-summer-campaign")).status()).toBe(404);
});

test("document titles come from the pages' SEO fields", async ({ page }) => {
  const titles: Array<[string, string]> = [
    ["/", "Praxisnetz – Behandelnde in Ihrer Nähe finden"],
    ["/en", "Praxisnetz – find practitioners near you"],
    ["/ueber-uns", "Über uns – Praxisnetz"],
    ["/en/about-us", "About us – Praxisnetz"],
    ["/ratgeber/rueckenschmerzen", "Rückenschmerzen: Was wirklich hilft – Ratgeber"],
    ["/en/guide/back-pain", "Back pain: what really helps – Guide"],
    ["/behandelnde", "Behandelnde finden – Praxisnetz"],
  ];
  for (const [path, title] of titles) {
    await page.goto(path, { waitUntil: "domcontentloaded" });
    await expect(page, path).toHaveTitle(title);
  }
  // Client-side navigation updates the title as well.
  await page.goto("/ueber-uns");
  await page.getByRole("navigation", { name: "Hauptnavigation" }).getByRole("link", { name: "Ratgeber: Rückenschmerzen" }).click();
  await expect(page).toHaveTitle("Rückenschmerzen: Was wirklich hilft – Ratgeber");
});

test("content is readable with JavaScript disabled", async ({ browser, baseURL }) => {
  const context = await noScriptContext(browser, baseURL);
  const page = await context.newPage();
  try {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Gute Behandlung beginnt in Ihrer Nähe");
    await expect(page.locator("[data-block=block-hero]")).toContainText("Praxisnetz verbindet Sie");

    await page.goto("/ueber-uns");
    await expect(page.getByRole("heading", { name: "Wer wir sind" })).toBeVisible();
    await expect(page.getByText(/Das Praxisnetz entstand 2019 in Kassel/)).toBeVisible();

    await page.goto("/ratgeber/rueckenschmerzen");
    const accordion = page.locator("[data-block=block-accordion]");
    await accordion.getByText("Bettruhe oder Bewegung?").click();
    await expect(accordion.getByText(/^Bewegung\. Spaziergänge/)).toBeVisible();

    await page.goto("/practitioners");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Behandelnde");
    await expect(page.getByText(/^\d{1,3}(\.\d{3})* Behandelnde gefunden$/)).toBeVisible();
    await expect(page.locator("[data-results] [data-practitioner]").first()).toBeVisible();

    await page.goto("/practitioners/juergen-weiss");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Jürgen Weiß");
    await expect(page.getByText(/Manuelle Therapie und Sportphysiotherapie/)).toBeVisible();
    await expect(page.locator("address")).toContainText("Friedrichsplatz 8");
  } finally {
    await context.close();
  }
});

test("fonts are woff2 files from the site itself", async ({ page, baseURL }) => {
  const origin = originOf(baseURL);
  const fonts: Array<{ url: string; status: number; type: string }> = [];
  page.on("response", (res) => {
    if (res.request().resourceType() === "font") fonts.push({ url: res.url(), status: res.status(), type: res.headers()["content-type"] ?? "" });
  });
  const foreignFonts: string[] = [];
  page.on("request", (req) => {
    if (req.resourceType() === "font" && new URL(req.url()).origin !== origin) foreignFonts.push(req.url());
  });
  await page.goto("/");
  await page.evaluate(() => document.fonts.ready);
  await page.waitForLoadState("networkidle");
  expect(fonts.length, "the page should load its web fonts").toBeGreaterThan(0);
  expect(foreignFonts).toEqual([]);
  for (const f of fonts) {
    expect(new URL(f.url).origin).toBe(origin);
    expect(new URL(f.url).pathname).toMatch(/\.woff2$/);
    expect(f.status).toBe(200);
    expect(f.type).toMatch(/font\/woff2/);
  }
  // The fonts the stylesheet asks for are really in use.
  const loaded = await page.evaluate(() => [...document.fonts].filter((f) => f.status === "loaded").map((f) => f.family.replace(/"/g, "")));
  expect(loaded.length).toBeGreaterThan(0);
});

test("links prefetch the next page's data on intent (hover), before the click", async ({ page }) => {
  const dataRequests: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.pathname.endsWith(".data")) dataRequests.push(url.pathname);
  });
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  expect(dataRequests).toEqual([]);
  const link = page.getByRole("navigation", { name: "Hauptnavigation" }).getByRole("link", { name: "Über uns" });
  await link.hover();
  await expect.poll(() => dataRequests).toContain("/ueber-uns.data");
  await link.click();
  await expect(page).toHaveURL(/\/ueber-uns$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});
