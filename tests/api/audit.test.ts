import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ADMIN, signIn } from "../support/auth";
import { startServer, squidexToken, type RunningServer } from "../support/server";

/**
 * The audit log as a superuser reads it (issue 22, point 10): filters by person, action, collection
 * and day; people by name, items by title with a link, actions in words; hostile filter values are
 * ignored, never a 5xx.
 */
let server: RunningServer;
let cookie: string;

beforeAll(async () => {
  server = await startServer();
  cookie = await signIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
  // One change by a connected program (the Squidex API): an entry with a collection and an item.
  const token = await squidexToken(server);
  const res = await fetch(`${server.url}/api/squidex/api/content/praxisnetz/core-pages?publish=false`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ title: { de: "Protokollseite", en: "Log page" }, seo: { de: { schemaId: "component-seo", seotitle: "Protokollseite", slug: "protokollseite" } }, navigation: { iv: "none" } }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

const page = async (query = "") => {
  const res = await fetch(`${server.url}/manage/audit${query}`, { headers: { cookie } });
  return { status: res.status, html: await res.text() };
};
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/;
const rowsOf = (html: string) => [...html.matchAll(/<tr[^>]*data-audit-action="([^"]+)"[^>]*>([\s\S]*?)<\/tr>/g)].map((m) => ({ action: m[1]!, text: m[2]!.replace(/<[^>]+>/g, " ") }));

describe("the audit log", () => {
  it("names the item by its title with a link, the action in words, and shows no id", async () => {
    const { status, html } = await page("?action=create-content&schema=core-pages");
    expect(status).toBe(200);
    const rows = rowsOf(html);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.action === "create-content")).toBe(true);
    expect(rows[0]!.text).toContain("Protokollseite");
    expect(rows[0]!.text).toContain("Eintrag angelegt");
    expect(html).toMatch(/href="\/manage\/pages\/[^"]+"[^>]*>Protokollseite</);
    for (const r of rows) expect(r.text).not.toMatch(UUID);
    // Written through the Squidex API: said as such, not as the client's id.
    expect(rows[0]!.text).toContain("ein angebundenes Programm");
    expect(html).not.toContain("client:");
  });

  it("filters by day: a day without changes shows none, today shows them", async () => {
    const none = rowsOf((await page("?from=2001-01-01&to=2001-01-02")).html);
    expect(none).toEqual([]);
    const today = new Date().toLocaleDateString("en-CA", { timeZone: "Europe/Berlin" });
    expect(rowsOf((await page(`?from=${today}&to=${today}`)).html).length).toBeGreaterThan(0);
  });

  it("ignores hostile filter values and keysets: 200, never a 5xx", async () => {
    for (const q of ["?who=%00", "?action=__proto__", "?schema=../../etc", "?from=2024-13-45", "?to=99999-01-01", "?at=nonsense&id=x", `?at=${"9".repeat(5000)}&id=${"x".repeat(5000)}`, "?from=2024-02-30"]) {
      const { status } = await page(q);
      expect(status, q).toBe(200);
    }
  });
});
