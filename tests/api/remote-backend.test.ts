import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { squidexSignature } from "../../app/content/remote/webhook";
import { squidexToken, startMirrorOf, startServer, type RunningServer } from "../support/server";

/**
 * The site on a remote Squidex (issue 23, decision 0037): server B runs with SQUIDEX_URL pointing at
 * server A, whose embedded Squidex API stands in for a Squidex (no real one can be reached from
 * here). B keeps a mirror of A's app: it serves A's content, hears of A's changes through the signed
 * webhook, sends its own writes (a booking) to A first with If-Match, and keeps serving what it has
 * while A is down.
 */

const APP = "praxisnetz";
const SECRET = "remote-backend-webhook-secret-1";
let a: RunningServer;
let b: RunningServer;
let bearer: Record<string, string>;

beforeAll(async () => {
  a = await startServer({ env: { RATE_LIMIT_PER_HOUR: "100000" } });
  bearer = { authorization: `Bearer ${await squidexToken(a)}`, "content-type": "application/json" };
  b = await startMirrorOf(a, SECRET, { FORM_MIN_FILL_SECONDS: "0", CACHE_TTL_SECONDS: "3600" });
}, 120_000);
afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

const onA = (p: string, init: RequestInit = {}) => fetch(`${a.url}/api/squidex/api/content/${APP}/${p}`, { ...init, headers: { ...bearer, ...(init.headers as Record<string, string>) } });

function event(schema: string, id: string, type = "Updated") {
  return JSON.stringify({ type: `${schema}${type}`, payload: { $type: "EnrichedContentEvent", type, id, schemaId: { id: "00000000-0000-0000-0000-000000000000", name: schema } }, timestamp: new Date().toISOString() });
}
const hook = (body: string, signature: string | null = squidexSignature(body, SECRET)) =>
  fetch(`${b.url}/api/content-webhook`, { method: "POST", headers: { "content-type": "application/json", ...(signature ? { "x-signature": signature } : {}) }, body });

async function newSlot(daysAhead: number): Promise<{ id: string; version: number }> {
  const res = await onA("gm-appointments?publish=true", {
    method: "POST",
    body: JSON.stringify({ practitioner: { iv: ["prac-001"] }, start: { iv: new Date(Date.now() + daysAhead * 86_400_000).toISOString() }, durationMinutes: { iv: 30 }, booked: { iv: false } }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; version: number };
}
const booker = (n: number) => ({ name: `Person ${n} Fern`, email: `person${n}.fern@example.org`, phone: `+49 30 55${String(n).padStart(4, "0")}`, language: "de", privacy: true });
const book = (slot: string, n: number) => fetch(`${b.url}/api/appointments/${slot}/book`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(booker(n)) });

describe("a site on a remote Squidex", () => {
  it("serves the remote app's content, pulled at start", async () => {
    const aboutOnA = (await (await onA("core-pages/page-about")).json()) as { data: { title: { de: string } } };
    const page = await fetch(`${b.url}/ueber-uns`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(aboutOnA.data.title.de);
    expect(b.output()).not.toContain("demo content created");
  });

  it("takes a change made on Squidex when its signed webhook says so, and not before", async () => {
    const item = (await (await onA("core-pages/page-about")).json()) as { version: number; data: Record<string, any> };
    const title = `Über uns – geändert ${Date.now()}`;
    const put = await onA("core-pages/page-about", { method: "PUT", body: JSON.stringify({ ...item.data, title: { ...item.data.title, de: title } }) });
    expect(put.status).toBe(200);
    // Not told yet: the mirror (and its cached page) still has the old title.
    expect(await (await fetch(`${b.url}/ueber-uns`)).text()).not.toContain(title);

    expect((await hook(event("core-pages", "page-about"), null)).status).toBe(403);
    expect((await hook(event("core-pages", "page-about"), squidexSignature(event("core-pages", "page-about"), "another-secret-entirely"))).status).toBe(403);
    expect((await hook("not json", squidexSignature("not json", SECRET))).status).toBe(400);
    expect(await (await fetch(`${b.url}/ueber-uns`)).text()).not.toContain(title);

    const told = await hook(event("core-pages", "page-about"));
    expect(told.status).toBe(200);
    expect(await told.json()).toMatchObject({ ok: true, written: 1 });
    expect(await (await fetch(`${b.url}/ueber-uns`)).text()).toContain(title);
  });

  it("sends a booking to Squidex first, with the version it holds; Squidex has it, with the mirror's version", async () => {
    const slot = await newSlot(5);
    expect((await hook(event("gm-appointments", slot.id, "Created"))).status).toBe(200);
    const res = await book(slot.id, 1);
    expect(res.status).toBe(201);
    const there = (await (await onA(`gm-appointments/${slot.id}`)).json()) as { version: number; data: { booked: { iv: boolean } } };
    expect(there.data.booked.iv).toBe(true);
    expect(there.version).toBeGreaterThan(slot.version);
    // The booker's details stay on the site that took them: Squidex has the slot, not the person.
    expect(JSON.stringify(there)).not.toContain(booker(1).email);
  });

  it("a slot changed on Squidex since the mirror read it cannot be booked on the old version: nothing is kept", async () => {
    const slot = await newSlot(6);
    expect((await hook(event("gm-appointments", slot.id, "Created"))).status).toBe(200);
    // Another site (or an editor) changes it on Squidex; this site is not told.
    const item = (await (await onA(`gm-appointments/${slot.id}`)).json()) as { data: Record<string, unknown> };
    expect((await onA(`gm-appointments/${slot.id}`, { method: "PUT", body: JSON.stringify({ ...item.data, durationMinutes: { iv: 45 } }) })).status).toBe(200);
    const refused = await book(slot.id, 2);
    expect(refused.status).toBe(409);
    expect(((await onA(`gm-appointments/${slot.id}`).then((r) => r.json())) as { data: { booked: { iv: boolean } } }).data.booked.iv).toBe(false);
    // Told, the mirror has the new version, and the same booking goes through: nothing was left behind.
    expect((await hook(event("gm-appointments", slot.id))).status).toBe(200);
    expect((await book(slot.id, 2)).status).toBe(201);
  });

  it("an item deleted on Squidex goes from the mirror when the webhook tells", async () => {
    const slot = await newSlot(7);
    await hook(event("gm-appointments", slot.id, "Created"));
    expect((await onA(`gm-appointments/${slot.id}`, { method: "DELETE" })).status).toBe(204);
    const told = await hook(event("gm-appointments", slot.id, "Deleted"));
    expect(await told.json()).toMatchObject({ ok: true, removed: 1 });
    expect((await book(slot.id, 3)).status).toBe(404);
  });

  it("keeps serving what it has while Squidex is down, and refuses writes with a message, keeping nothing", async () => {
    const slot = await newSlot(8);
    await hook(event("gm-appointments", slot.id, "Created"));
    await a.stop();
    const page = await fetch(`${b.url}/ueber-uns`);
    expect(page.status).toBe(200);
    const res = await book(slot.id, 4);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { message: string }).message).toMatch(/cannot be reached/);
    const told = await hook(event("gm-appointments", slot.id));
    expect(told.status).toBe(503);
  });
});
