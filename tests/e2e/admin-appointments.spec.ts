import { expect, test, type Page } from "./fixtures";
import { expectNoAxeViolations, signIn } from "./admin-helpers";
import { mailTo, uniqueEmail, waitFillTime, waitForFormEngine } from "./helpers";

/**
 * /manage/appointments end to end: an editor creates a weekly series for a demo practitioner, a
 * visitor books one of the new slots from the public profile, the editor sees who booked and
 * cancels, and the booker gets the cancellation with the calendar CANCEL.
 */

const PRACTITIONER = { id: "prac-001", name: "Jürgen Weiß", slug: "juergen-weiss" };

/** A Berlin date `days` after today, "2026-11-26". */
function berlinDate(days: number): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Berlin", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date(Date.now() + days * 86_400_000));
}

const bookingInput = (page: Page, name: string) => page.locator(`[data-field="${name}"]`).locator("input, textarea");

test("create a weekly series, book a new slot publicly, see the booker and cancel the booking", async ({ page }) => {
  // No browser dialogs any more: the server asks (ConfirmStep).
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => (dialogs.push(dialog.message()), void dialog.dismiss()));
  await signIn(page, "/manage/appointments");
  await expect(page.getByRole("heading", { level: 1, name: "Termine" })).toBeVisible();

  // Nobody is listed before a search (there are thousands); the practitioner is found by name.
  await expect(page.locator("[data-practitioner-results]")).toHaveCount(0);
  await expect(page.locator("[data-practitioner-count]")).toHaveText("Geben Sie einen Namen oder Ort ein, um Behandelnde zu finden.");
  // Without JavaScript the search is a GET form: the server's page lists the matches by city too.
  const plain = await (await page.request.get("/manage/appointments?q=K%C3%B6ln")).text();
  expect(plain).toContain('data-practitioner="prac-004"');
  expect(plain).toContain("Behandelnde gefunden.");
  await page.getByLabel("Name oder Ort suchen").fill("Jürgen");
  await page.getByRole("button", { name: "Suchen" }).click();
  await page.locator(`[data-practitioner-results] a[data-practitioner="${PRACTITIONER.id}"]`).click();
  await expect(page.locator(`[data-slot-manager="${PRACTITIONER.id}"]`)).toBeVisible();

  // Every day of the coming week at 07:00, before the demo slots of the day (09:00 on).
  const [first, last] = [berlinDate(1), berlinDate(7)];
  const create = page.locator("[data-create-slots]");
  await create.getByLabel("Wöchentliche Serie").check();
  for (const day of ["Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"]) await create.getByLabel(day, { exact: true }).check();
  await create.getByLabel("Uhrzeit", { exact: true }).fill("07:00");
  await create.getByLabel("Dauer (Minuten)").fill("30");
  await create.getByLabel("Erster Tag").fill(first);
  await create.getByLabel("Letzter Tag").fill(last);
  await create.getByRole("button", { name: "Anlegen" }).click();
  await expect(page.locator("[data-save-result=ok]")).toHaveText("7 Termine angelegt und veröffentlicht.");

  // The same again overlaps every one of them: refused, with a message.
  await create.getByRole("button", { name: "Anlegen" }).click();
  await expect(page.locator("[data-save-result=error]")).toContainText("Überschneidet sich mit vorhandenen Terminen");

  const newSlot = page.locator(`[data-day="${first}"] [data-admin-slot]`).first();
  await expect(newSlot).toContainText("07:00");
  await expect(newSlot).toContainText("frei");
  const id = (await newSlot.getAttribute("data-admin-slot"))!;

  // The new slot is on the practitioner's public profile; book it there.
  await page.goto(`/practitioners/${PRACTITIONER.slug}`);
  await page.locator(`a[data-slot="${id}"]`).click();
  await expect(page).toHaveURL(new RegExp(`/appointments/book/${id}$`));
  await waitForFormEngine(page);
  const loaded = Date.now();
  const email = uniqueEmail("admin-cancel");
  await bookingInput(page, "name").fill("Rosa Rückruf");
  await bookingInput(page, "email").fill(email);
  await bookingInput(page, "phone").fill("+49 30 7654321");
  await bookingInput(page, "note").fill("Bitte Parkplatz freihalten.");
  await bookingInput(page, "privacy").check();
  await waitFillTime(page, loaded);
  await page.getByRole("button", { name: "Verbindlich buchen" }).click();
  await expect(page.locator("[data-booking-done]")).toContainText("Ihr Termin ist gebucht.");

  // The editor sees who booked.
  await page.goto(`/manage/appointments?practitioner=${PRACTITIONER.id}`);
  const booked = page.locator(`[data-admin-slot="${id}"]`);
  await expect(booked).toHaveAttribute("data-booked", "true");
  const booker = booked.locator("[data-booker]");
  await expect(booker).toContainText("Rosa Rückruf");
  await expect(booker).toContainText(email);
  await expect(booker).toContainText("+49 30 7654321");
  await expect(booker).toContainText("Bitte Parkplatz freihalten.");
  await expectNoAxeViolations(page);

  // A booked slot cannot be deleted; cancel the booking instead.
  // The server asks first, naming the slot's time; the booker is mailed only after the confirmed post.
  await booked.getByRole("button", { name: /Buchung absagen/ }).click();
  const step = page.locator("[data-confirm-step]");
  await expect(step).toContainText("wirklich absagen?");
  await expect(booked).toHaveAttribute("data-booked", "true");
  await step.getByRole("button", { name: "Ja, Buchung absagen" }).click();
  await expect(page.locator("[data-save-result=ok]")).toHaveText(`Buchung abgesagt; ${email} wurde benachrichtigt.`);
  await expect(booked).not.toHaveAttribute("data-booked", "true");
  await expect(booked.locator("[data-booker]")).toHaveCount(0);
  const mail = await mailTo(email, "booking-cancellation");
  expect(mail.attachments[0]!.content).toContain("METHOD:CANCEL");

  // Free again: bookable on the profile, and deletable here.
  await page.goto(`/practitioners/${PRACTITIONER.slug}`);
  await expect(page.locator(`a[data-slot="${id}"]`)).toBeVisible();
  await page.goto(`/manage/appointments?practitioner=${PRACTITIONER.id}`);
  await page.locator(`[data-admin-slot="${id}"] input[type=checkbox]`).check();
  await page.locator("[data-remove-selected]").click();
  await expect(step).toContainText("Den ausgewählten freien Termin wirklich löschen?");
  await expect(page.locator(`[data-admin-slot="${id}"]`)).toBeVisible();
  await step.getByRole("button", { name: "Ja, Termin löschen" }).click();
  await expect(page.locator("[data-save-result=ok]")).toHaveText("1 Termin gelöscht.");
  await expect(page.locator(`[data-admin-slot="${id}"]`)).toHaveCount(0);
  expect(dialogs).toEqual([]);
});

