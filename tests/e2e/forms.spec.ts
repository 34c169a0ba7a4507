import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "./fixtures";
import { freeSlotIds, linkIn, mailTo, uniqueEmail, waitFillTime, waitForFormEngine } from "./helpers";

/**
 * The form engine in the browser (app/forms/react.tsx), on the booking and the registration page:
 * when messages show, the fields' state attributes, submitting (incomplete, loading, server errors),
 * English texts, and axe on every page with a form, with and without messages.
 */

const field = (page: Page, name: string) => page.locator(`form[data-form] [data-field="${name}"]`);
const control = (page: Page, name: string) => field(page, name).locator("input, textarea, select");
const messages = (page: Page, name: string) => field(page, name).locator("[data-messages]");
const formMessage = (page: Page) => page.locator("form[data-form] [data-form-message]");
const submit = (page: Page) => page.locator("form[data-form] button[type=submit]");

/** A slot that is free now: the booking page shows its form. */
async function openBookingForm(page: Page, prefix = ""): Promise<string> {
  const [id] = await freeSlotIds(page.request, prefix ? `${prefix}/appointments` : "/termine");
  expect(id, "a free slot").toBeTruthy();
  await page.goto(`${prefix}/appointments/book/${id}`);
  await waitForFormEngine(page);
  return id!;
}

/** Whether the field wrapper carries each data-* state (true: present, false: absent). */
async function expectStates(page: Page, name: string, states: Record<string, boolean>) {
  for (const [state, on] of Object.entries(states)) {
    if (on) await expect(field(page, name), `${name} ${state}`).toHaveAttribute(`data-${state}`);
    else await expect(field(page, name), `${name} not ${state}`).not.toHaveAttribute(`data-${state}`);
  }
}

test("a text field's message shows once the field is left, not while typing; the state attributes follow", async ({ page }) => {
  await openBookingForm(page);
  const name = control(page, "name");

  // Untouched: failing (required, empty) but nothing shown.
  await expectStates(page, "name", { empty: true, failing: true, blurred: false, dirty: false, submitted: false, invalid: false, valid: false, passing: false, complete: false, settled: true });
  await expect(messages(page, "name")).toHaveCount(0);
  await expect(name).toHaveAttribute("aria-invalid", "false");
  await expect(name).toHaveAttribute("aria-required", "true");

  // Typing one letter: the rule fails (too short), but the visitor is still typing: no message.
  await name.click();
  await name.pressSequentially("A");
  await expectStates(page, "name", { dirty: true, empty: false, failing: true, settled: true, blurred: false, invalid: false });
  await expect(messages(page, "name")).toHaveCount(0);
  await expect(name).toHaveAttribute("aria-invalid", "false");
  await expect(name).not.toHaveAttribute("aria-describedby", /messages/);

  // Leaving the field shows the message, tied to the input.
  await name.blur();
  await expectStates(page, "name", { blurred: true, invalid: true, failing: true, valid: false, passing: false });
  await expect(messages(page, "name")).toHaveText("Name muss zwischen 2 und 100 Zeichen enthalten.");
  await expect(name).toHaveAttribute("aria-invalid", "true");
  const describedBy = (await name.getAttribute("aria-describedby"))!;
  expect(describedBy.split(" ")).toContain(await messages(page, "name").getAttribute("id"));

  // Once left, the field validates as the visitor types.
  await name.fill("");
  await expect(messages(page, "name")).toHaveText("Name ist erforderlich.");
  await expectStates(page, "name", { empty: true, invalid: true });
  await name.fill("Ada Lovelace");
  await expectStates(page, "name", { valid: true, passing: true, complete: true, settled: true, invalid: false, failing: false, empty: false });
  await expect(messages(page, "name")).toHaveCount(0);
  await expect(name).toHaveAttribute("aria-invalid", "false");

  // The e-mail field the same way: nothing while typing, the message after leaving it.
  const email = control(page, "email");
  await email.click();
  await email.pressSequentially("ada@");
  await expectStates(page, "email", { failing: true, settled: true, blurred: false, invalid: false });
  await expect(messages(page, "email")).toHaveCount(0);
  await email.press("Tab");
  await expect(messages(page, "email")).toHaveText("E-Mail Adresse ist ungültig.");
  await expectStates(page, "email", { blurred: true, invalid: true });
  // Tab moved on to the phone field; leaving it empty shows its message too.
  await expect(control(page, "phone")).toBeFocused();
  await control(page, "phone").blur();
  await expect(messages(page, "phone")).toHaveText("Telefon ist erforderlich.");
});

