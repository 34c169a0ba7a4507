import { expect, test } from "./fixtures";
import { originOf, seoLinks, switcherLink } from "./helpers";

test("the switcher goes from /ueber-uns to /en/about-us and back, and <html lang> follows", async ({ page }) => {
  await page.goto("/ueber-uns");
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByRole("navigation", { name: "Sprache wählen" }).locator('[aria-current="true"]')).toHaveText("DE");

  await switcherLink(page, "en").click();
  await expect(page).toHaveURL((url) => url.pathname === "/en/about-us");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page).toHaveTitle("About us – Praxisnetz");
  await expect(page.getByRole("heading", { name: "Who we are" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Choose language" }).locator('[aria-current="true"]')).toHaveText("EN");

  await switcherLink(page, "de").click();
  await expect(page).toHaveURL((url) => url.pathname === "/ueber-uns");
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page).toHaveTitle("Über uns – Praxisnetz");
  await expect(page.getByRole("heading", { name: "Wer wir sind" })).toBeVisible();
});

test("the /de prefix serves the German page too, with the unprefixed URL as canonical", async ({ page, baseURL }) => {
  const origin = originOf(baseURL);
  const response = await page.goto("/de/ueber-uns");
  expect(response?.status()).toBe(200);
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page).toHaveTitle("Über uns – Praxisnetz");
  await expect(page.getByRole("heading", { name: "Wer wir sind" })).toBeVisible();
  expect(await seoLinks(page)).toEqual({ canonical: `${origin}/ueber-uns`, de: `${origin}/ueber-uns`, en: `${origin}/en/about-us` });
  await expect(switcherLink(page, "en")).toHaveAttribute("href", "/en/about-us");
});

test("every page has a canonical URL and absolute hreflang alternates for de and en", async ({ page, baseURL }) => {
  const origin = originOf(baseURL);
  const cases: Array<{ path: string; canonical: string; de: string; en: string }> = [
    { path: "/", canonical: "/", de: "/", en: "/en" },
    { path: "/en", canonical: "/en", de: "/", en: "/en" },
    { path: "/ueber-uns", canonical: "/ueber-uns", de: "/ueber-uns", en: "/en/about-us" },
    { path: "/en/about-us", canonical: "/en/about-us", de: "/ueber-uns", en: "/en/about-us" },
    { path: "/ratgeber/rueckenschmerzen", canonical: "/ratgeber/rueckenschmerzen", de: "/ratgeber/rueckenschmerzen", en: "/en/guide/back-pain" },
    { path: "/en/guide/back-pain", canonical: "/en/guide/back-pain", de: "/ratgeber/rueckenschmerzen", en: "/en/guide/back-pain" },
    { path: "/practitioners", canonical: "/practitioners", de: "/practitioners", en: "/en/practitioners" },
    { path: "/en/practitioners", canonical: "/en/practitioners", de: "/practitioners", en: "/en/practitioners" },
    { path: "/practitioners/juergen-weiss", canonical: "/practitioners/juergen-weiss", de: "/practitioners/juergen-weiss", en: "/en/practitioners/juergen-weiss" },
    { path: "/en/practitioners/juergen-weiss", canonical: "/en/practitioners/juergen-weiss", de: "/practitioners/juergen-weiss", en: "/en/practitioners/juergen-weiss" },
  ];
  for (const c of cases) {
    await test.step(c.path, async () => {
      const response = await page.goto(c.path, { waitUntil: "domcontentloaded" });
      expect(response?.status()).toBe(200);
      expect(await seoLinks(page)).toEqual({ canonical: origin + c.canonical, de: origin + c.de, en: origin + c.en });
    });
  }
});

test("hreflang alternates are reciprocal: each alternate names the page back", async ({ page, baseURL }) => {
  const origin = originOf(baseURL);
  for (const path of ["/", "/ueber-uns", "/ratgeber/rueckenschmerzen", "/behandelnde", "/practitioners", "/practitioners/juergen-weiss"]) {
    await page.goto(path);
    const here = await seoLinks(page);
    await page.goto(here.en!.replace(origin, ""));
    const there = await seoLinks(page);
    expect(there.de, `the English alternate of ${path} points back to it`).toBe(here.de);
    expect(there.en).toBe(here.en);
  }
});

test("internal links on an English page stay under /en (except the switch to German)", async ({ page, baseURL }) => {
  const origin = originOf(baseURL);
  for (const path of ["/en", "/en/about-us", "/en/guide/back-pain", "/en/practitioners", "/en/practitioners/juergen-weiss"]) {
    await test.step(path, async () => {
      await page.goto(path);
      await expect(page.locator("html")).toHaveAttribute("lang", "en");
      const links = await page.locator("body a[href]").evaluateAll((els) =>
        els.map((a) => ({ href: (a as HTMLAnchorElement).href, raw: a.getAttribute("href")!, hreflang: a.getAttribute("hreflang") })),
      );
      const internal = links.filter((l) => !l.raw.startsWith("#") && new URL(l.href).origin === origin && l.hreflang !== "de");
      expect(internal.length).toBeGreaterThan(5);
      const outside = internal.map((l) => new URL(l.href).pathname).filter((p) => p !== "/en" && !p.startsWith("/en/"));
      expect(outside, `links on ${path} that leave /en`).toEqual([]);
    });
  }
});

test("the switcher on a profile page keeps the profile", async ({ page }) => {
  await page.goto("/practitioners/kaethe-suessmann");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Käthe Süßmann");
  await switcherLink(page, "en").click();
  await expect(page).toHaveURL((url) => url.pathname === "/en/practitioners/kaethe-suessmann");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.locator("[data-profile]")).toHaveAttribute("data-profile", "kaethe-suessmann");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Käthe Süßmann");
  await expect(page.getByText("Naturopathy", { exact: true })).toBeVisible();

  await switcherLink(page, "de").click();
  await expect(page).toHaveURL((url) => url.pathname === "/practitioners/kaethe-suessmann");
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByText("Naturheilkunde", { exact: true })).toBeVisible();
});
