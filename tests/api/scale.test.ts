import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fold } from "~/content/fold";
import { slugify } from "~/content/slug";
import { PAGE_SIZE } from "~/practitioners/directory";
import { iv, startFilledServer } from "../support/fill";
import { postJson, type RunningServer } from "../support/server";

/**
 * The site at more than demo size (not timed): 1 000+ practitioners beside the demo's, some hidden or
 * listed on another site, and 1 000+ appointment slots. Every count, page and lookup must be exact.
 */
const VISIBLE_PAGES = 90;
const HIDDEN = 150;
const OTHER_SITE = 60;
const FIRST = ["Jürgen", "Özlem", "Anna", "Björn", "Sören", "Çiğdem", "Hannah", "Lutz", "Maëlle", "Zoë"];
const LAST = ["Weiß", "Müller", "Groß", "Schäfer", "Köhler", "Brandt", "Yılmaz", "Nowak", "Schulz", "Dreßler", "Ahrens"];

interface Row {
  id: string;
  name: string;
  display: boolean;
  websites: string[];
}


/** Slugs as the store assigns them when it fills a side table: in id order, the first free of base, base-2, base-3… */
function storedSlugs(rows: ReadonlyArray<{ id: string; name: string }>): Map<string, string> {
  const taken = new Set<string>();
  const slugs = new Map<string, string>();
  for (const r of [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const base = slugify(r.name) || "item";
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    taken.add(slug);
    slugs.set(r.id, slug);
  }
  return slugs;
}

describe("the site with 1 000+ practitioners and appointments", () => {
  let server: RunningServer;
  let visible: Array<Row & { slug: string }>;
  let hidden: Row[];
  let last: Row & { slug: string };
  const future = (i: number) => new Date(Date.now() + (i + 2) * 3_600_000).toISOString();

  beforeAll(async () => {
    server = await startFilledServer((put, db) => {
      const seeded = (db.prepare("select id, published_data from contents where schema_name = 'gm-content-practitioners' and status = 'Published'").all() as Array<{ id: string; published_data: string }>).map(
        (r) => {
          const d = JSON.parse(r.published_data) as { name: { iv: string }; display: { iv: boolean }; websites: { iv: string[] } };
          return { id: r.id, name: d.name.iv, display: d.display.iv, websites: d.websites.iv };
        },
      );
      const isVisible = (r: Row) => r.display && r.websites.includes("PRAXISNETZ");
      const seededVisible = seeded.filter(isVisible).length;
      // Enough generated practitioners that the last directory page is exactly full.
      const generatedVisible = VISIBLE_PAGES * PAGE_SIZE - seededVisible;
      const rows: Row[] = [];
      for (let i = 0; i < generatedVisible + HIDDEN + OTHER_SITE; i++) {
        const kind = i < generatedVisible ? "visible" : i < generatedVisible + HIDDEN ? "hidden" : "other";
        rows.push({
          id: `scale-${String(i).padStart(5, "0")}`,
          // Repeated names on purpose: slugs get -2, -3… in id order.
          name: `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}${kind === "visible" ? "" : " Verborgen"}`,
          display: kind !== "hidden",
          websites: kind === "other" ? ["ANDERESEITE"] : ["PRAXISNETZ"],
        });
      }
      for (const [i, r] of rows.entries()) {
        put(r.id, "gm-content-practitioners", {
          name: iv(r.name),
          display: iv(r.display),
          websites: iv(r.websites),
          languages: iv(i % 3 ? ["de"] : ["de", "en"]),
          country: iv("DE"),
          city: iv(i % 2 ? "Köln" : "Leipzig"),
          finishedPractitioner: iv(true),
          email: iv(`geheim.${i}@example.org`),
        });
      }
      // One slot per generated practitioner (hidden ones too), and three more for the last visible one.
      for (const [i, r] of rows.entries()) {
        put(`slot-${String(i).padStart(5, "0")}`, "gm-appointments", { practitioner: iv([r.id]), start: iv(future(i % 400)), durationMinutes: iv(30), booked: iv(i % 5 === 0) });
      }
      const slugs = storedSlugs([...seeded, ...rows]);
      const binary = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
      visible = [...seeded, ...rows]
        .filter(isVisible)
        .map((r) => ({ ...r, slug: slugs.get(r.id)! }))
        .sort((a, b) => binary(fold(a.name), fold(b.name)) || binary(a.name, b.name) || binary(a.id, b.id));
      hidden = rows.filter((r) => !isVisible(r));
      last = visible[visible.length - 1]!;
      for (let k = 0; k < 3; k++) put(`slot-last-${k}`, "gm-appointments", { practitioner: iv([last.id]), start: iv(future(500 + k)), durationMinutes: iv(30), booked: iv(false) });
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  const html = async (p: string) => {
    const res = await fetch(`${server.url}${p}`);
    return { status: res.status, text: await res.text() };
  };
  const cards = (text: string) => [...text.matchAll(/data-practitioner="([^"]+)"/g)].map((m) => m[1]!);

  it("counts every visible practitioner in the directory, and the last page is full and right", async () => {
    expect(visible.length).toBe(VISIBLE_PAGES * PAGE_SIZE);
    const firstPage = await html("/practitioners");
    expect(firstPage.text).toContain(`${visible.length.toLocaleString("de-DE")} Behandelnde gefunden`);
    expect(cards(firstPage.text)).toEqual(visible.slice(0, PAGE_SIZE).map((p) => p.slug));
    const lastPage = await html(`/practitioners?page=${VISIBLE_PAGES}`);
    expect(cards(lastPage.text)).toEqual(visible.slice(-PAGE_SIZE).map((p) => p.slug));
  });

  it("finds the last practitioner's profile by slug, with their free appointments", async () => {
    const profile = await html(`/practitioners/${last.slug}`);
    expect(profile.status).toBe(200);
    expect(profile.text).toContain(`data-profile="${last.slug}"`);
    // Free slots, grouped by day, each a link to its booking page.
    const list = profile.text.match(/<div[^>]*data-appointments[^>]*>([\s\S]*?)<\/div>/)?.[1] ?? "";
    expect((list.match(/data-slot="/g) ?? []).length).toBeGreaterThanOrEqual(3);
    expect(list).toMatch(/href="\/appointments\/book\/[^"]+"/);
  });

  it("keeps hidden and other-site practitioners hidden after paging, and their slots too", async () => {
    const ids = new Set<string>();
    let total = -1;
    for (let skip = 0; ; skip += 200) {
      const res = await postJson(`${server.url}/api/rest`, { url: `gm-content-practitioners?$top=200&$skip=${skip}&$orderby=id`, language: "de" });
      expect(res.status).toBe(200);
      total = res.json.total;
      for (const item of res.json.items as Array<{ id: string; data: Record<string, unknown> }>) {
        expect(ids.has(item.id)).toBe(false);
        ids.add(item.id);
        expect(item.data).not.toHaveProperty("email");
      }
      if (res.json.items.length < 200) break;
    }
    expect(total).toBe(visible.length);
    expect(ids).toEqual(new Set(visible.map((p) => p.id)));
    for (const h of hidden.slice(0, 5)) expect((await html(`/practitioners/${slugify(h.name)}`)).status).toBe(404);
    const slots = await postJson(`${server.url}/api/rest`, {
      url: `gm-appointments?$top=200&$filter=${encodeURIComponent(`data/practitioner/iv eq '${hidden[0]!.id}'`)}`,
      language: "de",
    });
    expect(slots.json).toMatchObject({ total: 0, items: [] });
    const lastSlots = await postJson(`${server.url}/api/rest`, {
      url: `gm-appointments?$top=200&$filter=${encodeURIComponent(`data/practitioner/iv eq '${last.id}'`)}`,
      language: "de",
    });
    expect(lastSlots.json.total).toBeGreaterThanOrEqual(3);
  });

  it("answers $skip beyond the end with an empty page and the exact total", async () => {
    const res = await postJson(`${server.url}/api/rest`, { url: "gm-content-practitioners?$top=20&$skip=9000", language: "de" });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ total: visible.length, items: [] });
    // Past a visitor's bound on skipping (limits.ts): a 400 naming it, not a walk of the index.
    const far = await postJson(`${server.url}/api/rest`, { url: "gm-content-practitioners?$top=20&$skip=1000000", language: "de" });
    expect(far.status).toBe(400);
    expect(far.json.message).toContain("skip at most");
    const beyond = await postJson(`${server.url}/api/rest`, { url: "gm-content-practitioners?$top=201", language: "de" });
    expect(beyond.status).toBe(400);
    expect(beyond.json.message).toContain("$top");
  });
});
