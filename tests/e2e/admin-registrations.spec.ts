import { expect, test, type Page } from "./fixtures";
import { expectNoAxeViolations, signIn } from "./admin-helpers";
import { linkIn, mailTo, noScriptContext, uniqueEmail, waitFillTime, waitForFormEngine, waitForHydration } from "./helpers";

/**
 * Issue 22, points 5 and 7: an editor reviews a finished and an unfinished registration made
 * through the public form (each row saying which it is, and that neither is on the site), approves
 * the unfinished one through the confirm step, rejects the finished one with a reason, each mailing
 * the practitioner, and sees the dashboard's count of registrations go up and down again; then the
 * same steps in a browser that runs no script.
 */

const control = (page: Page, name: string) => page.locator(`form[data-form="registration"] [data-field="${name}"]`).locator("input, textarea, select");
const notice = (page: Page) => page.locator("[data-save-result]");
const CONTINUE = /^\/practitioners\/register\/[^/?]+\?token=/;

async function register(page: Page, name: string, email: string): Promise<void> {
  await page.goto("/practitioners/register");
  await waitForFormEngine(page);
  const loaded = Date.now();
  await control(page, "name").fill(name);
  await control(page, "city").fill("Erfurt");
  await control(page, "email").fill(email);
  await control(page, "privacy").check();
  await waitFillTime(page, loaded);
  await page.locator("form[data-form]").getByRole("button", { name: "Registrieren" }).click();
  await expect(page.locator("[data-registration-result]")).toBeVisible();
}

async function registrationsToReview(page: Page): Promise<number> {
  await page.goto("/manage");
  return Number(await page.locator('[data-dashboard="registrations"]').getAttribute("data-count"));
}

test("an editor reviews registrations: confirms an unfinished approval, rejects with a reason, and the dashboard follows", async ({ page, browser, baseURL }) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  const open = { name: `Ute Offen ${stamp}`, email: uniqueEmail("reg-open") };
  const done = { name: `Dieter Fertig ${stamp}`, email: uniqueEmail("reg-done") };

  await signIn(page, "/manage");
  const before = await registrationsToReview(page);
  await expectNoAxeViolations(page);

  // Two registrations: one left open, one finished through the link in its mail.
  const visitor = await browser.newPage({ baseURL });
  await register(visitor, open.name, open.email);
  await register(visitor, done.name, done.email);
  await visitor.goto(linkIn(await mailTo(done.email, "registration-received"), CONTINUE));
  await waitForFormEngine(visitor);
  const opened = Date.now();
  await control(visitor, "privacy").check();
  await control(visitor, "finish").check();
  await waitFillTime(visitor, opened);
  await visitor.locator("form[data-form]").getByRole("button", { name: "Speichern" }).click();
  await mailTo(done.email, "registration-finished");
  await visitor.close();

  expect(await registrationsToReview(page)).toBe(before + 2);
  await expect(page.locator('[data-dashboard="registrations"]')).toHaveText(`${(before + 2).toLocaleString("de-DE")} Registrierungen zu prüfen`);

  // The list says what is true: finished or not, and not on the site (no "published" badge).
  await page.locator('[data-dashboard="registrations"]').click();
  await expect(page).toHaveURL(/\/manage\/registrations$/);
  const openRow = page.locator("[data-registration]").filter({ hasText: open.name });
  const doneRow = page.locator("[data-registration]").filter({ hasText: done.name });
  await expect(openRow.locator("[data-finished]")).toHaveText("Nicht abgeschlossen");
  await expect(doneRow.locator("[data-finished]")).toHaveText("Abgeschlossen");
  await expect(openRow.locator("[data-visibility]")).toHaveText("Nicht sichtbar (Entwurf)");
  await expect(doneRow.locator("[data-visibility]")).toHaveText("Nicht sichtbar (Entwurf)");
  await expect(page.locator("[data-registrations] [data-status]")).toHaveCount(0);
  await expectNoAxeViolations(page);

  // Approving the unfinished one asks first, naming the person; cancelling changes nothing.
  await openRow.getByRole("link", { name: `${open.name} freigeben` }).click();
  const step = page.locator('[data-registration-step="confirm"]');
  await expect(step.getByRole("heading")).toHaveText(`${open.name} freigeben?`);
  await expect(step).toContainText(`${open.name} hat die Registrierung noch nicht abgeschlossen`);
  await expectNoAxeViolations(page);
  await step.getByRole("link", { name: "Abbrechen" }).click();
  await expect(step).toHaveCount(0);
  await expect(openRow).toHaveCount(1);
  await openRow.getByRole("link", { name: `${open.name} freigeben` }).click();
  await page.getByRole("button", { name: `Ja, ${open.name} freigeben` }).click();
  await expect(notice(page)).toHaveAttribute("data-save-result", "ok");
  await expect(notice(page)).toContainText(`Freigegeben: ${open.name} ist jetzt im Verzeichnis sichtbar.`);
  await expect(openRow).toHaveCount(0);
  await expect(page.locator("[data-registration-step]")).toHaveCount(0);
  const approved = await mailTo(open.email, "registration-approved");
  expect(approved.subject).toBe("Ihr Eintrag im Praxisnetz ist freigegeben");

  // Rejecting asks for a reason, which goes to the practitioner.
  await doneRow.getByRole("link", { name: `${done.name} ablehnen` }).click();
  const reject = page.locator('[data-registration-step="reject"]');
  await expect(reject.getByRole("heading")).toHaveText(`${done.name} ablehnen`);
  await expect(reject).toContainText(done.email);
  await expectNoAxeViolations(page);
  const reason = "Wir nehmen derzeit nur Praxen in Thüringen auf, die Kassenpatient:innen behandeln.";
  await reject.getByLabel("Begründung").fill(reason);
  await reject.getByRole("button", { name: `${done.name} ablehnen` }).click();
  await expect(notice(page)).toHaveAttribute("data-save-result", "ok");
  await expect(notice(page)).toContainText(`Abgelehnt: ${done.name}.`);
  await expect(doneRow).toHaveCount(0);
  const rejected = await mailTo(done.email, "registration-rejected");
  expect(rejected.text).toContain(reason);

  // The dashboard: back to where it was, and the changes by name.
  expect(await registrationsToReview(page)).toBe(before);
  const recent = page.locator("[data-recent-changes]");
  await expect(recent).toContainText(`hat die Registrierung abgelehnt: ${done.name}`);
  await expect(recent).toContainText(`hat die Registrierung freigegeben: ${open.name}`);
  await expectNoAxeViolations(page);

  // The browser specs share one demo store and the directory specs count its practitioners:
  // the approved one goes again (a superuser's delete).
  await recent.getByRole("link", { name: open.name }).first().click();
  await waitForHydration(page);
  await page.getByRole("button", { name: "Löschen" }).click();
  // Deleting asks first, naming what goes (decision 0026).
  await page.locator("[data-confirm]").click();
  await expect(notice(page)).toHaveAttribute("data-save-result", "ok");
});

