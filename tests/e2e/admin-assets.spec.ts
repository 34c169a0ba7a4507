import { expect, test, type Page } from "./fixtures";
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

  // Delete: the server asks first, naming the file; nothing is gone before the confirmed post.
  await card(page, renamed).getByRole("button", { name: /Löschen|Delete/ }).click();
  const step = page.locator("[data-confirm-step]");
  await expect(step).toContainText(renamed);
  await expect(card(page, renamed)).toBeVisible();
  await step.locator("[data-confirm]").click();
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
  await expect(refusedRow.locator("[data-upload-error]")).toContainText("Diese Datei ist kein unterstütztes Bild oder Dokument.");

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

test("folders: create, open, upload into it, breadcrumbs, rename, refuse deleting while full, delete when empty", async ({ page }) => {
  const stamp = Date.now();
  const folderName = `E2E Ordner ${stamp}`;
  const renamedFolder = `E2E Umbenannt ${stamp}`;
  const file = `e2e-im-ordner-${stamp}.png`;
  const folderCard = (name: string) => page.locator(`[data-folder-list] li[data-folder-name="${name}"]`);
  await signIn(page, PATH);
  await waitForHydration(page);

  // Create a folder in the root.
  await page.getByLabel(/^(Neuer Ordner|New folder)$/).fill(folderName);
  await page.getByRole("button", { name: /^(Ordner anlegen|Create folder)$/ }).click();
  await expect(page.locator("[data-save-result=ok]")).toContainText(folderName);
  await expect(folderCard(folderName)).toBeVisible();
  await expectNoAxeViolations(page);

  // Open it: the breadcrumbs name it, and the folder is empty.
  await folderCard(folderName).getByRole("link", { name: folderName }).click();
  await page.waitForURL(/[?&]folder=/);
  await waitForHydration(page);
  const crumbs = page.getByRole("navigation", { name: /Ordnerpfad|Folder path/ });
  await expect(crumbs.locator("[aria-current=page]")).toHaveText(folderName);
  await expect(crumbs.getByRole("link", { name: /Alle Medien|All media/ })).toBeVisible();
  await expect(page.locator("[data-empty-state]")).toBeVisible();

  // A subfolder shows the full path.
  await page.getByLabel(/^(Neuer Ordner|New folder)$/).fill("Unterordner");
  await page.getByRole("button", { name: /^(Ordner anlegen|Create folder)$/ }).click();
  await folderCard("Unterordner").getByRole("link", { name: "Unterordner" }).click();
  await expect(crumbs.locator("[aria-current=page]")).toHaveText("Unterordner");
  await expect(crumbs.getByRole("link", { name: folderName })).toBeVisible();
  await expectNoAxeViolations(page);
  await crumbs.getByRole("link", { name: folderName }).click();
  await expect(crumbs.locator("[aria-current=page]")).toHaveText(folderName);
  await waitForHydration(page);

  // Upload into the folder shown.
  await fileInput(page).setInputFiles({ name: file, mimeType: "image/png", buffer: PNG });
  await expect(page.locator(`[data-upload="${file}"]`)).toHaveAttribute("data-upload-state", "done");
  await expect(card(page, file)).toBeVisible();
  await expectNoAxeViolations(page);

  // It is in the folder, not in the root.
  await crumbs.getByRole("link", { name: /Alle Medien|All media/ }).click();
  await expect(crumbs.locator("[aria-current=page]")).toHaveText(/Alle Medien|All media/);
  await expect(card(page, file)).toHaveCount(0);

  // Rename the folder from the root.
  await folderCard(folderName).getByText(/^(Ordner umbenennen|Rename folder)/).click();
  await folderCard(folderName).getByLabel(/Neuer Ordnername|New folder name/).fill(renamedFolder);
  await folderCard(folderName).getByRole("button", { name: /Namen speichern|Save name/ }).click();
  await expect(page.locator("[data-save-result=ok]")).toContainText(renamedFolder);
  await expect(folderCard(renamedFolder)).toBeVisible();

  // Not empty: refused with a message, the folder stays.
  await folderCard(renamedFolder).getByRole("button", { name: /Ordner löschen|Delete folder/ }).click();
  await expect(page.locator("[data-save-result=error]")).toContainText(/nicht leer|not empty/);
  await expect(folderCard(renamedFolder)).toBeVisible();

  // Empty it: move the file back to the root (the select), delete the subfolder.
  await folderCard(renamedFolder).getByRole("link", { name: renamedFolder }).click();
  await expect(crumbs.locator("[aria-current=page]")).toHaveText(renamedFolder);
  await waitForHydration(page);
  // The root folder's option (its value is Squidex's empty GUID).
  await card(page, file).getByLabel(/Verschieben nach|Move to/).selectOption("00000000-0000-0000-0000-000000000000");
  await card(page, file).getByRole("button", { name: /^(Verschieben|Move)/ }).click();
  await expect(page.locator("[data-save-result=ok]")).toContainText(file);
  await expect(card(page, file)).toHaveCount(0);
  await folderCard("Unterordner").getByRole("button", { name: /Ordner löschen|Delete folder/ }).click();
  await expect(page.locator("[data-save-result=ok]")).toContainText("Unterordner");
  await expect(folderCard("Unterordner")).toHaveCount(0);

  // Now empty: deleted.
  await crumbs.getByRole("link", { name: /Alle Medien|All media/ }).click();
  await expect(card(page, file)).toBeVisible();
  await folderCard(renamedFolder).getByRole("button", { name: /Ordner löschen|Delete folder/ }).click();
  await expect(page.locator("[data-save-result=ok]")).toContainText(renamedFolder);
  await expect(folderCard(renamedFolder)).toHaveCount(0);
  await expectNoAxeViolations(page);

  // The upload was audited by the server itself, with the folder work.
  await page.goto("/manage/audit");
  for (const action of ["upload-asset", "create-asset-folder", "rename-asset-folder", "move-asset", "delete-asset-folder"])
    await expect(page.locator(`[data-audit-action="${action}"]`).first()).toBeVisible();
});

test("folder actions refuse hostile input with 4xx", async ({ page }) => {
  await signIn(page, PATH);
  const post = (form: Record<string, string>) => page.request.post(`${PATH}.data`, { form, headers: { Origin: new URL(page.url()).origin } });
  expect((await post({ intent: "create-folder", folderName: "" })).status()).toBe(400);
  expect((await post({ intent: "create-folder", folderName: "a/b" })).status()).toBe(400);
  expect((await post({ intent: "create-folder", folderName: "x".repeat(101) })).status()).toBe(400);
  expect((await post({ intent: "create-folder", folderName: "ok", parentId: "../etc" })).status()).toBe(400);
  expect((await post({ intent: "create-folder", folderName: "ok", parentId: "no-such-folder" })).status()).toBe(400);
  expect((await post({ intent: "rename-folder", folderId: "../x", folderName: "ok" })).status()).toBe(400);
  expect((await post({ intent: "rename-folder", folderId: "no-such-folder", folderName: "ok" })).status()).toBe(404);
  expect((await post({ intent: "delete-folder", folderId: "no-such-folder" })).status()).toBe(404);
  expect((await post({ intent: "move", id: "no-such-asset", parentId: "" })).status()).toBe(404);
  expect((await page.request.get(`${PATH}?folder=no-such-folder`)).status()).toBe(404);
});
