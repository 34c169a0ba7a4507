import { expect, test, type Page, e2eDb } from "./fixtures";
import { expectNoAxeViolations, signIn } from "./admin-helpers";
import Database from "better-sqlite3";
import { waitForHydration } from "./helpers";

/** Audit entries of one item, read-only from the e2e server's SQLite file. */
function auditOf(schema: string, itemId: string): Array<{ action: string }> {
  const db = new Database(e2eDb(), { readonly: true, fileMustExist: true });
  try {
    return db.prepare("select action from audit_log where schema_name = ? and item_id = ? order by at, id").all(schema, itemId) as Array<{ action: string }>;
  } finally {
    db.close();
  }
}

/** Posts a form to an admin screen as a browser without JavaScript would (same origin, the session cookie). */
function postForm(page: Page, path: string, form: Record<string, string>) {
  return page.request.post(path, { form, headers: { Origin: new URL(page.url()).origin }, maxRedirects: 0 });
}

const isPost = (path: string) => (r: { request(): { method(): string }; url(): string }) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith(path);

test("a bad hex code shows Bad Hex while typing and is never saved; the fixed one saves with 200", async ({ page }) => {
  await signIn(page, "/manage/colors?selected=color-petrol");
  await waitForHydration(page);
  const posts: string[] = [];
  page.on("request", (r) => r.method() === "POST" && posts.push(r.url()));
  const panel = page.locator('[data-color-panel="Petrol"]');
  const hex = panel.getByLabel(/^(Hex-Code|Hex code)$/);
  await expect(hex).toHaveValue("#0F5E63");
  await hex.fill("#0f5e6");
  await expect(panel.locator('[data-field-error="hexcode"]')).toHaveText("Bad Hex");
  await expect(hex).toHaveAttribute("aria-invalid", "true");
  await panel.getByRole("button", { name: /Speichern|Save/ }).click();
  await page.waitForTimeout(300);
  expect(posts).toEqual([]);

  // The server applies the same rule (a post without JavaScript): 400, "Bad Hex", nothing stored.
  const refused = await postForm(page, "/manage/colors", { intent: "save-color", id: "color-petrol", name: "Petrol", hexcode: "#0f5e6z" });
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain("Bad Hex");
  expect(auditOf("core-theme-colors", "color-petrol")).toEqual([]);
  await page.reload();
  await waitForHydration(page);
  await expect(panel.getByLabel(/^(Hex-Code|Hex code)$/)).toHaveValue("#0F5E63");

  // The colour picker and the hex field are one value: picking writes the hex code.
  await panel.locator('[data-color-picker="hexcode"]').fill("#0f5e64");
  await expect(panel.getByLabel(/^(Hex-Code|Hex code)$/)).toHaveValue("#0f5e64");
  await expect(panel.locator('[data-field-error="hexcode"]')).toHaveCount(0);
  const [response] = await Promise.all([page.waitForResponse(isPost("/manage/colors")), panel.getByRole("button", { name: /Speichern|Save/ }).click()]);
  expect(response.status()).toBe(200);
  await expect(panel.locator('[data-save-result="ok"]')).toBeVisible();
  expect(auditOf("core-theme-colors", "color-petrol")).toEqual([{ action: "update-content" }]);
  // The tile follows the saved value.
  await expect(page.locator('[data-color="Petrol"] [data-color-hex]')).toHaveText("#0f5e64");
  await page.reload();
  await expect(panel.getByLabel(/^(Hex-Code|Hex code)$/)).toHaveValue("#0f5e64");
});

test("the theme preview shows the shades of what is typed", async ({ page }) => {
  await signIn(page, "/manage/squidex/colors");
  await waitForHydration(page);
  await page.locator("[data-theme]").first().getByRole("link").click();
  const theme = page.locator("[data-theme-editor]");
  await theme.getByLabel(/^(Hauptfarbe|Main colour)$/).fill("#000");
  const strip = theme.locator("[data-shades]").first();
  await expect(strip.locator('[data-shade="0"]')).toHaveText("#000");
  await expect(strip.locator('[data-shade="6"]')).toHaveText("#0f0f0f");
  await expect(strip.locator('[data-shade="-6"]')).toHaveText("#000000");
  await theme.getByLabel(/^(Hauptfarbe|Main colour)$/).fill("#00");
  await expect(strip).toContainText("Bad Hex");
});

