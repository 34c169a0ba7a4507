import { expect, test, type Page } from "./fixtures";
import { noScriptContext, resultCount, shownSlugs } from "./helpers";

const PAGE_SIZE = 12;

const searchBox = (page: Page) => page.getByRole("search").getByRole("searchbox");
const languageSelect = (page: Page) => page.getByRole("search").getByRole("combobox", { name: /^(Sprache|Language)\b/ });
const countrySelect = (page: Page) => page.getByRole("search").getByRole("combobox", { name: /^(Land|Country)\b/ });
const submit = (page: Page) => page.getByRole("search").getByRole("button", { name: "Filtern" });

const cards = (page: Page) => page.locator("[data-results] [data-practitioner]");

/** The visible text of each result card. */
const cardTexts = (page: Page) => cards(page).allInnerTexts();

/**
 * Waits until every result card matches: with JavaScript the new results render a moment after
 * the URL changes, so this is what tells that the search has been applied.
 */
async function expectEveryCard(page: Page, pattern: RegExp | string) {
  await expect(cards(page).first()).toBeVisible();
  await expect(cards(page).filter({ hasNotText: pattern })).toHaveCount(0);
}

async function search(page: Page, q: string) {
  await searchBox(page).fill(q);
  await submit(page).click();
  await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(q).replace(/%20/g, "\\+")}`));
}

test("the directory lists practitioners with a count and pages of twelve", async ({ page }) => {
  const response = await page.goto("/practitioners");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Behandelnde");
  const total = await resultCount(page);
  expect(total).toBeGreaterThan(PAGE_SIZE);
  await expect(page.locator("[data-results] [data-practitioner]")).toHaveCount(PAGE_SIZE);
  await expect(page.getByText(`Seite 1 von ${Math.ceil(total / PAGE_SIZE)}`, { exact: true })).toBeVisible();
});

test("searching by name narrows the results, with ß and with ss", async ({ page }) => {
  await page.goto("/practitioners");
  const total = await resultCount(page);
  for (const q of ["weiß", "weiss", "WEISS"]) {
    await test.step(q, async () => {
      await search(page, q);
      await expectEveryCard(page, /wei(ß|ss)/i);
      const n = await resultCount(page);
      expect(n).toBeLessThan(total);
      expect(await shownSlugs(page)).toEqual(expect.arrayContaining(["juergen-weiss", "nadine-weissgerber"]));
      await expect(page.locator("[data-results] [data-practitioner]")).toHaveCount(n);
      for (const text of await cardTexts(page)) expect(text).toMatch(/wei(ß|ss)/i);
    });
  }
});

test("searching by city narrows the results: Köln", async ({ page }) => {
  await page.goto("/practitioners");
  const total = await resultCount(page);
  await search(page, "Köln");
  await expectEveryCard(page, "Köln");
  const n = await resultCount(page);
  expect(n).toBeGreaterThan(0);
  expect(n).toBeLessThan(total);
  expect(await shownSlugs(page)).toEqual(expect.arrayContaining(["maria-schneider", "oemer-yldz"]));
  expect(await shownSlugs(page)).not.toContain("maria-schneider-2");
  for (const text of await cardTexts(page)) expect(text).toContain("Köln");
  // Without the umlaut, and spelled with "oe", too.
  await search(page, "koln");
  expect(await resultCount(page)).toBe(n);
  await search(page, "Koeln");
  expect(await resultCount(page)).toBe(n);
});

test("names are found however the umlaut is typed, and by the start of a speciality", async ({ page }) => {
  await page.goto("/practitioners");
  for (const q of ["Ömer", "Oemer", "omer"]) {
    await search(page, q);
    await expectEveryCard(page, "Ömer Yıldız");
    expect(await shownSlugs(page), q).toEqual(["oemer-yldz"]);
  }
  await search(page, "Phys");
  await expectEveryCard(page, /Physiotherapie/);
  expect(await resultCount(page)).toBeGreaterThan(1);
});

test("the search form works without JavaScript (GET)", async ({ browser, baseURL }) => {
  const context = await noScriptContext(browser, baseURL);
  const page = await context.newPage();
  try {
    await page.goto("/practitioners");
    const total = await resultCount(page);
    await searchBox(page).fill("weiss");
    await searchBox(page).press("Enter");
    await expect(page).toHaveURL(/\/practitioners\?q=weiss/);
    expect(await resultCount(page)).toBeLessThan(total);
    expect(await shownSlugs(page)).toEqual(expect.arrayContaining(["juergen-weiss", "nadine-weissgerber"]));
    await expect(searchBox(page)).toHaveValue("weiss");

    await searchBox(page).fill("Köln");
    await languageSelect(page).selectOption({ label: "TR" });
    await submit(page).click();
    await expect(page).toHaveURL(/q=K%C3%B6ln/);
    await expect(page).toHaveURL(/language=tr/);
    expect(await shownSlugs(page)).toEqual(["oemer-yldz"]);
  } finally {
    await context.close();
  }
});

test("filtering by language: TR", async ({ page }) => {
  await page.goto("/practitioners");
  const total = await resultCount(page);
  await languageSelect(page).selectOption({ label: "TR" });
  await submit(page).click();
  await expect(page).toHaveURL(/[?&]language=tr\b/);
  await expectEveryCard(page, /Sprachen: .*\bTR\b/);
  const n = await resultCount(page);
  expect(n).toBeGreaterThan(1);
  expect(n).toBeLessThan(total);
  await expect(page.locator("[data-results] [data-practitioner]")).toHaveCount(n);
  for (const text of await cardTexts(page)) expect(text).toMatch(/Sprachen: .*\bTR\b/);
  expect(await shownSlugs(page)).toEqual(expect.arrayContaining(["oemer-yldz", "zeynep-demir"]));
  await expect(languageSelect(page)).toHaveValue("tr");
});

test("filtering by country", async ({ page }) => {
  await page.goto("/practitioners");
  const total = await resultCount(page);
  const countries = (await countrySelect(page).locator("option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).filter(Boolean);
  expect(countries).toContain("DE");
  await countrySelect(page).selectOption("DE");
  await submit(page).click();
  await expect(page).toHaveURL(/[?&]country=DE\b/);
  // Every practitioner in the demo data practises in Germany.
  expect(await resultCount(page)).toBe(total);
  await expect(countrySelect(page)).toHaveValue("DE");

  // A country nobody practises in, straight from the URL: nothing found.
  await page.goto("/practitioners?country=AT");
  expect(await resultCount(page)).toBe(0);
});

test("paging: to page 2 and back", async ({ page }) => {
  await page.goto("/practitioners");
  const total = await resultCount(page);
  const pages = Math.ceil(total / PAGE_SIZE);
  const firstPage = await shownSlugs(page);
  const pager = page.getByRole("navigation", { name: `Seite 1 von ${pages}` });
  await expect(pager.getByRole("link", { name: /Vorherige Seite/ })).toHaveCount(0);
  // Link texts that say where they lead (not just "Weiter").
  await pager.getByRole("link", { name: `Nächste Seite (2 von ${pages})`, exact: true }).click();
  await expect(page).toHaveURL(/[?&]page=2\b/);
  await expect(page.getByText(`Seite 2 von ${pages}`, { exact: true })).toBeVisible();
  const secondPage = await shownSlugs(page);
  expect(secondPage.length).toBe(Math.min(PAGE_SIZE, total - PAGE_SIZE));
  expect(secondPage.filter((s) => firstPage.includes(s))).toEqual([]);
  expect(await resultCount(page)).toBe(total);

  await page.getByRole("navigation", { name: `Seite 2 von ${pages}` }).getByRole("link", { name: `Vorherige Seite (1 von ${pages})`, exact: true }).click();
  await expect(page).toHaveURL(/\/practitioners$/);
  await expect(page.getByText(`Seite 1 von ${pages}`, { exact: true })).toBeVisible();
  await expect(cards(page).first()).toHaveAttribute("data-practitioner", firstPage[0]!);
  expect(await shownSlugs(page)).toEqual(firstPage);
});

test("paging keeps the filters", async ({ page }) => {
  await page.goto("/practitioners?language=en");
  const n = await resultCount(page);
  test.skip(n <= PAGE_SIZE, "needs more than one page of English speakers");
  await page.getByRole("link", { name: /^Nächste Seite \(2 von \d+\)$/ }).click();
  await expect(page).toHaveURL(/language=en/);
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByText(/^Seite 2 von \d+$/)).toBeVisible();
  expect(await resultCount(page)).toBe(n);
  for (const text of await cardTexts(page)) expect(text).toMatch(/\bEN\b/);
});

test("nonsense finds nothing and says so", async ({ page }) => {
  await page.goto("/practitioners");
  await search(page, "xqzzy nonsense");
  await expect(page.getByText("Keine Behandelnden gefunden. Ändern Sie die Suche oder die Filter.")).toBeVisible();
  expect(await resultCount(page)).toBe(0);
  await expect(page.locator("[data-results]")).toHaveCount(0);

  await page.goto("/en/practitioners?q=xqzzy");
  await expect(page.getByText("0 practitioners found", { exact: true })).toBeVisible();
  await expect(page.getByText("No practitioners found. Change the search or the filters.")).toBeVisible();
});

test("the map waits for consent; once granted it fails offline and the list stays usable", async ({ page, baseURL }) => {
  await page.goto("/practitioners");
  const total = await resultCount(page);
  const placeholder = page.locator("[data-map-placeholder]");
  await expect(placeholder).toBeVisible();
  await expect(placeholder).toContainText("Karte laden?");
  await expect(page.locator("[data-map]")).toHaveCount(0);

  await placeholder.getByRole("button", { name: "Karte anzeigen" }).click();
  await expect(page.locator("[data-map]")).toHaveCount(1);
  await expect(placeholder).toHaveCount(0);
  expect(await functionalConsent(page, baseURL)).toBe(true);

  // No internet here: the map cannot load. If MapLibre reports that, the page says so.
  await expect(page.getByRole("status").filter({ hasText: "Die Karte konnte nicht geladen werden" }))
    .toBeVisible({ timeout: 10_000 })
    .catch(() => test.info().annotations.push({ type: "note", description: "MapLibre did not report the failure" }));

  // Whatever the map does, the list is intact and its links work.
  expect(await resultCount(page)).toBe(total);
  await expect(page.locator("[data-results] [data-practitioner]")).toHaveCount(PAGE_SIZE);
  const slug = (await shownSlugs(page))[0]!;
  await page.locator(`[data-practitioner="${slug}"]`).getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/practitioners/${slug}$`));
  await expect(page.locator("[data-profile]")).toHaveAttribute("data-profile", slug);
});

