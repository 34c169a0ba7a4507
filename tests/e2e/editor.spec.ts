import { expect, test, type Browser, type Page } from "./fixtures";
import { expectNoAxeViolations, inviteEditor, signIn } from "./admin-helpers";
import { waitForHydration } from "./helpers";

/**
 * Edit mode (issue 21): the visual page editor on the live page, driven as editors drive it. Every
 * test works on pages it creates, so the demo pages other specs read stay as they are.
 */

let counter = 0;
/** A new draft page made through /manage/pages; returns its German path. */
async function newPage(page: Page, title = `Editor ${Date.now()}-${++counter}`): Promise<{ title: string; path: string }> {
  await page.goto("/manage/pages");
  const create = page.locator("form").filter({ has: page.getByRole("heading", { name: /Neue Seite|New page/ }) });
  await create.getByLabel(/^(Titel|Title)$/).fill(title);
  await create.getByRole("button", { name: /Anlegen|Create/ }).click();
  // The list is paged (newest may be on another page): the notice names the new page.
  await expect(page.locator("[data-save-result=ok]")).toContainText(title);
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  return { title, path: `/${slug}` };
}

async function openEditor(page: Page, path: string): Promise<void> {
  await page.goto(`${path}?edit=1`);
  await expect(page.locator("[data-editor-root][data-editor-ready='1']")).toBeVisible();
}

const canvasBlocks = (page: Page) => page.locator("[data-canvas] [data-block-id]");
const saved = (page: Page) => expect(page.locator("[data-save-state]")).toHaveAttribute("data-save-state", "saved", { timeout: 10_000 });
const fields = (page: Page) => page.getByRole("region", { name: /^(Felder|Fields)$/ });

/** Inserts a block from the palette by clicking it; it becomes the active block. */
async function insertFromPalette(page: Page, label: string) {
  const before = await canvasBlocks(page).count();
  await page.locator("[data-palette-item]").filter({ hasText: label }).first().click();
  await expect(canvasBlocks(page)).toHaveCount(before + 1);
}

async function blockIds(page: Page, scope = "[data-canvas] > div > [data-drop-list] > [data-block-id]") {
  return page.locator(scope).evaluateAll((els) => els.map((e) => e.getAttribute("data-block-id")!));
}

async function visitor(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL });
  return { context, page: await context.newPage() };
}

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test("a new page from nothing, in both languages, published with the mouse", async ({ page, browser, baseURL }) => {
  const { path } = await newPage(page);
  await page.getByRole("link", { name: /Bearbeiten|Edit/ }).first().waitFor({ state: "attached" }).catch(() => {});
  await openEditor(page, path);
  // A draft-only page opens in edit mode; visitors still get 404.
  await expect(page.locator("[data-page-state]")).toHaveAttribute("data-page-state", "Draft");
  await expect(page.getByText("Diese Seite hat in dieser Sprache noch keine Blöcke")).toBeVisible();
  await insertFromPalette(page, "Handlungsaufforderung");
  const block = canvasBlocks(page).first();
  await expect(block).toHaveAttribute("data-block", "block-cta");
  await expect(block).toHaveAttribute("aria-current", "true");
  await fields(page).getByLabel("Überschrift").fill("Willkommen in der Praxis");
  await expect(block).toContainText("Willkommen in der Praxis");

  await page.getByRole("button", { name: "Englisch", exact: true }).click();
  await expect(page.locator("[data-canvas]")).toHaveAttribute("lang", "en");
  await expect(canvasBlocks(page)).toHaveCount(0);
  await insertFromPalette(page, "Handlungsaufforderung");
  await fields(page).getByLabel("Überschrift").fill("Welcome to the practice");
  await saved(page);
  await page.getByRole("button", { name: "Veröffentlichen" }).click();
  await expect(page.locator("[data-page-state]")).toHaveAttribute("data-page-state", "Published");

  const v = await visitor(browser, baseURL);
  await v.page.goto(path);
  await expect(v.page.locator("main")).toContainText("Willkommen in der Praxis");
  await v.page.goto(`/en${path}`);
  await expect(v.page.locator("main")).toContainText("Welcome to the practice");
  // Visitors never get the editor, not even by asking for it.
  await v.page.goto(`${path}?edit=1`);
  await expect(v.page).toHaveURL(/\/login\?redirect=/);
  await v.context.close();
});

