import AxeBuilder from "@axe-core/playwright";
import { expect, type Browser, type BrowserContext, type Page } from "./fixtures";
import { waitForFormEngine, waitForHydration } from "./helpers";

/** The demo superuser the e2e server creates on its fresh store (app/auth/auth.server.ts DEMO_ADMIN). */
export const DEMO_ADMIN = { email: "admin@praxisnetz.localhost", password: "praxisnetz-demo" };

/** Signs in through the real login form and waits for the admin layout. */
export async function signIn(page: Page, redirect = "/manage", who = DEMO_ADMIN): Promise<void> {
  await page.goto(`/login?redirect=${encodeURIComponent(redirect)}`);
  // Typed only once the form engine is attached (typing during hydration can be lost).
  await waitForFormEngine(page);
  await page.getByLabel(/E-Mail-Adresse|Email address/).fill(who.email);
  await page.getByLabel(/^(Passwort|Password)/).fill(who.password);
  await page.getByRole("button", { name: /Anmelden|Sign in/ }).click();
  await page.waitForURL((url) => url.pathname === redirect.split("?")[0]);
  await expect(page.locator("[data-admin-layout]")).toBeVisible();
}

type Violation = Awaited<ReturnType<AxeBuilder["analyze"]>>["violations"][number];

/** Runs axe (all rules) on the current, hydrated page; fails with one line per violation and node. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  await waitForHydration(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  const text = (violations as Violation[])
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(" ")}`).join("\n")}`)
    .join("\n");
  expect(text, `axe violations on ${page.url()}`).toBe("");
}

/**
 * An editor (no superuser) made the way people are: `page` (signed in as the superuser) invites
 * them on /manage/users, they set a password through the link in a context of their own and sign
 * in, landing on `landing`. The caller closes the returned context.
 */
export async function inviteEditor(page: Page, browser: Browser, baseURL: string | undefined, label: string, landing = "/manage"): Promise<{ context: BrowserContext; editor: Page; email: string; password: string }> {
  await page.goto("/manage/users");
  const email = `${label}-${Date.now()}@example.org`;
  const password = "ein-gutes-passwort";
  await page.getByLabel(/E-Mail-Adresse|Email address/).fill(email);
  await page.getByRole("button", { name: /Einladen|Invite/ }).click();
  await expect(page.locator("[data-save-result=ok]")).toContainText(email);
  const link = new URL((await page.locator("[data-set-password-link]").textContent())!);
  const context = await browser.newContext({ baseURL });
  const editor = await context.newPage();
  await editor.goto(link.pathname + link.search);
  await waitForFormEngine(editor);
  await editor.getByLabel(/Neues Passwort|New password/).fill(password);
  await editor.getByLabel(/Passwort wiederholen|Repeat password/).fill(password);
  await editor.getByRole("button", { name: /Passwort speichern|Save password/ }).click();
  await editor.waitForURL("**/login?password=set");
  await signIn(editor, landing, { email, password });
  return { context, editor, email, password };
}

/** The admin's fixed screens (every menu entry): walked by the axe and the language tests. */
export const ADMIN_SCREENS = [
  "/manage",
  "/manage/pages",
  "/manage/blocks",
  "/manage/squidex/icons",
  "/manage/squidex/colors",
  "/manage/colors",
  "/manage/text-styles",
  "/manage/content",
  "/manage/registrations",
  "/manage/appointments",
  "/manage/outbox",
  "/manage/squidex-assets",
  "/manage/tailwind",
  "/manage/plausible",
  "/manage/users",
  "/manage/audit",
  "/manage/account",
] as const;
