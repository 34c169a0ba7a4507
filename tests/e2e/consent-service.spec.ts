import { E2E_PORT, expect, test } from "./fixtures";
import { startOwnServer, waitForHydration } from "./helpers";

/**
 * An external consent tool (CONSENT_SERVICE_URL with CONSENT_SERVICE_ID) in place of our banner: a
 * server of its own with the tool configured, the tool a stand-in served from another origin
 * (localhost instead of 127.0.0.1, app/routes/test-consent-service.ts), its answers carried into
 * our consent cookie by public/consent-bridge.js.
 */
const port = E2E_PORT + 37;
const base = `http://127.0.0.1:${port}`;
const toolUrl = `http://localhost:${port}/__test/consent-service.js`;
let server: { kill: () => void } | undefined;

test.beforeAll(async () => {
  server = await startOwnServer(port, { CONSENT_SERVICE_URL: toolUrl, CONSENT_SERVICE_ID: "fake-settings-42" });
});

test.afterAll(() => server?.kill());

test("the configured tool asks instead of our banner, and its answers become the site's consent", async ({ page, context }) => {
  const events: string[] = [];
  page.on("request", (r) => new URL(r.url()).pathname === "/api/event" && events.push(r.url()));
  const res = await page.goto(`${base}/`);
  // Its origin is admitted; our banner is not there; the tool loaded with its settings id.
  expect(res!.headers()["content-security-policy"]).toMatch(/script-src [^;]*http:\/\/localhost:\d+/);
  await expect(page.locator("section#consent")).toHaveCount(0);
  const dialog = page.getByRole("dialog", { name: "Consent tool fake-settings-42" });
  await expect(dialog).toBeVisible();
  await waitForHydration(page);
  await page.waitForLoadState("networkidle");
  expect(events).toEqual([]);

  // Statistics allowed in the tool: stored in our cookie (a new page), and the tracker starts.
  const firstEvent = page.waitForRequest((r) => new URL(r.url()).pathname === "/api/event");
  await dialog.getByRole("button", { name: "Accept statistics" }).click();
  await firstEvent;
  const cookie = async () => (await context.cookies(base)).find((c) => c.name === "pn_consent")?.value;
  expect(await cookie()).toBe(encodeURIComponent("functional,statistic"));
  expect((await context.cookies(base)).some((c) => c.name === "pn_consent_proof")).toBe(true);
  await expect(dialog).toHaveCount(0);

  // The footer's cookie-settings link opens the tool again; "Deny" takes the choice back.
  await waitForHydration(page);
  await page.locator('footer a[href="#consent"]').click();
  await expect(dialog).toBeVisible();
  await Promise.all([page.waitForNavigation(), dialog.getByRole("button", { name: "Deny" }).click()]);
  expect(await cookie()).toBe("necessary");
});
