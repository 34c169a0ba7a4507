import { expect, test, type Page } from "./fixtures";
import { linkIn, mailTo, noScriptContext, outboxTo, uniqueEmail, waitFillTime, waitForFormEngine } from "./helpers";

/**
 * Newsletter sign-up with double opt-in, from /newsletter/{email} (the address pre-filled from the
 * path): with JavaScript through the JSON API, without it as a plain form post; the confirm link from
 * the mail, the welcome mail's present and its download.
 */

const view = (page: Page) => page.locator("[data-newsletter-view]");
const emailInput = (page: Page) => page.locator('[data-field="email"] input');
const privacy = (page: Page) => page.locator('[data-field="privacy"] input');

/** Opens the confirm link, presses the button and follows the welcome mail to the present and its PDF. */
async function confirmAndGetPresent(page: Page, email: string, t: { button: string; confirmed: RegExp; download: RegExp; prefix: string }) {
  const confirmMail = await mailTo(email, "newsletter-confirm");
  const confirmLink = linkIn(confirmMail, new RegExp(`^${t.prefix}/newsletter/[^?]+\\?confirm=`));
  expect(decodeURIComponent(new URL(confirmLink).pathname)).toBe(`${t.prefix}/newsletter/${email}`);

  // Opening the link does not confirm (mail scanners open links): no welcome mail yet.
  await page.goto(confirmLink);
  await expect(view(page)).toHaveAttribute("data-newsletter-view", "confirm");
  expect(outboxTo(email).map((m) => m.kind)).toEqual(["newsletter-confirm"]);
  await page.getByRole("button", { name: t.button }).click();
  await expect(view(page)).toHaveAttribute("data-newsletter-view", "confirmed");
  await expect(page.locator("[data-newsletter-result]")).toHaveText(t.confirmed);

  const welcome = await mailTo(email, "newsletter-welcome");
  const presentLink = linkIn(welcome, new RegExp(`^${t.prefix}/present/[^?]+\\?token=`));
  const response = await page.goto(presentLink);
  expect(response?.status()).toBe(200);
  await expect(page.locator("[data-present]")).toHaveAttribute("data-present", "shown");
  const download = page.locator("[data-present-download]");
  await expect(download).toHaveText(t.download);
  const pdf = await page.request.get((await download.getAttribute("href"))!);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toMatch(/^application\/pdf/);
  expect((await pdf.body()).subarray(0, 5).toString("latin1")).toBe("%PDF-");

  // The same page without the signed link only invites to subscribe.
  await page.goto(`${t.prefix}/present/${encodeURIComponent(email)}`);
  await expect(page.locator("[data-present]")).toHaveAttribute("data-present", "invite");
}

test("sign up with JavaScript, confirm from the mail, and the welcome mail's present downloads", async ({ page }) => {
  const email = uniqueEmail("nl-js");
  await page.goto(`/newsletter/${encodeURIComponent(email)}`);
  await waitForFormEngine(page);
  const loaded = Date.now();
  await expect(view(page)).toHaveAttribute("data-newsletter-view", "form");
  await expect(emailInput(page)).toHaveValue(email);
  await expect(privacy(page)).not.toBeChecked();
  await privacy(page).check();
  await waitFillTime(page, loaded);
  await page.getByRole("button", { name: "Anmelden" }).click();
  const sent = page.locator("[data-newsletter-sent]");
  await expect(sent).toContainText("Fast geschafft! Wir haben Ihnen eine E-Mail geschickt.");
  await expect(sent).toHaveAttribute("role", "status");
  await expect(page.locator("form[data-form]")).toHaveCount(0);

  await confirmAndGetPresent(page, email, {
    prefix: "",
    button: "Ja, Newsletter erhalten",
    confirmed: /^Vielen Dank! Ihre Anmeldung ist bestätigt\./,
    download: /^Herunterladen: .+\.pdf \(\d+ KB\)$/,
  });
});

test("sign up without JavaScript: an invalid address shows its message with the input kept, a valid one the sent view", async ({ browser, baseURL }) => {
  const context = await noScriptContext(browser, baseURL);
  const page = await context.newPage();
  try {
    const email = uniqueEmail("nl-nojs");
    await page.goto(`/newsletter/${encodeURIComponent(email)}`);
    let loaded = Date.now();
    await expect(emailInput(page)).toHaveValue(email);

    await emailInput(page).fill("keine-adresse@");
    await privacy(page).check();
    await waitFillTime(page, loaded);
    await page.getByRole("button", { name: "Anmelden" }).click();
    await expect(page.locator('[data-field="email"] [data-messages]')).toHaveText("E-Mail Adresse ist ungültig.");
    await expect(emailInput(page)).toHaveValue("keine-adresse@");
    await expect(emailInput(page)).toHaveAttribute("aria-invalid", "true");
    await expect(privacy(page)).toBeChecked();
    await expect(page.locator("[data-form-message]")).toHaveText("Entschuldigung, nicht alle Felder wurden korrekt ausgefüllt.");
    await expect(view(page)).toHaveAttribute("data-newsletter-view", "form");
    expect(outboxTo(email)).toEqual([]);
    loaded = Date.now();

    await emailInput(page).fill(email);
    await waitFillTime(page, loaded);
    await page.getByRole("button", { name: "Anmelden" }).click();
    await expect(page).toHaveURL(`/newsletter/${encodeURIComponent(email)}?sent=1`);
    await expect(view(page)).toHaveAttribute("data-newsletter-view", "sent");
    await expect(page.locator("[data-newsletter-sent]")).toContainText("Fast geschafft!");

    // The confirm button is a plain form too.
    const link = linkIn(await mailTo(email, "newsletter-confirm"), /^\/newsletter\/[^?]+\?confirm=/);
    await page.goto(link);
    await page.getByRole("button", { name: "Ja, Newsletter erhalten" }).click();
    await expect(view(page)).toHaveAttribute("data-newsletter-view", "confirmed");
    await mailTo(email, "newsletter-welcome");
  } finally {
    await context.close();
  }
});

test("English: messages, sign-up, confirm link and present under /en", async ({ page }) => {
  const email = uniqueEmail("nl-en");
  await page.goto(`/en/newsletter/${encodeURIComponent(email)}`);
  await waitForFormEngine(page);
  const loaded = Date.now();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(emailInput(page)).toHaveValue(email);

  // A wrong address shows the English message once the field is left.
  await emailInput(page).fill("not-an-address");
  await expect(page.locator('[data-field="email"] [data-messages]')).toHaveCount(0);
  await emailInput(page).blur();
  await expect(page.locator('[data-field="email"] [data-messages]')).toHaveText("Please enter a valid email address.");
  await emailInput(page).fill(email);
  await expect(page.locator('[data-field="email"] [data-messages]')).toHaveCount(0);

  await privacy(page).check();
  await waitFillTime(page, loaded);
  await page.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.locator("[data-newsletter-sent]")).toContainText("Almost done! We have sent you an email.");

  await confirmAndGetPresent(page, email, {
    prefix: "/en",
    button: "Yes, send me the newsletter",
    confirmed: /^Thank you! Your subscription is confirmed\./,
    download: /^Download: .+\.pdf \(\d+ KB\)$/,
  });
});
