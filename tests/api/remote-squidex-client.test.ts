import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRemoteSquidex, type RemoteSquidex, type RemoteSquidexConfig } from "~/content/remote/squidex-client";
import { startServer, type RunningServer } from "../support/server";

/**
 * The remote-Squidex client (app/content/remote/squidex-client.ts) against a Squidex-speaking
 * server: our embedded service on its own port plays the remote app. The transport is the real
 * fetch; the tests only watch what goes over it (requests and their headers).
 */
let server: RunningServer;
let credentials: { clientId: string; clientSecret: string };
const sent: Array<{ method: string; url: string; headers: Headers }> = [];
const errors: Array<{ message: string; details: Record<string, unknown> }> = [];
let clock = Date.now();

const watchingFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  sent.push({ method: request.method, url: request.url, headers: request.headers });
  return fetch(input, init);
};

function client(overrides: Partial<RemoteSquidexConfig> = {}): RemoteSquidex {
  return createRemoteSquidex({
    url: `${server.url}/api/squidex`,
    app: "praxisnetz",
    ...credentials,
    fetch: watchingFetch,
    now: () => clock,
    onError: (message, details) => errors.push({ message, details }),
    ...overrides,
  });
}
const tokenRequests = () => sent.filter((r) => r.url.endsWith("/identity-server/connect/token")).length;

beforeAll(async () => {
  server = await startServer();
  credentials = JSON.parse(fs.readFileSync(path.join(server.dataDir, "squidex-client.json"), "utf8"));
});
afterAll(async () => {
  await server?.stop();
});

