import { expect, test, type Page } from "./fixtures";
import { allDirectorySlugs, expectErrorPage, originOf } from "./helpers";

async function jsonLd(page: Page) {
  const scripts = page.locator('[data-profile] script[type="application/ld+json"]');
  await expect(scripts).toHaveCount(1);
  return JSON.parse((await scripts.textContent())!) as Record<string, any>;
}

test("a profile with umlauts and ß: Jürgen Weiß at /practitioners/juergen-weiss", async ({ page, baseURL }) => {
  const response = await page.goto("/practitioners/juergen-weiss");
  expect(response?.status()).toBe(200);
  const profile = page.locator("[data-profile=juergen-weiss]");
  await expect(profile.getByRole("heading", { level: 1 })).toHaveText("Jürgen Weiß");
  await expect(profile.getByText("Physiotherapie", { exact: true })).toBeVisible();
  const address = profile.locator("address");
  await expect(address).toContainText("Friedrichsplatz 8");
  await expect(address).toContainText("3. OG");
  await expect(address).toContainText("34117 Kassel");
  await expect(address).toContainText("DE");
  await expect(profile.getByText(/^Sprachen:\s*DE, EN$/)).toBeVisible();
  await expect(page).toHaveTitle("Jürgen Weiß – Kassel");

  const ld = await jsonLd(page);
  expect(ld["@context"]).toBe("https://schema.org");
  expect(ld["@type"]).toBe("MedicalBusiness");
  expect(ld.name).toBe("Jürgen Weiß");
  expect(ld.url).toBe(`${originOf(baseURL)}/practitioners/juergen-weiss`);
  expect(ld.address).toMatchObject({
    "@type": "PostalAddress",
    streetAddress: "Friedrichsplatz 8, 3. OG",
    postalCode: "34117",
    addressLocality: "Kassel",
    addressCountry: "DE",
  });
  expect(ld.geo["@type"]).toBe("GeoCoordinates");
  // Kassel, give or take the few hundred metres the seed spreads practices by.
  expect(ld.geo.latitude).toBeCloseTo(51.31, 1);
  expect(ld.geo.longitude).toBeCloseTo(9.48, 1);
  expect(ld.knowsLanguage).toEqual(["de", "en"]);
});

test("a profile with umlauts and ß: Käthe Süßmann at /practitioners/kaethe-suessmann", async ({ page }) => {
  const response = await page.goto("/practitioners/kaethe-suessmann");
  expect(response?.status()).toBe(200);
  const profile = page.locator("[data-profile=kaethe-suessmann]");
  await expect(profile.getByRole("heading", { level: 1 })).toHaveText("Käthe Süßmann");
  const address = profile.locator("address");
  await expect(address).toContainText("Große Petersgrube 5");
  await expect(address).toContainText("23552 Lübeck");
  await expect(profile.getByText(/^Sprachen:\s*DE$/)).toBeVisible();
  const ld = await jsonLd(page);
  expect(ld["@type"]).toBe("MedicalBusiness");
  expect(ld.name).toBe("Käthe Süßmann");
  expect(ld.address).toMatchObject({ "@type": "PostalAddress", streetAddress: "Große Petersgrube 5", postalCode: "23552", addressLocality: "Lübeck" });
  expect(ld.geo).toMatchObject({ "@type": "GeoCoordinates" });
  expect(typeof ld.geo.latitude).toBe("number");
  expect(typeof ld.geo.longitude).toBe("number");
});

test("a physician's profile says so in JSON-LD, and the English profile is in English", async ({ page }) => {
  await page.goto("/en/practitioners/dr-anja-gross");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dr. Anja Groß");
  await expect(page.getByText("General practice", { exact: true })).toBeVisible();
  await expect(page.getByText(/^Languages:\s*DE, EN, FR$/)).toBeVisible();
  const ld = await jsonLd(page);
  expect(ld["@type"]).toBe("IndividualPhysician");
  expect(ld.address.addressLocality).toBe("München");
});

