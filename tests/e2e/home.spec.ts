import { expect, test } from "./fixtures";
import { waitForHydration } from "./helpers";

test("the home page renders from the store in German, hydrates, and loads nothing from elsewhere", async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const foreign: string[] = [];
  const errors: string[] = [];
  page.on("request", (req) => {
    if (!req.url().startsWith(origin) && !req.url().startsWith("data:")) foreign.push(req.url());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));

  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Gute Behandlung beginnt in Ihrer Nähe");
  await expect(page).toHaveTitle(/Praxisnetz/);
  await expect(page.locator("[data-block=block-hero]")).toContainText("Praxisnetz verbindet Sie");
  expect(await page.locator("[data-block]").count()).toBeGreaterThanOrEqual(3);
  // Hydration ran: React Router's client router exists, and the CSP let its scripts run.
  await waitForHydration(page);
  await page.waitForLoadState("networkidle");
  expect(errors).toEqual([]);
  expect(foreign).toEqual([]);
});