test("the confirm step and the rejection work without JavaScript", async ({ page, browser, baseURL }) => {
  test.setTimeout(60_000);
  const stamp = Date.now().toString(36);
  const open = { name: `Nora Ohneskript ${stamp}`, email: uniqueEmail("reg-nojs") };
  const other = { name: `Olaf Ohneskript ${stamp}`, email: uniqueEmail("reg-nojs-2") };
  const visitor = await browser.newPage({ baseURL });
  await register(visitor, open.name, open.email);
  await register(visitor, other.name, other.email);
  await visitor.close();

  // The editor's session in a browser that runs no script: every step is a link or a form post.
  await signIn(page, "/manage/registrations");
  const context = await noScriptContext(browser, baseURL);
  await context.addCookies(await page.context().cookies());
  const plain = await context.newPage();
  await plain.goto("/manage/registrations");
  const row = (name: string) => plain.locator("[data-registration]").filter({ hasText: name });
  await row(open.name).getByRole("link", { name: `${open.name} freigeben` }).click();
  await expect(plain).toHaveURL(/\?confirm=/);
  await plain.getByRole("button", { name: `Ja, ${open.name} freigeben` }).click();
  await expect(notice(plain)).toContainText(`Freigegeben: ${open.name}`);
  await expect(row(open.name)).toHaveCount(0);
  await mailTo(open.email, "registration-approved");

  await row(other.name).getByRole("link", { name: `${other.name} ablehnen` }).click();
  await plain.getByLabel("Begründung").fill("Doppelt registriert.");
  await plain.getByRole("button", { name: `${other.name} ablehnen` }).click();
  await expect(notice(plain)).toContainText(`Abgelehnt: ${other.name}.`);
  await expect(row(other.name)).toHaveCount(0);
  expect((await mailTo(other.email, "registration-rejected")).text).toContain("Doppelt registriert.");
  await context.close();

  // The shared demo store: the approved one goes again (a superuser's delete).
  await page.goto("/manage");
  await page.locator("[data-recent-changes]").getByRole("link", { name: open.name }).first().click();
  await waitForHydration(page);
  await page.getByRole("button", { name: "Löschen" }).click();
  // Deleting asks first, naming what goes (decision 0026).
  await page.locator("[data-confirm]").click();
  await expect(notice(page)).toHaveAttribute("data-save-result", "ok");
});