test("a new page built and published with the keyboard only", async ({ page, browser, baseURL }) => {
  const { path } = await newPage(page);
  await openEditor(page, path);
  const add = page.getByLabel("Block hinzufügen");
  await add.focus();
  await page.keyboard.press("ArrowDown"); // the first component of the list
  await add.selectOption({ label: "Handlungsaufforderung" });
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Hinzufügen" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(canvasBlocks(page)).toHaveCount(1);
  const heading = fields(page).getByLabel("Überschrift");
  await heading.focus();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("Mit der Tastatur gebaut");
  await expect(canvasBlocks(page).first()).toContainText("Mit der Tastatur gebaut");
  // A second block, then reorder it with Alt+↑ from the canvas.
  await add.focus();
  await add.selectOption({ label: "Akkordeon" });
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await expect(canvasBlocks(page)).toHaveCount(2);
  const [first, second] = await blockIds(page);
  await page.locator(`[data-block-id="${second}"]`).focus();
  await page.keyboard.press("Alt+ArrowUp");
  await expect.poll(() => blockIds(page)).toEqual([second, first]);
  await expect(page.locator(`[data-block-id="${second}"]`)).toBeFocused();
  await saved(page);
  const publish = page.getByRole("button", { name: "Veröffentlichen" });
  await publish.focus();
  await page.keyboard.press("Enter");
  await expect(page.locator("[data-page-state]")).toHaveAttribute("data-page-state", "Published");
  const v = await visitor(browser, baseURL);
  await v.page.goto(path);
  await expect(v.page.locator("main")).toContainText("Mit der Tastatur gebaut");
  await v.context.close();
});