test("a superuser adds a theme, previews it and deletes it after the server's question; bad pages and stale forms are refused", async ({ page }) => {
  await signIn(page, "/manage/colors");
  await waitForHydration(page);
  await page.getByRole("link", { name: /^(Neues Theme|New theme)$/ }).first().click();
  const name = `E2E Theme ${Date.now().toString(36)}`;
  const fresh = page.locator('[data-theme-editor="new"]');
  // A new theme starts from the default colours.
  await expect(fresh.getByLabel(/^(Hauptfarbe|Main colour)$/)).toHaveValue("#0f5e63");
  await fresh.getByLabel(/^Name$/).fill(name);
  await fresh.getByLabel(/^(Akzentfarbe|Accent colour)$/).fill("#123456");
  const [created] = await Promise.all([page.waitForResponse(isPost("/manage/colors")), fresh.getByRole("button", { name: /Hinzufügen|Add/ }).click()]);
  expect(created.status()).toBe(201);
  // The new theme opens in the panel, its tile in the grid.
  const theme = page.locator("[data-theme-editor]").filter({ has: page.getByRole("heading", { name }) });
  await expect(theme).toHaveCount(1);
  await expect(page.locator("[data-save-result=ok]").first()).toBeVisible();
  await expect(theme.getByLabel(/^(Akzentfarbe|Accent colour)$/)).toHaveValue("#123456");
  await expect(page.locator(`[data-theme="${name}"] a`)).toHaveAttribute("aria-current", "true");
  await expectNoAxeViolations(page);
  const id = (await theme.getAttribute("data-theme-editor"))!;
  expect(new URL(page.url()).searchParams.get("selected")).toBe(id);

  // A change without the version the editor saw would overwrite blindly: refused.
  const blind = await postForm(page, "/manage/colors", { intent: "save-theme", id, name, colorMain: "#111", colorSupport: "#222", colorAccent: "#333", colorNeutral: "#444", colorBlack: "#000", colorWhite: "#fff" });
  expect(blind.status()).toBe(400);
  expect(await blind.text()).toContain("Version");

  // A delete asks first (the server does): the question names the theme, nothing is gone yet.
  const [asked] = await Promise.all([page.waitForResponse(isPost("/manage/colors")), theme.getByRole("button", { name: /Löschen|Delete/ }).click()]);
  expect(asked.status()).toBe(200);
  const question = page.locator("[data-confirm-step]");
  await expect(question).toContainText(name);
  expect(auditOf("core-theme-settings", id).map((a) => a.action)).toEqual(["create-content"]);
  const [deleted] = await Promise.all([page.waitForResponse(isPost("/manage/colors")), question.locator("[data-confirm]").click()]);
  expect(deleted.status()).toBe(200);
  await expect(page.locator(`[data-theme="${name}"]`)).toHaveCount(0);
  await expect(page.locator('[data-save-result="ok"]')).toContainText(/Gelöscht|Deleted/);
  expect(auditOf("core-theme-settings", id).map((a) => a.action)).toEqual(["create-content", "delete-content"]);

  // Page numbers that are none were a 500.
  for (const path of ["/manage/colors?page=1e20", "/manage/colors?themes=-1", "/manage/text-styles?page=99999999999", "/manage/squidex/icons?page=abc"]) {
    const res = await page.request.get(path);
    expect(res.status(), path).toBe(400);
    expect(await res.text()).toContain("Seitenzahl");
  }
});

test("a text style with a refused class token is refused and the token named; a clean one saves and previews", async ({ page }) => {
  await signIn(page, "/manage/text-styles?selected=new");
  await waitForHydration(page);
  const form = page.locator("[data-new-text-style]");
  await form.getByLabel("Name", { exact: true }).fill("e2e-style");
  await form.getByLabel(/^(Tailwind-Klassen|Tailwind classes)$/).fill("text-2xl bg-[red] font-bold");
  await expect(form.locator('[data-field-error="twclasses"]')).toContainText("bg-[red]");

  const refused = await postForm(page, "/manage/text-styles", { intent: "save-style", name: "e2e-style", twclasses: "text-2xl bg-[red] font-bold" });
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain("bg-[red]");

  // Live preview with the classes the compiled stylesheet has (heading-1 uses text-4xl).
  const preview = form.locator("[data-text-style-preview]");
  await form.getByLabel(/^(Tailwind-Klassen|Tailwind classes)$/).fill("text-4xl font-bold");
  await expect.poll(() => preview.evaluate((el) => getComputedStyle(el).fontSize)).toBe("36px");
  await form.getByLabel(/^(Tailwind-Klassen|Tailwind classes)$/).fill("text-7xl");
  await expect(form.locator("[data-not-compiled]")).toContainText("text-7xl");

  const [response] = await Promise.all([page.waitForResponse(isPost("/manage/text-styles")), form.getByRole("button", { name: /Hinzufügen|Add/ }).click()]);
  expect(response.status()).toBe(201);
  // Opened in the panel once stored, its tile in the grid; now compiled, the preview shows it.
  const saved = page.locator('[data-text-style-panel="e2e-style"]');
  await expect(saved).toBeVisible();
  await expect(page.locator('[data-text-style="e2e-style"]')).toBeVisible();
  await expect(saved.locator("[data-not-compiled]")).toHaveCount(0);
  await expect.poll(() => saved.locator("[data-text-style-preview]").evaluate((el) => getComputedStyle(el).fontSize)).toBe("72px");
});

