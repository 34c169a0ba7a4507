import { expect, test, type BrowserContext, type Page } from "./fixtures";
import { noScriptContext, originOf, recordForeignRequests } from "./helpers";

const banner = (page: Page) => page.locator("section#consent");
const OPTIONAL = ["Funktional (z. B. Karten)", "Statistik", "Marketing", "Nicht klassifiziert"];

async function consentCookie(context: BrowserContext, baseURL: string | undefined) {
  const cookie = (await context.cookies(baseURL)).find((c) => c.name === "pn_consent");
  return cookie ? decodeURIComponent(cookie.value) : undefined;
}

test("before consent, nothing is requested from anywhere but the site", async ({ page, baseURL }) => {
  const origin = originOf(baseURL);
  const foreign = recordForeignRequests(page, origin);
  for (const path of ["/", "/ueber-uns", "/practitioners", "/practitioners/juergen-weiss", "/en/guide/back-pain"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expect(banner(page), path).toBeVisible();
    await expect(page.locator("[data-map]"), path).toHaveCount(0);
    // Hovering a menu link prefetches the next page: still only our own origin.
    await page.getByRole("navigation", { name: /Hauptnavigation|Main navigation/ }).getByRole("link").first().hover();
    await page.waitForLoadState("networkidle");
  }
  expect(foreign).toEqual([]);
  expect(await consentCookie(page.context(), baseURL)).toBeUndefined();
});

test("'Nur notwendige' hides the banner, stores necessary only, and it stays hidden after reload", async ({ page, baseURL }) => {
  await page.goto("/ueber-uns");
  const section = banner(page);
  await expect(section).toBeVisible();
  await expect(section.getByRole("heading", { name: "Datenschutz-Einstellungen" })).toBeVisible();
  await section.getByRole("button", { name: "Nur notwendige" }).click();
  await expect(section).toBeHidden();
  expect(await consentCookie(page.context(), baseURL)).toBe("necessary");
  expect(new URL(page.url()).pathname).toBe("/ueber-uns");

  await page.reload();
  await expect(page.getByRole("heading", { name: "Wer wir sind" })).toBeVisible();
  await expect(section).toBeHidden();

  // Also on another page, rendered fresh by the server.
  await page.goto("/practitioners");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Behandelnde");
  await expect(section).toBeHidden();
  // The map still waits: necessary only does not include maps.
  await expect(page.locator("[data-map-placeholder]")).toBeVisible();
});

test("the footer link 'Cookie-Einstellungen' shows the banner again, with the current choice", async ({ page, baseURL }) => {
  await page.goto("/ueber-uns");
  await banner(page).getByRole("button", { name: "Nur notwendige" }).click();
  await expect(banner(page)).toBeHidden();

  const link = page.getByRole("contentinfo").getByRole("link", { name: "Cookie-Einstellungen" });
  await expect(link).toHaveAttribute("href", "#consent");
  await link.click();
  await expect(banner(page)).toBeVisible();
  for (const name of OPTIONAL) await expect(banner(page).getByRole("checkbox", { name })).not.toBeChecked();
  await expect(banner(page).getByRole("checkbox", { name: "Notwendig" })).toBeChecked();
  await expect(banner(page).getByRole("checkbox", { name: "Notwendig" })).toBeDisabled();

  // Choosing one category and saving stores just that one.
  await banner(page).getByRole("checkbox", { name: "Statistik" }).check();
  await banner(page).getByRole("button", { name: "Auswahl speichern" }).click();
  await expect.poll(() => consentCookie(page.context(), baseURL)).toBe("statistic");
  await page.goto("/practitioners");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Behandelnde");
  await expect(banner(page)).toBeHidden();
});

// The reopened banner is shown by the :target of "#consent"; saving must close it again (a client-side
// navigation would keep :target, so the form reloads the document).
test("saving from the reopened banner closes it", async ({ page }) => {
  await page.goto("/ueber-uns");
  await banner(page).getByRole("button", { name: "Nur notwendige" }).click();
  await expect(banner(page)).toBeHidden();
  await page.getByRole("contentinfo").getByRole("link", { name: "Cookie-Einstellungen" }).click();
  await expect(banner(page)).toBeVisible();
  await banner(page).getByRole("button", { name: "Auswahl speichern" }).click();
  await expect(page).toHaveURL(/\/ueber-uns$/);
  await expect(banner(page)).toBeHidden();
});

test("'Alle akzeptieren' grants every category", async ({ page, baseURL }) => {
  await page.goto("/");
  await banner(page).getByRole("button", { name: "Alle akzeptieren" }).click();
  await expect(banner(page)).toBeHidden();
  const value = await consentCookie(page.context(), baseURL);
  expect(value?.split(",").sort()).toEqual(["functional", "marketing", "statistic", "unclassified"]);
  const cookie = (await page.context().cookies(baseURL)).find((c) => c.name === "pn_consent")!;
  expect(cookie.path).toBe("/");
  expect(cookie.sameSite).toBe("Lax");
  expect(cookie.expires).toBeGreaterThan(Date.now() / 1000 + 300 * 24 * 3600);

  // On the next page load the banner stays closed and, reopened, shows everything ticked.
  await page.reload();
  await expect(banner(page)).toBeHidden();
  await page.getByRole("contentinfo").getByRole("link", { name: "Cookie-Einstellungen" }).click();
  await expect(banner(page)).toBeVisible();
  for (const name of OPTIONAL) await expect(banner(page).getByRole("checkbox", { name })).toBeChecked();
});

// Reopening the banner must show what was granted; otherwise "Auswahl speichern" would quietly
// withdraw the consent just given.
test("after 'Alle akzeptieren', the reopened banner shows every category ticked (no reload)", async ({ page }) => {
  await page.goto("/");
  await banner(page).getByRole("button", { name: "Alle akzeptieren" }).click();
  await expect(banner(page)).toBeHidden();
  await page.getByRole("contentinfo").getByRole("link", { name: "Cookie-Einstellungen" }).click();
  await expect(banner(page)).toBeVisible();
  for (const name of OPTIONAL) await expect(banner(page).getByRole("checkbox", { name })).toBeChecked();
});

test("the banner works without JavaScript: form post, then back to the same page", async ({ browser, baseURL }) => {
  const context = await noScriptContext(browser, baseURL);
  const page = await context.newPage();
  try {
    await page.goto("/ratgeber/rueckenschmerzen");
    await expect(banner(page)).toBeVisible();
    await expect(banner(page).locator("form")).toHaveAttribute("method", /post/i);
    await banner(page).getByRole("button", { name: "Nur notwendige" }).click();
    await page.waitForURL((url) => url.pathname === "/ratgeber/rueckenschmerzen");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Rückenschmerzen: Was wirklich hilft");
    await expect(banner(page)).toBeHidden();
    expect(await consentCookie(context, baseURL)).toBe("necessary");

    // Query strings survive the round trip too.
    await page.goto("/practitioners?q=weiss#consent");
    await expect(banner(page)).toBeVisible();
    await banner(page).getByRole("button", { name: "Alle akzeptieren" }).click();
    await page.waitForURL((url) => url.pathname === "/practitioners" && url.search === "?q=weiss");
    await expect(banner(page)).toBeHidden();
    expect((await consentCookie(context, baseURL))?.split(",").sort()).toEqual(["functional", "marketing", "statistic", "unclassified"]);
  } finally {
    await context.close();
  }
});