test("adding without choosing a component asks for one", async ({ page }) => {
  const { path } = await newPage(page);
  await openEditor(page, path);
  await page.getByRole("button", { name: "Hinzufügen" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Bitte wählen Sie eine Komponente aus." })).toBeVisible();
  await expect(canvasBlocks(page)).toHaveCount(0);
});

test("reorder by dragging a block's handle with the mouse", async ({ page }) => {
  const { path } = await newPage(page);
  await openEditor(page, path);
  for (const label of ["Handlungsaufforderung", "Akkordeon", "Bild"]) await insertFromPalette(page, label);
  const [a, b, c] = await blockIds(page);
  // Drag the last block above the first.
  await page.locator(`[data-block-id="${c}"]`).click({ position: { x: 10, y: 10 } });
  const handle = page.locator(`[data-block-id="${c}"] [data-drag-handle]`);
  const from = (await handle.boundingBox())!;
  const to = (await page.locator(`[data-block-id="${a}"]`).boundingBox())!;
  await page.mouse.move(from.x + 5, from.y + 5);
  await page.mouse.down();
  await page.mouse.move(from.x + 5, from.y + 30, { steps: 5 });
  await expect(page.locator("[data-editor-root]")).toHaveAttribute("data-dragging", "true");
  await page.mouse.move(to.x + 40, to.y + 5, { steps: 10 });
  await page.mouse.up();
  await expect.poll(() => blockIds(page)).toEqual([c, a, b]);
  await expect(page.locator("[data-editor-root]")).toHaveAttribute("data-dragging", "false");
  // Undo puts it back.
  await page.getByRole("button", { name: "Rückgängig" }).click();
  await expect.poll(() => blockIds(page)).toEqual([a, b, c]);
});

test("a block dragged far up is taken out and put back alone: the blocks between stay put, it keeps the focus and the selection", async ({ page }) => {
  const { path } = await newPage(page);
  await openEditor(page, path);
  for (const label of ["Handlungsaufforderung", "Akkordeon", "Bild", "Handlungsaufforderung", "Akkordeon", "Bild", "Handlungsaufforderung"]) await insertFromPalette(page, label);
  const ids = await blockIds(page);
  const last = ids.at(-1)!;
  await saved(page);
  await page.locator(`[data-block-id="${last}"]`).click({ position: { x: 10, y: 10 } });
  await fields(page).getByLabel("Überschrift", { exact: true }).fill("Weit nach oben");
  await saved(page);
  const handle = page.locator(`[data-block-id="${last}"] [data-drag-handle]`);
  await handle.scrollIntoViewIfNeeded();
  // Counts the blocks the drop takes out of the page (React would move the six between one by one).
  await page.evaluate(() => {
    const w = window as unknown as { __removed: number; __watch: MutationObserver };
    w.__removed = 0;
    w.__watch = new MutationObserver((records) => {
      for (const r of records) for (const n of r.removedNodes) if (n instanceof HTMLElement && n.matches("[data-block-id]")) w.__removed++;
    });
    w.__watch.observe(document.querySelector("[data-canvas]")!, { childList: true, subtree: true });
  });
  const from = (await handle.boundingBox())!;
  await page.mouse.move(from.x + 5, from.y + 5);
  await page.mouse.down();
  await page.mouse.move(from.x + 5, from.y - 30, { steps: 5 });
  await expect(page.locator("[data-editor-root]")).toHaveAttribute("data-dragging", "true");
  // The canvas scrolled to its top while the button is held (as a wheel would).
  await page.locator("[data-canvas-scroller]").evaluate((el) => (el.scrollTop = 0));
  const to = (await page.locator(`[data-block-id="${ids[0]}"]`).boundingBox())!;
  await page.mouse.move(to.x + 40, to.y + 5, { steps: 10 });
  await expect(page.locator("[data-drop-indicator]")).toBeVisible();
  // Nothing on the page gets selected while dragging.
  expect(await page.evaluate(() => window.getSelection()?.toString() ?? "")).toBe("");
  await page.mouse.up();
  await expect.poll(() => blockIds(page)).toEqual([last, ...ids.slice(0, -1)]);
  expect(await page.evaluate(() => (window as unknown as { __removed: number }).__removed)).toBe(1);
  // The moved block is the same block: still chosen, its text shown, and the focus is in it.
  const moved = page.locator(`[data-block-id="${last}"]`);
  await expect(moved).toHaveAttribute("aria-current", "true");
  await expect(moved).toContainText("Weit nach oben");
  expect(await page.evaluate((id) => document.activeElement?.closest("[data-block-id]")?.getAttribute("data-block-id"), last)).toBe(last);
  await saved(page);
  await page.getByRole("button", { name: "Rückgängig" }).click();
  await expect.poll(() => blockIds(page)).toEqual(ids);
  await expect(page.locator(`[data-block-id="${last}"]`)).toContainText("Weit nach oben");
});

test.describe("on a touch screen", () => {
  test.use({ hasTouch: true });

  test("reorder by dragging a block's handle with a finger", async ({ page }) => {
    const { path } = await newPage(page);
    await openEditor(page, path);
    for (const label of ["Handlungsaufforderung", "Akkordeon", "Bild"]) await insertFromPalette(page, label);
    const [a, b, c] = await blockIds(page);
    await page.locator(`[data-block-id="${c}"]`).tap({ position: { x: 10, y: 10 } });
    await expect(page.locator(`[data-block-id="${c}"]`)).toHaveAttribute("aria-current", "true");
    const from = (await page.locator(`[data-block-id="${c}"] [data-drag-handle]`).boundingBox())!;
    const to = (await page.locator(`[data-block-id="${a}"]`).boundingBox())!;
    // Real touch input through the browser's input pipeline (touch events become pointer events).
    const cdp = await page.context().newCDPSession(page);
    const touch = (type: "touchStart" | "touchMove" | "touchEnd", x: number, y: number) =>
      cdp.send("Input.dispatchTouchEvent", { type, touchPoints: type === "touchEnd" ? [] : [{ x: Math.round(x), y: Math.round(y) }] });
    await touch("touchStart", from.x + 5, from.y + 5);
    for (let i = 1; i <= 5; i++) await touch("touchMove", from.x + 5, from.y + 5 + i * 6);
    await expect(page.locator("[data-editor-root]")).toHaveAttribute("data-dragging", "true");
    for (let i = 1; i <= 10; i++) await touch("touchMove", from.x + 5 + ((to.x + 40 - from.x - 5) * i) / 10, from.y + 35 + ((to.y + 5 - from.y - 35) * i) / 10);
    await touch("touchEnd", to.x + 40, to.y + 5);
    await expect.poll(() => blockIds(page)).toEqual([c, a, b]);
    await expect(page.locator("[data-editor-root]")).toHaveAttribute("data-dragging", "false");
  });
});

test("phone and tablet previews lay blocks out as those screens do", async ({ page }) => {
  const { path } = await newPage(page);
  await openEditor(page, path);
  await insertFromPalette(page, "Handlungsaufforderung");
  // The call to action puts its text and button side by side from tablet width on.
  const row = page.locator("[data-canvas] [data-block='block-cta'] [data-block-body] div.flex").first();
  const direction = () => row.evaluate((el) => getComputedStyle(el).flexDirection);
  const widths = page.getByRole("group", { name: /Vorschau-Breite|Preview width/ });
  await expect.poll(direction).toBe("row");
  await widths.getByRole("button", { name: "Telefon" }).click();
  await expect(page.locator("[data-canvas]")).toHaveAttribute("data-preview", "phone");
  await expect.poll(direction).toBe("column");
  expect(Math.round((await page.locator("[data-canvas]").boundingBox())!.width)).toBe(390);
  await widths.getByRole("button", { name: "Tablet" }).click();
  await expect.poll(direction).toBe("row");
  await widths.getByRole("button", { name: "Desktop" }).click();
  await expect(page.locator("[data-canvas]")).not.toHaveAttribute("data-preview", /./);
  await expect.poll(direction).toBe("row");
});

test("a block dragged into a section's column, and out again", async ({ page }) => {
  const { path } = await newPage(page);
  await openEditor(page, path);
  await insertFromPalette(page, "Abschnitt");
  const [section] = await blockIds(page);
  // With the empty section active, a new block would go into it: none active, it goes to the page's end.
  await page.keyboard.press("Escape");
  await expect(page.locator("[data-canvas] [aria-current=true]")).toHaveCount(0);
  await insertFromPalette(page, "Handlungsaufforderung");
  const ids = await blockIds(page);
  const cta = ids.find((id) => id !== section)!;
  expect(ids).toEqual([section, cta]);
  await page.locator(`[data-block-id="${cta}"]`).click({ position: { x: 10, y: 10 } });
  const handle = (await page.locator(`[data-block-id="${cta}"] [data-drag-handle]`).boundingBox())!;
  const target = (await page.locator(`[data-block-id="${section}"] [data-drop-list]`).boundingBox())!;
  await page.mouse.move(handle.x + 5, handle.y + 5);
  await page.mouse.down();
  await page.mouse.move(handle.x + 5, handle.y + 40, { steps: 5 });
  await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, { steps: 10 });
  await page.mouse.up();
  await expect(page.locator(`[data-block-id="${section}"] [data-block-id="${cta}"]`)).toBeVisible();
  await expect.poll(() => blockIds(page)).toEqual([section]);
  // The outline shows it nested.
  await page.getByRole("tab", { name: "Gliederung" }).click();
  await expect(page.locator(`li:has([data-outline-id="${section}"]) ul [data-outline-id="${cta}"]`)).toBeVisible();
  // Out again: dropped on the section's lower edge, it lands after the section on the page.
  await page.locator(`[data-block-id="${cta}"]`).click({ position: { x: 10, y: 10 } });
  const inner = (await page.locator(`[data-block-id="${cta}"] [data-drag-handle]`).boundingBox())!;
  const box = (await page.locator(`[data-block-id="${section}"]`).boundingBox())!;
  await page.mouse.move(inner.x + 5, inner.y + 5);
  await page.mouse.down();
  await page.mouse.move(inner.x + 5, inner.y + 40, { steps: 5 });
  await page.mouse.move(box.x + 20, box.y + box.height - 6, { steps: 10 });
  await page.mouse.up();
  await expect.poll(() => blockIds(page)).toEqual([section, cta]);
  await saved(page);
});

test("a field with a validation error: the message in German, nothing saved until it is fixed", async ({ page }) => {
  const { path } = await newPage(page);
  await openEditor(page, path);
  await insertFromPalette(page, "Handlungsaufforderung");
  await saved(page);
  const heading = fields(page).getByLabel("Überschrift");
  await heading.fill("");
  await expect(fields(page).getByText("Überschrift ist erforderlich.")).toBeVisible();
  await expect(heading).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Bitte korrigieren Sie die markierten Felder")).toBeVisible({ timeout: 5000 });
  await expect(page.locator("[data-save-state]")).toHaveAttribute("data-save-state", "unsaved");
  await heading.fill("Wieder gültig");
  await saved(page);
});

test("a field left invalid by choosing another block at once still holds the save back", async ({ page }) => {
  const { path } = await newPage(page);
  await openEditor(page, path);
  await insertFromPalette(page, "Handlungsaufforderung");
  await insertFromPalette(page, "Handlungsaufforderung");
  await saved(page);
  const [first, second] = await blockIds(page);
  await expect(page.locator(`[data-block-id="${second}"]`)).toHaveAttribute("aria-current", "true");
  // Emptied, and another block chosen before typing paused (the check waits for a pause): both in
  // one task, as a fast hand would, so the pause never comes.
  const input = fields(page).getByLabel("Überschrift");
  await input.evaluate((el: HTMLInputElement, other) => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(el, "");
    el.dispatchEvent(new Event("input", { bubbles: true }));
    document.querySelector<HTMLElement>(`[data-block-id="${other}"]`)!.click();
  }, first);
  await expect(page.locator(`[data-block-id="${first}"]`)).toHaveAttribute("aria-current", "true");
  await expect(page.getByText("Bitte korrigieren Sie die markierten Felder")).toBeVisible({ timeout: 5000 });
  await expect(page.locator("[data-save-state]")).toHaveAttribute("data-save-state", "unsaved");
  // Back on it, the message is there; fixed, it saves.
  await page.locator(`[data-block-id="${second}"]`).click({ position: { x: 10, y: 10 } });
  await expect(fields(page).getByText("Überschrift ist erforderlich.")).toBeVisible();
  await fields(page).getByLabel("Überschrift").fill("Wieder gültig");
  await saved(page);
});