test("the consent checkbox shows its message once it was changed, also when changed back", async ({ page }) => {
  // Dirty means "was changed", for good (FormKit's "touched"): an unchecked consent box fails exactly
  // when it equals its start value, so "differs from the start" would never show its message.
  await openBookingForm(page);
  const privacy = control(page, "privacy");
  await expectStates(page, "privacy", { failing: true, dirty: false, invalid: false });

  // Checkboxes show messages on change ("dirty"), not on blur.
  await privacy.focus();
  await privacy.blur();
  await expect(messages(page, "privacy")).toHaveCount(0);

  await privacy.check();
  await expectStates(page, "privacy", { dirty: true, valid: true, passing: true, failing: false, invalid: false, settled: true });
  await expect(messages(page, "privacy")).toHaveCount(0);

  // Changed back: the consent is missing again, and the visitor has touched it: the message shows.
  await privacy.uncheck();
  await expectStates(page, "privacy", { failing: true, settled: true, valid: false });
  // Validation has settled (above): the message is there now or never.
  await expect(messages(page, "privacy")).toHaveCount(1, { timeout: 1500 });
  await expectStates(page, "privacy", { invalid: true, dirty: true });
  await expect(privacy).toHaveAttribute("aria-invalid", "true");
});

test("submitting the empty registration form reports it incomplete, marks every field submitted and focuses the first invalid input", async ({ page }) => {
  let apiCalls = 0;
  page.on("request", (r) => {
    if (r.url().includes("/api/practitioners/register")) apiCalls++;
  });
  await page.goto("/practitioners/register");
  await waitForFormEngine(page);
  await expect(formMessage(page)).toBeEmpty();
  await expect(page.locator("form[data-form] [data-messages]")).toHaveCount(0);

  await submit(page).click();
  await expect(formMessage(page)).toHaveText("Entschuldigung, nicht alle Felder wurden korrekt ausgefüllt.");
  await expect(formMessage(page)).toHaveAttribute("role", "alert");
  await expect(page.locator("form[data-form]")).toHaveAttribute("aria-describedby", (await formMessage(page).getAttribute("id"))!);
  const fields = page.locator("form[data-form] [data-field]");
  const count = await fields.count();
  expect(count).toBeGreaterThan(5);
  for (let i = 0; i < count; i++) await expect(fields.nth(i)).toHaveAttribute("data-submitted");

  // The required fields show their messages; the optional ones, empty, none.
  await expect(messages(page, "name")).toHaveText("Name ist erforderlich.");
  await expect(messages(page, "city")).toHaveText("Ort ist erforderlich.");
  await expect(messages(page, "email")).toHaveText("E-Mail ist erforderlich.");
  await expect(messages(page, "privacy")).toHaveCount(1);
  await expect(messages(page, "street")).toHaveCount(0);
  await expect(messages(page, "phone")).toHaveCount(0);
  await expect(control(page, "name")).toBeFocused();

  // Fixing the first field moves the focus on the next attempt to the next invalid one.
  await control(page, "name").fill("Ida Fokus");
  await submit(page).click();
  await expect(control(page, "city")).toBeFocused();
  await expect(formMessage(page)).toHaveText("Entschuldigung, nicht alle Felder wurden korrekt ausgefüllt.");
  expect(apiCalls, "an incomplete form is never sent").toBe(0);
});

