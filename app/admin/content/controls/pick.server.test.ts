import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContentError } from "~/content/errors";
import { demoSchemas } from "~/content/seed/schemas";
import type { ContentStore } from "~/content/store";
import { sqliteStoreBackend, type StoreBackend } from "../../../../tests/support/store-backends";
import { controlsData } from "./data.server";
import { askGeocoder, directoryPlaces, geocode, parseAddress, searchAssets, searchItems } from "./pick.server";

/**
 * The pickers' server side on a real SQLite store with the demo schemas: items by title (drafts
 * too, paged, at 100 000 items), library files by name, places by address (a real local HTTP server
 * as the geocoder, and an unreachable one), and the names the item form shows for chosen ids.
 */

const PRACTITIONERS = "gm-content-practitioners";
const APPOINTMENTS = "gm-appointments";
const editor = { kind: "user" as const, userId: "t", email: "editor@example.org", superuser: false };
const visitor = { kind: "visitor" as const };
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAAD0lEQVR4nGP4z8DAwPAfAAcAAf9+CLHQAAAAAElFTkSuQmCC", "base64");
const params = (q: Record<string, string>) => new URLSearchParams(q);
/** How many generated practitioners the scale case adds (beside the few named ones). */
const MANY = 100_000;

async function status(run: () => Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await run();
  } catch (error) {
    if (error instanceof ContentError) return { status: error.statusCode, message: error.message };
    throw error;
  }
  return { status: 200, message: "" };
}

let backend: StoreBackend;
let store: ContentStore;

beforeAll(async () => {
  backend = sqliteStoreBackend("pickers", 64 * 1024);
  store = await backend.openStore();
  await store.migrate();
  for (const s of demoSchemas.filter((s) => s.name === PRACTITIONERS || s.name === APPOINTMENTS || s.name === "component-seo")) await store.upsertSchema(s);
  const base = { websites: { iv: ["PRAXISNETZ"] }, display: { iv: true } };
  await store.create(PRACTITIONERS, { ...base, name: { iv: "Anna Müller" }, city: { iv: "Berlin" }, street: { iv: "Torstraße 1" }, zip: { iv: "10119" }, coords: { iv: { latitude: 52.529, longitude: 13.401 } } }, { id: "anna-berlin", publish: true });
  await store.create(PRACTITIONERS, { ...base, name: { iv: "Anna Müller" }, city: { iv: "Köln" }, street: { iv: "Domkloster 4" }, zip: { iv: "50667" }, coords: { iv: { latitude: 50.941, longitude: 6.958 } } }, { id: "anna-koeln", publish: true });
  // A draft: the admin's pickers see it, visitors never.
  await store.create(PRACTITIONERS, { ...base, name: { iv: "Anna Entwurf" }, city: { iv: "Hamburg" } }, { id: "anna-draft" });
  await store.assets.upload({ fileName: "Praxis Foto.png", body: PNG, id: "photo-1" });
  await store.assets.upload({ fileName: "praxis-plan.txt", mimeType: "text/plain", body: Buffer.from("plan"), id: "text-1" });
  for (let i = 0; i < 30; i++) await store.assets.upload({ fileName: `bild-${String(i).padStart(2, "0")}.png`, body: PNG, id: `bulk-${i}` });
}, 60_000);

afterAll(async () => {
  await store?.close();
  await backend?.dispose();
});