test("multi-select delete, then undo", async ({ page }) => {
  const { path } = await newPage(page);
  await openEditor(page, path);
  for (const label of ["Handlungsaufforderung", "Akkordeon", "Bild", "Icon-Liste"]) await insertFromPalette(page, label);
  const ids = await blockIds(page);
  await page.locator(`[data-block-id="${ids[0]}"]`).click({ position: { x: 10, y: 10 } });
  await page.locator(`[data-block-id="${ids[2]}"]`).click({ position: { x: 10, y: 10 }, modifiers: ["Shift"] });
  await expect(page.getByText("3 Blöcke ausgewählt")).toBeVisible();
  await page.locator("[data-editor-root]").getByRole("button", { name: "Löschen", exact: true }).first().click();
  await expect.poll(() => blockIds(page)).toEqual([ids[3]]);
  await page.keyboard.press("ControlOrMeta+Z");
  await expect.poll(() => blockIds(page)).toEqual(ids);
});

test("copy a block on one page, paste it on another: new id, same content", async ({ page }) => {
  const one = await newPage(page);
  const two = await newPage(page);
  await openEditor(page, one.path);
  await insertFromPalette(page, "Handlungsaufforderung");
  await fields(page).getByLabel("Überschrift").fill("Kopiert von Seite eins");
  const [original] = await blockIds(page);
  await page.getByRole("button", { name: "Kopieren", exact: true }).click();
  await saved(page);
  await openEditor(page, two.path);
  await page.getByRole("button", { name: "Einfügen", exact: true }).click();
  await expect(canvasBlocks(page)).toHaveCount(1);
  await expect(canvasBlocks(page).first()).toContainText("Kopiert von Seite eins");
  expect((await blockIds(page))[0]).not.toBe(original);
  await saved(page);
});

