// Our side of `npm run bench:editor`: the production build with a fresh data dir, a superuser made
// with `scripts/user-create.mjs`, two pages (20 and 200 blocks) created through the embedded Squidex
// API, a browser session signed in through /login, and the adapter the driver uses on `/{slug}?edit=1`.
//
// The editor's contracts this driver relies on are in SEL below: if the editor names a thing
// differently once it lands, change it there.
import { execFileSync, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildPage } from "./ours-pages.mjs";

export const SEL = {
  /** On the editor root once it is hydrated and interactive. */
  ready: '[data-editor-ready="1"]',
  /** Every block on the canvas carries its id (and `data-block="{schema}"`). */
  blockAttr: "data-block-id",
  /** The active block. */
  active: '[aria-current="true"]',
  /** Where a click makes a block active, relative to its box: top middle, clear of a corner handle and the cta's button. */
  clickAt: (box) => ({ x: Math.round(box.width / 2), y: 8 }),
  /** The fields panel: a region with this accessible name; inputs named by their field labels. */
  fieldsRegion: "Felder",
  /** The keystroke goes into this field of the active block (a block-cta: app/blocks/cta/schema.ts). */
  keystrokeLabel: "Überschrift",
  /** Buttons acting on the active block, by accessible name. */
  buttons: { duplicate: "Duplizieren", delete: "Löschen", up: "Nach oben", down: "Nach unten", undo: "Rückgängig", copy: "Kopieren", paste: "Einfügen" },
  /** A block's drag handle (dnd-kit pointer sensor), inside the block's element. */
  dragHandle: (id) => `[data-block-id="${id}"] [data-drag-handle]`,
  /**
   * Present while a drag is under way or not yet dropped. dnd-kit sets aria-pressed on the
   * activator during a drag; the editor may mark its overlay differently.
   */
  dragging: '[data-drag-handle][aria-pressed="true"], [data-dragging="true"]',
  /** The save state; values matching saveBusy mean a save is still under way. */
  saveState: "[data-save-state]",
  saveBusy: /sav(ing|e-pending)|pending|dirty|queued|unsaved/i,
};

const VIEWPORT = { width: 1440, height: 900 };
const APP = "praxisnetz";
const USER = { email: "bench-editor@example.org", password: "bench-editor-passwort-1" };

