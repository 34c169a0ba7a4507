import { expect, test, type Page } from "./fixtures";
import { expectNoAxeViolations, inviteEditor, signIn } from "./admin-helpers";
import { mailTo, uniqueEmail, waitFillTime, waitForFormEngine, waitForHydration } from "./helpers";

/**
 * The admin content screens: the collections overview, a collection's list (search, status filter,
 * bad parameters), the item editor (save, server-side checks, publish and unpublish), approving a
 * registration made through the public form until it shows in the directory, and the outbox.
 * Paging, sorting and column filters at size: admin-list-paging.spec.ts.
 */

const PRACTITIONERS = "/manage/content/gm-content-practitioners";
const field = (page: Page, name: string) => page.locator(`form[data-form] [data-field="${name}"]`).locator("input, textarea, select");
const notice = (page: Page) => page.locator("[data-save-result]");

test("the overview lists the collections with counts and the work lists", async ({ page }) => {
  await signIn(page, "/manage/content");
  const row = page.locator('[data-collection="gm-content-practitioners"]');
  await expect(row).toContainText("Behandelnde");
  expect(Number((await row.locator("td").nth(1).innerText()).replace(/\D/g, ""))).toBeGreaterThan(10);
  // Component schemas are parts of other items, not lists.
  await expect(page.locator('[data-collection="component-seo"]')).toHaveCount(0);
  for (const href of ["/manage/registrations", "/manage/appointments", "/manage/outbox"]) await expect(page.locator(`main a[href="${href}"]`)).toBeVisible();
  await expectNoAxeViolations(page);
  await row.getByRole("link").click();
  await expect(page).toHaveURL(PRACTITIONERS);
});