async function functionalConsent(page: Page, baseURL: string | undefined) {
  const cookie = (await page.context().cookies(baseURL)).find((c) => c.name === "pn_consent");
  return decodeURIComponent(cookie?.value ?? "").split(",").includes("functional");
}

/** Functional consent given on an earlier visit: the cookie is there before the page loads. */
async function withMapConsent(page: Page, baseURL: string | undefined) {
  await page.context().addCookies([{ name: "pn_consent", value: "functional", url: baseURL! }]);
}

test("with consent, the map fills its frame", async ({ page, baseURL }) => {
  await withMapConsent(page, baseURL);
  await page.goto("/practitioners");
  const map = page.locator("[data-map]");
  await expect(map).toBeVisible();
  const box = (await map.boundingBox())!;
  expect(box.height).toBeGreaterThan(200);
  expect(box.width).toBeGreaterThan(200);
});

test("after clicking 'Karte anzeigen' the map really asks the tile service (not blocked by CSP)", async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const blocked: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) blocked.push(m.text());
  });
  await page.goto("/practitioners");
  const tileRequest = page.waitForRequest((r) => !r.url().startsWith("data:") && !r.url().startsWith("blob:") && new URL(r.url()).origin !== origin, { timeout: 8_000 });
  await page.locator("[data-map-placeholder]").getByRole("button", { name: "Karte anzeigen" }).click();
  await tileRequest;
  expect(blocked).toEqual([]);
});

