import { expect, test, type Page } from "./fixtures";
import { linkIn, mailTo, noScriptContext, outboxTo, uniqueEmail, waitFillTime, waitForFormEngine } from "./helpers";

/**
 * Practitioner registration: the form made from the practitioner schema, the continue link from the
 * mail (pre-filled, save, finish, then closed), a tampered link, the same without JavaScript, and a
 * name with markup that must stay text.
 */

const T = {
  sent: "Danke! Ihre Registrierung ist gespeichert. Wir haben Ihnen eine E-Mail mit einem Link geschickt, mit dem Sie sie fortsetzen und abschließen können.",
  saved: "Ihre Änderungen sind gespeichert. Sie können später mit dem Link aus der E-Mail weitermachen.",
  finishedNow: "Ihre Registrierung ist abgeschlossen. Unsere Redaktion prüft Ihren Eintrag.",
  finished: "Diese Registrierung ist bereits abgeschlossen und kann über diesen Link nicht mehr geändert werden. Für Änderungen schreiben Sie bitte der Redaktion.",
  invalid: "Dieser Link ist ungültig. Bitte verwenden Sie den vollständigen Link aus unserer E-Mail.",
};

const control = (page: Page, name: string) => page.locator(`form[data-form="registration"] [data-field="${name}"]`).locator("input, textarea, select");
const view = (page: Page) => page.locator("[data-registration-view]");
const result = (page: Page) => page.locator("[data-registration-result]");
const CONTINUE = /^\/practitioners\/register\/[^/?]+\?token=/;

/** Fills the required fields and the consent, waits out the fill time and sends with the button `label`. */
async function register(page: Page, loaded: number, v: { name: string; city: string; email: string; speciality?: string }) {
  await control(page, "name").fill(v.name);
  await control(page, "city").fill(v.city);
  await control(page, "email").fill(v.email);
  if (v.speciality) await control(page, "speciality").fill(v.speciality);
  await control(page, "privacy").check();
  await waitFillTime(page, loaded);
  await page.locator("form[data-form]").getByRole("button", { name: "Registrieren" }).click();
}

test("register with JavaScript, continue from the mail, save, finish, and the link is closed", async ({ page }) => {
  await page.goto("/practitioners/register");
  await waitForFormEngine(page);
  const loaded = Date.now();

  // The form holds the schema's visitor fields and the consent; the editors' fields stay out.
  const names = await page.locator('form[data-form="registration"] [data-field]').evaluateAll((els) => els.map((e) => e.getAttribute("data-field")));
  expect(names).toEqual(expect.arrayContaining(["name", "city", "email", "phone", "website", "speciality", "description", "privacy"]));
  for (const internal of ["display", "websites", "coords", "coords2", "finishedPractitioner", "finish"]) {
    expect(names, `no ${internal} field`).not.toContain(internal);
    await expect(page.locator(`form[data-form="registration"] [name="${internal}"]`)).toHaveCount(0);
  }
  await expect(page.locator("form[data-form='registration']")).not.toContainText("Sichtbar");
  await expect(page.locator("form[data-form='registration']")).not.toContainText("Praxisstandort");

  const email = uniqueEmail("reg-js");
  await register(page, loaded, { name: "Dr. Hanna Beispiel", city: "Leipzig", email, speciality: "Osteopathie" });
  await expect(result(page)).toHaveText(T.sent);
  await expect(page.locator("form[data-form]")).toHaveCount(0);

  const link = linkIn(await mailTo(email, "registration-received"), CONTINUE);

  // The continue page: the stored values, the consent to give again, the finish box.
  await page.goto(link);
  await waitForFormEngine(page);
  let opened = Date.now();
  await expect(view(page)).toHaveAttribute("data-registration-view", "form");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Registrierung fortsetzen");
  await expect(control(page, "name")).toHaveValue("Dr. Hanna Beispiel");
  await expect(control(page, "city")).toHaveValue("Leipzig");
  await expect(control(page, "email")).toHaveValue(email);
  await expect(control(page, "speciality")).toHaveValue("Osteopathie");
  await expect(control(page, "finish")).not.toBeChecked();

  await control(page, "city").fill("Dresden");
  await control(page, "privacy").check();
  await waitFillTime(page, opened);
  await page.locator("form[data-form]").getByRole("button", { name: "Speichern" }).click();
  await expect(result(page)).toHaveText(T.saved);

  // Saved: the link opens the changed details, still open for changes.
  await page.goto(link);
  await waitForFormEngine(page);
  opened = Date.now();
  await expect(control(page, "city")).toHaveValue("Dresden");
  await expect(control(page, "name")).toHaveValue("Dr. Hanna Beispiel");
  await control(page, "privacy").check();
  await control(page, "finish").check();
  await waitFillTime(page, opened);
  await page.locator("form[data-form]").getByRole("button", { name: "Speichern" }).click();
  await expect(result(page)).toHaveText(T.finishedNow);
  await mailTo(email, "registration-finished");

  // Finished: the link shows that, without a form.
  const response = await page.goto(link);
  expect(response?.status()).toBe(403);
  await expect(view(page)).toHaveAttribute("data-registration-view", "finished");
  await expect(result(page)).toHaveText(T.finished);
  await expect(page.locator("form[data-form]")).toHaveCount(0);
});

