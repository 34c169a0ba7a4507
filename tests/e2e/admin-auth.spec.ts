import { expect, test } from "./fixtures";
import { DEMO_ADMIN, expectNoAxeViolations, inviteEditor, signIn } from "./admin-helpers";
import { noScriptContext, waitForFormEngine, waitForHydration } from "./helpers";

test("an admin page sends a visitor to sign in and back; signing out ends the session", async ({ page }) => {
  await page.goto("/manage/account");
  await expect(page).toHaveURL(/\/login\?redirect=%2Fmanage%2Faccount$/);
  await expectNoAxeViolations(page);
  await waitForFormEngine(page);
  await page.getByLabel("E-Mail-Adresse").fill(DEMO_ADMIN.email);
  await page.getByLabel(/^Passwort/).fill("not-the-password");
  await page.getByRole("button", { name: "Anmelden" }).click();
  await expect(page.locator("[data-form-message]")).toHaveText("E-Mail-Adresse oder Passwort ist falsch.");
  // The address typed stays; the right password signs in and leads back.
  await expect(page.getByLabel("E-Mail-Adresse")).toHaveValue(DEMO_ADMIN.email);
  await page.getByLabel(/^Passwort/).fill(DEMO_ADMIN.password);
  await page.getByRole("button", { name: "Anmelden" }).click();
  await page.waitForURL("**/manage/account");
  await expect(page.locator("[data-signed-in-as]")).toHaveAttribute("data-signed-in-as", DEMO_ADMIN.email);
  const session = await page.evaluate(() => fetch("/api/_auth/session").then((r) => r.json()));
  expect(session.user.email).toBe(DEMO_ADMIN.email);
  // On the public site the editor finds the way back (after the one session fetch).
  await page.goto("/");
  await expect(page.locator("[data-editor-link]")).toHaveAttribute("href", "/manage");
  await page.goto("/manage/account");
  await page.locator("[data-sign-out]").click();
  await page.waitForURL("**/login");
  await page.goto("/");
  await waitForHydration(page);
  await expect(page.locator("[data-editor-link]")).toHaveCount(0);
  await page.goto("/manage");
  await expect(page).toHaveURL(/\/login\?redirect=%2Fmanage$/);
});

test("signing in works without JavaScript (a plain form post)", async ({ browser, baseURL }) => {
  const context = await noScriptContext(browser, baseURL);
  const page = await context.newPage();
  await page.goto("/login?redirect=%2Fmanage%2Fusers");
  await page.getByLabel("E-Mail-Adresse").fill(DEMO_ADMIN.email);
  await page.getByLabel(/^Passwort/).fill(DEMO_ADMIN.password);
  await page.getByRole("button", { name: "Anmelden" }).click();
  await page.waitForURL("**/manage/users");
  await expect(page.locator(`[data-user="${DEMO_ADMIN.email}"]`)).toBeVisible();
  await context.close();
});

test("the admin menu comes from the backend navigation, in the editor's language, and works by keyboard", async ({ page }) => {
  await signIn(page, "/manage");
  const nav = page.getByRole("navigation", { name: "Verwaltungsmenü" });
  await expect(nav.getByRole("link", { name: "Seiten" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Neue Registrierungen" })).toBeVisible();
  await expectNoAxeViolations(page);
  // English for this editor: the menu follows.
  await page.goto("/manage/account");
  await waitForHydration(page);
  await page.getByLabel("Sprache der Verwaltung").selectOption("en");
  await page.getByRole("button", { name: "Sprache speichern" }).click();
  await expect(page.locator("[data-save-result=ok]")).toHaveText("Language saved.");
  await page.goto("/manage");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("navigation", { name: "Admin menu" }).getByRole("link", { name: "Pages" })).toBeVisible();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await expect(page.locator("#admin-main")).toBeFocused();
  await page.goto("/manage/account");
  await waitForHydration(page);
  await page.getByLabel("Admin language").selectOption("de");
  await page.getByRole("button", { name: "Save language" }).click();
  await expect(page.locator("[data-save-result=ok]")).toHaveText("Sprache gespeichert.");
});

for (const path of ["/manage/account", "/manage/users", "/manage/audit", "/manage/nothing-here"]) {
  test(`no axe violations on ${path}`, async ({ page }) => {
    await signIn(page, "/manage");
    const response = await page.goto(path);
    expect(response?.status()).toBe(path.endsWith("nothing-here") ? 404 : 200);
    await expectNoAxeViolations(page);
  });
}

test("a superuser invites an editor, who sets a password through the link and signs in", async ({ page, browser, baseURL }) => {
  await signIn(page, "/manage");
  const { context: other, editor: invited } = await inviteEditor(page, browser, baseURL, "editor");
  // An editor does not see the superuser screens, and is refused them.
  await expect(invited.getByRole("link", { name: "Benutzer:innen" })).toHaveCount(0);
  expect((await invited.goto("/manage/users"))?.status()).toBe(403);
  await other.close();
});

test("on a tablet the menu folds behind a button that opens it, and a link closes it again", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, viewport: { width: 768, height: 1024 }, hasTouch: true });
  const page = await context.newPage();
  await signIn(page, "/manage");
  const nav = page.locator("#admin-navigation");
  const toggle = page.getByRole("button", { name: "Menü öffnen" });
  await expect(nav).toBeHidden();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.tap();
  await expect(nav).toBeVisible();
  await expect(page.getByRole("button", { name: "Menü schließen" })).toHaveAttribute("aria-expanded", "true");
  await nav.getByRole("link", { name: "Farben" }).tap();
  await page.waitForURL("**/manage/colors");
  await expect(nav).toBeHidden();
  await expect(page.locator("#admin-main h1")).toBeVisible();
  await expectNoAxeViolations(page);
  await context.close();
});

