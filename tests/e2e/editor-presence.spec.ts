import { expect, test, type Page } from "./fixtures";
import { inviteEditor, signIn } from "./admin-helpers";

/**
 * What the presence hook (app/editor/presence.tsx) and the templates panel rely on, from a real
 * browser on an open edit page: the heartbeat as fetch sends it, the goodbye as sendBeacon sends it
 * on pagehide (no JSON body, the browser's own headers), and the templates endpoint with the
 * session cookie. Both people are real users signed in through the login form.
 */

const presence = (page: Page, id: string, init: { method?: string; body?: string } = {}) =>
  page.evaluate(
    async ({ id, init }) => {
      const res = await fetch(`/api/editor/pages/${encodeURIComponent(id)}/presence`, {
        method: init.method ?? "POST",
        headers: init.body ? { "Content-Type": "application/json" } : {},
        body: init.body,
        credentials: "same-origin",
      });
      return { status: res.status, body: (await res.json()) as { others?: Array<{ name: string }>; message?: string } };
    },
    { id, init },
  );

test("two editors on one page see each other; the one who leaves by sendBeacon is gone at once", async ({ page, browser, baseURL }) => {
  await signIn(page);
  const { context, editor, email } = await inviteEditor(page, browser, baseURL, "presence");
  try {
    // Both on the home page in edit mode; its id is on the canvas.
    for (const p of [page, editor]) {
      await p.goto("/?edit=1");
      await expect(p.locator("[data-editor-root][data-editor-ready='1']")).toBeVisible();
    }
    const pageId = (await page.locator("[data-canvas] [data-page]").getAttribute("data-page"))!;
    expect(pageId).toBeTruthy();

    const seenByEditor = await presence(editor, pageId, { body: "{}" });
    expect(seenByEditor).toEqual({ status: 200, body: { others: [{ name: "Demo-Admin" }] } });
    // The toolbar's notice: the hook asks again when the window gets the focus back.
    await page.evaluate(() => window.dispatchEvent(new Event("focus")));
    await expect(page.locator("[data-editor-presence]")).toContainText(`Ebenfalls auf dieser Seite: ${email.split("@")[0]}`);
    // Invited without a name, the editor is named after their address.
    expect(await presence(page, pageId)).toEqual({ status: 200, body: { others: [{ name: expect.stringMatching(new RegExp(`^${email.split("@")[0]}`)) }] } });

    // What the hook does on pagehide: a beacon without a body, queued by the browser.
    expect(await page.evaluate((id) => navigator.sendBeacon(`/api/editor/pages/${encodeURIComponent(id)}/presence?leaving=1`), pageId)).toBe(true);
    await expect.poll(async () => (await presence(editor, pageId, { body: "{}" })).body.others).toEqual([]);

    // An unknown page: 404 with words, not a crash of the hook's JSON reading.
    const unknown = await presence(page, "no-such-page", { body: "{}" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe("Diese Seite gibt es nicht mehr.");
  } finally {
    await context.close();
  }
});

test("a template saved from the browser comes back for insertion without ids; its author and superusers may delete it", async ({ page, browser, baseURL }) => {
  await signIn(page);
  const { context, editor } = await inviteEditor(page, browser, baseURL, "templates");
  try {
    await editor.goto("/?edit=1");
    await expect(editor.locator("[data-editor-root][data-editor-ready='1']")).toBeVisible();
    const made = await editor.evaluate(async () => {
      const res = await fetch("/api/editor/templates", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ name: "Aus dem Browser", blocks: [{ schemaId: "block-richtext", id: "b1", html: "<p>Hallo</p>", markdown: "" }] }),
      });
      return { status: res.status, body: (await res.json()) as { template: { id: string } } };
    });
    expect(made.status).toBe(201);
    const id = made.body.template.id;
    const got = await page.evaluate(async (id) => (await (await fetch(`/api/editor/templates/${id}`)).json()) as { template: { blocks: unknown[]; canDelete: boolean } }, id);
    expect(got.template.blocks).toEqual([{ schemaId: "block-richtext", html: "<p>Hallo</p>", markdown: "" }]);
    // The superuser may delete anyone's template.
    expect(got.template.canDelete).toBe(true);
    const deleted = await editor.evaluate(async (id) => (await fetch(`/api/editor/templates/${id}`, { method: "DELETE" })).status, id);
    expect(deleted).toBe(200);
  } finally {
    await context.close();
  }
});
