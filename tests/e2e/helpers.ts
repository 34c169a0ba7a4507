import { e2eDb, expect, type APIRequestContext, type Browser, type BrowserContext, type Page } from "./fixtures";

/** The origin the tests run against (Playwright's baseURL). */
export function originOf(baseURL: string | undefined): string {
  if (!baseURL) throw new Error("baseURL is not configured");
  return new URL(baseURL).origin;
}

/**
 * Records every request the page makes that leaves `origin`. data: and blob: URLs stay in the
 * browser and are allowed. Returns the live list.
 */
export function recordForeignRequests(page: Page, origin: string): string[] {
  const foreign: string[] = [];
  page.on("request", (req) => {
    const url = req.url();
    if (url.startsWith("data:") || url.startsWith("blob:")) return;
    if (new URL(url).origin !== origin) foreign.push(url);
  });
  return foreign;
}

/** A fresh context with JavaScript switched off; the caller closes it. */
export async function noScriptContext(browser: Browser, baseURL: string | undefined): Promise<BrowserContext> {
  return browser.newContext({ javaScriptEnabled: false, baseURL });
}

/** The number in the directory's "N Behandelnde gefunden" / "N practitioners found" status line. */
export async function resultCount(page: Page): Promise<number> {
  const status = page.getByRole("status").filter({ hasText: /gefunden|found/ });
  // Grouped in the page's language: 10.036 / 10,036.
  await expect(status).toHaveText(/^\d{1,3}([.,]\d{3})* (Behandelnde(:r)? gefunden|practitioners? found)$/);
  return Number((await status.innerText()).match(/^[\d.,]+/)![0].replace(/[.,]/g, ""));
}

/** The profile slugs of the directory cards currently shown, in order. */
export async function shownSlugs(page: Page): Promise<string[]> {
  return page.locator("[data-results] [data-practitioner]").evaluateAll((els) => els.map((e) => e.getAttribute("data-practitioner")!));
}

/**
 * Every visible practitioner slug, in directory order, by walking the directory's pages (plain
 * HTTP, no browser): the directory is the source of truth for who is visible and in which order.
 */
export async function allDirectorySlugs(page: Page): Promise<string[]> {
  const slugs: string[] = [];
  for (let n = 1; n < 50; n++) {
    const res = await page.request.get(`/practitioners?page=${n}`);
    expect(res.status()).toBe(200);
    const html = await res.text();
    const onPage = [...html.matchAll(/data-practitioner="([^"]+)"/g)].map((m) => m[1]!);
    const pages = Number(html.match(/Seite \d+ von (\d+)/)?.[1] ?? 1);
    slugs.push(...onPage);
    if (n >= pages) break;
  }
  return slugs;
}

/** The `<head>` links that tell search engines which URL is canonical and where the other languages are. */
export async function seoLinks(page: Page) {
  const href = (selector: string) => page.locator(selector).getAttribute("href");
  await expect(page.locator('head link[rel="canonical"]')).toHaveCount(1);
  return {
    canonical: await href('head link[rel="canonical"]'),
    de: await href('head link[rel="alternate"][hreflang="de"]'),
    en: await href('head link[rel="alternate"][hreflang="en"]'),
  };
}

/** The language switcher's link to the other language (it carries hreflang). */
export function switcherLink(page: Page, to: "de" | "en") {
  return page.locator(`header nav a[hreflang="${to}"]`);
}

/** Opens `path` and checks the error page: status, language, heading and message. Returns the response. */
export async function expectErrorPage(page: Page, path: string, e: { status: number; lang: "de" | "en"; heading: string; message: string }) {
  const response = await page.goto(path);
  expect(response?.status()).toBe(e.status);
  await expect(page.locator("html")).toHaveAttribute("lang", e.lang);
  await expect(page.locator("[data-error-status]")).toHaveAttribute("data-error-status", String(e.status));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(e.heading);
  await expect(page.locator("[data-error-message]")).toHaveText(e.message);
  return response!;
}

/** One page of each public type, German, and the English home: what the page-quality specs check. */
export const PAGE_TYPES = [
  { name: "home (de)", path: "/" },
  { name: "content page (de)", path: "/ueber-uns" },
  { name: "directory (de)", path: "/practitioners" },
  { name: "profile (de)", path: "/practitioners/juergen-weiss" },
  { name: "home (en)", path: "/en" },
];

