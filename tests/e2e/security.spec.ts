import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "./fixtures";
import { originOf } from "./helpers";

/** A page on another site (localhost vs 127.0.0.1: another host, so cross-site) that posts a form to us on load. */
async function attackerSite(html: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://localhost:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const consentCookie = async (context: import("@playwright/test").BrowserContext, baseURL: string | undefined) =>
  (await context.cookies(baseURL)).find((c) => c.name === "pn_consent");

test("a form auto-submitted from another site cannot set the consent cookie", async ({ page, baseURL }) => {
  const origin = originOf(baseURL);
  const attacker = await attackerSite(
    `<form method="post" action="${origin}/api/consent"><input name="intent" value="all"><input name="redirectTo" value="/"></form><script>document.forms[0].submit()</script>`,
  );
  try {
    const answer = page.waitForResponse((r) => r.url() === `${origin}/api/consent`);
    await page.goto(attacker.url);
    expect((await answer).status()).toBe(403);
    expect(await consentCookie(page.context(), baseURL)).toBeUndefined();
    await page.goto("/");
    await expect(page.locator("section#consent")).toBeVisible();
  } finally {
    await attacker.close();
  }
});

test("the consent form never sends the browser to another site", async ({ page, baseURL }) => {
  const origin = originOf(baseURL);
  await page.goto("/ueber-uns");
  for (const target of ["/\\evil.example", "/\t/evil.example", "//evil.example", "https://evil.example/"]) {
    // A form of the site's own page, as the banner posts it, with a hostile return address.
    await page.evaluate((redirectTo) => {
      const form = Object.assign(document.createElement("form"), { method: "post", action: "/api/consent" });
      for (const [name, value] of [["intent", "necessary"], ["redirectTo", redirectTo]]) form.append(Object.assign(document.createElement("input"), { type: "hidden", name, value }));
      document.body.append(form);
      form.submit();
    }, target);
    await page.waitForURL((url) => url.pathname === "/" || url.origin !== origin);
    expect(new URL(page.url()).origin, target).toBe(origin);
    await page.goto("/ueber-uns");
  }
});

test("an unreadable consent cookie counts as no choice, never as an error", async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: "pn_consent", value: "%E0%A4%A", url: baseURL! }]);
  for (const path of ["/", "/en", "/practitioners"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expect(page.locator("section#consent"), path).toBeVisible();
  }
});

for (const served of ["rendered", "from the page cache"] as const) {
  test(`the policy runs the page's own inline scripts and refuses one that came in through the markup (${served})`, async ({ page }) => {
    const path = `/__test/injected-script?${served === "rendered" ? "fresh" : "cached"}`;
    if (served === "from the page cache") await (await page.request.get(path)).body();
    const refused: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" && /Content Security Policy/i.test(m.text())) refused.push(m.text());
    });
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    expect(response!.headers()["x-page-cache"]).toBe(served === "rendered" ? "miss" : "hit");
    const csp = response!.headers()["content-security-policy"] ?? "";
    expect(csp).toMatch(/script-src 'self' 'sha256-/);
    // React Router's scripts ran (hydration), the injected one did not.
    await expect(page.locator("p[data-hydrated]")).toHaveAttribute("data-hydrated", "yes");
    expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
    expect(await page.title()).toBe("Test page");
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.join("\n")).toMatch(/inline script/i);
  });
}

test("a page served from the page cache hydrates under its stored policy", async ({ page }) => {
  await page.request.get("/impressum"); // into the cache
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  const response = await page.goto("/impressum");
  expect(response?.headers()["x-page-cache"]).toBe("hit");
  // Client-side navigation only works once the page's scripts ran.
  await page.evaluate(() => document.documentElement.setAttribute("data-before-navigation", "1"));
  await page.locator("header a[href='/ueber-uns'], nav a[href='/ueber-uns']").first().click();
  await expect(page).toHaveURL(/\/ueber-uns$/);
  await expect(page.locator("html")).toHaveAttribute("data-before-navigation", "1");
  expect(errors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
});
