import { expect, test, type Browser, type Page } from "./fixtures";
import { expectNoAxeViolations, inviteEditor, signIn } from "./admin-helpers";
import { waitForFormEngine } from "./helpers";

/**
 * The pages and blocks screens of the admin area, on the e2e server's fresh demo store: a page is
 * created, given slugs, published (the public site shows it to a visitor without a session),
 * unpublished (404), renamed and deleted; a block field without default or known tag is refused.
 * The steps build on each other, so they run in order.
 */
test.describe.configure({ mode: "serial" });

const TITLE = "E2E Prüfseite";
const SLUG_DE = "e2e-pruefseite";
const SLUG_EN = "e2e-check-page";
let pageUrl = "";

/** A visitor: a new browser context without the editor's session cookie. */
async function visitorStatus(browser: Browser, baseURL: string | undefined, path: string): Promise<{ status: number; text: string }> {
  const context = await browser.newContext({ baseURL });
  try {
    const visitor = await context.newPage();
    const response = await visitor.goto(path);
    return { status: response?.status() ?? 0, text: await visitor.locator("main, body").first().innerText() };
  } finally {
    await context.close();
  }
}

const notice = (page: Page) => page.locator("[data-save-result]");

test("the page list creates a draft page", async ({ page }) => {
  await signIn(page, "/manage/pages");
  await expect(page.getByRole("heading", { level: 1, name: /^(Seiten|Pages)$/ })).toBeVisible();
  await expect(page.locator("tr[data-page=page-home]")).toBeVisible();
  await expectNoAxeViolations(page);

  const create = page.locator("form").filter({ has: page.getByRole("heading", { name: /Neue Seite|New page/ }) });
  await create.getByLabel(/^(Titel|Title)$/).fill(TITLE);
  await create.getByRole("button", { name: /Anlegen|Create/ }).click();
  await expect(notice(page)).toHaveAttribute("data-save-result", "ok");
  await expect(notice(page)).toContainText(TITLE);
  const row = page.locator("tr[data-page=page-e2e-prufseite], tr[data-page=page-e2e-pruefseite]");
  await expect(row).toContainText("/e2e-pruefseite");
  await expect(row.locator("[data-status]")).toHaveAttribute("data-status", "Draft");

  // The state filter and the search run on the server.
  await page.goto("/manage/pages?state=Draft&q=Prüfseite");
  await expect(page.locator("tbody tr")).toHaveCount(1);
  await page.goto("/manage/pages?state=Published&q=Prüfseite");
  await expect(page.locator("[data-empty-state]")).toBeVisible();
});

test("a page's settings: slugs are checked, then it is published, shown, unpublished", async ({ page, browser, baseURL }) => {
  await signIn(page, "/manage/pages");
  await page.getByRole("link", { name: TITLE }).click();
  await page.waitForURL(/\/manage\/pages\/page-e2e/);
  pageUrl = new URL(page.url()).pathname;
  await expectNoAxeViolations(page);

  // A slug a route owns is refused, with the reason.
  await page.getByLabel(/^Slug \(de\)$/).fill("manage");
  await page.getByRole("button", { name: /^(Speichern|Save)$/ }).click();
  await expect(notice(page)).toHaveAttribute("data-save-result", "error");
  await expect(notice(page)).toContainText(/festen Seite|fixed page/);
  // A slug another page has is refused too.
  await page.getByLabel(/^Slug \(de\)$/).fill("ueber-uns");
  await page.getByRole("button", { name: /^(Speichern|Save)$/ }).click();
  await expect(notice(page)).toContainText(/hat diesen Slug schon|already has this slug/);

  await page.getByLabel(/^Slug \(de\)$/).fill(SLUG_DE);
  await page.getByLabel(/^Slug \(en\)$/).fill(SLUG_EN);
  await page.getByLabel(/^(SEO-Titel|SEO title) \(de\)$/).fill("Prüfseite – Praxisnetz");
  await page.getByLabel(/^(Hintergrundfarbe|Background colour)$/).selectOption({ index: 1 });
  await expect(page.locator("[data-swatch]")).not.toHaveAttribute("data-swatch", "");
  await page.getByRole("button", { name: /^(Speichern|Save)$/ }).click();
  await expect(notice(page)).toHaveAttribute("data-save-result", "ok");
  await expect(page.getByLabel(/^Slug \(en\)$/)).toHaveValue(SLUG_EN);
  await expect(page.locator("[data-edit-mode-link]")).toHaveAttribute("href", `/${SLUG_DE}?edit=1`);

  expect((await visitorStatus(browser, baseURL, `/${SLUG_DE}`)).status).toBe(404);
  await page.getByRole("button", { name: /^(Veröffentlichen|Publish)$/ }).click();
  await expect(notice(page)).toHaveAttribute("data-save-result", "ok");
  await expect(page.locator("[data-status]").first()).toHaveAttribute("data-status", "Published");
  const live = await visitorStatus(browser, baseURL, `/${SLUG_DE}`);
  expect(live.status).toBe(200);
  expect(live.text).toContain(TITLE);
  expect((await visitorStatus(browser, baseURL, `/en/${SLUG_EN}`)).status).toBe(200);

  await page.getByRole("button", { name: /^(Zurückziehen|Unpublish)$/ }).click();
  await expect(notice(page)).toHaveAttribute("data-save-result", "ok");
  await expect(page.locator("[data-status]").first()).toHaveAttribute("data-status", "Draft");
  expect((await visitorStatus(browser, baseURL, `/${SLUG_DE}`)).status).toBe(404);
});

