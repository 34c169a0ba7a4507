import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { squidexToken, startServer, type RunningServer } from "../support/server";

/**
 * Asset content as Squidex serves it (`api/assets/{app}/{id}`): the bytes with 200 (not a redirect),
 * Squidex's image options, conditional requests, downloads, versions, and a clear 400 for options
 * that are out of bounds.
 */
let server: RunningServer;
let pngId: string;
let svgId: string;
const base = () => `${server.url}/api/squidex/api/assets/praxisnetz`;

async function upload(name: string, type: string, bytes: Buffer): Promise<string> {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await fetch(`${server.url}/api/squidex/api/apps/praxisnetz/assets`, { method: "POST", body: form, headers: { authorization: `Bearer ${await squidexToken(server)}` } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function image(res: Response) {
  const bytes = Buffer.from(await res.arrayBuffer());
  return { bytes, meta: await sharp(bytes).metadata() };
}

beforeAll(async () => {
  server = await startServer();
  const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 200, g: 30, b: 30 } } }).png().toBuffer();
  pngId = await upload("rot.png", "image/png", png);
  svgId = await upload("form.svg", "image/svg+xml", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'));
});
afterAll(async () => {
  await server?.stop();
});

describe("asset content", () => {
  it("sends the stored bytes with 200, its type and a tag; a matching tag gets 304; the older path works too", async () => {
    const res = await fetch(`${base()}/${pngId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    const { meta } = await image(res);
    expect([meta.width, meta.height]).toEqual([800, 600]);
    const etag = res.headers.get("etag")!;
    expect((await fetch(`${base()}/${pngId}`, { headers: { "if-none-match": etag } })).status).toBe(304);
    expect((await fetch(`${server.url}/api/squidex/api/assets/${pngId}`)).status).toBe(200);
  });

  it("resizes by width and height in Squidex's modes, converts formats, never enlarges unless asked", async () => {
    const cases: Array<[string, number, number, string]> = [
      ["width=200", 200, 150, "image/png"],
      ["height=60", 80, 60, "image/png"],
      ["width=200&height=200&mode=Crop", 200, 200, "image/png"],
      ["width=200&height=200&mode=Max", 200, 150, "image/png"],
      ["width=200&height=200&mode=Min", 267, 200, "image/png"],
      ["width=200&height=200&mode=Pad", 200, 200, "image/png"],
      ["width=200&height=100&mode=Stretch", 200, 100, "image/png"],
      ["width=2000", 800, 600, "image/png"],
      ["width=1600&height=1200&mode=CropUpsize", 1600, 1200, "image/png"],
      ["width=300&format=WEBP&quality=50", 300, 225, "image/webp"],
      ["format=jpeg", 800, 600, "image/jpeg"],
    ];
    for (const [query, width, height, type] of cases) {
      const res = await fetch(`${base()}/${pngId}?${query}`);
      expect(res.status, query).toBe(200);
      expect(res.headers.get("content-type"), query).toBe(type);
      const { meta } = await image(res);
      expect([meta.width, meta.height], query).toEqual([width, height]);
    }
    // Each choice has a tag of its own.
    const a = (await fetch(`${base()}/${pngId}?width=200`)).headers.get("etag");
    const b = (await fetch(`${base()}/${pngId}?width=201`)).headers.get("etag");
    expect(a).not.toBe(b);
  });

  it("refuses options out of bounds with a 400 and a message", async () => {
    for (const query of ["width=5000", "width=0", "width=abc", "height=-3", "width=4096&height=4096", "mode=Explode", "format=bmp", "quality=101", "version=x"]) {
      const res = await fetch(`${base()}/${pngId}?${query}`);
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { message: string }).message.length, query).toBeGreaterThan(5);
    }
  });

  it("sends an SVG as it is, sandboxed, whatever the options; a download as an attachment; only the current version", async () => {
    const res = await fetch(`${base()}/${svgId}?width=50`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    expect(res.headers.get("content-security-policy")).toContain("sandbox");
    expect(await res.text()).toContain("<rect");
    const download = await fetch(`${base()}/${pngId}?download=1`);
    expect(download.headers.get("content-disposition")).toMatch(/^attachment; filename\*=UTF-8''rot\.png$/);
    const asset = (await (await fetch(`${server.url}/api/squidex/api/apps/praxisnetz/assets/${pngId}`, { headers: { authorization: `Bearer ${await squidexToken(server)}` } })).json()) as { version: number };
    expect((await fetch(`${base()}/${pngId}?version=${asset.version}`)).status).toBe(200);
    const old = await fetch(`${base()}/${pngId}?version=${asset.version + 7}`);
    expect(old.status).toBe(404);
    expect(((await old.json()) as { message: string }).message).toMatch(/only the current one/);
  });

  it("filters assets by tags and metadata; hostile values match nothing they should not", async () => {
    const auth = { authorization: `Bearer ${await squidexToken(server)}`, "content-type": "application/json" };
    const annotate = await fetch(`${server.url}/api/squidex/api/apps/praxisnetz/assets/${pngId}`, { method: "PUT", headers: auth, body: JSON.stringify({ tags: ["logo", 'mit "Anführung"', "50%_rabatt"] }) });
    expect(annotate.status, await annotate.clone().text()).toBe(200);
    const ids = async (filter: string) => {
      const res = await fetch(`${server.url}/api/squidex/api/apps/praxisnetz/assets?$top=200&$filter=${encodeURIComponent(filter)}`, { headers: auth });
      expect(res.status, filter).toBe(200);
      return ((await res.json()) as { items: Array<{ id: string }> }).items.map((a) => a.id);
    };
    expect(await ids("tags eq 'logo'")).toEqual([pngId]);
    expect(await ids("tags eq 'mit \"Anführung\"'")).toEqual([pngId]);
    expect(await ids("tags eq '50%_rabatt'")).toEqual([pngId]);
    expect(await ids("tags eq 'log'")).toEqual([]);
    expect(await ids("tags eq '%'")).toEqual([]);
    expect(await ids("tags eq '_ogo'")).toEqual([]);
    expect(await ids("tags in ('nope','logo')")).toEqual([pngId]);
    expect(await ids("metadata/pixelWidth eq 800 and metadata/pixelHeight eq 600 and fileName eq 'rot.png'")).toEqual([pngId]);
    expect(await ids("metadata/pixelWidth gt 801")).not.toContain(pngId);
    expect(await ids("startswith(fileName,'ROT') and endswith(fileName,'.PNG')")).toEqual([pngId]);
    expect(await ids("contains(fileName,'%')")).toEqual([]);
    expect(await ids("fileName eq 'x'' or 1=1 --'")).toEqual([]);
    expect(await ids(`id eq '${svgId}'`)).toEqual([svgId]);
  });

  it("answers 404 for an asset that is not there", async () => {
    const res = await fetch(`${base()}/no-such-asset?width=100`);
    expect(res.status).toBe(404);
  });
});