test("drafts are for editors: a draft page is 404 to visitors, a changed page shows visitors the published version", async ({ page, browser, baseURL }) => {
  const { path } = await newPage(page);
  await openEditor(page, path);
  await insertFromPalette(page, "Handlungsaufforderung");
  await fields(page).getByLabel("Überschrift").fill("Erste Fassung");
  await saved(page);
  const v = await visitor(browser, baseURL);
  expect((await v.page.goto(path))!.status()).toBe(404);
  await page.getByRole("button", { name: "Veröffentlichen" }).click();
  await expect(page.locator("[data-page-state]")).toHaveAttribute("data-page-state", "Published");
  await fields(page).getByLabel("Überschrift").fill("Zweite Fassung");
  await saved(page);
  await expect(page.locator("[data-page-state]")).toHaveAttribute("data-page-state", "Changed");
  await v.page.goto(path);
  await expect(v.page.locator("main")).toContainText("Erste Fassung");
  await expect(v.page.locator("main")).not.toContainText("Zweite Fassung");
  // The editor sees the draft after a reload, and in the preview; a visitor's preview link is the sign-in page.
  await openEditor(page, path);
  await expect(canvasBlocks(page).first()).toContainText("Zweite Fassung");
  await page.goto(`${path}?preview=1`);
  await expect(page.locator("[data-draft-preview]")).toBeVisible();
  await expect(page.locator("main")).toContainText("Zweite Fassung");
  await v.page.goto(`${path}?preview=1`);
  await expect(v.page).toHaveURL(/\/login\?redirect=/);
  await v.context.close();
});