test("the stored page shows every language, status and version as text", async ({ page }) => {
  await signIn(page, pageUrl);
  await page.getByRole("link", { name: /Gespeicherte Daten|stored data/i }).click();
  await page.waitForURL(/\/manage\/squidex\/page-e2e/);
  const json = page.locator("[data-stored-json]");
  await expect(json).toContainText(`"slug": "${SLUG_EN}"`);
  await expect(json).toContainText('"status": "Draft"');
  await expect(json).toContainText('"lastModifiedBy": "subject:');
  await expectNoAxeViolations(page);
  // A German slug in the address leads to the same page.
  await page.goto("/manage/squidex/ueber-uns");
  await expect(page).toHaveURL(/\/manage\/squidex\/page-about$/);
  // Names no page can have are a 404 (a NUL was a 500), list parameters that are none a 400.
  for (const path of ["/manage/squidex/%00", "/manage/pages/a%00b", `/manage/pages/${"x".repeat(5000)}`]) expect((await page.request.get(path)).status(), path.slice(0, 40)).toBe(404);
  for (const query of ["?page=-1", "?page=1e20", "?q=%00"]) {
    const res = await page.request.get(`/manage/pages${query}`);
    expect(res.status(), query).toBe(400);
    expect(await res.text()).toMatch(/Seitenzahl|Suchbegriff/);
  }
});

test("a page is renamed and deleted on its own screen; the list's rows carry neither", async ({ page }) => {
  await signIn(page, "/manage/pages?q=Prüfseite");
  const row = page.locator("tbody tr").first();
  // Issue 22, point 4: no rename field or delete button in every row, only the link to the page's screen.
  await expect(row.getByRole("textbox")).toHaveCount(0);
  await expect(row.getByRole("button")).toHaveCount(0);
  await row.getByRole("link").click();
  await page.waitForURL(/\/manage\/pages\/page-e2e/);
  await page.getByLabel(/^(Titel|Title) \(de\)$/).fill("E2E Umbenannt");
  await page.getByRole("button", { name: /^(Speichern|Save)$/ }).click();
  await expect(notice(page)).toHaveAttribute("data-save-result", "ok");
  await page.goto("/manage/pages?q=Umbenannt");
  await expect(page.getByRole("link", { name: "E2E Umbenannt" })).toBeVisible();

  // Deleting asks first, naming the page; only the confirmed post deletes, then the list says so.
  await page.getByRole("link", { name: "E2E Umbenannt" }).click();
  await page.locator("[data-page-delete]").getByRole("button", { name: /Seite löschen|Delete page/ }).click();
  const step = page.locator("[data-confirm-step]");
  await expect(step).toContainText("Seite „E2E Umbenannt“");
  await expectNoAxeViolations(page);
  await step.getByRole("link", { name: /Abbrechen|Cancel/ }).click();
  await expect(step).toHaveCount(0);
  await page.locator("[data-page-delete]").getByRole("button", { name: /Seite löschen|Delete page/ }).click();
  await step.getByRole("button", { name: "Ja, Seite „E2E Umbenannt“ löschen" }).click();
  await page.waitForURL(/\/manage\/pages\?deleted=1$/);
  await expect(notice(page)).toHaveAttribute("data-save-result", "ok");
  await expect(notice(page)).toContainText(/Seite gelöscht|Page deleted/);
  await page.goto("/manage/pages?q=Umbenannt");
  await expect(page.locator("[data-empty-state]")).toBeVisible();
});

