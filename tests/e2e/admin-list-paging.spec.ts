import fs from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, e2eDb } from "./fixtures";
import { expectNoAxeViolations, signIn } from "./admin-helpers";
import { waitForHydration } from "./helpers";

/**
 * A big collection list as an editor steers it: 300 more practitioners (drafts, written once through
 * the embedded Squidex API's bulk endpoint), the last page by its link, a column sorted from there,
 * a typed page number, and a page past the end sent to the last page.
 */

const LIST = "/manage/content/gm-content-practitioners";
const PROBES = 300;
/** Sorts after every demo city, so the last page of the list sorted by place holds only probes. */
const CITY = "Zettelstadt";

/** Upserts the probes (same ids every run: idempotent) as drafts with display on, so no registration list or directory shows them. */
async function seedProbes(request: APIRequestContext) {
  const creds = JSON.parse(fs.readFileSync(path.join(path.dirname(e2eDb()), "squidex-client.json"), "utf8")) as { clientId: string; clientSecret: string };
  const token = await request.post("/api/squidex/identity-server/connect/token", {
    form: { grant_type: "client_credentials", client_id: creds.clientId, client_secret: creds.clientSecret, scope: "squidex-api" },
  });
  expect(token.status()).toBe(200);
  const { access_token } = (await token.json()) as { access_token: string };
  const jobs = Array.from({ length: PROBES }, (_, i) => ({
    type: "Upsert",
    id: `list-probe-${String(i).padStart(3, "0")}`,
    data: { name: { iv: `Listenprobe ${String(i).padStart(3, "0")}` }, city: { iv: CITY }, country: { iv: "DE" }, display: { iv: true }, websites: { iv: ["PRAXISNETZ"] } },
  }));
  const res = await request.post("/api/squidex/api/content/praxisnetz/gm-content-practitioners/bulk", { data: { jobs }, headers: { authorization: `Bearer ${access_token}` } });
  expect(res.status(), await res.text()).toBe(200);
  const results = (await res.json()) as Array<{ error?: unknown }>;
  expect(results.filter((r) => r.error)).toEqual([]);
}

test("goes to the last page of a big list, sorts it there and jumps to a typed page", async ({ page, request }) => {
  await seedProbes(request);
  await signIn(page, LIST);
  const status = page.locator("[data-list-total]");
  const total = Number(await status.getAttribute("data-list-total"));
  expect(total).toBeGreaterThanOrEqual(PROBES);
  const pages = Math.ceil(total / 25);
  // Counts print as the editor reads them (tests/api/admin-list-paging.test.ts checks 10.036 at size).
  await expect(status).toHaveText(`Einträge: ${total.toLocaleString("de-DE")}`);
  const pager = page.getByRole("navigation", { name: `Seite 1 von ${pages}` });
  await expect(pager).toBeVisible();
  await waitForHydration(page);

  await pager.getByRole("link", { name: "Letzte Seite" }).click();
  await expect(page).toHaveURL(`${LIST}?page=${pages}`);
  const lastPager = page.getByRole("navigation", { name: `Seite ${pages} von ${pages}` });
  await expect(lastPager).toBeVisible();
  await expect(page.locator("[data-content-list] tbody tr")).toHaveCount(total - (pages - 1) * 25);
  await expect(lastPager.getByRole("link", { name: "Erste Seite" })).toBeVisible();
  await expect(lastPager.getByRole("link", { name: "Weiter" })).toHaveCount(0);

  // Sorting by place from the last page: the list starts again at its first page, in that order.
  const city = page.locator('th[data-sort-key="city"]');
  await expect(city).not.toHaveAttribute("aria-sort");
  await expect(page.locator('th[data-sort-key="modified"]')).toHaveAttribute("aria-sort", "descending");
  await city.getByRole("link", { name: /Ort/ }).click();
  await expect(page).toHaveURL(`${LIST}?sort=city`);
  await expect(city).toHaveAttribute("aria-sort", "ascending");
  await expect(page.locator('th[data-sort-key="modified"]')).not.toHaveAttribute("aria-sort");

  // The order is kept on the way to the last page, where the place sorting last is.
  await page.getByRole("navigation", { name: `Seite 1 von ${pages}` }).getByRole("link", { name: "Letzte Seite" }).click();
  await expect(page).toHaveURL(`${LIST}?sort=city&page=${pages}`);
  await expect(city).toHaveAttribute("aria-sort", "ascending");
  const rows = page.locator("[data-content-list] tbody tr");
  await expect(rows.last().locator("td").nth(2)).toHaveText(CITY);
  await expectNoAxeViolations(page);

  // Turned round: the probes come first.
  await city.getByRole("link", { name: /Ort/ }).click();
  await expect(page).toHaveURL(`${LIST}?sort=-city`);
  await expect(city).toHaveAttribute("aria-sort", "descending");
  await expect(rows.first().locator("td").nth(2)).toHaveText(CITY);

  // A typed page number, the order kept.
  const jump = page.getByRole("spinbutton", { name: "Gehe zu Seite" });
  await jump.fill("2");
  await page.getByRole("button", { name: "Los" }).click();
  await expect(page).toHaveURL(`${LIST}?sort=-city&page=2`);
  await expect(page.getByRole("navigation", { name: `Seite 2 von ${pages}` })).toBeVisible();

  // Past the end (a stale bookmark, a hand-edited address): the last page, never "Seite 407 von 12".
  const response = await page.goto(`${LIST}?sort=-city&page=99999999999999999999`);
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL(`${LIST}?sort=-city&page=${pages}`);
  await expect(page.getByRole("navigation", { name: `Seite ${pages} von ${pages}` })).toBeVisible();
});

test("filters the list by place and visibility, kept while paging and sorting", async ({ page, request }) => {
  await seedProbes(request);
  await signIn(page, LIST);
  await waitForHydration(page);
  await page.getByLabel("Ort", { exact: true }).fill("zettel");
  await page.getByLabel("Sichtbar", { exact: true }).selectOption("yes");
  await page.getByRole("button", { name: "Anwenden" }).click();
  await expect(page).toHaveURL(/[?&]city=zettel&display=yes/);
  await expect(page.locator("[data-list-total]")).toHaveAttribute("data-list-total", String(PROBES));
  await page.locator('th[data-sort-key="name"]').getByRole("link").click();
  await expect(page).toHaveURL(`${LIST}?sort=name&city=zettel&display=yes`);
  await page.getByRole("link", { name: "Letzte Seite" }).click();
  await expect(page).toHaveURL(`${LIST}?sort=name&city=zettel&display=yes&page=12`);
  await expect(page.locator("[data-content-list] tbody tr").last()).toContainText(`Listenprobe ${PROBES - 1}`);
});
