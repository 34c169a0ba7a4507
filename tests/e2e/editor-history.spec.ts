import { expect, test, type Page } from "./fixtures";
import { expectNoAxeViolations, signIn } from "./admin-helpers";

/**
 * The page editor's version history, driven as an editor drives it: the "Versionen" tab of edit
 * mode (app/editor/history-panel.tsx) lists who kept which version when, previews one, compares it
 * with the current draft in plain words and restores it as the draft, which the editor then keeps
 * working on without a conflict. Works on a page it creates.
 */

async function newPage(page: Page): Promise<string> {
  const title = `History ${Date.now()}`;
  await page.goto("/manage/pages");
  const create = page.locator("form").filter({ has: page.getByRole("heading", { name: /Neue Seite|New page/ }) });
  await create.getByLabel(/^(Titel|Title)$/).fill(title);
  await create.getByRole("button", { name: /Anlegen|Create/ }).click();
  await expect(page.getByRole("link", { name: title })).toBeVisible();
  return `/${title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")}`;
}

const saved = (page: Page) => expect(page.locator("[data-save-state]")).toHaveAttribute("data-save-state", "saved", { timeout: 10_000 });
const fields = (page: Page) => page.getByRole("region", { name: /^(Felder|Fields)$/ });
const canvas = (page: Page) => page.locator("[data-canvas]");
const entries = (page: Page) => page.locator("[data-history-entry]");

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test("versions by who and when: preview, compare with the draft, restore as draft and keep editing", async ({ page }) => {
  const path = await newPage(page);
  await page.goto(`${path}?edit=1`);
  await expect(page.locator("[data-editor-root][data-editor-ready='1']")).toBeVisible();
  const tab = page.getByRole("tab", { name: "Versionen" });
  test.skip((await tab.count()) === 0, "the Versionen tab is not in edit mode yet");

  await page.locator("[data-palette-item]").filter({ hasText: "Handlungsaufforderung" }).first().click();
  await fields(page).getByLabel("Überschrift").fill("Erste Fassung");
  await saved(page);
  await page.getByRole("button", { name: "Veröffentlichen" }).click();
  await expect(page.locator("[data-page-state]")).toHaveAttribute("data-page-state", "Published");
  await fields(page).getByLabel("Überschrift").fill("Zweite Fassung");
  await saved(page);

  await tab.click();
  // Newest first: the draft after the publication, the publication, the draft before it — by name.
  await expect(entries(page)).toHaveCount(3);
  await expect(entries(page).nth(0)).toContainText("Entwurf");
  await expect(entries(page).nth(1)).toContainText("Veröffentlicht");
  await expect(entries(page).nth(0)).toContainText("von Demo-Admin");
  const published = entries(page).nth(1);

  await published.getByRole("button", { name: "Vorschau" }).click();
  await expect(published.getByRole("region", { name: /Vorschau der Version/ })).toContainText("Handlungsaufforderung – Erste Fassung");

  await published.getByRole("button", { name: "Vergleichen" }).click();
  await page.locator("li").filter({ hasText: "Aktueller Entwurf" }).getByRole("button", { name: "Vergleichen" }).click();
  const comparison = page.locator("[data-history-compare]");
  await expect(comparison).toContainText("Von Veröffentlicht");
  await expect(comparison.locator("[data-change=changed]")).toHaveText(/Handlungsaufforderung „Zweite Fassung“: .*Überschrift.* geändert/);
  await expectNoAxeViolations(page);
  await comparison.getByRole("button", { name: "Vergleich schließen" }).click();

  page.once("dialog", (d) => void d.accept());
  await published.getByRole("button", { name: "Als Entwurf wiederherstellen" }).click();
  await expect(page.locator("[data-history-panel] [role=status]")).toHaveText("Die Version ist jetzt der Entwurf der Seite.");
  await expect(canvas(page)).toContainText("Erste Fassung");
  await expect(canvas(page)).not.toContainText("Zweite Fassung");
  await expect(entries(page).first()).toContainText("Wiederhergestellt");
  await saved(page);

  // The editor took the restored version over: the next change saves without a conflict.
  await page.getByRole("tab", { name: "Gliederung" }).click();
  await page.locator("[data-outline-id]").first().click();
  await fields(page).getByLabel("Überschrift").fill("Dritte Fassung");
  await saved(page);
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await page.reload();
  await expect(page.locator("[data-editor-root][data-editor-ready='1']")).toBeVisible();
  await expect(canvas(page)).toContainText("Dritte Fassung");
});