test("the block screens list the schemas and refuse a field without default or known tag", async ({ page }) => {
  await signIn(page, "/manage/blocks");
  await expect(page.locator("tr[data-block-schema=core-settings-blocks]")).toBeVisible();
  // The palette's entries are listed with the block schema each names; every demo block is in it.
  await expect(page.locator("[data-palette-entry=block-cta]")).toBeVisible();
  await expect(page.locator("[data-unknown-schema]")).toHaveCount(0);
  await expect(page.locator("[data-not-in-palette]")).toHaveCount(0);
  await expectNoAxeViolations(page);
  await page.locator("tr[data-block-schema=block-cta]").getByRole("link", { name: "block-cta", exact: true }).click();
  await page.waitForURL("**/manage/blocks/block-cta");
  await expectNoAxeViolations(page);

  const fresh = page.locator('[data-block-field-new="new"]');
  await fresh.getByLabel(/^(Feldname|Field name)$/).fill("subtitle");
  await page.getByRole("button", { name: /^(Speichern|Save)$/ }).click();
  await expect(notice(page)).toHaveAttribute("data-save-result", "error");
  await expect(notice(page)).toContainText(/subtitle hat weder einen Standardwert noch ein bekanntes Tag|subtitle has neither a default value nor a known tag/);
  await expect(page.locator("[data-block-field=subtitle]")).toHaveCount(0);

  // With a known tag the field is saved.
  await fresh.getByLabel(/^Tags/).fill("link");
  await page.getByRole("button", { name: /^(Speichern|Save)$/ }).click();
  await expect(notice(page)).toHaveAttribute("data-save-result", "ok");
  await expect(page.locator("[data-block-field=subtitle]")).toBeVisible();
});

test("the fields of a list's entries (the accordion's questions) are edited and added on the block screen", async ({ page }) => {
  await signIn(page, "/manage/blocks/block-accordion");
  const entries = page.locator("[data-nested-fields=items]");
  await expect(entries.locator("[data-nested-field]")).toHaveCount(2);
  await expectNoAxeViolations(page);
  const question = entries.locator("[data-nested-field=question]");
  await question.getByLabel(/^(Bezeichnung|Label)$/).fill("Frage (geändert)");
  await entries.locator("[data-block-field-new]").getByLabel(/^(Feldname|Field name)$/).fill("hint");
  await entries.locator("[data-block-field-new]").getByLabel(/^Standardwert|^Default value/).fill('"kein JSON');
  await page.getByRole("button", { name: /^(Speichern|Save)$/ }).click();
  // Bad JSON is refused at its input, and nothing is saved.
  await expect(notice(page)).toHaveAttribute("data-save-result", "error");
  await expect(entries.locator("[data-block-field-new]")).toContainText(/Kein gültiges JSON|Not valid JSON/);
  await entries.locator("[data-block-field-new]").getByLabel(/^Standardwert|^Default value/).fill('""');
  await page.getByRole("button", { name: /^(Speichern|Save)$/ }).click();
  await expect(notice(page)).toHaveAttribute("data-save-result", "ok");
  await page.reload();
  await expect(entries.locator("[data-nested-field]")).toHaveCount(3);
  await expect(entries.locator("[data-nested-field=question]").getByLabel(/^(Bezeichnung|Label)$/)).toHaveValue("Frage (geändert)");
  await expect(entries.locator("[data-nested-field=hint]")).toBeVisible();
});

test("an editor who is no superuser cannot delete pages (403)", async ({ page, browser, baseURL }) => {
  await signIn(page, "/manage");
  const { context, editor } = await inviteEditor(page, browser, baseURL, "pages-editor", "/manage/pages");
  await expect(editor.locator("tr[data-page=page-about]")).toBeVisible();
  await expect(editor.getByRole("button", { name: /Löschen|Delete/ })).toHaveCount(0);
  const status = await editor.evaluate(async () => (await fetch("/manage/pages", { method: "POST", body: new URLSearchParams({ intent: "delete", id: "page-about", version: "0" }) })).status);
  expect(status).toBe(403);
  // Nor on the page's own screen: no delete section, and its post is refused too.
  await editor.goto("/manage/pages/page-about");
  await expect(editor.locator("[data-page-delete]")).toHaveCount(0);
  const onScreen = await editor.evaluate(async () => (await fetch("/manage/pages/page-about", { method: "POST", body: new URLSearchParams({ intent: "delete", version: "0", confirmed: "yes" }) })).status);
  expect(onScreen).toBe(403);
  // The page is still there.
  expect((await visitorStatus(browser, baseURL, "/ueber-uns")).status).toBe(200);
  await context.close();
});