test("while the registration is sent the form shows its loading state, then the success notice", async ({ page }) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/practitioners/register", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/practitioners/register");
  await waitForFormEngine(page);
  const loaded = Date.now();
  await control(page, "name").fill("Lena Laden");
  await control(page, "city").fill("Erfurt");
  await control(page, "email").fill(uniqueEmail("forms-loading"));
  await control(page, "privacy").check();
  await waitFillTime(page, loaded);
  await submit(page).click();

  // The request is held: the form is busy until it answers.
  const form = page.locator("form[data-form]");
  await expect(form).toHaveAttribute("data-loading");
  await expect(form.locator("fieldset").first()).toHaveAttribute("disabled");
  await expect(control(page, "name")).toBeDisabled();
  await expect(control(page, "privacy")).toBeDisabled();
  await expect(submit(page)).toBeDisabled();
  await expect(submit(page)).toHaveText("Wird geladen...");
  await expect(submit(page)).toHaveAttribute("aria-busy", "true");
  await expect(formMessage(page)).toBeEmpty();
  release();

  await expect(page.locator("[data-registration-result]")).toContainText("Danke! Ihre Registrierung ist gespeichert.");
  await expect(page.locator("form[data-form]")).toHaveCount(0);
});

test("a server error shows in the form and every input keeps its value", async ({ page }) => {
  await openBookingForm(page);
  const loaded = Date.now();
  const values = { name: "Sven Server", email: uniqueEmail("forms-error"), phone: "030 4455667", note: "Zeile 1\nZeile 2" };
  await control(page, "name").fill(values.name);
  await control(page, "email").fill(values.email);
  await control(page, "phone").fill(values.phone);
  await control(page, "note").fill(values.note);
  await control(page, "privacy").check();
  await waitFillTime(page, loaded);

  const expectKept = async () => {
    await expect(control(page, "name")).toHaveValue(values.name);
    await expect(control(page, "email")).toHaveValue(values.email);
    await expect(control(page, "phone")).toHaveValue(values.phone);
    await expect(control(page, "note")).toHaveValue(values.note);
    await expect(control(page, "privacy")).toBeChecked();
    await expect(page.locator("form[data-form]")).not.toHaveAttribute("data-loading");
    await expect(submit(page)).toHaveText("Verbindlich buchen");
    await expect(submit(page)).toBeEnabled();
    await expect(page.locator("[data-booking-done]")).toHaveCount(0);
  };

  // 409 with a message and a message for one field: both shown, the field's input marked.
  await page.route("**/api/appointments/*/book", (route) =>
    route.fulfill({ status: 409, contentType: "application/json", body: JSON.stringify({ message: "Konflikt: bitte prüfen.", errors: { email: ["Diese Adresse kennt der Server nicht."] } }) }),
  );
  await submit(page).click();
  await expect(formMessage(page)).toHaveText("Konflikt: bitte prüfen.");
  await expect(messages(page, "email")).toHaveText("Diese Adresse kennt der Server nicht.");
  await expect(control(page, "email")).toHaveAttribute("aria-invalid", "true");
  await expect(control(page, "email")).toBeFocused();
  await expectKept();

  // Typing in the field takes the server's message away.
  await control(page, "email").fill(`x${values.email}`);
  await expect(messages(page, "email")).toHaveCount(0);
  await control(page, "email").fill(values.email);

  // 500 without a JSON body: the general message.
  await page.unroute("**/api/appointments/*/book");
  await page.route("**/api/appointments/*/book", (route) => route.fulfill({ status: 500, contentType: "text/html", body: "<h1>Internal Server Error</h1>" }));
  await submit(page).click();
  await expect(formMessage(page)).toHaveText("Das hat nicht geklappt. Bitte versuchen Sie es noch einmal.");
  await expectKept();

  // The network gone: the form says it could not be sent.
  await page.unroute("**/api/appointments/*/book");
  await page.route("**/api/appointments/*/book", (route) => route.abort("connectionfailed"));
  await submit(page).click();
  await expect(formMessage(page)).toHaveText("Das Formular konnte nicht gesendet werden. Bitte versuchen Sie es noch einmal.");
  await expectKept();
});