describe("searchItems", () => {
  it("finds items by title with their city, drafts included, and tells equal names apart", async () => {
    const found = await searchItems(store, editor, PRACTITIONERS, params({ q: "anna" }), "de");
    expect(found.total).toBe(3);
    expect(found.items).toEqual([
      { id: "anna-draft", title: "Anna Entwurf", detail: "Hamburg", status: "Draft" },
      { id: "anna-berlin", title: "Anna Müller", detail: "Berlin", status: "Published" },
      { id: "anna-koeln", title: "Anna Müller", detail: "Köln", status: "Published" },
    ]);
    // Umlauts and their spellings alike; the city is searched too.
    expect((await searchItems(store, editor, PRACTITIONERS, params({ q: "mueller koeln" }), "de")).items.map((i) => i.id)).toEqual(["anna-koeln"]);
  });

  it("pages with skip", async () => {
    const second = await searchItems(store, editor, PRACTITIONERS, params({ q: "anna", skip: "1" }), "de", 1);
    expect(second).toEqual({ total: 3, items: [expect.objectContaining({ id: "anna-berlin" })] });
    expect((await searchItems(store, editor, PRACTITIONERS, params({ q: "anna", skip: "999" }), "de")).items).toEqual([]);
  });

  it("refuses hostile input with a 400 in the editor's language, unknown collections with a 404, visitors with a 403", async () => {
    for (const q of [{ q: "x".repeat(5000) } as Record<string, string>, { q: "a\u0000b" }, { skip: "-1" }, { skip: "1e9" }, { skip: "abc" }, { skip: "99999999999" }]) {
      const result = await status(() => searchItems(store, editor, PRACTITIONERS, params(q), "de"));
      expect(result.status, JSON.stringify(q)).toBe(400);
      expect(result.message).toMatch(/[a-zäöü]/);
    }
    expect((await status(() => searchItems(store, editor, PRACTITIONERS, params({ skip: "x" }), "en"))).message).toBe("The position in the list must be a whole number from 0.");
    for (const name of ["no-such-collection", "../etc/passwd", "component-seo", "", undefined]) expect((await status(() => searchItems(store, editor, name, params({}), "de"))).status).toBe(404);
    expect((await status(() => searchItems(store, visitor, PRACTITIONERS, params({}), "de"))).status).toBe(403);
    // SQL is text.
    expect((await searchItems(store, editor, PRACTITIONERS, params({ q: "' or 1=1 --" }), "de")).total).toBe(0);
  });
});

describe("searchAssets", () => {
  it("searches file names in the whole library, paged, images only on asking", async () => {
    expect((await searchAssets(store, params({ q: "PRAXIS" }), "de")).items.map((a) => a.fileName).sort()).toEqual(["Praxis Foto.png", "praxis-plan.txt"]);
    expect((await searchAssets(store, params({ q: "praxis", images: "1" }), "de")).items.map((a) => a.id)).toEqual(["photo-1"]);
    const first = await searchAssets(store, params({ q: "bild" }), "de");
    expect(first.total).toBe(30);
    expect(first.items).toHaveLength(24);
    const rest = await searchAssets(store, params({ q: "bild", skip: "24" }), "de");
    expect(new Set([...first.items, ...rest.items].map((a) => a.id)).size).toBe(30);
    expect(first.items[0]!.url).toMatch(/^\/api\/assets\/bulk-\d+\/.+\?width=320$/);
    expect((await searchAssets(store, params({ q: "100%_" }), "de")).total).toBe(0);
    expect((await status(() => searchAssets(store, params({ skip: "-5" }), "de"))).status).toBe(400);
  });
});

describe("geocode", () => {
  let geocoder: http.Server;
  let geocoderUrl = "";
  const asked: string[] = [];

  beforeAll(async () => {
    geocoder = http.createServer((req, res) => {
      asked.push(`${req.url} ${req.headers["user-agent"]}`);
      const q = new URL(req.url!, "http://x").searchParams.get("q");
      res.setHeader("content-type", "application/json");
      if (q === "broken") return res.end("<html>");
      if (q === "nothing") return res.end("[]");
      res.end(JSON.stringify([{ display_name: "Torstraße 1, 10119 Berlin", lat: "52.5291", lon: "13.4012" }, { display_name: "Nowhere", lat: "999", lon: "0" }]));
    });
    await new Promise<void>((resolve) => geocoder.listen(0, "127.0.0.1", resolve));
    geocoderUrl = `http://127.0.0.1:${(geocoder.address() as AddressInfo).port}/search`;
  });
  afterAll(() => new Promise<void>((resolve) => geocoder.close(() => resolve())));

  it("asks the geocoder Nominatim's way and keeps places in range", async () => {
    expect(await geocode(store, geocoderUrl, "Torstraße 1 Berlin", "de")).toEqual({ source: "geocoder", places: [{ label: "Torstraße 1, 10119 Berlin", latitude: 52.5291, longitude: 13.4012 }] });
    expect(asked.at(-1)).toMatch(/^\/search\?format=json&limit=8&q=Torstra%C3%9Fe\+1\+Berlin Praxisnetz/);
  });

  it("falls back to the directory's addresses when the geocoder fails, answers nothing or cannot be reached", async () => {
    expect(await askGeocoder("http://127.0.0.1:1/search", "Berlin")).toBeUndefined();
    expect(await askGeocoder(geocoderUrl, "broken")).toBeUndefined();
    const fallback = await geocode(store, "http://127.0.0.1:1/search", "10119 Berlin", "de");
    expect(fallback).toEqual({ source: "directory", places: [{ label: "Torstraße 1, 10119 Berlin", latitude: 52.529, longitude: 13.401 }] });
    expect((await geocode(store, geocoderUrl, "nothing", "de")).source).toBe("directory");
    // Matching is on the address, not the name; umlaut spellings alike.
    expect(await directoryPlaces(store, "Anna")).toEqual([]);
    expect((await directoryPlaces(store, "koeln")).map((p) => p.label)).toEqual(["Domkloster 4, 50667 Köln"]);
  });

  it("refuses addresses nobody types", () => {
    for (const q of [null, "", "a", "x".repeat(201), "Berlin\u0000"]) expect(() => parseAddress(q, "de")).toThrow(ContentError);
    expect(parseAddress("  Berlin ", "de")).toBe("Berlin");
  });
});

