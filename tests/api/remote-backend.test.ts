import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { squidexSignature } from "../../app/content/remote/webhook";
import { DEMO_ADMIN, signIn } from "../support/auth";
import { postJson, squidexToken, startServer, type RunningServer } from "../support/server";

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
let bEnv: Record<string, string>;

/**
 * B reaches A through this gate, which passes every request on and can hold one write back until the
 * test lets it go: so a test sees what the site does while Squidex has not answered yet.
 */
const gate = (() => {
  let rule: { match: (req: http.IncomingMessage) => boolean; arrived: () => void; released: Promise<void> } | undefined;
  const server = http.createServer((req, res) => {
    const held = rule?.match(req) ? rule : undefined;
    if (held) rule = undefined;
    const body: Buffer[] = [];
    req.on("data", (chunk: Buffer) => body.push(chunk));
    req.on("end", async () => {
      if (held) {
        held.arrived();
        await held.released;
      }
      const target = new URL(req.url ?? "/", a.url);
      const out = http.request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      out.on("error", () => res.destroy());
      out.end(Buffer.concat(body));
    });
  });
  return {
    server,
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Holds the next request `match` picks until `release` is called; `arrived` settles when it comes. */
    hold(match: (req: http.IncomingMessage) => boolean) {
      let arrived!: () => void;
      let release!: () => void;
      const came = new Promise<void>((resolve) => (arrived = resolve));
      rule = { match, arrived, released: new Promise<void>((resolve) => (release = resolve)) };
      return { arrived: came, release };
    },
  };
})();

