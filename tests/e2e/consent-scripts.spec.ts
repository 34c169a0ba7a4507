import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, test, type APIRequestContext, e2eDb } from "./fixtures";

/**
 * A third-party script configured in the global settings (a marketing pixel served from another
 * origin here) loads only after its category is accepted, and is gone after the visitor withdraws;
 * the cookie it set is deleted then (issue 24, §1, §3).
 */
let thirdParty: http.Server;
let tpOrigin = "";
let requests = 0;
let settingsId = "";
let original: unknown;

async function api(request: APIRequestContext) {
  const creds = JSON.parse(fs.readFileSync(path.join(path.dirname(e2eDb()), "squidex-client.json"), "utf8")) as { clientId: string; clientSecret: string };
  const token = await request.post("/api/squidex/identity-server/connect/token", {
    form: { grant_type: "client_credentials", client_id: creds.clientId, client_secret: creds.clientSecret, scope: "squidex-api" },
  });
  const { access_token } = (await token.json()) as { access_token: string };
  return { authorization: `Bearer ${access_token}` };
}
const SETTINGS = "/api/squidex/api/content/praxisnetz/core-global-settings";

test.beforeAll(async ({ request }) => {
  thirdParty = http.createServer((_req, res) => {
    requests++;
    // What such a pixel does: marks the page and leaves a cookie on the site.
    res.writeHead(200, { "content-type": "text/javascript" }).end('window.__pixel = true; document.cookie = "pixel_id=42; path=/";');
  });
  await new Promise<void>((r) => thirdParty.listen(0, "127.0.0.1", r));
  tpOrigin = `http://127.0.0.1:${(thirdParty.address() as AddressInfo).port}`;
  const headers = await api(request);
  const list = (await (await request.get(SETTINGS, { headers })).json()) as { items: { id: string; data: { thirdPartyScripts?: unknown } }[] };
  settingsId = list.items[0]!.id;
  original = list.items[0]!.data.thirdPartyScripts ?? { iv: [] };
  const current = ((original as { iv?: unknown[] }).iv ?? []) as unknown[];
  const res = await request.patch(`${SETTINGS}/${settingsId}`, { headers, data: { thirdPartyScripts: { iv: [...current, { name: "Werbepixel", src: `${tpOrigin}/pixel.js`, category: "marketing" }] } } });
  expect(res.status(), await res.text()).toBe(200);
});

test.afterAll(async ({ request }) => {
  await request.patch(`${SETTINGS}/${settingsId}`, { headers: await api(request), data: { thirdPartyScripts: original } });
  await new Promise<void>((r) => thirdParty.close(() => r()));
});

test("a marketing script waits for its category, loads once accepted, and is gone with its cookie after withdrawal", async ({ page, baseURL }) => {
  const consentEvents: unknown[] = [];
  await page.exposeFunction("__consentSeen", (detail: unknown) => void consentEvents.push(detail));
  await page.addInitScript(() => window.addEventListener("praxisnetz:consent", (e) => (window as unknown as { __consentSeen(d: unknown): void }).__consentSeen((e as CustomEvent).detail)));

  await page.goto("/ueber-uns");
  const banner = page.locator("section#consent");
  await expect(banner).toBeVisible();
  expect(requests).toBe(0);
  expect(await page.evaluate(() => (window as { __pixel?: boolean }).__pixel)).toBeUndefined();

  // Statistics only: still not marketing.
  await banner.getByRole("checkbox", { name: "Statistik" }).check();
  await banner.getByRole("button", { name: "Auswahl speichern" }).click();
  await expect(banner).toBeHidden();
  expect(requests).toBe(0);

  // Marketing accepted: the pixel loads, runs (the CSP admits its origin now) and sets its cookie.
  await page.getByRole("contentinfo").getByRole("link", { name: "Cookie-Einstellungen" }).click();
  await banner.getByRole("button", { name: "Alle akzeptieren" }).click();
  await expect.poll(() => page.evaluate(() => (window as { __pixel?: boolean }).__pixel)).toBe(true);
  expect(requests).toBeGreaterThan(0);
  const cookies = await page.context().cookies(baseURL);
  expect(cookies.find((c) => c.name === "pixel_id")?.value).toBe("42");
  const consent = cookies.find((c) => c.name === "pn_consent")!;
  expect(consent.path).toBe("/");
  expect(cookies.find((c) => c.name === "pn_consent_proof")?.httpOnly).toBe(true);
  await expect.poll(() => consentEvents.at(-1)).toMatchObject({ decided: true, marketing: true });

  // Withdrawn: the next page has no pixel, and its cookie is gone.
  const before = requests;
  await page.getByRole("contentinfo").getByRole("link", { name: "Cookie-Einstellungen" }).click();
  await banner.getByRole("button", { name: "Nur notwendige" }).click();
  await expect(banner).toBeHidden();
  await page.goto("/practitioners");
  expect(await page.evaluate(() => (window as { __pixel?: boolean }).__pixel)).toBeUndefined();
  expect(requests).toBe(before);
  expect((await page.context().cookies(baseURL)).find((c) => c.name === "pixel_id")).toBeUndefined();
  expect(await page.locator(`script[src^="${tpOrigin}"]`).count()).toBe(0);
  await expect.poll(() => consentEvents.at(-1)).toMatchObject({ decided: true, marketing: false });
});
