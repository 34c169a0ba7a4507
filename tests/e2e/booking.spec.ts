import { expect, test, type Page } from "./fixtures";
import { freeSlotIds, linkIn, mailTo, outboxTo, noScriptContext, uniqueEmail, waitFillTime, waitForFormEngine } from "./helpers";

/**
 * Booking an appointment from the demo page /termine: with JavaScript (JSON API) and without (the
 * page's action), the slot leaving the list and coming back after the cancel link from the
 * confirmation mail, and a slot taken between opening the form and sending it.
 */

const TAKEN_NOW = "Dieser Termin wurde gerade von jemand anderem gebucht.";
const BOOKED = "Ihr Termin ist gebucht.";

const input = (page: Page, name: string) => page.locator(`[data-field="${name}"]`).locator("input, textarea");
const slotLink = (page: Page, id: string) => page.locator(`[data-appointments] a[data-slot="${id}"]`);

async function fillBooking(page: Page, v: { name: string; email: string; phone: string; note?: string }) {
  await input(page, "name").fill(v.name);
  await input(page, "email").fill(v.email);
  await input(page, "phone").fill(v.phone);
  if (v.note !== undefined) await input(page, "note").fill(v.note);
  await input(page, "privacy").check();
}

test("book a slot from /termine with JavaScript, get the mail with the calendar file, cancel it, and the slot is free again", async ({ page }) => {
  await page.goto("/termine");
  const first = page.locator("[data-appointments] a[data-slot]").first();
  const id = (await first.getAttribute("data-slot"))!;
  expect(id).toBeTruthy();
  await first.click();
  await expect(page).toHaveURL(new RegExp(`/appointments/book/${id}$`));
  await expect(page.locator("[data-booking-slot]")).toBeVisible();
  await waitForFormEngine(page);
  const loaded = Date.now();

  const email = uniqueEmail("book-js");
  await fillBooking(page, { name: "Erika Mustermann", email, phone: "+49 30 1234567", note: "Bitte mit Aufzug." });
  await waitFillTime(page, loaded);
  await page.getByRole("button", { name: "Verbindlich buchen" }).click();
  await expect(page.locator("[data-booking-done]")).toContainText(BOOKED);
  await expect(page.locator("form[data-form]")).toHaveCount(0);

  // The list is a cached page: the booking must take the slot off it.
  await page.goto("/termine");
  await expect(page.locator("[data-appointments] a[data-slot]").first()).toBeVisible();
  await expect(slotLink(page, id)).toHaveCount(0);

  // Opening the slot again: not bookable any more.
  const again = await page.goto(`/appointments/book/${id}`);
  expect(again?.status()).toBe(200);
  await expect(page.locator("[data-booking-unavailable]")).toContainText("Dieser Termin ist leider nicht mehr frei.");
  await expect(page.locator("form[data-form]")).toHaveCount(0);

  // The confirmation: the calendar entry attached, and the link to cancel.
  const mail = await mailTo(email, "booking-confirmation");
  expect(mail.attachments).toHaveLength(1);
  const [ics] = mail.attachments;
  expect(ics!.filename).toMatch(/\.ics$/);
  expect(ics!.contentType).toMatch(/^text\/calendar/);
  expect(ics!.content).toContain("BEGIN:VCALENDAR");
  expect(ics!.content).toContain("METHOD:PUBLISH");
  expect(ics!.content).toContain("STATUS:CONFIRMED");
  const cancel = linkIn(mail, /^\/appointments\/cancel\?token=/);

  // Opening the link only asks; the button cancels.
  await page.goto(cancel);
  await expect(page.locator("[data-cancel-view]")).toHaveAttribute("data-cancel-view", "confirm");
  await page.goto(`/appointments/book/${id}`);
  await expect(page.locator("[data-booking-unavailable]")).toBeVisible();
  await page.goto(cancel);
  await page.getByRole("button", { name: "Termin absagen" }).click();
  await expect(page.locator("[data-cancel-view]")).toHaveAttribute("data-cancel-view", "cancelled");
  await expect(page.locator("[data-cancel-result]")).toContainText("Ihr Termin ist abgesagt.");
  const cancellation = await mailTo(email, "booking-cancellation");
  expect(cancellation.attachments[0]!.content).toContain("METHOD:CANCEL");

  // Bookable again: back on the list, and its page has the form.
  await page.goto("/termine");
  await expect(slotLink(page, id)).toHaveCount(1);
  await page.goto(`/appointments/book/${id}`);
  await expect(page.locator("form[data-form='booking']")).toBeVisible();
  await expect(page.locator("[data-booking-unavailable]")).toHaveCount(0);

  // The used link now says the booking is already cancelled.
  await page.goto(cancel);
  await expect(page.locator("[data-cancel-view]")).toHaveAttribute("data-cancel-view", "gone");
});