/** Starts the server and prepares pages and a session; returns the adapter and a stop function. */
export async function startOurs(port, log = () => {}) {
  const root = path.resolve(import.meta.dirname, "../..");
  // Built if needed, its output on stderr: stdout carries only the benchmark's JSON.
  execFileSync(process.execPath, [path.join(root, "scripts/build-if-needed.mjs")], { cwd: root, stdio: ["ignore", 2, 2] });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-bench-editor-"));
  const base = `http://127.0.0.1:${port}`;
  const env = { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn" };
  const server = spawn(process.execPath, [path.join(root, "server.js")], { cwd: root, env, stdio: ["ignore", 2, 2] });
  const exited = new Promise((r) => server.once("exit", r));
  const stop = async () => {
    if (server.exitCode === null) server.kill("SIGTERM");
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitFor(`${base}/healthz`, server);
    await waitFor(`${base}/readyz`, server);
    // The superuser, made the way an operator does; it runs from the build on the same DATA_DIR.
    execFileSync(process.execPath, [path.join(root, "scripts/user-create.mjs"), "--email", USER.email, "--password", USER.password, "--superuser"], {
      cwd: root,
      env,
      stdio: ["ignore", "ignore", "inherit"],
    });
    const token = await clientToken(base, dataDir);
    const pages = {};
    const notes = [];
    for (const n of [20, 200]) {
      const made = await createPage(base, token, n, notes);
      pages[n] = made;
      log(`page with ${n} blocks: /${made.slug}${made.nested ? ` (${made.nestedCount} nested in block-section)` : " (flat)"}`);
    }
    return { adapter: oursAdapter(base, pages, await signIn(base)), stop, notes };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function waitFor(url, proc) {
  for (let i = 0; i < 3000; i++) {
    if (proc.exitCode !== null) throw new Error(`the server exited with ${proc.exitCode}`);
    const ok = await fetch(url).then((r) => r.ok).catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the server did not answer ${url}`);
}

/** A client-credentials token for the embedded Squidex API (credentials from DATA_DIR/squidex-client.json). */
async function clientToken(base, dataDir) {
  const { clientId, clientSecret } = JSON.parse(fs.readFileSync(path.join(dataDir, "squidex-client.json"), "utf8"));
  const res = await fetch(`${base}/api/squidex/identity-server/connect/token`, {
    method: "POST",
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret, scope: "squidex-api" }),
  });
  if (!res.ok) throw new Error(`token: ${res.status} ${await res.text()}`);
  return (await res.json()).access_token;
}

/**
 * Creates and publishes a core-pages item with n blocks. At 200, 30 of them inside block-section
 * containers; if the store refuses block-section (not merged yet), the same blocks flat.
 */
async function createPage(base, token, n, notes) {
  const post = (data) =>
    fetch(`${base}/api/squidex/api/content/${APP}/core-pages?publish=true`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(data),
    });
  const slug = `bench-editor-${n}`;
  let page = buildPage(n, { slug, nested: n >= 200, uuid: randomUUID });
  let res = await post(page.data);
  if (!res.ok && page.nested) {
    const body = await res.text();
    let reason = body.slice(0, 200);
    try {
      reason = JSON.parse(body).details?.[0] ?? reason;
    } catch {
      /* not JSON: the text as it is */
    }
    notes.push(`the store refused block-section (${res.status}: ${reason}); the ${n}-block page is flat`);
    page = buildPage(n, { slug, nested: false, uuid: randomUUID });
    res = await post(page.data);
  }
  if (!res.ok) throw new Error(`creating the ${n}-block page: ${res.status} ${(await res.text()).slice(0, 500)}`);
  return page;
}

/** Signs in through the real /login form once; returns the session (storage state) for every context. */
async function signIn(base) {
  const { chromium } = await import("playwright-core");
  const { CHROMIUM_ARGS, findChromium } = await import("../../tests/support/chromium.mjs");
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS, headless: true });
  try {
    const context = await browser.newContext({ baseURL: base });
    const page = await context.newPage();
    await page.goto("/login?redirect=%2Fmanage");
    // Typed only once the form engine is attached (tests/e2e/helpers.ts waitForFormEngine).
    await page.locator("form[data-form] [data-field][data-failing]").first().waitFor({ state: "attached" });
    await page.getByLabel(/E-Mail-Adresse|Email address/).fill(USER.email);
    await page.getByLabel(/^(Passwort|Password)/).fill(USER.password);
    await page.getByRole("button", { name: /Anmelden|Sign in/ }).click();
    await page.waitForURL((url) => url.pathname === "/manage");
    await page.locator("[data-admin-layout]").waitFor();
    return await context.storageState();
  } finally {
    await browser.close();
  }
}

/** The driver's view of our editor at `base`; `pages[n]` from buildPage (ours-pages.mjs). */
export function oursAdapter(base, pages, storageState) {
  const block = (page, id) => page.locator(`[${SEL.blockAttr}="${id}"]`);
  const fields = (page) => page.getByRole("region", { name: SEL.fieldsRegion });
  const isActive = (page, id) => page.locator(`[${SEL.blockAttr}="${id}"]${SEL.active}`);
  return {
    name: "ours",
    layout: (n) => pages[n].layout,
    url: (n) => `${base}/${pages[n].slug}?edit=1`,
    /** A page of the site that loads nothing, with the site's headers (its opener policy too). */
    startUrl: () => `${base}/robots.txt`,
    harnessConfig: (l) => ({
      frame: null,
      blockAttr: SEL.blockAttr,
      lastId: l.lastId,
      readySelector: SEL.ready,
      busySelector: SEL.dragging,
    }),
    async newContext(browser) {
      const context = await browser.newContext({ viewport: VIEWPORT, storageState, baseURL: base });
      return context;
    },
    block,
    async ensureActive(page, id) {
      if (await isActive(page, id).count()) return;
      const el = block(page, id);
      await el.scrollIntoViewIfNeeded();
      const box = await el.boundingBox();
      await el.click({ position: SEL.clickAt(box) });
      await isActive(page, id).waitFor({ timeout: 10_000 });
    },
    textField: (page) => fields(page).getByLabel(SEL.keystrokeLabel, { exact: true }),
    buttons: Object.keys(SEL.buttons),
    button: (page, name) => page.getByRole("button", { name: SEL.buttons[name], exact: true }).filter({ visible: true }).first(),
    /** Waits (up to 5 s) until no save is under way, so one action's save does not land in the next sample. */
    async settle(page) {
      await page
        .waitForFunction(
          ([selector, busy]) => {
            const el = document.querySelector(selector);
            return !el || !new RegExp(busy, "i").test(el.getAttribute("data-save-state") ?? "");
          },
          [SEL.saveState, SEL.saveBusy.source],
          { timeout: 5000 },
        )
        .catch(() => {});
    },
    /** The handle may show on the active or hovered block only. */
    async prepareDrag(page, id) {
      await this.ensureActive(page, id);
      const el = block(page, id);
      await el.hover({ position: SEL.clickAt(await el.boundingBox()) });
    },
    dragHandle: (page, id) => page.locator(SEL.dragHandle(id)).first(),
    /**
     * Where the dragged block would land: its index among the top-level blocks in visual order
     * (dnd-kit's sortable moves the items with transforms, not in the DOM; a fixed-position drag
     * overlay copy is left out). -1 when it cannot tell.
     */
    previewIndex: (page, id) =>
      page.evaluate(
        ([attr, dragged]) => {
          const els = [...document.querySelectorAll(`[${attr}]`)].filter((el) => !el.parentElement?.closest(`[${attr}]`));
          const inFlow = els.filter((el) => !el.closest("[data-drag-overlay]") && getComputedStyle(el).position !== "fixed");
          inFlow.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
          return inFlow.findIndex((el) => el.getAttribute(attr) === dragged);
        },
        [SEL.blockAttr, id],
      ),
    viewport: async (page) => ({ x: 0, y: 0, ...page.viewportSize() }),
  };
}