test("a tampered continue link shows the invalid view with status 403", async ({ page, request }) => {
  const email = uniqueEmail("reg-tamper");
  // The registration itself through the JSON API (the form is tested above).
  const created = await request.post("/api/practitioners/register", {
    data: { name: "Tamara Test", city: "Halle", email, privacy: true, language: "de" },
  });
  expect(created.status(), await created.text()).toBe(201);
  const link = new URL(linkIn(await mailTo(email, "registration-received"), CONTINUE));
  const token = link.searchParams.get("token")!;
  const [body, mac] = token.split(".");
  // The signed part says which registration and until when: longer validity, same signature.
  const [purpose, subject, expires] = JSON.parse(Buffer.from(body!, "base64url").toString("utf8")) as [string, string, number];
  const forged = `${Buffer.from(JSON.stringify([purpose, subject, expires + 365 * 24 * 3600]), "utf8").toString("base64url")}.${mac}`;

  // The genuine link works...
  expect((await page.goto(link.pathname + link.search))?.status()).toBe(200);
  await expect(view(page)).toHaveAttribute("data-registration-view", "form");

  for (const tampered of [`${link.pathname}?token=${encodeURIComponent(forged)}`, `${link.pathname}?token=${encodeURIComponent(token.slice(0, -3))}`, link.pathname]) {
    const response = await page.goto(tampered);
    expect(response?.status(), tampered).toBe(403);
    await expect(view(page)).toHaveAttribute("data-registration-view", "invalid");
    await expect(result(page)).toHaveText(T.invalid);
    await expect(page.locator("form[data-form]")).toHaveCount(0);
  }
  // ...and a genuine token does not open another registration.
  const response = await page.goto(`/practitioners/register/some-other-id?token=${encodeURIComponent(token)}`);
  expect(response?.status()).toBe(403);
  await expect(view(page)).toHaveAttribute("data-registration-view", "invalid");
});

test("register without JavaScript: messages in place with the input kept, then the sent view", async ({ browser, baseURL }) => {
  const context = await noScriptContext(browser, baseURL);
  const page = await context.newPage();
  try {
    await page.goto("/practitioners/register");
    let loaded = Date.now();
    const email = uniqueEmail("reg-nojs");
    await control(page, "city").fill("Chemnitz");
    await control(page, "email").fill("nicht-gueltig");
    await control(page, "description").fill("Mehrzeilig\nmit Umlauten äöü");
    await control(page, "privacy").check();
    await waitFillTime(page, loaded);
    await page.locator("form[data-form]").getByRole("button", { name: "Registrieren" }).click();

    await expect(view(page)).toHaveAttribute("data-registration-view", "form");
    await expect(page.locator('[data-field="name"] [data-messages]')).toHaveText("Name ist erforderlich.");
    await expect(page.locator('[data-field="email"] [data-messages]')).toHaveText("E-Mail Adresse ist ungültig.");
    await expect(control(page, "name")).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator('[data-field="city"] [data-messages]')).toHaveCount(0);
    await expect(page.locator("[data-form-message]")).toHaveText("Entschuldigung, nicht alle Felder wurden korrekt ausgefüllt.");
    await expect(control(page, "city")).toHaveValue("Chemnitz");
    await expect(control(page, "email")).toHaveValue("nicht-gueltig");
    await expect(control(page, "description")).toHaveValue("Mehrzeilig\nmit Umlauten äöü");
    await expect(control(page, "privacy")).toBeChecked();
    expect(outboxTo(email)).toEqual([]);
    loaded = Date.now();

    await control(page, "name").fill("Paul Plain");
    await control(page, "email").fill(email);
    await waitFillTime(page, loaded);
    await page.locator("form[data-form]").getByRole("button", { name: "Registrieren" }).click();
    await expect(page).toHaveURL("/practitioners/register?sent=1");
    await expect(view(page)).toHaveAttribute("data-registration-view", "sent");
    await expect(result(page)).toHaveText(T.sent);

    // The continue page works without JavaScript too, pre-filled on the server.
    const link = linkIn(await mailTo(email, "registration-received"), CONTINUE);
    await page.goto(link);
    await expect(control(page, "name")).toHaveValue("Paul Plain");
    await expect(control(page, "city")).toHaveValue("Chemnitz");
    await expect(control(page, "description")).toHaveValue("Mehrzeilig\nmit Umlauten äöü");
  } finally {
    await context.close();
  }
});

test("a name with markup stays text: in the form, the continue page and the mail, and no script runs", async ({ page }) => {
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const name = `<script>alert(1)</script><img src=x onerror=alert(2)>`;
  await page.goto("/practitioners/register");
  await waitForFormEngine(page);
  const loaded = Date.now();
  const email = uniqueEmail("reg-xss");
  await control(page, "email").fill(email);
  await control(page, "city").fill(`"><svg onload=alert(3)>`);
  await control(page, "name").fill(name);
  await control(page, "privacy").check();
  await waitFillTime(page, loaded);
  await page.locator("form[data-form]").getByRole("button", { name: "Registrieren" }).click();
  await expect(result(page)).toHaveText(T.sent);

  const mail = await mailTo(email, "registration-received");
  expect(mail.html).not.toContain("<script>alert(1)</script>");
  expect(mail.html).not.toContain("<img src=x");
  expect(mail.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");

  await page.goto(linkIn(mail, CONTINUE));
  await waitForFormEngine(page);
  await expect(control(page, "name")).toHaveValue(name);
  await expect(control(page, "city")).toHaveValue(`"><svg onload=alert(3)>`);
  await expect(page.locator("main script, form script, form img, form svg[onload]")).toHaveCount(0);
  expect(dialogs).toEqual([]);
});