describe("the remote Squidex client", () => {
  it("takes one token for many calls, a new one shortly before it expires, and one more after a 401", async () => {
    sent.length = 0;
    const remote = client();
    const [a, b] = await Promise.all([remote.queryContents("core-pages", { top: 1 }), remote.queryContents("core-pages", { top: 1 })]);
    expect(a?.items).toHaveLength(1);
    expect(b?.items).toHaveLength(1);
    expect(tokenRequests()).toBe(1);
    // Our server's tokens live 30 days (expires_in in seconds): still good after 29 days, not in the last minute.
    clock += 29 * 24 * 3600 * 1000;
    await remote.listSchemas();
    expect(tokenRequests()).toBe(1);
    clock += 24 * 3600 * 1000 - 30_000;
    await remote.listSchemas();
    expect(tokenRequests()).toBe(2);
    // The remote forgets its tokens (a restart with a new signing key, a revoked client): one 401, one new token, the call succeeds.
    const stale = createRemoteSquidex({ url: `${server.url}/api/squidex`, app: "praxisnetz", ...credentials, fetch: async (input, init) => {
      const request = new Request(input, init);
      // The first API call goes out with a token the server never issued.
      if (request.url.includes("/api/content/") && !sent.some((r) => r.url === "stale-used")) {
        sent.push({ method: "GET", url: "stale-used", headers: new Headers() });
        const headers = new Headers(request.headers);
        headers.set("authorization", "Bearer not-a-token-the-server-issued");
        return watchingFetch(request.url, { method: request.method, headers });
      }
      return watchingFetch(input, init);
    } });
    const before = sent.length;
    const page = await stale.queryContents("core-pages", { top: 1 });
    expect(page?.items).toHaveLength(1);
    const statuses = sent.slice(before).map((r) => r.url.replace(server.url, ""));
    expect(statuses.filter((u) => u.includes("/identity-server/connect/token"))).toHaveLength(2);
  });

  it("sends X-* flags only when they are on, never as false", async () => {
    sent.length = 0;
    const remote = client();
    const plain = await remote.queryContents("core-pages", { top: 1, flatten: false, unpublished: false });
    const api = sent.filter((r) => r.url.includes("/api/content/"));
    expect(api[0]!.headers.has("x-flatten")).toBe(false);
    expect(api[0]!.headers.has("x-unpublished")).toBe(false);
    expect(api[0]!.headers.has("x-languages")).toBe(false);
    // Partitioned data without flatten; with flatten and one language, plain values.
    expect(typeof (plain!.items[0]!.data as Record<string, Record<string, unknown>>).title?.de).toBe("string");
    const flat = await remote.queryContents("core-pages", { top: 1, flatten: true, languages: ["de"] });
    expect(typeof (flat!.items[0]!.data as Record<string, unknown>).title).toBe("string");
    const last = sent.filter((r) => r.url.includes("/api/content/")).at(-1)!;
    expect(last.headers.get("x-flatten")).toBe("1");
    expect(last.headers.get("x-languages")).toBe("de");
  });

  it("creates (201), reads drafts only when asked, updates onto a version, refuses a stale one, changes status and deletes", async () => {
    errors.length = 0;
    const remote = client();
    const created = await remote.createContent("gm-content-practitioners", { name: { iv: "Remote Rita" }, city: { iv: "Bonn" }, display: { iv: true } });
    expect(created?.status).toBe("Draft");
    const id = created!.id;
    expect(await remote.getContent("gm-content-practitioners", id)).toBeNull();
    expect((await remote.getContent("gm-content-practitioners", id, { unpublished: true }))?.id).toBe(id);
    const updated = await remote.updateContent("gm-content-practitioners", id, { name: { iv: "Remote Rita B." }, city: { iv: "Bonn" }, display: { iv: true } }, { ifMatch: created!.version });
    expect(updated?.version).toBe(created!.version + 1);
    // Two writers read the same version: the second one's write is refused (412), told, and answered null.
    const late = await remote.updateContent("gm-content-practitioners", id, { city: { iv: "Köln" } }, { method: "PATCH", ifMatch: created!.version });
    expect(late).toBeNull();
    expect(errors.at(-1)?.details.status).toBe(412);
    const published = await remote.changeStatus("gm-content-practitioners", id, "Published");
    expect(published?.status).toBe("Published");
    expect((await remote.getContent("gm-content-practitioners", id))?.data).toMatchObject({ name: { iv: "Remote Rita B." } });
    const withId = await remote.createContent("gm-content-practitioners", { name: { iv: "Custom Id" }, city: { iv: "Bonn" } }, { id: "remote-custom-id", publish: true });
    expect(withId).toMatchObject({ id: "remote-custom-id", status: "Published" });
    expect(await remote.deleteContent("gm-content-practitioners", id)).toBe(true);
    expect(await remote.deleteContent("gm-content-practitioners", id)).toBe(false);
  });

  it("reads schemas and uploads, reads and deletes assets (multipart, into a folder)", async () => {
    const remote = client();
    const schemas = await remote.listSchemas();
    expect(schemas?.map((s) => s.name)).toContain("core-pages");
    expect((await remote.getSchema("core-pages"))?.name).toBe("core-pages");
    expect(await remote.getSchema("no-such-schema")).toBeNull();
    const folder = await remote.request("POST", "api/apps/praxisnetz/assets/folders", { json: { folderName: "Remote" } });
    expect(folder.status).toBe(201);
    const parentId = ((await folder.json()) as { id: string }).id;
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="2" height="1"/>');
    const asset = await remote.uploadAsset({ name: "remote.svg", type: "image/svg+xml", bytes: svg }, { parentId });
    expect(asset).toMatchObject({ fileName: "remote.svg", parentId });
    const id = String(asset!.id);
    expect((await remote.getAsset(id))?.id).toBe(id);
    expect(Buffer.from((await remote.assetContent(id))!).toString("utf8")).toContain("<svg");
    expect(await remote.deleteAsset(id)).toBe(true);
    expect(await remote.getAsset(id)).toBeNull();
  });

  it("never throws: a remote that is down or refuses the client answers null or false, and says why", async () => {
    errors.length = 0;
    const down = client({ url: "http://127.0.0.1:9/api/squidex", timeoutMs: 2000 });
    expect(await down.queryContents("core-pages")).toBeNull();
    expect(await down.deleteContent("core-pages", "x")).toBe(false);
    expect(errors[0]?.message).toMatch(/could not be reached/);
    errors.length = 0;
    const refused = client({ clientSecret: "wrong-secret-0123456789" });
    expect(await refused.listSchemas()).toBeNull();
    expect(errors[0]?.details.error).toMatch(/token request was refused \(401/);
  });
});
