import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolations, signIn } from "./admin-helpers";
import { waitForHydration } from "./helpers";

/** The asset library at /manage/squidex-assets, as an editor uses it, against a fresh seeded server. */

const PATH = "/manage/squidex-assets";
// A real 2x1 RGB PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAAD0lEQVR4nGP4z8DAwPAfAAcAAf9+CLHQAAAAAElFTkSuQmCC", "base64");
const fileInput = (page: Page) => page.getByLabel(/^(Dateien auswählen|Choose files)$/);
const card = (page: Page, fileName: string) => page.locator(`[data-asset-list] li[data-file-name="${fileName}"]`);

/** Console errors the page logs (§8: a failed upload is logged as an error). */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  return errors;
}

test("upload a PNG, see it with a preview, rename, search and delete it", async ({ page }) => {
  const name = `e2e-praxis-${Date.now()}.png`;
  const renamed = `e2e-umbenannt-${Date.now()}.png`;
  await signIn(page, PATH);
  await waitForHydration(page);
  await expectNoAxeViolations(page);

  await fileInput(page).setInputFiles({ name, mimeType: "image/png", buffer: PNG });
  const row = page.locator(`[data-upload="${name}"]`);
  await expect(row).toHaveAttribute("data-upload-state", "done");
  await expect(row.getByRole("progressbar")).toHaveJSProperty("value", 100);
  await expect(row).toContainText(/Fertig|Done/);

  // The list reloads after the upload: the new asset is there, with a thumbnail that loaded.
  const uploaded = card(page, name);
  await expect(uploaded).toBeVisible();
  const preview = uploaded.locator("img[data-preview]");
  await expect(preview).toBeVisible();
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(2);
  await expectNoAxeViolations(page);

  // Rename.
  await uploaded.getByText(/^(Umbenennen|Rename)/).click();
  await uploaded.getByLabel(/Neuer Dateiname|New file name/).fill(renamed);
  await uploaded.getByRole("button", { name: /Namen speichern|Save name/ }).click();
  await expect(page.locator("[data-save-result=ok]")).toContainText(renamed);
  await expect(card(page, renamed)).toBeVisible();
  await expect(card(page, name)).toHaveCount(0);

  // Search finds it by part of its name, case-insensitively.
  await page.getByLabel(/Dateiname suchen|Search file names/).fill("E2E-UMBENANNT");
  await page.getByRole("button", { name: /^(Suchen|Search)$/ }).click();
  await page.waitForURL(/[?&]q=E2E-UMBENANNT/);
  await expect(page.locator("[data-asset-list] li[data-asset]")).toHaveCount(1);
  await expect(card(page, renamed)).toBeVisible();

  // Delete, after confirming.
  page.once("dialog", (dialog) => void dialog.accept());
  await card(page, renamed).getByRole("button", { name: /Löschen|Delete/ }).click();
  await expect(page.locator("[data-save-result=ok]")).toContainText(renamed);
  await expect(card(page, renamed)).toHaveCount(0);
  await expect(page.locator("[data-empty-state]")).toBeVisible();

  // Every change is in the audit log.
  await page.goto("/manage/audit");
  for (const action of ["upload-asset", "rename-asset", "delete-asset"]) await expect(page.locator(`[data-audit-action="${action}"]`).first()).toBeVisible();
});

test("a refused type and a too large file show their error on the file and log it", async ({ page }) => {
  const errors = consoleErrors(page);
  await signIn(page, PATH);
  await waitForHydration(page);

  await fileInput(page).setInputFiles({ name: "programm.exe", mimeType: "application/x-msdownload", buffer: Buffer.from(Array.from({ length: 64 }, (_, i) => (i * 37 + 11) & 255)) });
  const refusedRow = page.locator('[data-upload="programm.exe"]');
  await expect(refusedRow).toHaveAttribute("data-upload-state", "error");
  await expect(refusedRow.locator("[data-upload-error]")).toContainText(/type|Typ/i);

  await fileInput(page).setInputFiles({ name: "riesig.png", mimeType: "image/png", buffer: Buffer.alloc(10 * 1024 * 1024 + 1, 1) });
  const largeRow = page.locator('[data-upload="riesig.png"]');
  await expect(largeRow).toHaveAttribute("data-upload-state", "error");
  await expect(largeRow.locator("[data-upload-error]")).toContainText(/zu groß|too large/);

  expect(errors.some((e) => e.includes("programm.exe"))).toBe(true);
  expect(errors.some((e) => e.includes("riesig.png"))).toBe(true);
  await expect(page.locator("[data-asset-list] li[data-file-name='programm.exe']")).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("hostile query strings and bad action input answer 4xx, never 5xx", async ({ page }) => {
  await signIn(page, PATH);
  for (const query of ["?page=-5", "?page=abc&folder=../../etc", "?q=%27%20or%201%3D1%20--&page=99999999", `?q=${"%25".repeat(300)}`]) {
    expect((await page.request.get(`${PATH}${query}`)).status()).toBe(200);
  }
  const post = (form: Record<string, string>) => page.request.post(`${PATH}.data`, { form, headers: { Origin: new URL(page.url()).origin } });
  expect((await post({ intent: "rename", id: "../x", fileName: "a.png" })).status()).toBe(400);
  expect((await post({ intent: "rename", id: "no-such-asset", fileName: "a.png" })).status()).toBe(404);
  expect((await post({ intent: "delete", id: "no-such-asset" })).status()).toBe(404);
});