describe("controlsData", () => {
  it("names the items and files an item refers to", async () => {
    const practitioners = await store.getSchema(PRACTITIONERS);
    const appointments = await store.getSchema(APPOINTMENTS);
    const slot = await store.create(APPOINTMENTS, { practitioner: { iv: ["anna-koeln"] }, start: { iv: "2030-01-01T10:00:00Z" } }, { id: "slot-1" });
    const slotData = await controlsData(store, appointments!, slot, { superuser: false, appName: "praxisnetz" });
    expect(slotData.titles).toEqual({ "anna-koeln": { title: "Anna Müller", detail: "Köln" } });
    const withPhoto = await store.update(PRACTITIONERS, "anna-draft", { websites: { iv: ["PRAXISNETZ"] }, name: { iv: "Anna Entwurf" }, city: { iv: "Hamburg" }, photo: { iv: ["photo-1"] } });
    // A file deleted meanwhile is not named (the control says "unknown file").
    const data = await controlsData(store, practitioners!, { ...withPhoto, data: { ...withPhoto.data, photo: { iv: ["photo-1", "gone"] } } }, { superuser: true, appName: "praxisnetz", mapStyleUrl: "https://tiles.example/style.json" });
    expect(data.assets).toEqual({ "photo-1": { fileName: "Praxis Foto.png", url: expect.stringMatching(/^\/api\/assets\/photo-1\//), mimeType: "image/png" } });
    expect(data).toMatchObject({ superuser: true, mapStyleUrl: "https://tiles.example/style.json" });
  });
});

describe(`at ${MANY.toLocaleString("en")} practitioners`, () => {
  beforeAll(async () => {
    const cities = ["Berlin", "Hamburg", "München", "Köln", "Leipzig"];
    const BATCH = 5000;
    for (let start = 0; start < MANY; start += BATCH)
      await store.createMany(
        PRACTITIONERS,
        Array.from({ length: BATCH }, (_, k) => {
          const i = start + k;
          return { id: `gen-${String(i).padStart(6, "0")}`, publish: i % 10 !== 0, data: { name: { iv: `Praxis ${String(i).padStart(6, "0")}` }, city: { iv: cities[i % 5] }, websites: { iv: ["PRAXISNETZ"] } } };
        }),
      );
  }, 600_000);

  it("finds one practitioner among all and pages through a search's results to the end", async () => {
    expect((await searchItems(store, editor, PRACTITIONERS, params({ q: "praxis 099999" }), "de")).items).toEqual([{ id: "gen-099999", title: "Praxis 099999", detail: "Leipzig", status: "Published" }]);
    // A draft among them.
    expect((await searchItems(store, editor, PRACTITIONERS, params({ q: "090000" }), "de")).items).toEqual([{ id: "gen-090000", title: "Praxis 090000", detail: "Berlin", status: "Draft" }]);
    const all = await searchItems(store, editor, PRACTITIONERS, params({ q: "leipzig" }), "de");
    expect(all.total).toBe(MANY / 5);
    const last = await searchItems(store, editor, PRACTITIONERS, params({ q: "leipzig", skip: String(MANY / 5 - 3) }), "de");
    expect(last.items.map((i) => i.id)).toEqual(["gen-099989", "gen-099994", "gen-099999"]);
    const unsearched = await searchItems(store, editor, PRACTITIONERS, params({ skip: String(MANY) }), "de");
    expect(unsearched.total).toBe(MANY + 3);
    // By title: the three Annas first, so the list's last three are the last generated ones.
    expect(unsearched.items.map((i) => i.id)).toEqual(["gen-099997", "gen-099998", "gen-099999"]);
  }, 120_000);
});