test("a slot taken between opening the form and sending it: the message shows in the form and every input stays", async ({ browser, baseURL, request }) => {
  const ids = await freeSlotIds(request);
  const id = ids[1]!;
  // Two visitors, each with their own browser.
  const contextA = await browser.newContext({ baseURL });
  const contextB = await browser.newContext({ baseURL });
  try {
    const a = await contextA.newPage();
    const b = await contextB.newPage();
    await Promise.all([a.goto(`/appointments/book/${id}`), b.goto(`/appointments/book/${id}`)]);
    await Promise.all([waitForFormEngine(a), waitForFormEngine(b)]);
    const loaded = Date.now();
    const valuesB = { name: "Bernd Zweiter", email: uniqueEmail("book-race-b"), phone: "0341 998877", note: "Zweiter Versuch" };
    await fillBooking(a, { name: "Anna Erste", email: uniqueEmail("book-race-a"), phone: "030 112233" });
    await fillBooking(b, valuesB);
    await waitFillTime(a, loaded);

    await a.getByRole("button", { name: "Verbindlich buchen" }).click();
    await expect(a.locator("[data-booking-done]")).toBeVisible();

    await b.getByRole("button", { name: "Verbindlich buchen" }).click();
    await expect(b.locator("[data-form-message]")).toHaveText(TAKEN_NOW);
    await expect(b.locator("[data-booking-done]")).toHaveCount(0);
    await expect(input(b, "name")).toHaveValue(valuesB.name);
    await expect(input(b, "email")).toHaveValue(valuesB.email);
    await expect(input(b, "phone")).toHaveValue(valuesB.phone);
    await expect(input(b, "note")).toHaveValue(valuesB.note);
    await expect(input(b, "privacy")).toBeChecked();
    // The form is usable again (not stuck in its loading state).
    await expect(b.locator("form[data-form]")).not.toHaveAttribute("data-loading");
    await expect(b.getByRole("button", { name: "Verbindlich buchen" })).toBeEnabled();
    expect(outboxTo(valuesB.email), "no mail to the second visitor").toEqual([]);
  } finally {
    await contextA.close();
    await contextB.close();
  }
});

test("book a slot without JavaScript: messages in place, then the done view", async ({ browser, baseURL }) => {
  const context = await noScriptContext(browser, baseURL);
  const page = await context.newPage();
  try {
    await page.goto("/termine");
    const link = page.locator("[data-appointments] a[data-slot]").nth(2);
    const id = (await link.getAttribute("data-slot"))!;
    await link.click();
    await expect(page).toHaveURL(new RegExp(`/appointments/book/${id}$`));
    let loaded = Date.now();

    // A bad phone number: the page answers with the message beside the field, the rest kept.
    const email = uniqueEmail("book-nojs");
    await fillBooking(page, { name: "Nora Ohneskript", email, phone: "abc", note: "Ohne JavaScript" });
    await waitFillTime(page, loaded);
    await page.getByRole("button", { name: "Verbindlich buchen" }).click();
    await expect(page.locator('[data-field="phone"] [data-messages]')).toBeVisible();
    await expect(input(page, "phone")).toHaveAttribute("aria-invalid", "true");
    await expect(input(page, "name")).toHaveValue("Nora Ohneskript");
    await expect(input(page, "email")).toHaveValue(email);
    await expect(input(page, "note")).toHaveValue("Ohne JavaScript");
    await expect(input(page, "privacy")).toBeChecked();
    await expect(page.locator("[data-booking-done]")).toHaveCount(0);
    loaded = Date.now();

    await input(page, "phone").fill("+49 341 55555");
    await waitFillTime(page, loaded);
    await page.getByRole("button", { name: "Verbindlich buchen" }).click();
    await expect(page.locator("[data-booking-done]")).toContainText(BOOKED);
    await mailTo(email, "booking-confirmation");

    await page.goto("/termine");
    await expect(page.locator("[data-appointments] a[data-slot]").first()).toBeVisible();
    await expect(slotLink(page, id)).toHaveCount(0);
  } finally {
    await context.close();
  }
});
