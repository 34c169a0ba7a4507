import { expect, test } from "@playwright/test";

test("an unknown page is 404 with the German not-found page", async ({ page }) => {
  const response = await page.goto("/gibt-es-nicht");
  expect(response?.status()).toBe(404);
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.locator("[data-error-status]")).toHaveAttribute("data-error-status", "404");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Seite nicht gefunden");
  await expect(page.locator("[data-error-message]")).toHaveText("Page Not Found: /gibt-es-nicht");
  await expect(page).toHaveTitle("Seite nicht gefunden");
  await expect(page.getByRole("link", { name: "Zur Startseite" })).toHaveAttribute("href", "/");
});

test("an unknown English page is 404 with the English not-found page", async ({ page }) => {
  const response = await page.goto("/en/does-not-exist");
  expect(response?.status()).toBe(404);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.locator("[data-error-status]")).toHaveAttribute("data-error-status", "404");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page Not Found");
  await expect(page.locator("[data-error-message]")).toHaveText("Page Not Found: /en/does-not-exist");
  await expect(page.getByRole("link", { name: "Back to the home page" })).toHaveAttribute("href", "/en");
});

test("a path no page can have (/foo.php) is 404", async ({ page }) => {
  const response = await page.goto("/foo.php");
  expect(response?.status()).toBe(404);
  await expect(page.locator("[data-error-status]")).toHaveAttribute("data-error-status", "404");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Seite nicht gefunden");
  await expect(page.locator("[data-error-message]")).toHaveText("Page not found: /foo.php");
});

test("a server error is 500 with the generic error page and no stack trace", async ({ page }) => {
  const response = await page.goto("/__test/error");
  expect(response?.status()).toBe(500);
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.locator("[data-error-status]")).toHaveAttribute("data-error-status", "500");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Interner Serverfehler");
  await expect(page.locator("[data-error-message]")).toHaveText("Die Seite konnte nicht angezeigt werden.");
  const body = await page.locator("body").innerText();
  expect(body).not.toContain("Deliberate failure");
  expect(body).not.toMatch(/\bat \S+ \(|\.(js|ts|tsx):\d+|Error:|stack/i);
  // Nor hidden in the HTML (e.g. in the hydration data).
  const html = (await response!.text()) ?? "";
  expect(html).not.toContain("Deliberate failure");
  expect(html).not.toMatch(/\.(js|ts|tsx):\d+:\d+/);
});
