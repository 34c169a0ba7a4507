import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "./fixtures";
import { expectNoAxeViolations, signIn } from "./admin-helpers";
import { waitForFormEngine, waitForHydration } from "./helpers";

/**
 * Waits until the service worker is active and controls this page (it claims open pages on
 * activation), and until the page's PWA code says it is offline-ready (its listeners, the install
 * offer's among them, are attached by then: the code is a chunk loaded after hydration).
 */
async function controlled(page: Page): Promise<string> {
  await waitForHydration(page);
  const scope = await page.evaluate(() => navigator.serviceWorker.ready.then((r) => r.scope));
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  await expect.poll(() => page.evaluate(() => (window as { praxisnetzPwa?: { offlineReady: boolean } }).praxisnetzPwa?.offlineReady === true)).toBe(true);
  return scope;
}

/** Every URL in every cache the worker keeps, read in the page. */
function cachedUrls(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname + new URL(req.url).search);
    return urls;
  });
}

/** A synthetic install offer, as Chromium sends one when the site is installable. */
async function offerInstall(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const offer = Object.assign(new Event("beforeinstallprompt", { cancelable: true }), {
      prompt: async () => {},
      userChoice: Promise.resolve({ outcome: "dismissed" }),
    });
    window.dispatchEvent(offer);
    return offer.defaultPrevented;
  });
}

