import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { iv, startFilledServer } from "../support/fill";
import { squidexToken, type RunningServer } from "../support/server";

/**
 * The directory map's marker endpoint at size: 100 000 practitioners on a lattice over western
 * Germany (every tenth hidden, every 25th on another site, every 50th with a second place in
 * Hamburg). Counts and bounds are checked against the lattice; hidden practitioners never count and
 * are never named; the answer stays small however many practitioners there are; bad input is a 400.
 */
const N = 100_000;
const ROWS = 500; // latitudes 47.00 … 51.99, 0.01 apart
const lat = (i: number) => 47 + (i % ROWS) / 100;
const lng = (i: number) => 6 + Math.floor(i / ROWS) * 0.04; // 200 columns, 6.00 … 13.96
const visible = (i: number) => i % 10 !== 0 && i % 25 !== 3;
const second = (i: number) => i % 50 === 1;
const speaksFrench = (i: number) => i % 4 === 2;

interface Collection {
  type: string;
  total: number;
  features: Array<{ geometry: { type: string; coordinates: [number, number] }; properties: { count: number; name?: string; href?: string; city?: string } }>;
}

describe("map markers of 100 000 practitioners", () => {
  let server: RunningServer;
  const get = (query: string) => fetch(`${server.url}/api/practitioners/map?${query}`);
  const map = async (query: string) => {
    const res = await get(query);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/geo+json");
    return (await res.json()) as Collection;
  };
  /** The points a visitor may see in a plain latitude/longitude box, counted from the lattice. */
  const expected = (box: { west: number; south: number; east: number; north: number }, keep: (i: number) => boolean = () => true) => {
    let n = 0;
    const inside = (la: number, lo: number) => la >= box.south && la <= box.north && lo >= box.west && lo <= box.east;
    for (let i = 0; i < N; i++) {
      if (!visible(i) || !keep(i)) continue;
      if (inside(lat(i), lng(i))) n++;
      if (second(i) && inside(53.55, 10)) n++;
    }
    return n;
  };

  beforeAll(async () => {
    server = await startFilledServer((put) => {
      for (let i = 0; i < N; i++)
        put(`map-${String(i).padStart(6, "0")}`, "gm-content-practitioners", {
          name: iv(i % 10 === 0 ? `Verborgen ${i}` : `Karten Person ${i}`),
          display: iv(i % 10 !== 0),
          websites: iv([i % 25 === 3 ? "ANDERE" : "PRAXISNETZ"]),
          languages: iv(speaksFrench(i) ? ["de", "fr"] : ["de"]),
          country: iv("DE"),
          city: iv("Kartenstadt"),
          coords: iv({ latitude: lat(i), longitude: lng(i) }),
          ...(second(i) ? { coords2: iv({ latitude: 53.55, longitude: 10 }) } : {}),
          finishedPractitioner: iv(true),
        });
    });
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
  });

  it("counts every visible place of the world at zoom 0 in a handful of markers", async () => {
    const world = await map("zoom=0&west=-180&south=-85&east=180&north=85");
    const demo = (await map("zoom=0&west=-180&south=-85&east=180&north=85&q=Karten")).total;
    expect(demo).toBe(expected({ west: -180, south: -90, east: 180, north: 90 }));
    // The demo's own practitioners are on the map too.
    expect(world.total).toBeGreaterThan(demo);
    expect(world.features.length).toBeLessThanOrEqual(16);
    expect(world.features.reduce((n, f) => n + f.properties.count, 0)).toBe(world.total);
    expect(JSON.stringify(world).length).toBeLessThan(4096);
  });

  it("counts the places inside the bounds asked for, and none outside", async () => {
    // Bounds halfway between the lattice's lines, at a zoom whose squares (≈ 0.005°) are narrower
    // than the gap, so rounding out to whole squares reaches no further point.
    const box = { west: 7.02, south: 48.005, east: 7.22, north: 48.195 };
    const r = await map(`zoom=14&west=${box.west}&south=${box.south}&east=${box.east}&north=${box.north}&q=Karten`);
    expect(r.total).toBe(expected(box));
    // Five columns (7.04 … 7.20) of nineteen rows (48.01 … 48.19), less the hidden ones.
    expect(r.total).toBe(5 * 19 - hiddenIn(box));
    for (const f of r.features) {
      const [lo, la] = f.geometry.coordinates;
      expect(lo).toBeGreaterThan(box.west - 0.01);
      expect(lo).toBeLessThan(box.east + 0.01);
      expect(la).toBeGreaterThan(box.south - 0.01);
      expect(la).toBeLessThan(box.north + 0.01);
    }
    // Squares this small hold one place each: every marker names its practitioner and links the profile.
    expect(r.features.every((f) => f.properties.count === 1 && f.properties.name?.startsWith("Karten Person ") && f.properties.href?.startsWith("/practitioners/"))).toBe(true);
    const profile = await fetch(`${server.url}${r.features[0]!.properties.href}`);
    expect(profile.status).toBe(200);
    const en = await map(`zoom=14&west=${box.west}&south=${box.south}&east=${box.east}&north=${box.north}&q=Karten&lang=en`);
    expect(en.features[0]!.properties.href).toMatch(/^\/en\/practitioners\//);
    // A second place counts where it is.
    const hamburg = await map("zoom=10&west=9.9&south=53.5&east=10.1&north=53.6&q=Karten");
    expect(hamburg.total).toBe(expected({ west: 9.9, south: 53.5, east: 10.1, north: 53.6 }));
    expect(hamburg.total).toBeGreaterThan(1000);
    expect(hamburg.features).toHaveLength(1);
  });

  function hiddenIn(box: { west: number; south: number; east: number; north: number }) {
    let n = 0;
    for (let i = 0; i < N; i++) if (!visible(i) && lat(i) >= box.south && lat(i) <= box.north && lng(i) >= box.west && lng(i) <= box.east) n++;
    return n;
  }

  it("filters like the directory, and never counts or names hidden practitioners", async () => {
    const box = { west: 5, south: 46, east: 15, north: 55 };
    const area = `west=${box.west}&south=${box.south}&east=${box.east}&north=${box.north}`;
    expect((await map(`zoom=5&${area}&q=Karten&language=fr`)).total).toBe(expected(box, speaksFrench));
    expect((await map(`zoom=5&${area}&q=Verborgen`)).total).toBe(0);
    expect((await map(`zoom=5&${area}&q=Karten&country=AT`)).total).toBe(0);
    const close = await map("zoom=16&west=6.0&south=47.0&east=6.02&north=47.05");
    expect(JSON.stringify(close)).not.toContain("Verborgen");
  });

  it("follows changes: a practitioner hidden through the API leaves the (cached) map at once", async () => {
    const area = "zoom=16&west=6.0&south=47.0&east=6.02&north=47.05&q=Karten";
    const before = await map(area);
    const named = before.features.find((f) => f.properties.name === "Karten Person 1")!;
    expect(named).toBeTruthy();
    expect((await map(area)).total).toBe(before.total); // the same answer, now from the cache
    const res = await fetch(`${server.url}/api/squidex/api/content/praxisnetz/gm-content-practitioners/map-000001`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${await squidexToken(server)}`, "content-type": "application/json" },
      body: JSON.stringify({ display: { iv: false } }),
    });
    expect(res.status, await res.text()).toBe(200);
    const after = await map(area);
    expect(after.total).toBe(before.total - 1);
    expect(JSON.stringify(after)).not.toContain("Karten Person 1\"");
    // The English answer was never cached before the change; it agrees.
    expect((await map(`${area}&lang=en`)).total).toBe(after.total);
  });

  it("answers 304 to its ETag", async () => {
    const query = "zoom=6&west=5&south=46&east=15&north=55";
    const first = await get(query);
    const etag = first.headers.get("etag")!;
    expect(etag).toBeTruthy();
    const again = await fetch(`${server.url}/api/practitioners/map?${query}`, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
  });

  it("refuses bad input with a 400 and a message", async () => {
    for (const query of [
      "",
      "zoom=abc&west=0&south=0&east=1&north=1",
      "zoom=1.5&west=0&south=0&east=1&north=1",
      "zoom=21&west=0&south=0&east=1&north=1",
      "zoom=-1&west=0&south=0&east=1&north=1",
      "zoom=5&west=2&south=0&east=1&north=1",
      "zoom=5&west=0&south=1&east=1&north=0",
      "zoom=5&west=0&south=-91&east=1&north=1",
      "zoom=5&west=0&south=0&east=1&north=Infinity",
      "zoom=5&west=0&south=0&east=1e400&north=1",
      "zoom=20&west=-180&south=-85&east=180&north=85",
      "zoom=5&west=0&south=0&east=1&north=1&lang=fr",
      "zoom=5&west=0x10&south=0&east=1&north=1",
    ]) {
      const res = await get(query);
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { message: string }).message, query).toBeTruthy();
    }
    const post = await fetch(`${server.url}/api/practitioners/map?zoom=1&west=0&south=0&east=1&north=1`, { method: "POST" });
    expect(post.status).toBe(405);
  });
});
