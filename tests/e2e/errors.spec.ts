import { expect, test } from "./fixtures";
import { expectErrorPage } from "./helpers";

test("an unknown page is 404 with the German not-found page", async ({ page }) => {
  await expectErrorPage(page, "/gibt-es-nicht", { status: 404, lang: "de", heading: "Seite nicht gefunden", message: "Seite nicht gefunden: /gibt-es-nicht" });
  await expect(page).toHaveTitle("Seite nicht gefunden");
  await expect(page.getByRole("link", { name: "Zur Startseite" })).toHaveAttribute("href", "/");
});

test("an unknown English page is 404 with the English not-found page", async ({ page }) => {
  await expectErrorPage(page, "/en/does-not-exist", { status: 404, lang: "en", heading: "Page Not Found", message: "Page Not Found: /en/does-not-exist" });
  await expect(page.getByRole("link", { name: "Back to the home page" })).toHaveAttribute("href", "/en");
});

test("a path no page can have (/foo.php) is 404", async ({ page }) => {
  await expectErrorPage(page, "/foo.php", { status: 404, lang: "de", heading: "Seite nicht gefunden", message: "Seite nicht gefunden: /foo.php" });
});

test("a server error is 500 with the generic error page and no stack trace", async ({ page }) => {
  const response = await expectErrorPage(page, "/__test/error", {
    status: 500,
    lang: "de",
    heading: "Interner Serverfehler",
    message: "Die Seite konnte nicht angezeigt werden.",
  });
  const body = await page.locator("body").innerText();
  expect(body).not.toContain("Deliberate failure");
  expect(body).not.toMatch(/\bat \S+ \(|\.(js|ts|tsx):\d+|Error:|stack/i);
  // Nor hidden in the HTML (e.g. in the hydration data).
  const html = await response.text();
  expect(html).not.toContain("Deliberate failure");
  expect(html).not.toMatch(/\.(js|ts|tsx):\d+:\d+/);
});