test("with consent, every script and asset the map needs from the site is there", async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const missing: string[] = [];
  page.on("response", (r) => {
    if (new URL(r.url()).origin === origin && r.status() >= 400) missing.push(`${r.status()} ${r.url()}`);
  });
  page.on("requestfailed", (r) => {
    if (new URL(r.url()).origin === origin) missing.push(`${r.failure()?.errorText} ${r.url()}`);
  });
  await withMapConsent(page, baseURL);
  await page.goto("/practitioners");
  await expect(page.locator("[data-map]")).toHaveCount(1);
  await page.waitForLoadState("networkidle");
  expect(missing).toEqual([]);
});

test("with consent, the map shows every practitioner the search finds as markers for the visible area", async ({ page, baseURL }) => {
  await withMapConsent(page, baseURL);
  const asked = page.waitForResponse((r) => r.url().includes("/api/practitioners/map?") && r.status() === 200);
  await page.goto("/practitioners?q=Berlin");
  const response = await asked;
  const url = new URL(response.url());
  expect(url.searchParams.get("q")).toBe("Berlin");
  for (const name of ["zoom", "west", "south", "east", "north"]) expect(Number.isFinite(Number(url.searchParams.get(name))), name).toBe(true);
  const body = (await response.json()) as { total: number; features: Array<{ properties: { count: number; name?: string } }> };
  expect(body.total).toBeGreaterThan(0);
  expect(body.total).toBeLessThanOrEqual(await resultCount(page) * 2);
  // One marker per feature; a single practitioner's marker is named after them.
  await expect(page.locator(".maplibregl-marker")).toHaveCount(body.features.length);
  const single = body.features.find((f) => f.properties.count === 1);
  if (single) await expect(page.getByRole("button", { name: new RegExp(`^${single.properties.name}`) })).toHaveCount(1);
  const cluster = body.features.find((f) => f.properties.count > 1);
  if (cluster) await expect(page.locator(`[data-map-cluster="${cluster.properties.count}"]`).first()).toBeVisible();
});