/**
 * A server of a test's own (scripts/e2e-server.mjs on `port`, a fresh data dir) with settings the
 * shared one does not have; resolves when it answers. The caller stops it with `kill()`.
 */
export async function startOwnServer(port: number, env: Record<string, string>): Promise<{ base: string; kill: () => void }> {
  const { spawn } = await import("node:child_process");
  const path = await import("node:path");
  const child = spawn(process.execPath, [path.resolve("scripts/e2e-server.mjs")], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "error", GEOCODER_URL: "http://127.0.0.1:9/search", ...env },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  await expect.poll(() => fetch(`${base}/healthz`).then((r) => r.ok, () => false), { timeout: 60_000 }).toBe(true);
  return { base, kill: () => void child.kill("SIGTERM") };
}

/** Waits until React has hydrated the page (its scripts load after the first paint). */
export async function waitForHydration(page: Page): Promise<void> {
  // The root route marks <html data-hydrated> once React has hydrated the page (app/root.tsx).
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
}

// --- Forms and mail (forms, newsletter, registration and booking specs) ---

import path from "node:path";
import Database from "better-sqlite3";

/** One message of the e2e server's outbox (the mail is stored, never sent). */
export interface OutboxMail {
  kind: string;
  recipient: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  attachments: Array<{ filename: string; contentType: string; content: string }>;
}

/** Every stored mail to `to` (oldest first), read from the server's SQLite file, read-only. */
export function outboxTo(to: string): OutboxMail[] {
  const db = new Database(e2eDb(), { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare("select kind, recipient, subject, text, html, headers, attachments from outbox where recipient = ? order by created, rowid").all(to) as Array<
      Omit<OutboxMail, "headers" | "attachments"> & { headers: string; attachments: string }
    >;
    return rows.map((r) => ({ ...r, headers: JSON.parse(r.headers), attachments: JSON.parse(r.attachments) }));
  } finally {
    db.close();
  }
}

/** Waits for the (newest) mail of `kind` to `to`. */
export async function mailTo(to: string, kind: string): Promise<OutboxMail> {
  await expect.poll(() => outboxTo(to).filter((m) => m.kind === kind).length, { message: `a ${kind} mail to ${to}` }).toBeGreaterThan(0);
  return outboxTo(to).filter((m) => m.kind === kind).at(-1)!;
}

/** The first absolute URL in a mail's text part whose path matches `pathPattern` (e.g. /\/appointments\/cancel\?/). */
export function linkIn(mail: OutboxMail, pathPattern: RegExp): string {
  const url = mail.text.match(/https?:\/\/\S+/g)?.find((u) => pathPattern.test(new URL(u).pathname + new URL(u).search));
  expect(url, `a link matching ${pathPattern} in the ${mail.kind} mail:\n${mail.text}`).toBeTruthy();
  return url!;
}

/** A unique address for one test (lower case: the newsletter stores addresses normalised). */
export function uniqueEmail(label: string): string {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.org`;
}

/**
 * Forms carry a signed stamp and the e2e server refuses them sooner than FORM_MIN_FILL_SECONDS (1 s)
 * after the page was made: waits until 1.1 s after `since` (a Date.now() taken once the page was loaded).
 */
export async function waitFillTime(page: Page, since: number): Promise<void> {
  const left = since + 1100 - Date.now();
  if (left > 0) await page.waitForTimeout(left);
}

/** Waits until the form engine is attached in the browser: its validation marks a required empty field failing. */
export async function waitForFormEngine(page: Page): Promise<void> {
  await expect(page.locator("form[data-form] [data-field][data-failing]").first()).toBeAttached();
}

/** Free slot ids in the order /termine (or /en/appointments) lists them, read over plain HTTP. */
export async function freeSlotIds(request: APIRequestContext, listPath = "/termine"): Promise<string[]> {
  const res = await request.get(listPath);
  expect(res.status()).toBe(200);
  return [...(await res.text()).matchAll(/data-slot="([^"]+)"/g)].map((m) => m[1]!);
}