beforeAll(async () => {
  await new Promise<void>((resolve) => gate.server.listen(0, "127.0.0.1", resolve));
  a = await startServer({ env: { RATE_LIMIT_PER_HOUR: "100000" } });
  bearer = { authorization: `Bearer ${await squidexToken(a)}`, "content-type": "application/json" };
  const creds = JSON.parse(fs.readFileSync(path.join(a.dataDir, "squidex-client.json"), "utf8")) as { clientId: string; clientSecret: string };
  b = await startServer({
    env: (bEnv = {
      SQUIDEX_URL: `${gate.url()}/api/squidex`,
      SQUIDEX_APP: APP,
      SQUIDEX_CLIENT_ID: creds.clientId,
      SQUIDEX_CLIENT_SECRET: creds.clientSecret,
      // Driven by the webhook here, so every step is deterministic; polling is the same pull.
      SQUIDEX_SYNC_INTERVAL_MS: "0",
      SQUIDEX_WEBHOOK_SECRET: SECRET,
      RATE_LIMIT_PER_HOUR: "100000",
      FORM_MIN_FILL_SECONDS: "0",
      CACHE_TTL_SECONDS: "3600",
    }),
  });
}, 120_000);
afterAll(async () => {
  await b?.stop();
  await a?.stop();
  gate.server.close();
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

  it("serves the whole public site from the mirror, in both languages", async () => {
    const paths = ["/", "/ueber-uns", "/behandelnde", "/termine", "/newsletter-anmeldung", "/impressum", "/datenschutz", "/en", "/en/about-us", "/en/find-a-practitioner", "/en/appointments", "/sitemap.xml"];
    for (const p of paths) {
      const onB = await fetch(`${b.url}${p}`);
      expect(onB.status, p).toBe(200);
    }
    // A practitioner's profile, reached from the directory as a visitor does.
    const directory = await (await fetch(`${b.url}/behandelnde`)).text();
    const profile = /href="(\/practitioners\/(?!register)[^"?#/]+)"/.exec(directory)?.[1];
    expect(profile).toBeTruthy();
    expect((await fetch(`${b.url}${profile}`)).status).toBe(200);
  });

  it("an editor's change in the page editor goes to Squidex first, then is the site's", async () => {
    const admin = await signIn(b, DEMO_ADMIN.email, DEMO_ADMIN.password);
    const save = (body: unknown) => postJson(`${b.url}/api/editor/pages/page-imprint`, body, { headers: { origin: b.url, cookie: admin } });
    const before = (await (await onA("core-pages/page-imprint")).json()) as { version: number; data: { blocks: { de: unknown[]; en: unknown[] } } };
    const text = `Neu im Impressum ${Date.now()}`;
    const block = { schemaId: "block-richtext", id: `remote-${Date.now()}`, html: `<p>${text}</p>` };
    const saved = await save({ intent: "save", version: before.version, blocks: { de: [...before.data.blocks.de, block], en: before.data.blocks.en } });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    // Squidex has the draft; visitors of the site still see the live page.
    const draft = (await (await onA("core-pages/page-imprint", { headers: { "X-Unpublished": "1" } })).json()) as { version: number; newStatus?: string };
    expect(JSON.stringify(draft)).toContain(text);
    expect(await (await fetch(`${b.url}/impressum`)).text()).not.toContain(text);
    const published = await save({ intent: "publish", version: saved.json.version ?? draft.version });
    expect(published.status, JSON.stringify(published.json)).toBe(200);
    const live = (await (await onA("core-pages/page-imprint")).json()) as { status: string };
    expect(live.status).toBe("Published");
    expect(JSON.stringify(live)).toContain(text);
    expect(await (await fetch(`${b.url}/impressum`)).text()).toContain(text);
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

  it("holds no database transaction open while Squidex answers a write: the site reads its store meanwhile", async () => {
    /** The site's database answers (its health check reads it) while `pending` is unanswered by Squidex. */
    const storeAnswers = async () => {
      const health = await Promise.race([
        fetch(`${b.url}/healthz`).then((r) => r.status),
        new Promise<string>((resolve) => setTimeout(() => resolve("the site's database waited for Squidex's answer"), 20_000).unref()),
      ]);
      expect(health).toBe(200);
    };
    const slot = await newSlot(9);
    expect((await hook(event("gm-appointments", slot.id, "Created"))).status).toBe(200);
    let held = gate.hold((req) => req.method !== "GET" && (req.url ?? "").includes(`/gm-appointments/${slot.id}`));
    const booking = book(slot.id, 5);
    await held.arrived;
    await storeAnswers();
    held.release();
    expect((await booking).status).toBe(201);

    // The page editor's save (a draft, then its change) likewise.
    const admin = await signIn(b, DEMO_ADMIN.email, DEMO_ADMIN.password);
    const before = (await (await onA("core-pages/page-imprint")).json()) as { version: number; data: { blocks: { de: unknown[]; en: unknown[] } } };
    held = gate.hold((req) => req.method !== "GET" && (req.url ?? "").includes("/core-pages/page-imprint"));
    const block = { schemaId: "block-richtext", id: `held-${Date.now()}`, html: "<p>Gehalten</p>" };
    const save = postJson(`${b.url}/api/editor/pages/page-imprint`, { intent: "save", version: before.version, blocks: { de: [...before.data.blocks.de, block], en: before.data.blocks.en } }, { headers: { origin: b.url, cookie: admin } });
    await held.arrived;
    await storeAnswers();
    held.release();
    const saved = await save;
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
  }, 90_000);

  it("an item deleted on Squidex goes from the mirror when the webhook tells", async () => {
    const slot = await newSlot(7);
    await hook(event("gm-appointments", slot.id, "Created"));
    expect((await onA(`gm-appointments/${slot.id}`, { method: "DELETE" })).status).toBe(204);
    const told = await hook(event("gm-appointments", slot.id, "Deleted"));
    expect(await told.json()).toMatchObject({ ok: true, removed: 1 });
    expect((await book(slot.id, 3)).status).toBe(404);
  });

  it("keeps serving while Squidex is down (no 5xx on pages), refuses writes with a message keeping nothing, and recovers when it is back", async () => {
    const slot = await newSlot(8);
    await hook(event("gm-appointments", slot.id, "Created"));
    const port = new URL(a.url).port;
    await a.stop();
    for (const p of ["/", "/ueber-uns", "/behandelnde", "/en/about-us"]) expect((await fetch(`${b.url}${p}`)).status, p).toBe(200);
    const res = await book(slot.id, 4);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { message: string }).message).toMatch(/cannot be reached/);
    expect((await hook(event("gm-appointments", slot.id))).status).toBe(503);
    // Squidex back (same data, same address): the same booking goes through, nothing left from the failed one.
    a = await startServer({ dataDir: a.dataDir, env: { PORT: port, RATE_LIMIT_PER_HOUR: "100000" } });
    bearer = { authorization: `Bearer ${await squidexToken(a)}`, "content-type": "application/json" };
    expect((await book(slot.id, 4)).status).toBe(201);
    expect(((await onA(`gm-appointments/${slot.id}`).then((r) => r.json())) as { data: { booked: { iv: boolean } } }).data.booked.iv).toBe(true);
  });

  it("a restart of the site serves the mirror it kept and pulls what changed meanwhile", async () => {
    const item = (await (await onA("core-pages/page-privacy")).json()) as { data: Record<string, any> };
    const title = `Datenschutz – während des Neustarts ${Date.now()}`;
    expect((await onA("core-pages/page-privacy", { method: "PUT", body: JSON.stringify({ ...item.data, title: { ...item.data.title, de: title } }) })).status).toBe(200);
    await b.stop();
    b = await startServer({ dataDir: b.dataDir, env: bEnv });
    expect(b.output()).not.toContain("demo content created");
    // Served at once from what it kept; the pull at start brings the change shortly after.
    expect((await fetch(`${b.url}/datenschutz`)).status).toBe(200);
    await expect.poll(async () => (await (await fetch(`${b.url}/datenschutz`)).text()).includes(title), { timeout: 15_000, interval: 200 }).toBe(true);
  });

  it("pulls the whole app page by page, and removes only what Squidex no longer has, also when an item goes during the pull", async () => {
    const synced = async () => ((await (await fetch(`${b.url}/readyz`)).json()) as { mirrorSynced?: string | null }).mirrorSynced ?? null;
    // The running site's own pull (from its restart) has ended: the slots made next are new to it.
    await expect.poll(synced, { timeout: 60_000, interval: 200 }).not.toBeNull();
    const start = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
    const jobs = Array.from({ length: 250 }, (_, i) => ({ type: "Create", data: { practitioner: { iv: ["prac-001"] }, start: { iv: start(40 + i) }, durationMinutes: { iv: 30 }, booked: { iv: false } } }));
    const made = await onA("gm-appointments/bulk", { method: "POST", body: JSON.stringify({ jobs, publish: true }) });
    expect(made.status).toBe(200);
    expect(((await made.json()) as Array<{ error?: unknown }>).filter((r) => r.error)).toEqual([]);
    // Oldest first, as the mirror reads (pages of 200, each sharing its first 50 with the page
    // before): the first item, and the last of the first page.
    const at = async (skip: number) => ((await (await onA(`gm-appointments?$orderby=created%20asc&$skip=${skip}&$top=1`, { headers: { "X-Unpublished": "1" } })).json()) as { items: Array<{ id: string }> }).items[0]!.id;
    const first = await at(0);
    const opensPage2 = await at(200);

    // B restarts (a full pull); its second page of slots is held until the first item went on Squidex.
    await b.stop();
    const held = gate.hold((req) => req.method === "GET" && decodeURIComponent(req.url ?? "").includes("/gm-appointments?") && decodeURIComponent(req.url ?? "").includes("$skip=150") && req.headers["x-unpublished"] !== undefined);
    b = await startServer({ dataDir: b.dataDir, env: bEnv });
    await held.arrived;
    expect((await onA(`gm-appointments/${first}`, { method: "DELETE" })).status).toBe(204);
    held.release();
    // The restarted site's full pull has ended (what it wrote may be nothing: the last site may have read it all).
    await expect.poll(synced, { timeout: 60_000, interval: 200 }).not.toBeNull();
    expect(b.output()).not.toContain("mirroring from Squidex failed");

    // The deletion moved every later item one place up: with pages side by side the one that would
    // open page 2 would be on no page read. Squidex has it, so the site does too (never a 404).
    expect((await book(opensPage2, 7)).status).not.toBe(404);
    // And every new slot reached the site, the last one too.
    const last = ((await (await onA(`gm-appointments?$orderby=created%20desc&$top=1`)).json()) as { items: Array<{ id: string }> }).items[0]!.id;
    expect((await book(last, 8)).status).toBe(201);
  }, 180_000);
});