test("bad requests for slots are refused with 4xx and a message, never 5xx", async ({ page }) => {
  await signIn(page, "/manage/appointments");
  const post = (form: Record<string, string>) => page.request.post("/manage/appointments", { form, headers: { origin: new URL(page.url()).origin } });
  const series = { intent: "create-series", practitioner: PRACTITIONER.id, weekday: "1", time: "08:00", duration: "30" };
  const cases: Array<[Record<string, string>, number, string]> = [
    [{ ...series, practitioner: "prac-nobody", from: berlinDate(1), to: berlinDate(8) }, 404, "Diese Behandelnde gibt es nicht."],
    [{ ...series, from: berlinDate(8), to: berlinDate(1) }, 400, "Der letzte Tag liegt vor dem ersten."],
    [{ ...series, from: berlinDate(1), to: berlinDate(400) }, 400, "Eine Serie umfasst höchstens ein Jahr."],
    [{ ...series, from: berlinDate(-7), to: berlinDate(1) }, 400, "Termine lassen sich nur für die Zukunft anlegen."],
    [{ ...series, weekday: "1", time: "00:00", until: "23:30", duration: "5", from: berlinDate(1), to: berlinDate(60) }, 400, "höchstens 500 auf einmal"],
    [{ intent: "create-single", practitioner: PRACTITIONER.id, date: "2026-02-30", time: "10:00", duration: "30" }, 400, "Bitte ein gültiges Datum angeben."],
    [{ intent: "remove", practitioner: PRACTITIONER.id }, 400, "Bitte mindestens einen freien Termin auswählen."],
  ];
  for (const [form, status, message] of cases) {
    const res = await post(form);
    expect(res.status(), JSON.stringify(form)).toBe(status);
    expect(await res.text()).toContain(message);
  }
  // The screen's own address: a NUL in the search and a page past the store were a 500.
  for (const [query, message] of [
    ["?q=a%00b", "Suchbegriff"],
    [`?q=${"x".repeat(10_000)}`, "Suchbegriff"],
    ["?pp=1e20", "Seitenzahl"],
    ["?pp=-1", "Seitenzahl"],
    [`?practitioner=${PRACTITIONER.id}&page=99999999999`, "Seitenzahl"],
  ] as const) {
    const res = await page.request.get(`/manage/appointments${query}`);
    expect(res.status(), query.slice(0, 40)).toBe(400);
    expect(await res.text()).toContain(message);
  }
});
