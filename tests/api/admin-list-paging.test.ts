import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ADMIN, signIn } from "../support/auth";
import { iv, startFilledServer } from "../support/fill";
import type { RunningServer } from "../support/server";

/**
 * The admin's collection list at size (10 000 practitioners more than the demo): paging an editor
 * can steer (first, last, a typed page), hostile page numbers sent to the first or last page (never
 * a 5xx, never "page 407 of 402"), sorting by a column and filtering, both kept across pages, and
 * counts with thousands separators here and in the public directory.
 */
const FILLED = 10_000;
const CITIES = ["Köln", "München", "Düsseldorf", "Würzburg", "Lübeck"];
/** A place only the last 30 filled practitioners have: a filter with exactly two pages. */
const RARE_CITY = "Zettelstadt";
const RARE = 30;
const LIST = "/manage/content/gm-content-practitioners";

describe("the admin collection list with 10 000 practitioners", () => {
  let server: RunningServer;
  let cookie: string;

  const get = (path: string) => fetch(`${server.url}${path}`, { headers: { cookie }, redirect: "manual" });
  const page = async (path: string) => {
    const res = await get(path);
    const html = await res.text();
    expect(res.status, `${path}: ${html.slice(0, 300)}`).toBe(200);
    return html;
  };
  const total = (html: string) => Number(html.match(/data-list-total="(\d+)"/)?.[1]);
  const cities = (html: string) => [...html.matchAll(/<tr[^>]*data-item="[^"]+"[^>]*>(.*?)<\/tr>/gs)].map((m) => [...m[1]!.matchAll(/<td[^>]*>(.*?)<\/td>/gs)][2]?.[1]);
  const location = (res: Response) => {
    const to = res.headers.get("location");
    expect(to, "a redirect").toBeTruthy();
    const url = new URL(to!, server.url);
    expect(url.pathname).toBe(LIST);
    return url.searchParams;
  };

  beforeAll(async () => {
    server = await startFilledServer((put) => {
      for (let i = 0; i < FILLED; i++) {
        put(`paging-${i}`, "gm-content-practitioners", {
          name: iv(`Paula Seitenweise ${String(i).padStart(5, "0")}`),
          display: iv(i % 3 !== 0),
          websites: iv(["PRAXISNETZ"]),
          languages: iv(["de"]),
          country: iv("DE"),
          city: iv(i >= FILLED - RARE ? RARE_CITY : CITIES[i % CITIES.length]),
          coords: iv({ latitude: 50 + (i % 100) / 100, longitude: 7 + (i % 97) / 100 }),
          finishedPractitioner: iv(i % 2 === 0),
        });
      }
    });
    cookie = await signIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
  });

  it("pages to the last page with first, previous and a typed page number, counts grouped", async () => {
    const first = await page(LIST);
    const count = total(first);
    expect(count).toBeGreaterThan(FILLED);
    const last = Math.ceil(count / 25);
    // 10.0xx items, "Seite 1 von 4xx": German groups thousands with a dot.
    expect(first).toMatch(new RegExp(`Einträge: ${Math.floor(count / 1000)}\\.\\d{3}`));
    expect(first).toContain(`Seite 1 von ${last}`);
    expect(first).toContain(`href="${LIST}?page=${last}"`);
    expect(first).toMatch(/<label for="([^"]+)"[^>]*>Gehe zu Seite<\/label><input id="\1"[^>]*type="number"[^>]*max="\d+"[^>]*name="page"/);

    const end = await page(`${LIST}?page=${last}`);
    expect(end).toContain(`Seite ${last} von ${last}`);
    expect(cities(end)).toHaveLength(count - (last - 1) * 25);
    expect(end).toContain(`href="${LIST}"`); // the first page: no page parameter
    expect(end).toContain(`href="${LIST}?page=${last - 1}"`);
    expect(end).not.toContain(`?page=${last + 1}`);
  });

  it.each([
    ["abc", "first"],
    ["-1", "first"],
    ["0", "first"],
    ["1.5", "first"],
    ["1e308", "first"],
    ["%00", "first"],
    ["%F0%9F%92%A9", "first"],
    ["99999999999999999999", "last"],
    ["9".repeat(2000), "last"],
    ["1000000", "last"],
  ])("sends ?page=%s to the %s page, the rest of the request kept", async (raw, where) => {
    const res = await get(`${LIST}?sort=-city&display=yes&page=${raw}`);
    expect(res.status).toBe(302);
    const params = location(res);
    expect(params.get("sort")).toBe("-city");
    expect(params.get("display")).toBe("yes");
    if (where === "first") expect(params.get("page")).toBeNull();
    else {
      const html = await page(`${LIST}?${params}`);
      const pages = Math.ceil(total(html) / 25);
      expect(params.get("page")).toBe(String(pages));
      expect(html).toContain(`Seite ${pages} von ${pages}`);
    }
  });

  it("sends a page past the end of a filtered list to its last page", async () => {
    const res = await get(`${LIST}?city=${RARE_CITY}&page=3`);
    expect(res.status).toBe(302);
    expect(location(res).toString()).toBe(`city=${RARE_CITY}&page=2`);
    // Nothing found: page 1 of 1, never "page 1 of 0".
    const none = await get(`${LIST}?city=Nirgendwo&page=2`);
    expect(location(none).get("page")).toBeNull();
  });

  it("sorts by a column in the database, the order kept across pages and shown by aria-sort", async () => {
    const ascending = await page(`${LIST}?sort=city`);
    expect(ascending).toMatch(/<th[^>]*aria-sort="ascending"[^>]*data-sort-key="city"/);
    expect(ascending).not.toMatch(/aria-sort="[^"]+"[^>]*data-sort-key="modified"/);
    // The sorted column's heading turns the order round; another column starts ascending.
    expect(ascending).toContain(`href="${LIST}?sort=-city"`);
    expect(ascending).toContain(`href="${LIST}?sort=name"`);
    const pages = Math.ceil(total(ascending) / 25);
    expect(ascending).toContain(`href="${LIST}?sort=city&amp;page=2"`);
    const last = await page(`${LIST}?sort=city&page=${pages}`);
    expect(cities(last).at(-1)).toBe(RARE_CITY);
    const descending = await page(`${LIST}?sort=-city`);
    expect(descending).toMatch(/aria-sort="descending"[^>]*data-sort-key="city"/);
    expect(cities(descending)).toEqual(Array(25).fill(RARE_CITY));
    const byName = await page(`${LIST}?sort=-name&city=${RARE_CITY}`);
    expect(byName.match(/Paula Seitenweise \d{5}/)?.[0]).toBe(`Paula Seitenweise ${String(FILLED - 1).padStart(5, "0")}`);
  });

  it("filters by place, visibility and finished registration, kept in sort and page links", async () => {
    const rare = await page(`${LIST}?city=zettel&sort=name`);
    expect(total(rare)).toBe(RARE);
    expect(rare).toContain(`href="${LIST}?sort=name&amp;city=zettel&amp;page=2"`);
    expect(rare).toContain(`href="${LIST}?sort=-name&amp;city=zettel"`);
    // The jump form (lists of more than two pages) sends the filter and the order along.
    expect(rare).not.toContain("data-pager-jump");
    const many = await page(`${LIST}?city=k%C3%B6&sort=-name`);
    expect(total(many)).toBeGreaterThan(FILLED / CITIES.length - RARE);
    expect(many).toMatch(/data-pager-jump[^>]*><input type="hidden" name="sort" value="-name"\/><input type="hidden" name="city" value="kö"\/><label/);
    const hidden = await page(`${LIST}?city=${RARE_CITY}&display=no`);
    expect(total(hidden)).toBe([...Array(RARE).keys()].filter((k) => (FILLED - RARE + k) % 3 === 0).length);
    const finished = await page(`${LIST}?city=${RARE_CITY}&finishedPractitioner=yes&display=yes`);
    expect(total(finished)).toBe([...Array(RARE).keys()].filter((k) => (FILLED - RARE + k) % 2 === 0 && (FILLED - RARE + k) % 3 !== 0).length);
    const drafts = await page(`${LIST}?city=${RARE_CITY}&status=Draft`);
    expect(total(drafts)).toBe(0);
  });

  it.each(["sort=email", "sort=%00", `sort=${"-".repeat(5000)}`, "display=maybe", "finishedPractitioner=1", `city=${"x".repeat(500)}`, "city=%00", "status=Gone", `q=${"x".repeat(300)}`])(
    "refuses %s with a 400 and a message, never a 5xx",
    async (query) => {
      const res = await get(`${LIST}?${query}`);
      const html = await res.text();
      expect(res.status).toBe(400);
      expect(html).toMatch(/data-list-problem[^>]*>[^<]{10,}/);
    },
  );

  it("every paged admin list has the jump box, and a page past its end goes to its last page", async () => {
    // A third of the filled practitioners are not shown (display off): registrations to review, many pages.
    const first = await page("/manage/registrations");
    const pages = Number(first.match(/Seite 1 von ([\d.]+)/)?.[1]?.replace(/\./g, ""));
    expect(pages).toBeGreaterThan(100);
    expect(first).toContain("data-pager-jump");
    expect(first.match(/<form[^>]*data-pager-jump[^>]*>(.*?)<\/form>/s)?.[1]).toMatch(/<input[^>]*type="number"[^>]*name="page"|<input[^>]*name="page"[^>]*type="number"/);
    const past = await get("/manage/registrations?page=99999");
    expect(past.status).toBe(302);
    expect(new URL(past.headers.get("location")!, server.url).search).toBe(`?page=${pages}`);
    const pagesList = await get("/manage/pages?q=zzzz-nichts&page=7");
    expect(pagesList.status).toBe(302);
    expect(new URL(pagesList.headers.get("location")!, server.url).search).toBe("?q=zzzz-nichts");
    // The jump box keeps the list's query: search, filters and sort ride along as hidden inputs.
    const sorted = await page(`${LIST}?sort=city&city=${encodeURIComponent(CITIES[0]!)}`);
    const jump = sorted.match(/<form[^>]*data-pager-jump[^>]*>(.*?)<\/form>/s)?.[1] ?? "";
    expect(jump).toMatch(/name="sort" value="city"/);
    expect(jump).toContain(`name="city" value="${CITIES[0]}"`);
  });

  it("prints the public directory's result count with a thousands separator", async () => {
    const de = await (await fetch(`${server.url}/practitioners`)).text();
    expect(de).toMatch(/\d{1,3}\.\d{3} Behandelnde gefunden/);
    const en = await (await fetch(`${server.url}/en/practitioners`)).text();
    expect(en).toMatch(/\d{1,3},\d{3} practitioners found/);
  });
});