test.describe("PWA", () => {
  test("the worker registers at /sw.js with scope / and precaches both offline pages and the pages marked critical", async ({ page, baseURL }) => {
    await page.goto("/practitioners");
    expect(await controlled(page)).toBe(`${baseURL}/`);
    // The home page is marked critical in the demo content: kept in both languages without a visit.
    const critical = (await (await page.request.get("/pwa/critical.json")).json()) as { paths: string[] };
    expect(critical.paths).toEqual(expect.arrayContaining(["/", "/en"]));
    await expect.poll(() => cachedUrls(page)).toEqual(expect.arrayContaining(["/", "/en"]));
    const urls = await cachedUrls(page);
    expect(urls).toEqual(expect.arrayContaining(["/offline", "/en/offline"]));
    expect(urls.some((u) => u.startsWith("/assets/entry.client-"))).toBe(true);
    const sw = await page.request.get("/sw.js");
    expect(sw.headers()["cache-control"]).toBe("no-cache");
  });

  test("offline: a visited page reloads from the cache, an unvisited one shows the offline page in its language", async ({ page, context }) => {
    await page.goto("/");
    await controlled(page);
    await page.goto("/practitioners");
    const heading = await page.locator("h1").first().innerText();
    await context.setOffline(true);
    try {
      await page.reload();
      await expect(page.locator("h1").first()).toHaveText(heading);
      await page.goto("/en/never-visited-page");
      await expect(page.locator("[data-offline-page]")).toHaveAttribute("data-offline-page", "en");
      await expect(page.locator("h1")).toHaveText("You are offline");
      await page.goto("/nie-besucht");
      await expect(page.locator("html")).toHaveAttribute("lang", "de");
      await expect(page.locator("h1")).toHaveText("Sie sind offline");
    } finally {
      await context.setOffline(false);
    }
  });

  test("offline: a link followed in the page (no new document) shows a visited page from the cache, an unvisited one the offline page", async ({ page, context }) => {
    await page.goto("/");
    await controlled(page);
    const nav = page.getByRole("navigation", { name: "Hauptnavigation" });
    const [visited, unvisited] = await nav.locator("a").evaluateAll((links) => links.map((a) => a.getAttribute("href")!).filter((href) => href !== "/"));
    expect(visited && unvisited).toBeTruthy();
    await page.goto(visited!);
    const heading = await page.locator("h1").first().innerText();
    await page.goto("/");
    await waitForHydration(page);
    await context.setOffline(true);
    try {
      await nav.locator(`a[href="${visited}"]`).click();
      await expect(page).toHaveURL(new RegExp(`${visited}$`));
      await expect(page.locator("h1").first()).toHaveText(heading);
      await page.goBack();
      await expect(page.locator("h1").first()).not.toHaveText(heading);
      await waitForHydration(page);
      await nav.locator(`a[href="${unvisited}"]`).click();
      await expect(page).toHaveURL(new RegExp(`${unvisited}$`));
      await expect(page.locator("[data-offline-page]")).toHaveAttribute("data-offline-page", "de");
      await expect(page.locator("h1")).toHaveText("Sie sind offline");
    } finally {
      await context.setOffline(false);
    }
  });

  test("the offline pages are accessible (axe) in both languages", async ({ page }) => {
    for (const path of ["/offline", "/en/offline"]) {
      await page.goto(path);
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`), path).toEqual([]);
    }
  });

  test("a form sent offline keeps its input and says so", async ({ page, context }) => {
    await page.goto("/");
    await controlled(page);
    await page.goto(`/newsletter/${encodeURIComponent("offline-pwa@example.org")}`);
    await waitForFormEngine(page);
    const form = page.locator("form[data-form]").first();
    const email = form.locator('input[type="email"]');
    await email.fill("offline-kept@example.org");
    await context.setOffline(true);
    try {
      await form.getByRole("button", { name: "Anmelden" }).click();
      await expect(form.locator("[data-offline-notice]")).toHaveText(/^Sie sind offline\. Ihre Eingaben bleiben erhalten/);
      await expect(email).toHaveValue("offline-kept@example.org");
      expect(new URL(page.url()).pathname).toBe(`/newsletter/${encodeURIComponent("offline-pwa@example.org")}`);
    } finally {
      await context.setOffline(false);
    }
  });

  test("the install prompt is ours, in the page's language, and its dismissal lasts", async ({ page }) => {
    await page.goto("/en");
    await controlled(page);
    expect(await offerInstall(page)).toBe(true);
    const prompt = page.locator("[data-install-prompt]");
    await expect(prompt.getByRole("heading")).toHaveText("Install as an app");
    await expectNoAxeViolations(page);
    await prompt.getByRole("button", { name: "No, thanks" }).click();
    await expect(prompt).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem("pn-install-dismissed"))).toBe("1");

    await page.goto("/");
    await controlled(page);
    const chunks: string[] = [];
    page.on("request", (r) => r.url().includes("/install-prompt-") && chunks.push(r.url()));
    // Still taken (the browser's own banner stays away), but ours is not even loaded.
    expect(await offerInstall(page)).toBe(true);
    await page.waitForLoadState("networkidle");
    await expect(prompt).toHaveCount(0);
    expect(chunks).toEqual([]);
  });

  test("a newer build and two failed chunks reload the page exactly once", async ({ page }) => {
    await page.route("**/builds/latest.json", (route) => route.fulfill({ json: { id: "a-newer-build" }, headers: { "cache-control": "no-cache" } }));
    await page.goto("/");
    await controlled(page);
    let navigations = 0;
    page.on("framenavigated", (frame) => frame === page.mainFrame() && navigations++);
    const reloaded = page.waitForEvent("framenavigated", { timeout: 10_000 });
    await page.evaluate(() => {
      for (let i = 0; i < 2; i++) window.dispatchEvent(new Event("vite:preloadError", { cancelable: true }));
      window.dispatchEvent(new Event("focus"));
    });
    await reloaded;
    await controlled(page);
    // The guard outlived the reload: more failures and the newer build within 10 s reload nothing.
    await page.evaluate(() => {
      (window as unknown as { stayed: boolean }).stayed = true;
      window.dispatchEvent(new Event("vite:preloadError", { cancelable: true }));
      window.dispatchEvent(new Event("focus"));
    });
    await page.waitForLoadState("networkidle");
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    expect(navigations).toBe(1);
    expect(await page.evaluate(() => Number(sessionStorage.getItem("pn-reload-at")))).toBeGreaterThan(0);
  });

  test("a newer build alone reloads the page when the window gets focus again; the same build does not", async ({ page }) => {
    await page.goto("/");
    await controlled(page);
    const own = await page.evaluate(() => (window as unknown as { __reactRouterManifest: { version: string } }).__reactRouterManifest.version);
    expect(await (await page.request.get("/builds/latest.json")).json()).toEqual({ id: own });
    expect((await page.request.get(`/builds/meta/${own}.json`)).status()).toBe(200);
    expect((await page.request.get("/builds/meta/not-a-build.json")).status()).toBe(404);
    await page.evaluate(() => {
      (window as unknown as { stayed: boolean }).stayed = true;
      window.dispatchEvent(new Event("focus"));
    });
    await page.waitForLoadState("networkidle");
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);

    await page.route("**/builds/latest.json", (route) => route.fulfill({ json: { id: "a-newer-build" } }));
    const reloaded = page.waitForEvent("framenavigated", { timeout: 10_000 });
    await page.evaluate(() => window.dispatchEvent(new Event("focus")));
    await reloaded;
  });

  test("a newer build does not reload over a form with unsent input", async ({ page }) => {
    await page.goto("/");
    await controlled(page);
    await page.goto(`/newsletter/${encodeURIComponent("reload-wait@example.org")}`);
    await waitForFormEngine(page);
    const email = page.locator("form[data-form]").first().locator('input[type="email"]');
    await email.fill("typed-not-sent@example.org");
    await page.route("**/builds/latest.json", (route) => route.fulfill({ json: { id: "a-newer-build" } }));
    await page.evaluate(() => {
      (window as unknown as { stayed: boolean }).stayed = true;
      window.dispatchEvent(new Event("focus"));
      window.dispatchEvent(new Event("vite:preloadError", { cancelable: true }));
    });
    await page.waitForLoadState("networkidle");
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    await expect(email).toHaveValue("typed-not-sent@example.org");
    // Nothing was claimed either: the reload is still to come once the form is sent or left.
    expect(await page.evaluate(() => sessionStorage.getItem("pn-reload-at"))).toBeNull();
  });

  test("a new worker version takes over and the page reloads once onto it", async ({ page }) => {
    await page.goto("/");
    await controlled(page);
    const first = await page.evaluate(() => navigator.serviceWorker.controller!.scriptURL);
    let navigations = 0;
    page.on("framenavigated", (frame) => frame === page.mainFrame() && navigations++);
    const reloaded = page.waitForEvent("framenavigated", { timeout: 10_000 });
    // The next version of the worker, as a deployment brings one (Playwright cannot route the worker's
    // own script, so the new version comes under a new script URL for the same scope).
    await page.evaluate(() => navigator.serviceWorker.register("/sw.js?next", { scope: "/" }));
    await reloaded;
    await controlled(page);
    await page.waitForLoadState("networkidle");
    expect(navigations).toBe(1);
    // (The reloaded page registers /sw.js again, one more takeover here: the guard keeps it to one reload.)
    expect(first).toMatch(/\/sw\.js$/);
  });

  test("a signed-in editor's pages never reach the worker's caches", async ({ page }) => {
    await signIn(page, "/manage/pages");
    await page.goto("/");
    await controlled(page);
    await page.goto("/manage/pages");
    await page.goto("/practitioners");
    await waitForHydration(page);
    const response = await page.request.get("/practitioners");
    expect(response.headers()["cache-control"]).toContain("no-store");
    const urls = await cachedUrls(page);
    expect(urls.filter((u) => /^\/(manage|login|api)/.test(u))).toEqual([]);
    // Public pages seen signed in are kept neither: their answers were private.
    expect(urls.filter((u) => u === "/" || u.startsWith("/practitioners"))).toEqual([]);
  });
});