test("a collection list searches and filters in the database, and refuses bad parameters", async ({ page }) => {
  await signIn(page, PRACTITIONERS);
  await expect(page.locator("[data-content-list] tbody tr")).toHaveCount(25);
  await expect(page.getByRole("navigation", { name: /Seite 1 von/ })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByLabel("Suche in allen Feldern").fill("Süßmann");
  await page.getByRole("button", { name: "Anwenden" }).click();
  await expect(page).toHaveURL(/q=S%C3%BC%C3%9Fmann/);
  await expect(page.locator("[data-content-list] tbody tr")).toHaveCount(1);
  await expect(page.locator("[data-content-list]")).toContainText("Käthe Süßmann");

  await page.getByLabel("Status").selectOption("Draft");
  await page.getByRole("button", { name: "Anwenden" }).click();
  await expect(page).toHaveURL(/status=Draft/);
  await expect(page.locator("[data-empty-state]")).toHaveText("Keine Treffer. Ändern Sie die Suche oder die Filter.");
  await expectNoAxeViolations(page);

  for (const query of ["?status=Gone", `?q=${"x".repeat(300)}`, "?sort=email", "?display=vielleicht"]) {
    const response = await page.goto(`${PRACTITIONERS}${query}`);
    expect(response?.status(), query).toBe(400);
    await expect(page.locator("[data-list-problem]")).toBeVisible();
  }
  // A page number that is none sends the editor to the first page (the rest of the request kept).
  for (const query of ["?page=abc", "?page=0"]) {
    const response = await page.goto(`${PRACTITIONERS}${query}&status=Draft`);
    expect(response?.status(), query).toBe(200);
    await expect(page).toHaveURL(`${PRACTITIONERS}?status=Draft`);
  }
  expect((await page.goto("/manage/content/no-such-collection"))?.status()).toBe(404);
  expect((await page.goto(`${PRACTITIONERS}/no-such-item`))?.status()).toBe(404);
});

test("the item editor saves, checks on the server, publishes and unpublishes", async ({ page }) => {
  await signIn(page, `${PRACTITIONERS}?q=S%C3%B6ren`);
  await page.locator("[data-content-list] tbody tr").first().getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sören Müller");
  await waitForHydration(page);
  const url = page.url();
  const version = Number(await page.locator("[data-item-version]").innerText());
  await expect(field(page, "name")).toHaveValue("Sören Müller");
  // Localised fields: one input per language; a place as latitude and longitude (one value, its control).
  await expect(field(page, "speciality__de")).toBeVisible();
  await expect(field(page, "speciality__en")).toBeVisible();
  const place = page.locator('form[data-form] [data-field="coords"]');
  const placeLatitude = place.getByLabel("Breitengrad");
  const placeLongitude = place.getByLabel("Längengrad");
  await expect(placeLatitude).toHaveValue(/^\d+\.\d+$/);
  await expect(page.locator("[data-readonly-field]")).toHaveCount(0);
  await expectNoAxeViolations(page);

  const latitude = await placeLatitude.inputValue();
  const longitude = await placeLongitude.inputValue();
  // Half a place is refused beside its inputs; nothing is written.
  await placeLatitude.fill("");
  await page.getByRole("button", { name: "Speichern" }).click();
  await expect(place).toContainText("Breitengrad (−90 bis 90) und Längengrad (−180 bis 180) angeben");
  await expect(page.locator("[data-item-version]")).toHaveText(String(version));
  await placeLatitude.fill(String(Number(latitude) + 0.001));
  await field(page, "adress2").fill("Hinterhaus, 2. OG");
  await page.getByRole("button", { name: "Speichern" }).click();
  await expect(notice(page)).toHaveAttribute("data-save-result", "ok");
  await expect(notice(page)).toHaveText("Gespeichert.");
  await expect(page.locator("[data-item-version]")).toHaveText(String(version + 1));
  await page.reload();
  await expect(field(page, "adress2")).toHaveValue("Hinterhaus, 2. OG");
  await expect(placeLatitude).toHaveValue(String(Number(latitude) + 0.001));
  await expect(placeLongitude).toHaveValue(longitude);

  // The server checks with the same rules: an empty name and a bad postcode come back per field.
  const refused = await page.request.post(url, { form: { intent: "save", version: String(version + 1), name: "", city: "Hamburg", zip: "12", coords: JSON.stringify({ latitude: Number(latitude), longitude: Number(longitude) }) }, headers: { Origin: new URL(url).origin } });
  expect(refused.status()).toBe(400);
  const refusedPage = await refused.text();
  expect(refusedPage).toContain("Name ist erforderlich");
  // Without JavaScript the answer is the page again: the messages beside the fields, the input kept.
  expect(refusedPage).toMatch(/value="Hamburg"/);
  expect(refusedPage).toMatch(/value="12"/);
  // A stale version is refused, and nothing is written.
  const stale = await page.request.post(url, { form: { intent: "save", version: String(version), name: "Sören Müller", city: "Hamburg" }, headers: { Origin: new URL(url).origin } });
  expect(stale.status()).toBe(412);
  expect(await stale.text()).toContain("inzwischen von jemand anderem geändert");

  await page.goto(url);
  await waitForHydration(page);
  await expect(page.locator("[data-item-meta] [data-status]")).toHaveAttribute("data-status", "Published");
  await page.getByRole("button", { name: "Zurückziehen" }).click();
  await expect(notice(page)).toContainText("Zurückgezogen");
  await expect(page.locator("[data-item-meta] [data-status]")).toHaveAttribute("data-status", "Draft");
  await page.getByRole("button", { name: "Veröffentlichen" }).click();
  await expect(notice(page)).toHaveText("Veröffentlicht.");
  await expect(page.locator("[data-item-meta] [data-status]")).toHaveAttribute("data-status", "Published");

  // Required fields are checked in the browser before anything is sent.
  await field(page, "name").fill("");
  await page.getByRole("button", { name: "Speichern" }).click();
  await expect(page.locator("form[data-form] [data-form-message]")).toContainText("nicht alle Felder");
});

test("a new item is created and opened", async ({ page }) => {
  await signIn(page, `${PRACTITIONERS}/new`);
  await waitForFormEngine(page);
  await field(page, "name").fill("Neu Angelegt");
  await field(page, "city").fill("Bremen");
  await page.getByRole("button", { name: "Anlegen" }).click();
  await expect(page).toHaveURL(new RegExp(`${PRACTITIONERS}/(?!new)[^/]+$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Neu Angelegt");
  await expect(page.locator("[data-item-meta] [data-status]")).toHaveAttribute("data-status", "Draft");

  // Deleting asks first, naming the item (superusers only; the demo admin is one); cancelling keeps it.
  await waitForHydration(page);
  await page.getByRole("button", { name: "Löschen" }).click();
  const step = page.locator("[data-confirm-step]");
  await expect(step).toContainText("„Neu Angelegt“ wirklich löschen?");
  await expect(step).toContainText("lassen sich nicht wiederherstellen");
  await expectNoAxeViolations(page);
  await step.getByRole("link", { name: "Abbrechen" }).click();
  await expect(step).toHaveCount(0);
  await expect(page.locator("[data-item-meta]")).toBeVisible();
  await page.getByRole("button", { name: "Löschen" }).click();
  await step.getByRole("button", { name: "Ja, „Neu Angelegt“ löschen" }).click();
  await expect(notice(page)).toHaveText("Eintrag gelöscht.");
  expect((await page.goto(page.url()))?.status()).toBe(404);
});

test("a registration from the public form is approved and shows in the directory", async ({ page, browser, baseURL }) => {
  const visitor = await browser.newPage({ baseURL });
  const name = `Dr. Freigabe ${Date.now().toString(36)}`;
  const email = uniqueEmail("approve");
  await visitor.goto("/practitioners/register");
  await waitForFormEngine(visitor);
  const loaded = Date.now();
  await field(visitor, "name").fill(name);
  await field(visitor, "city").fill("Potsdam");
  await field(visitor, "email").fill(email);
  await field(visitor, "privacy").check();
  await waitFillTime(visitor, loaded);
  await visitor.locator("form[data-form]").getByRole("button", { name: "Registrieren" }).click();
  await expect(visitor.locator("[data-registration-result]")).toBeVisible();
  await mailTo(email, "registration-received");
  await visitor.goto(`/practitioners?q=${encodeURIComponent(name)}`);
  await expect(visitor.locator("[data-results] [data-practitioner]")).toHaveCount(0);

  await signIn(page, "/manage/registrations");
  const row = page.locator("[data-registration]").filter({ hasText: name });
  await expect(row).toContainText("Potsdam");
  await expect(row.locator("[data-finished]")).toHaveText("Nicht abgeschlossen");
  await expect(row.getByRole("link", { name: /bearbeiten/ })).toHaveAttribute("href", /\/manage\/content\/gm-content-practitioners\//);
  const editHref = (await row.getByRole("link", { name: /bearbeiten/ }).getAttribute("href"))!;
  await expectNoAxeViolations(page);
  // Not finished by the practitioner: approving asks first.
  await row.getByRole("link", { name: /freigeben/ }).click();
  await page.getByRole("button", { name: `Ja, ${name} freigeben` }).click();
  await expect(notice(page)).toHaveAttribute("data-save-result", "ok");
  await expect(row).toHaveCount(0);

  await visitor.goto(`/practitioners?q=${encodeURIComponent(name)}`);
  await expect(visitor.locator("[data-results] [data-practitioner]")).toHaveCount(1);
  await expect(visitor.locator("[data-results]")).toContainText(name);

  // The browser specs share one demo store and the directory specs count its practitioners:
  // the approved one goes again (a superuser's delete).
  await page.goto(editHref);
  await waitForHydration(page);
  await page.getByRole("button", { name: "Löschen" }).click();
  await page.locator("[data-confirm]").click();
  await expect(notice(page)).toHaveAttribute("data-save-result", "ok");
  await visitor.goto(`/practitioners?q=${encodeURIComponent(name)}`);
  await expect(visitor.locator("[data-results] [data-practitioner]")).toHaveCount(0);
  await visitor.close();
});

test("the outbox lists mail, filters by status and shows a message", async ({ page, browser, baseURL }) => {
  // A mail to look at: a registration sends one.
  const visitor = await browser.newPage({ baseURL });
  const email = uniqueEmail("outbox");
  await visitor.goto("/practitioners/register");
  await waitForFormEngine(visitor);
  const loaded = Date.now();
  await field(visitor, "name").fill("Olga Outbox");
  await field(visitor, "city").fill("Kassel");
  await field(visitor, "email").fill(email);
  await field(visitor, "privacy").check();
  await waitFillTime(visitor, loaded);
  await visitor.locator("form[data-form]").getByRole("button", { name: "Registrieren" }).click();
  await mailTo(email, "registration-received");
  await visitor.close();

  await signIn(page, "/manage/outbox");
  const row = page.locator("[data-outbox-row]").filter({ hasText: email });
  await expect(row).toHaveAttribute("data-kind", "registration-received");
  await expectNoAxeViolations(page);
  await page.getByLabel("Status").selectOption("failed");
  await page.getByRole("button", { name: "Anzeigen" }).click();
  await expect(page).toHaveURL(/status=failed/);
  await expect(page.locator("[data-outbox-row]").filter({ hasText: email })).toHaveCount(0);
  await page.goto("/manage/outbox");
  await page.locator("[data-outbox-row]").filter({ hasText: email }).getByRole("link").click();
  await expect(page.locator("[data-outbox-text]")).toContainText("Registrierung fortsetzen");
  await expectNoAxeViolations(page);

  // Paging goes on after a message (keyset): that one and the newer ones are not on the next page.
  await page.goto("/manage/outbox");
  const firstId = new URLSearchParams((await page.locator("[data-outbox-row] a").first().getAttribute("href"))!.replace(/^.*\?/, "")).get("id")!;
  await page.goto(`/manage/outbox?before=${firstId}`);
  await expect(page.locator(`[data-outbox-row] a[href*="id=${firstId}"]`)).toHaveCount(0);
  await page.getByRole("link", { name: "Zu den neuesten" }).click();
  await expect(page.locator(`[data-outbox-row] a[href*="id=${firstId}"]`)).toHaveCount(1);
  for (const query of ["?before=..", "?before=%00", `?before=${"a".repeat(10_000)}`, "?id=x%00", "?status=queued"]) expect((await page.request.get(`/manage/outbox${query}`)).status(), query.slice(0, 30)).toBe(400);
  expect((await page.request.get("/manage/outbox?before=0b6e8a8e-3c1f-4f7e-9d2a-1c2b3d4e5f60")).status()).toBe(404);
});

test("an editor who is no superuser edits content but is refused deleting it (403)", async ({ page, browser, baseURL }) => {
  // A fresh item to try it on, and an editor invited by the superuser.
  await signIn(page, `${PRACTITIONERS}/new`);
  await waitForFormEngine(page);
  await field(page, "name").fill("Bleibt Bestehen");
  await field(page, "city").fill("Ulm");
  await page.getByRole("button", { name: "Anlegen" }).click();
  await expect(page).toHaveURL(new RegExp(`${PRACTITIONERS}/(?!new)[^/]+$`));
  const itemUrl = new URL(page.url()).pathname;
  const { context, editor } = await inviteEditor(page, browser, baseURL, "content-editor", itemUrl);
  // The editor sees the item but has no delete button and is refused a delete.
  await expect(editor.getByRole("heading", { level: 1 })).toHaveText("Bleibt Bestehen");
  await expect(editor.getByRole("button", { name: "Löschen" })).toHaveCount(0);
  const version = await editor.locator("[data-item-version]").innerText();
  const origin = { Origin: new URL(editor.url()).origin };
  const refused = await editor.request.post(itemUrl, { form: { intent: "delete", version }, headers: origin });
  expect(refused.status()).toBe(403);
  // The design collections are content too: deleting a colour or a theme is for superusers.
  for (const form of [{ intent: "delete-color", id: "color-petrol" }, { intent: "delete-theme", id: "theme-standard" }]) expect((await editor.request.post("/manage/colors", { form, headers: origin })).status()).toBe(403);
  await editor.reload();
  await expect(editor.locator("[data-item-version]")).toHaveText(version);
  await context.close();

  // The superuser may (and tidies up).
  await page.goto(itemUrl);
  await waitForHydration(page);
  await page.getByRole("button", { name: "Löschen" }).click();
  await page.locator("[data-confirm]").click();
  await expect(notice(page)).toHaveText("Eintrag gelöscht.");
});

test("a list inside an item (the admin menu's sub-items) is edited as rows; superusers can switch to its JSON, checked on the server", async ({ page }) => {
  const url = "/manage/content/core-backend-navigation/nav-content";
  await signIn(page, url);
  await waitForHydration(page);
  const box = page.locator('[data-field="children__de"]');
  const stored = box.locator('input[type="hidden"][name="children__de"]');
  const original = await stored.inputValue();
  expect(JSON.parse(original)).toContainEqual({ label: "Behandelnde", slug: "/manage/content/gm-content-practitioners" });
  // Rows of the entry's fields, named in words; no JSON on the screen.
  const rows = box.locator("[data-list-row]");
  const count = await rows.count();
  expect(count).toBe(JSON.parse(original).length);
  await expect(rows.first().getByLabel("Beschriftung")).toHaveValue(JSON.parse(original)[0].label);
  await expect(box.locator("textarea")).toHaveCount(0);
  await expectNoAxeViolations(page);
  try {
    await box.getByRole("button", { name: "Eintrag hinzufügen" }).click();
    const added = rows.nth(count);
    await expect(added.getByLabel("Beschriftung")).toBeFocused();
    await page.keyboard.type("Protokoll (Test)");
    await added.getByLabel("Pfad").fill("/manage/audit");
    // Moved one up by its button, named after the entry for screen readers.
    await box.getByRole("button", { name: "Eintrag " + (count + 1) + ": Protokoll (Test): nach oben" }).click();
    await expect(rows.nth(count - 1).getByLabel("Beschriftung")).toHaveValue("Protokoll (Test)");
    await page.getByRole("button", { name: "Speichern" }).click();
    await expect(notice(page)).toHaveText("Gespeichert.");
    // The admin menu is made from these items: the new sub-item is there.
    await expect(page.locator('#admin-navigation a[href="/manage/audit"]', { hasText: /^Protokoll \(Test\)$/ })).toHaveCount(1);
    await page.reload();
    await waitForHydration(page);
    expect(JSON.parse(await stored.inputValue()).at(-2)).toEqual({ label: "Protokoll (Test)", slug: "/manage/audit" });

    // The superuser's "advanced" switch shows the same value as JSON; the server still checks it.
    await box.getByLabel("Erweitert: als JSON bearbeiten").check();
    const json = box.locator("textarea");
    await json.fill('[{"label": "Kaputt"');
    await page.getByRole("button", { name: "Speichern" }).click();
    await expect(box).toContainText("Kein gültiges JSON");
    await json.fill('["Protokoll"]');
    await page.getByRole("button", { name: "Speichern" }).click();
    await expect(box).toContainText("Hier gehört eine Liste von Einträgen hin.");
  } finally {
    await page.goto(url);
    await waitForHydration(page);
    await box.getByLabel("Erweitert: als JSON bearbeiten").check();
    await box.locator("textarea").fill(original);
    await page.getByRole("button", { name: "Speichern" }).click();
    await expect(notice(page)).toHaveText("Gespeichert.");
  }
});

test("a page's SEO is a small form of its own, its blocks are a way to edit mode, and its colour and theme are not JSON", async ({ page }) => {
  const url = "/manage/content/core-pages/page-home";
  await signIn(page, url);
  await waitForHydration(page);
  const seo = page.locator('[data-field="seo__de"]');
  await expect(seo.getByLabel("Slug")).toHaveValue("home");
  await expect(seo.getByLabel("SEO-Titel")).not.toHaveValue("");
  await expect(seo.locator("textarea:not([id$='description'])")).toHaveCount(0);
  const blocks = page.locator('[data-field="blocks__de"]');
  await expect(blocks).toContainText(/\d+ Blöcke/);
  await expect(blocks.getByRole("link", { name: "Im Bearbeitungsmodus öffnen" })).toHaveAttribute("href", "/?edit=1");
  await expect(page.locator('[data-field="blocks__en"]').getByRole("link", { name: "Im Bearbeitungsmodus öffnen" })).toHaveAttribute("href", /^\/en\/?\?edit=1$/);
  // A required part of the component emptied: refused beside the field, in German, nothing lost.
  const title = await seo.getByLabel("SEO-Titel").inputValue();
  await seo.getByLabel("Slug").fill("");
  await seo.getByLabel("SEO-Titel").fill(title + " (geändert)");
  await page.getByRole("button", { name: "Speichern" }).click();
  await expect(seo).toContainText("Slug: Bitte ausfüllen.");
  await expect(seo.getByLabel("SEO-Titel")).toHaveValue(title + " (geändert)");
});

// Issue 22, point 4: the one global-settings item offers neither deleting nor unpublishing, and a
// forged post is refused with a message, changing nothing.
test("the global settings item has no delete or unpublish button, and a forged post is refused", async ({ page }) => {
  const url = "/manage/content/core-global-settings/global-settings";
  await signIn(page, url);
  await waitForHydration(page);
  await expect(page.getByRole("button", { name: "Speichern" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Löschen" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Zurückziehen" })).toHaveCount(0);
  const version = await page.locator("[data-item-version]").innerText();
  const headers = { Origin: new URL(page.url()).origin };
  for (const intent of ["delete", "unpublish"]) {
    const res = await page.request.post(url, { form: { intent, version, confirmed: "yes" }, headers });
    expect(res.status(), intent).toBe(400);
    expect(await res.text()).toContain("weder löschen noch zurückziehen");
  }
  // Nor is a second one made: the list offers no "new", and a forged create is refused.
  const created = await page.request.post("/manage/content/core-global-settings/new", { form: { intent: "save", siteName: "Zweite Website" }, headers });
  expect(created.status()).toBe(400);
  expect(await created.text()).toContain("ein zweiter lässt sich nicht anlegen");
  await page.goto("/manage/content/core-global-settings");
  await expect(page.locator("[data-content-list] tbody tr")).toHaveCount(1);
  await expect(page.getByRole("link", { name: "Neuer Eintrag" })).toHaveCount(0);
  await page.goto(url);
  await expect(page.locator("[data-item-version]")).toHaveText(version);
  await expect(page.locator("[data-item-meta] [data-status]")).toHaveAttribute("data-status", "Published");
});