test("a pasted SVG with a script is stored and previewed sanitised", async ({ page }) => {
  await signIn(page, "/manage/squidex/icons?selected=new");
  await waitForHydration(page);
  const form = page.locator("[data-new-icon]");
  await form.getByLabel("Name", { exact: true }).fill("e2e-box");
  // A file is read into the code field (the file button in the admin's language, not the browser's).
  await form.getByLabel(/^(SVG-Datei hochladen …|Upload an SVG file …)$/).setInputFiles({ name: "box.svg", mimeType: "image/svg+xml", buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><path d="M1 1h2v2H1z"/></svg>') });
  await expect(form.getByLabel(/^(SVG-Code|SVG code)$/)).toHaveValue(/M1 1h2v2H1z/);
  await expect(form).toContainText("box.svg");
  await form
    .getByLabel(/^(SVG-Code|SVG code)$/)
    .fill('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><script>window.__iconScript = 1</script><path d="M2 2h20v20H2z" onload="window.__iconScript = 2"/></svg>');
  const [response] = await Promise.all([page.waitForResponse(isPost("/manage/squidex/icons")), form.getByRole("button", { name: /Hinzufügen|Add/ }).click()]);
  expect(response.status()).toBe(201);
  const panel = page.locator('[data-icon-panel="e2e-box"]');
  await expect(panel).toBeVisible();
  await expect(page.locator('[data-save-result="ok"]').first()).toContainText(/bereinigt|cleaned/);
  await expect(panel.locator("[data-icon-preview] svg path")).toHaveCount(1);
  await expect(page.locator('[data-icon="e2e-box"] [data-icon-preview] svg path')).toHaveCount(1);
  const stored = await panel.getByLabel(/^(SVG-Code|SVG code)$/).inputValue();
  expect(stored).toContain("<path");
  expect(stored).not.toMatch(/script|onload/i);
  expect(await page.evaluate(() => (window as { __iconScript?: number }).__iconScript)).toBeUndefined();

  // Something with nothing drawable left is refused with a message.
  const refused = await postForm(page, "/manage/squidex/icons", { intent: "save-icon", name: "bad", svg: "<svg><script>alert(1)</script></svg>" });
  expect(refused.status()).toBe(400);

  // A superuser deletes it, after the server's question.
  await panel.getByRole("button", { name: /Löschen|Delete/ }).click();
  const [deleted] = await Promise.all([page.waitForResponse(isPost("/manage/squidex/icons")), page.locator("[data-confirm-step] [data-confirm]").click()]);
  expect(deleted.status()).toBe(200);
  await expect(page.locator('[data-icon="e2e-box"]')).toHaveCount(0);
});

test("a delete without the confirmation (a script, no JavaScript) only gets the question back", async ({ page }) => {
  await signIn(page, "/manage/text-styles");
  const asked = await postForm(page, "/manage/text-styles?selected=text-small", { intent: "delete-style", id: "text-small" });
  expect(asked.status()).toBe(200);
  expect(await asked.text()).toContain("„small“ wirklich löschen?");
  expect(auditOf("core-text-styles", "text-small")).toEqual([]);
  await page.goto("/manage/text-styles");
  await expect(page.locator('[data-text-style="small"]')).toBeVisible();

  // The question's button posts the same again with confirmed=yes: then it is gone (a document post, as without JavaScript).
  expect((await postForm(page, "/manage/colors", { intent: "save-color", name: "E2E Weg", hexcode: "#123" })).status()).toBe(201);
  const db = new Database(e2eDb(), { readonly: true, fileMustExist: true });
  const { id } = db.prepare("select id from contents where schema_name = 'core-theme-colors' and data like '%E2E Weg%'").get() as { id: string };
  db.close();
  const question = await postForm(page, `/manage/colors?selected=${id}`, { intent: "delete-color", id });
  expect(await question.text()).toContain("„E2E Weg“ wirklich löschen?");
  const gone = await postForm(page, "/manage/colors", { intent: "delete-color", id, confirmed: "yes" });
  expect(gone.status()).toBe(200);
  expect(await gone.text()).toContain("Gelöscht.");
  expect(auditOf("core-theme-colors", id).map((a) => a.action)).toEqual(["create-content", "delete-content"]);
});

/** The grids, at a laptop's width and a tablet's: short pages, search, a panel per entry. */
const GRIDS = [
  { path: "/manage/squidex/icons", tile: "[data-icon]", attr: "data-icon", name: "loader", search: "load", panel: "[data-icon-panel]" },
  { path: "/manage/colors", tile: "[data-color]", attr: "data-color", name: "Petrol", search: "petr", panel: "[data-color-panel]" },
  { path: "/manage/text-styles", tile: "[data-text-style]", attr: "data-text-style", name: "heading-2", search: "HEADING-2", panel: "[data-text-style-panel]" },
];

for (const grid of GRIDS) {
  test(`${grid.path}: a short grid that filters as you type, and a tile opens its panel`, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, grid.path);
    await waitForHydration(page);
    // Icons were 8 867 px tall, colours 4 595, text styles 3 741 (issue 22, point 8).
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(2500);
    const tiles = page.locator(grid.tile);
    expect(await tiles.count()).toBeGreaterThan(1);
    // No SVG code or edit form per tile: the only form fields are the search's.
    await expect(page.locator("main textarea")).toHaveCount(0);

    await page.getByRole("searchbox").fill(grid.search);
    await expect(tiles).toHaveCount(1);
    await expect(tiles.first()).toHaveAttribute(grid.attr, grid.name);
    await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe(grid.search);
    await tiles.first().getByRole("link").click();
    await expect(page.locator(grid.panel)).toHaveAttribute(`${grid.attr}-panel`, grid.name);
    await expect(page.locator(`${grid.tile} a[aria-current=true]`)).toHaveCount(1);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height).toBeLessThan(2500);
    await page.getByRole("link", { name: /^(Schließen|Close)$/ }).click();
    await expect(page.locator(grid.panel)).toHaveCount(0);
    await expect(page.getByRole("searchbox")).toHaveValue(grid.search);
  });

  test(`${grid.path}: search and panel work without JavaScript`, async ({ page: signedIn, browser, baseURL }) => {
    await signIn(signedIn, grid.path);
    // The signed-in session, in a browser without JavaScript.
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL, storageState: await signedIn.context().storageState() });
    const page = await context.newPage();
    await page.goto(grid.path);
    await page.getByRole("searchbox").fill(grid.search);
    await page.getByRole("button", { name: /^(Suchen|Search)$/ }).click();
    await expect(page.locator(grid.tile)).toHaveCount(1);
    await page.locator(grid.tile).getByRole("link").click();
    await expect(page.locator(grid.panel)).toBeVisible();
    expect(new URL(page.url()).searchParams.get("q")).toBe(grid.search);
    await context.close();
  });

  test(`${grid.path} at 820 px: nothing cut off, the panel's actions in reach`, async ({ page }) => {
    await page.setViewportSize({ width: 820, height: 1180 });
    await signIn(page, grid.path);
    await waitForHydration(page);
    await page.locator(grid.tile).first().getByRole("link").click();
    await expect(page.locator(grid.panel)).toBeVisible();
    // No sideways scrolling, and every button of the panel lies inside the window's width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(820);
    const buttons = page.locator(`${grid.panel} button, ${grid.panel} a`);
    for (const box of await buttons.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as DOMRect))) {
      expect(box.left).toBeGreaterThanOrEqual(0);
      expect(box.right).toBeLessThanOrEqual(820);
    }
    await expectNoAxeViolations(page);
  });
}

for (const path of ["/manage/colors", "/manage/squidex/colors", "/manage/text-styles", "/manage/squidex/icons", "/manage/tailwind", "/manage/plausible"]) {
  test(`axe finds nothing on ${path}`, async ({ page }) => {
    await signIn(page, path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectNoAxeViolations(page);
  });
}

test("the analytics screen is the dashboard, no longer a placeholder", async ({ page }) => {
  await signIn(page, "/manage/plausible");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Statistik (Plausible)");
  await expect(page.locator("main")).not.toContainText(/nicht eingerichtet|not configured/);
});