// Issue 22, point 4: one click must not end every session. The server asks first, so the step
// works without JavaScript: the question names what ends, cancelling keeps all, confirming signs out.
test("signing out everywhere asks first, without JavaScript too", async ({ page, browser, baseURL }) => {
  await signIn(page, "/manage/users");
  const { context: elsewhere, editor: other, email, password } = await inviteEditor(page, browser, baseURL, "everywhere");
  const context = await noScriptContext(browser, baseURL);
  const plain = await context.newPage();
  await plain.goto("/login?redirect=%2Fmanage%2Faccount");
  await plain.getByLabel("E-Mail-Adresse").fill(email);
  await plain.getByLabel(/^Passwort/).fill(password);
  await plain.getByRole("button", { name: "Anmelden" }).click();
  await plain.waitForURL("**/manage/account");

  await plain.getByRole("button", { name: "Überall abmelden" }).click();
  const step = plain.locator("[data-confirm-step]");
  await expect(step).toContainText("Wirklich auf allen Geräten abmelden?");
  await expect(step).toContainText("auch diese hier");
  // Nothing has ended yet: the other device is still signed in.
  await other.goto("/manage/account");
  await expect(other).toHaveURL(/\/manage\/account$/);
  await step.getByRole("link", { name: "Abbrechen" }).click();
  await expect(plain).toHaveURL(/\/manage\/account$/);
  await expect(step).toHaveCount(0);

  await plain.getByRole("button", { name: "Überall abmelden" }).click();
  await step.getByRole("button", { name: "Ja, überall abmelden" }).click();
  await plain.waitForURL("**/login");
  await other.goto("/manage/account");
  await expect(other).toHaveURL(/\/login\?redirect=/);
  await context.close();
  await elsewhere.close();
});

// Issue 22, point 4: removing a person was a window.confirm(); now the server asks, naming them.
test("removing a person asks first, naming them; only the confirmed post removes", async ({ page, browser, baseURL }) => {
  await signIn(page, "/manage/users");
  const { context, email } = await inviteEditor(page, browser, baseURL, "removed");
  await context.close();
  await page.goto("/manage/users");
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => (dialogs.push(dialog.message()), void dialog.dismiss()));
  const row = page.locator(`tr[data-user="${email}"]`);
  await row.getByRole("button", { name: /^(Entfernen|Remove)$/ }).click();
  const step = page.locator("[data-confirm-step]");
  await expect(step).toContainText(email);
  await expect(row).toBeVisible();
  await expectNoAxeViolations(page);
  await step.getByRole("button", { name: new RegExp(`(Ja, ${email} entfernen|Yes, remove ${email})`.replace(/\./g, "\\.")) }).click();
  await expect(page.locator("[data-save-result=ok]")).toContainText(/Entfernt|Removed/);
  await expect(page.locator(`tr[data-user="${email}"]`)).toHaveCount(0);
  expect(dialogs).toEqual([]);
});