test("messages in English on the /en pages", async ({ page }) => {
  await openBookingForm(page, "/en");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await control(page, "name").focus();
  await control(page, "name").blur();
  await expect(messages(page, "name")).toHaveText("Name is required.");
  await control(page, "email").fill("nope");
  await control(page, "email").blur();
  await expect(messages(page, "email")).toHaveText("Please enter a valid email address.");
  await expect(submit(page)).toHaveText("Book now");
  await submit(page).click();
  await expect(formMessage(page)).toHaveText("Sorry, not all fields are filled out correctly.");
  await expect(messages(page, "phone")).toHaveText("Phone is required.");
  await expect(control(page, "name")).toBeFocused();

  await page.goto("/en/practitioners/register");
  await waitForFormEngine(page);
  await submit(page).click();
  await expect(formMessage(page)).toHaveText("Sorry, not all fields are filled out correctly.");
  await expect(messages(page, "name")).toHaveText("Name is required.");
  await expect(messages(page, "city")).toHaveText("City is required.");
  await expect(messages(page, "email")).toHaveText("Email is required.");
  await control(page, "email").fill("still wrong");
  await expect(messages(page, "email")).toHaveText("Please enter a valid email address.");
});

type Violation = Awaited<ReturnType<AxeBuilder["analyze"]>>["violations"][number];
const describe = (violations: Violation[]) =>
  violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(" ")} – ${(n.failureSummary ?? "").replace(/\s+/g, " ")}`).join("\n")}`).join("\n");

async function expectNoAxeViolations(page: Page, what: string) {
  const { violations, passes } = await new AxeBuilder({ page }).analyze();
  expect(passes.length, "axe checked something").toBeGreaterThan(10);
  expect(describe(violations), `axe violations: ${what}`).toBe("");
}

/** Shows every message a form has: the incomplete form, plus a wrong address. */
async function showMessages(page: Page) {
  await control(page, "email").fill("falsch@");
  await submit(page).click();
  await expect(formMessage(page)).not.toBeEmpty();
  await expect(page.locator("form[data-form] [data-messages]").first()).toBeVisible();
}

test("no axe violations on the registration, newsletter and booking pages, with and without messages", async ({ page }) => {
  for (const [what, open] of [
    ["registration", async () => page.goto("/practitioners/register")],
    ["registration (en)", async () => page.goto("/en/practitioners/register")],
    ["newsletter", async () => page.goto(`/newsletter/${encodeURIComponent(uniqueEmail("axe"))}`)],
    ["booking", async () => openBookingForm(page)],
  ] as const) {
    await open();
    await waitForFormEngine(page);
    await expectNoAxeViolations(page, `${what}, no messages`);
    await showMessages(page);
    await expectNoAxeViolations(page, `${what}, with messages`);
  }
});

test("no axe violations on the cancel page: asking, cancelled and an invalid link", async ({ page }) => {
  // A booking through the API, to get its cancel link.
  const [id] = await freeSlotIds(page.request);
  const email = uniqueEmail("axe-cancel");
  const booked = await page.request.post(`/api/appointments/${id}/book`, { data: { name: "Axel Axe", email, phone: "030 123456", privacy: true, language: "de" } });
  expect(booked.status(), await booked.text()).toBe(201);
  const cancel = linkIn(await mailTo(email, "booking-confirmation"), /^\/appointments\/cancel\?token=/);

  await page.goto(cancel);
  await expect(page.locator("[data-cancel-view]")).toHaveAttribute("data-cancel-view", "confirm");
  await expectNoAxeViolations(page, "cancel page, asking");
  await page.getByRole("button", { name: "Termin absagen" }).click();
  await expect(page.locator("[data-cancel-view]")).toHaveAttribute("data-cancel-view", "cancelled");
  await expectNoAxeViolations(page, "cancel page, cancelled");

  const invalid = await page.goto("/appointments/cancel?token=nonsense");
  expect(invalid?.status()).toBe(403);
  await expect(page.locator("[data-cancel-view]")).toHaveAttribute("data-cancel-view", "invalid");
  await expectNoAxeViolations(page, "cancel page, invalid link");
});