test("two editors on one page: the later save gets a conflict and a choice", async ({ page, browser, baseURL }) => {
  const { path } = await newPage(page);
  const { context: other, editor: second, email } = await inviteEditor(page, browser, baseURL, "zweite");
  await openEditor(page, path);
  await insertFromPalette(page, "Handlungsaufforderung");
  await saved(page);
  await openEditor(second, path);
  // The first sees that someone else is on the page (asked again when the window gets the focus
  // back). The second says it is there once its browser is idle: asked until then.
  await expect(async () => {
    await page.evaluate(() => window.dispatchEvent(new Event("focus")));
    await expect(page.locator("[data-editor-presence]")).toContainText(`Ebenfalls auf dieser Seite: ${email.split("@")[0]}`, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await second.locator("[data-canvas] [data-block-id]").first().click({ position: { x: 10, y: 10 } });
  await fields(second).getByLabel("Überschrift").fill("Von der zweiten Person");
  await saved(second);
  await page.locator("[data-canvas] [data-block-id]").first().click({ position: { x: 10, y: 10 } });
  await fields(page).getByLabel("Überschrift").fill("Von der ersten Person");
  await expect(page.locator("[data-save-state]")).toHaveAttribute("data-save-state", "error", { timeout: 10_000 });
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText("hat die Seite inzwischen geändert");
  await dialog.getByRole("button", { name: "Trotzdem meine Fassung speichern" }).click();
  await saved(page);
  await openEditor(second, path);
  await expect(second.locator("[data-canvas] [data-block-id]").first()).toContainText("Von der ersten Person");
  await other.close();
});

test("an edit made offline is kept and saved when the connection is back", async ({ page, context }) => {
  const { path } = await newPage(page);
  await openEditor(page, path);
  await insertFromPalette(page, "Handlungsaufforderung");
  await saved(page);
  await context.setOffline(true);
  await fields(page).getByLabel("Überschrift").fill("Ohne Netz geschrieben");
  await expect(page.getByText("Keine Verbindung")).toBeVisible({ timeout: 10_000 });
  await expect(page.locator("[data-save-state]")).toHaveAttribute("data-save-state", "unsaved");
  await context.setOffline(false);
  await saved(page);
  await openEditor(page, path);
  await expect(canvasBlocks(page).first()).toContainText("Ohne Netz geschrieben");
});

test("the editor has no axe violations, with a block active", async ({ page }) => {
  const { path } = await newPage(page);
  await openEditor(page, path);
  await insertFromPalette(page, "Handlungsaufforderung");
  await saved(page);
  await expectNoAxeViolations(page);
  await page.getByRole("tab", { name: "Gliederung" }).click();
  await expectNoAxeViolations(page);
});

test("the appointments block's edit variant manages a practitioner's slots on the canvas, never for visitors", async ({ page, browser, baseURL }) => {
  const { path } = await newPage(page);
  await openEditor(page, path);
  await insertFromPalette(page, "Termin buchen");
  await fields(page).getByLabel("Variante").selectOption("edit");
  await fields(page).getByLabel("Behandelnde:r").fill("Jürgen");
  await fields(page).getByRole("button", { name: /Jürgen Weiß/ }).click();
  await expect(fields(page).locator("[data-reference-chosen]")).toContainText("Jürgen Weiß");
  await expect(page.locator('[data-canvas] [data-slot-manager="prac-001"]')).toBeVisible({ timeout: 10_000 });
  await saved(page);
  await page.getByRole("button", { name: "Veröffentlichen" }).click();
  await expect(page.locator("[data-page-state]")).toHaveAttribute("data-page-state", "Published");
  const v = await visitor(browser, baseURL);
  await v.page.goto(path);
  await expect(v.page.locator("main [data-block=block-book-appointment]")).toBeVisible();
  await expect(v.page.locator("[data-slot-manager]")).toHaveCount(0);
  await v.context.close();
});

test("a signed-in editor switches edit mode on from the public page, and leaves it again", async ({ page }) => {
  await page.goto("/ueber-uns");
  await page.locator("[data-edit-page-link]").click();
  await expect(page).toHaveURL(/\/ueber-uns\?edit=1$/);
  await expect(page.locator("[data-editor-root][data-editor-ready='1']")).toBeVisible();
  await page.getByRole("link", { name: "Ansicht als Besucher" }).click();
  await expect(page).toHaveURL(/\/ueber-uns$/);
  await expect(page.locator("[data-editor-root]")).toHaveCount(0);
  await expect(page.locator("header")).toBeVisible();
});

test("a section saved as a template and inserted on another page, children and all", async ({ page }) => {
  const one = await newPage(page);
  const two = await newPage(page);
  await openEditor(page, one.path);
  await insertFromPalette(page, "Abschnitt");
  const [section] = await blockIds(page);
  await fields(page).getByLabel("Überschrift").fill("Unsere Sprechzeiten");
  await insertFromPalette(page, "Handlungsaufforderung"); // into the empty, active section
  await expect(page.locator(`[data-block-id="${section}"] [data-block=block-cta]`)).toHaveCount(1);
  await page.locator(`[data-block-id="${section}"]`).click({ position: { x: 10, y: 10 } });
  await page.getByRole("tab", { name: "Vorlagen" }).click();
  await page.getByRole("button", { name: "Auswahl als Vorlage speichern" }).click();
  const name = `Sprechzeiten ${Date.now()}`;
  await page.getByLabel("Name der Vorlage").fill(name);
  await page.getByRole("button", { name: "Vorlage speichern" }).click();
  await expect(page.getByText(`Vorlage „${name}“ gespeichert.`)).toBeVisible();
  await saved(page);

  await openEditor(page, two.path);
  await page.getByRole("tab", { name: "Vorlagen" }).click();
  await page.getByRole("button", { name: `Einfügen: ${name}` }).click();
  const inserted = page.locator("[data-canvas] [data-block=block-section]");
  await expect(inserted).toHaveCount(1);
  await expect(inserted).toContainText("Unsere Sprechzeiten");
  await expect(inserted.locator("[data-block=block-cta]")).toHaveCount(1);
  expect(await inserted.getAttribute("data-block-id")).not.toBe(section);
  await saved(page);
});

test("simple text edited in place on the canvas: double-click, type, Enter; Escape keeps the old text", async ({ page }) => {
  const { path } = await newPage(page);
  await openEditor(page, path);
  await insertFromPalette(page, "Handlungsaufforderung");
  const heading = canvasBlocks(page).first().locator("[data-edit-field=heading]");
  await heading.dblclick();
  await expect(heading).toHaveAttribute("contenteditable", "plaintext-only");
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("Direkt auf der Seite");
  await page.keyboard.press("Enter");
  await expect(canvasBlocks(page).first().locator("[data-edit-field=heading]")).toHaveText("Direkt auf der Seite");
  await expect(fields(page).getByLabel("Überschrift")).toHaveValue("Direkt auf der Seite");
  await canvasBlocks(page).first().locator("[data-edit-field=heading]").dblclick();
  await page.keyboard.type(" und mehr");
  await page.keyboard.press("Escape");
  await expect(canvasBlocks(page).first().locator("[data-edit-field=heading]")).toHaveText("Direkt auf der Seite");
  await expect(canvasBlocks(page)).toHaveCount(1);
  await saved(page);
  // One undo step for the in-place edit.
  await canvasBlocks(page).first().focus();
  await page.keyboard.press("ControlOrMeta+Z");
  await expect(canvasBlocks(page).first().locator("[data-edit-field=heading]")).toHaveText("Neue Überschrift");
});

test("a rich-text block edited in the fields panel shows on the canvas, sanitised", async ({ page }) => {
  const { path } = await newPage(page);
  await openEditor(page, path);
  await insertFromPalette(page, "Fließtext");
  const editor = fields(page).getByRole("textbox", { name: "Inhalt", exact: true });
  await expect(editor).toBeVisible();
  await editor.click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("Sprechzeiten am Montag");
  await expect(canvasBlocks(page).first()).toContainText("Sprechzeiten am Montag");
  await saved(page);
});

test("an image uploaded from the fields panel joins the library and shows on the canvas; a section takes a theme colour", async ({ page }) => {
  const { path } = await newPage(page);
  await openEditor(page, path);
  await insertFromPalette(page, "Bild");
  // A 2×2 PNG, made here.
  const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==", "base64");
  await fields(page).getByText("Bild hochladen").locator("input[type=file]").setInputFiles({ name: "praxis-flur.png", mimeType: "image/png", buffer: png });
  await expect(fields(page).locator("[data-upload-status]")).toContainText("„praxis-flur.png“ hochgeladen und ausgewählt.");
  await expect(fields(page).getByLabel("Bild", { exact: true })).toHaveValue(/.+/);
  await expect(canvasBlocks(page).first().locator("img")).toHaveAttribute("src", /praxis-flur/);
  await saved(page);

  await page.keyboard.press("Escape");
  await insertFromPalette(page, "Abschnitt");
  const section = page.locator("[data-canvas] [data-block=block-section]");
  const swatches = fields(page).getByRole("group", { name: "Farben des Themes" }).getByRole("button");
  const swatch = swatches.nth(1);
  await swatch.click();
  await expect(swatch).toHaveAttribute("aria-pressed", "true");
  await expect(section.locator("section").first()).toHaveAttribute("style", /background-color/);
  await saved(page);
});

test("a block dragged from the palette lands where the line shows", async ({ page }) => {
  const { path } = await newPage(page);
  await openEditor(page, path);
  await insertFromPalette(page, "Handlungsaufforderung");
  await insertFromPalette(page, "Akkordeon");
  const [first, second] = await blockIds(page);
  await page.locator("[data-palette-item=block-image]").scrollIntoViewIfNeeded();
  const item = (await page.locator("[data-palette-item=block-image]").boundingBox())!;
  const target = (await page.locator(`[data-block-id="${second}"]`).boundingBox())!;
  await page.mouse.move(item.x + 20, item.y + 10);
  await page.mouse.down();
  await page.mouse.move(item.x + 60, item.y + 20, { steps: 5 });
  await page.mouse.move(target.x + 40, target.y + 4, { steps: 10 });
  await expect(page.locator("[data-drop-indicator]")).toBeVisible();
  await page.mouse.up();
  await expect.poll(async () => (await blockIds(page)).length).toBe(3);
  const ids = await blockIds(page);
  expect(ids[0]).toBe(first);
  expect(ids[2]).toBe(second);
  await expect(page.locator(`[data-block-id="${ids[1]}"]`)).toHaveAttribute("data-block", "block-image");
  await expect(page.locator("[data-drop-indicator]")).toHaveCount(0);
});

test("closing the tab with unsaved changes asks first", async ({ page, context }) => {
  const { path } = await newPage(page);
  await openEditor(page, path);
  await insertFromPalette(page, "Handlungsaufforderung");
  await saved(page);
  // Offline, the change cannot be saved: it stays unsaved (and in this browser).
  await context.setOffline(true);
  await fields(page).getByLabel("Überschrift").fill("Noch nicht gespeichert");
  await expect(page.locator("[data-save-state]")).toHaveAttribute("data-save-state", "unsaved");
  const dialog = page.waitForEvent("dialog");
  await page.close({ runBeforeUnload: true });
  const asked = await dialog;
  expect(asked.type()).toBe("beforeunload");
  await asked.dismiss();
  await context.setOffline(false);
  await saved(page);
});

test("an English-speaking editor gets the editor in English: panels, field labels, messages", async ({ page, browser, baseURL }) => {
  const { path } = await newPage(page);
  const { context, editor } = await inviteEditor(page, browser, baseURL, "english");
  await editor.goto("/manage/account");
  await waitForHydration(editor);
  await editor.getByLabel("Sprache der Verwaltung").selectOption("en");
  await editor.getByRole("button", { name: "Sprache speichern" }).click();
  await expect(editor.locator("[data-save-result=ok]")).toHaveText("Language saved.");
  await openEditor(editor, path);
  await editor.getByRole("button", { name: "Add", exact: true }).click();
  await expect(editor.getByRole("alert").filter({ hasText: "Please choose a component." })).toBeVisible();
  await editor.locator("[data-palette-item]").filter({ hasText: "Call to action" }).first().click();
  const panel = editor.getByRole("region", { name: "Fields" });
  await panel.getByLabel("Heading", { exact: true }).fill("");
  await expect(panel.getByText("Heading is required.")).toBeVisible();
  // The editor's own words (not the page's content) are English.
  const chrome = await editor.evaluate(() =>
    [...document.querySelectorAll("[data-editor-root] [role=toolbar], [data-editor-root] > div > section")].map((el) => (el as HTMLElement).innerText).join("\n"),
  );
  expect(chrome).not.toMatch(/Blöcke|Gliederung|Felder|Veröffentlichen|Rückgängig|Überschrift|Hinzufügen|Entwurf|Gespeichert/);
  expect(chrome).toMatch(/Outline/);
  await context.close();
});