test("the two Maria Schneiders have distinct slugs and lead to different cities", async ({ page }) => {
  await page.goto("/practitioners?q=maria+schneider");
  const cards = page.locator("[data-results] [data-practitioner]");
  await expect(cards).toHaveCount(2);
  expect((await cards.evaluateAll((els) => els.map((e) => e.getAttribute("data-practitioner")))).sort()).toEqual(["maria-schneider", "maria-schneider-2"]);

  // The one with the smaller id (prac-006, Köln) keeps the plain slug.
  await page.goto("/practitioners/maria-schneider");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Maria Schneider");
  await expect(page.locator("address")).toContainText("Köln");
  await expect(page.getByText("Ergotherapie", { exact: true })).toBeVisible();

  await page.goto("/practitioners/maria-schneider-2");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Maria Schneider");
  await expect(page.locator("address")).toContainText("Leipzig");
  await expect(page.getByText("Logopädie", { exact: true })).toBeVisible();

  // Clicking a card goes to that card's profile.
  await page.goto("/practitioners?q=maria+schneider");
  await page.locator("[data-practitioner=maria-schneider-2]").getByRole("link").click();
  await expect(page).toHaveURL(/\/practitioners\/maria-schneider-2$/);
  await expect(page.locator("address")).toContainText("Leipzig");
});

test("next and previous wrap around the directory's order", async ({ page }) => {
  const slugs = await allDirectorySlugs(page);
  expect(slugs.length).toBeGreaterThan(12);
  const first = slugs[0]!;
  const second = slugs[1]!;
  const last = slugs.at(-1)!;
  const beforeLast = slugs.at(-2)!;

  await page.goto(`/practitioners/${last}`);
  await expect(page.locator("[data-previous]")).toHaveAttribute("href", `/practitioners/${beforeLast}`);
  await page.locator("[data-next]").click();
  await expect(page).toHaveURL(new RegExp(`/practitioners/${first}$`));
  await expect(page.locator("[data-profile]")).toHaveAttribute("data-profile", first);
  await expect(page.locator("[data-next]")).toHaveAttribute("href", `/practitioners/${second}`);

  await page.locator("[data-previous]").click();
  await expect(page).toHaveURL(new RegExp(`/practitioners/${last}$`));
  await expect(page.locator("[data-profile]")).toHaveAttribute("data-profile", last);

  // Same in English: links stay English and wrap the same way.
  await page.goto(`/en/practitioners/${first}`);
  await expect(page.locator("[data-previous]")).toHaveAttribute("href", `/en/practitioners/${last}`);
});

const invisible = [
  { why: "hidden (display: false)", name: "Dr. Friedrich Bär", slug: "dr-friedrich-baer" },
  { why: "hidden (display: false)", name: "Felix Mäurer", slug: "felix-maeurer" },
  { why: "hidden (display: false)", name: "Clara Löwenstein", slug: "clara-loewenstein" },
  { why: "HEILNETZ only", name: "Ingrid Kießling", slug: "ingrid-kiessling" },
  { why: "HEILNETZ only", name: "Karl-Heinz Dörfler", slug: "karl-heinz-doerfler" },
  { why: "HEILNETZ only", name: "Anton Höß", slug: "anton-hoess" },
  { why: "draft", name: "Theresa Grün", slug: "theresa-gruen" },
];

test("hidden, other-site and draft practitioners have no profile and are not in the directory", async ({ page }) => {
  for (const p of invisible) {
    for (const path of [`/practitioners/${p.slug}`, `/en/practitioners/${p.slug}`]) {
      const response = await page.request.get(path);
      expect(response.status(), `${path}: ${p.name} (${p.why})`).toBe(404);
      expect(await response.text(), path).toContain(`${path.startsWith("/en/") ? "Page Not Found" : "Seite nicht gefunden"}: ${path}`);
    }
  }
  const slugs = await allDirectorySlugs(page);
  for (const p of invisible) expect(slugs, `${p.name} (${p.why})`).not.toContain(p.slug);
  // Searching for them by name finds nobody either.
  for (const p of invisible) {
    const html = await (await page.request.get(`/practitioners?q=${encodeURIComponent(p.name.replace(/^Dr\. /, ""))}`)).text();
    expect(html, p.name).toContain("0 Behandelnde gefunden");
  }
  // And in the browser, one of them: the profile is the 404 page.
  const response = await page.goto("/practitioners/dr-friedrich-baer");
  expect(response?.status()).toBe(404);
  await expect(page.locator("[data-error-message]")).toHaveText("Seite nicht gefunden: /practitioners/dr-friedrich-baer");
});

test("a malformed slug is 404: /practitioners/Bad_Slug", async ({ page }) => {
  await expectErrorPage(page, "/practitioners/Bad_Slug", { status: 404, lang: "de", heading: "Seite nicht gefunden", message: "Seite nicht gefunden: /practitioners/Bad_Slug" });
});
