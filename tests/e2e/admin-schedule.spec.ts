import { expect, test } from "./fixtures";
import { expectNoAxeViolations, signIn } from "./admin-helpers";
import { waitForHydration } from "./helpers";

/**
 * The item screen's schedule (issue 23): an editor plans an unpublish at a German wall-clock time,
 * sees the pending change in words (no ids, no JSON), cancels it; a time that has passed is refused
 * in German; the collection's list marks the item. The scheduler applying it is tested in app/content/scheduler.test.ts and
 * tests/api/squidex-schedule.test.ts.
 */

const ITEM = "/manage/content/gm-content-practitioners/prac-004";
const notice = (page: import("@playwright/test").Page) => page.locator("[data-save-result]");

test("plans, shows and cancels a scheduled unpublish; refuses a past time", async ({ page }) => {
  await signIn(page, ITEM);
  await waitForHydration(page);
  const box = page.locator("[data-schedule]");
  await expect(box.getByRole("heading", { name: "Zeitplan" })).toBeVisible();
  await expectNoAxeViolations(page);

  await box.getByLabel("Was").selectOption({ label: "Zu einem Zeitpunkt zurückziehen" });
  await box.getByLabel("Zeitpunkt (deutsche Zeit)").fill("2020-01-01T10:00");
  await box.getByRole("button", { name: "Planen" }).click();
  await expect(notice(page)).toHaveText("Dieser Zeitpunkt ist schon vorbei. Bitte einen Zeitpunkt in der Zukunft angeben.");

  const year = new Date().getUTCFullYear() + 1;
  await box.getByLabel("Zeitpunkt (deutsche Zeit)").fill(`${year}-06-01T10:30`);
  await box.getByRole("button", { name: "Planen" }).click();
  await expect(notice(page)).toContainText("Geplant für ");
  await expect(notice(page)).toContainText(`1. Juni ${year} um 10:30`);
  const pending = page.locator("[data-schedule-pending]");
  await expect(pending).toContainText(`Wird zurückgezogen am`);
  await expect(pending).toContainText(`1. Juni ${year} um 10:30`);
  await expect(pending).not.toContainText("subject:");
  await expectNoAxeViolations(page);
  // Still published until then.
  await expect(page.locator("[data-item-meta] [data-status]")).toHaveAttribute("data-status", "Published");

  // The collection's list marks it.
  await page.goto("/manage/content/gm-content-practitioners?q=Yıldız");
  const marker = page.locator('[data-item="prac-004"] [data-scheduled]');
  await expect(marker).toHaveText(`Wird zurückgezogen am 01.06.${year}, 10:30`);
  await expectNoAxeViolations(page);

  await page.goto(ITEM);
  await waitForHydration(page);
  await expect(pending).toContainText(`1. Juni ${year} um 10:30`);
  await box.getByRole("button", { name: "Zeitplan aufheben" }).click();
  await expect(notice(page)).toHaveText("Zeitplan aufgehoben.");
  await expect(pending).toHaveCount(0);
  await expect(box.getByRole("button", { name: "Planen" })).toBeVisible();
});
