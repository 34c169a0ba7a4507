import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TokenSigner } from "~/lib/tokens.server";
import { squidexToken, startServer, type RunningServer } from "../support/server";

/**
 * The visitor flows over real HTTP against the production build: newsletter with double opt-in and
 * the present page, practitioner registration with its continue link, and what every public
 * mutation must withstand (cross-site posts, spam, bad input, rate limits). Mail is read from the
 * outbox table of the server's own SQLite file.
 */

interface Mail {
  kind: string;
  recipient: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

function outbox(server: RunningServer, to?: string): Mail[] {
  const db = new Database(path.join(server.dataDir, "praxisnetz.sqlite"), { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare(`select kind, recipient, subject, text, html, headers from outbox ${to ? "where recipient = ?" : ""} order by created, rowid`).all(...(to ? [to] : [])) as Array<Omit<Mail, "headers"> & { headers: string }>;
    return rows.map((r) => ({ ...r, headers: JSON.parse(r.headers) as Record<string, string> }));
  } finally {
    db.close();
  }
}

function sqlite<T>(server: RunningServer, fn: (db: Database.Database) => T): T {
  const db = new Database(path.join(server.dataDir, "praxisnetz.sqlite"), { readonly: true, fileMustExist: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** The first link in a mail's text that starts with `prefix` (relative to the server). */
function link(mail: Mail, pattern: RegExp): URL {
  const m = mail.text.match(pattern);
  if (!m) throw new Error(`no link ${pattern} in:\n${mail.text}`);
  return new URL(m[0]);
}

const json = (server: RunningServer, p: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${p}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

const form = (server: RunningServer, p: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${p}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url, "sec-fetch-site": "same-origin", ...headers },
    body: new URLSearchParams(fields).toString(),
  });

/** The signed form stamp a page rendered (the hidden field), to post a form like a browser would. */
async function stampOf(server: RunningServer, p: string): Promise<string> {
  const html = await (await fetch(`${server.url}${p}`)).text();
  const m = html.match(/name="form_stamp" value="([^"]+)"/);
  if (!m) throw new Error(`no form stamp on ${p}`);
  return m[1]!;
}

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ env: { RATE_LIMIT_PER_HOUR: "100000", FORM_MIN_FILL_SECONDS: "0" } });
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

describe("newsletter: double opt-in, present, unsubscribe", () => {
  it("answers 202 alike for new, pending and confirmed addresses, and only confirmation subscribes", async () => {
    const email = "ada.lovelace@example.org";
    const first = await json(server, "/api/newsletter/subscribe", { email: "Ada.Lovelace@Example.org", language: "de" });
    expect(first.status).toBe(202);
    const firstBody = await first.json();
    const again = await json(server, "/api/newsletter/subscribe", { email, language: "de" });
    expect(again.status).toBe(202);
    expect(await again.json()).toEqual(firstBody);

    const mails = outbox(server, email);
    expect(mails.map((m) => m.kind)).toEqual(["newsletter-confirm", "newsletter-confirm"]);
    expect(mails[0]!.headers["List-Unsubscribe"]).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/api\/newsletter\/unsubscribe\?token=[^>]+>$/);
    expect(mails[0]!.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(sqlite(server, (db) => db.prepare("select status from subscribers where email = ?").get(email))).toEqual({ status: "pending" });

    // The present is not there before confirming.
    const confirmUrl = link(mails[0]!, /http:\/\/127\.0\.0\.1:\d+\/newsletter\/[^\s]+\?confirm=[^\s]+/);
    const page = await fetch(confirmUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    const html = await page.text();
    expect(html).toContain('data-newsletter-view="confirm"');
    // Opening the link does not confirm (mail scanners open links): the button does.
    expect(sqlite(server, (db) => db.prepare("select status from subscribers where email = ?").get(email))).toEqual({ status: "pending" });
    const token = confirmUrl.searchParams.get("confirm")!;
    const confirmed = await form(server, confirmUrl.pathname, { intent: "confirm", token });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain('data-newsletter-view="confirmed"');
    expect(sqlite(server, (db) => db.prepare("select status from subscribers where email = ?").get(email))).toEqual({ status: "confirmed" });

    // A confirmed address gets the same answer again (the owner gets a note by mail).
    const third = await json(server, "/api/newsletter/subscribe", { email, language: "de" });
    expect(third.status).toBe(202);
    expect(await third.json()).toEqual(firstBody);

    const welcome = outbox(server, email).find((m) => m.kind === "newsletter-welcome")!;
    expect(welcome).toBeDefined();
    const present = link(welcome, /http:\/\/127\.0\.0\.1:\d+\/present\/[^\s]+\?token=[^\s]+/);
    const presentPage = await (await fetch(present)).text();
    expect(presentPage).toContain('data-present="shown"');
    const download = presentPage.match(/href="(\/api\/assets\/[^"]+)"/)![1]!;
    const pdf = await fetch(`${server.url}${download}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toMatch(/application\/pdf/);

    // The present needs the signed link for this very address.
    const other = new URL(present);
    other.pathname = "/present/someone.else%40example.org";
    expect(await (await fetch(other)).text()).toContain('data-present="invite"');
    expect(await (await fetch(`${server.url}/present/${encodeURIComponent(email)}`)).text()).toContain('data-present="invite"');
    expect(await (await fetch(`${server.url}/present/${encodeURIComponent(email)}?token=${token}`)).text()).toContain('data-present="invite"');

    // One-click unsubscribe from the mail header deletes the address.
    const oneClick = welcome.headers["List-Unsubscribe"]!.slice(1, -1);
    const unsubscribed = await fetch(oneClick, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=One-Click" });
    expect(unsubscribed.status).toBe(200);
    expect(sqlite(server, (db) => db.prepare("select count(*) as n from subscribers where email = ?").get(email))).toEqual({ n: 0 });
    expect(await (await fetch(present)).text()).toContain('data-present="invite"');
  });

  it("refuses invalid addresses with a message in the request's language and stores nothing", async () => {
    const de = await json(server, "/api/newsletter/subscribe", { email: "keine-adresse", language: "de" });
    expect(de.status).toBe(400);
    expect(await de.json()).toMatchObject({ errors: { email: ["E-Mail Adresse ist ungültig."] } });
    const en = await json(server, "/api/newsletter/subscribe", { email: "", language: "en" });
    expect(en.status).toBe(400);
    expect(await en.json()).toMatchObject({ message: "Sorry, not all fields are filled out correctly.", errors: { email: ["Email address is required."] } });
    for (const body of [{ email: ["a@b.de"] }, { email: { $ne: 1 } }, { email: `${"a".repeat(20_000)}@example.org` }, "text"]) {
      const res = await json(server, "/api/newsletter/subscribe", body);
      expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(400);
    }
    const notJson = await fetch(`${server.url}/api/newsletter/subscribe`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
    expect(notJson.status).toBe(400);
    expect(sqlite(server, (db) => db.prepare("select count(*) as n from subscribers where email like 'keine%'").get())).toEqual({ n: 0 });
  });

  it("signs up without JavaScript: the form posts to the page, errors render in place with the input kept", async () => {
    const p = `/en/newsletter/${encodeURIComponent("grace@example.org")}`;
    const page = await (await fetch(`${server.url}${p}`)).text();
    expect(page).toContain('value="grace@example.org"');
    const stamp = await stampOf(server, p);
    const bad = await form(server, p, { intent: "subscribe", email: "grace@example", form_stamp: stamp });
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain("Please enter a valid email address.");
    expect(badHtml).toContain("Please accept the");
    expect(badHtml).toContain('value="grace@example"');
    expect(badHtml).toContain('aria-invalid="true"');
    const good = await form(server, p, { intent: "subscribe", email: "grace@example.org", privacy: "on", form_stamp: stamp });
    expect(good.status).toBe(303);
    expect(good.headers.get("location")).toBe(`${p}?sent=1`);
    expect(outbox(server, "grace@example.org").map((m) => m.kind)).toEqual(["newsletter-confirm"]);
    expect(outbox(server, "grace@example.org")[0]!.subject).toMatch(/confirm/i);
  });

  it("never keeps the address: no cached page, no log line with it", async () => {
    const p = `/newsletter/${encodeURIComponent("private.person@example.org")}`;
    const a = await fetch(`${server.url}${p}`);
    const b = await fetch(`${server.url}${p}`);
    expect(a.headers.get("cache-control")).toBe("private, no-store");
    expect(b.headers.get("x-page-cache")).not.toBe("hit");
    await new Promise((r) => setTimeout(r, 200));
    expect(server.output()).not.toContain("private.person");
  });
});

describe("public mutations are safe by default", () => {
  it("refuses cross-site posts with 403 and changes nothing", async () => {
    const res = await json(server, "/api/newsletter/subscribe", { email: "csrf@example.org" }, { "sec-fetch-site": "cross-site" });
    expect(res.status).toBe(403);
    const res2 = await json(server, "/api/practitioners/register", { name: "X" }, { origin: "https://evil.example" });
    expect(res2.status).toBe(403);
    expect(outbox(server, "csrf@example.org")).toHaveLength(0);
  });

  it("refuses a filled honeypot", async () => {
    const res = await json(server, "/api/newsletter/subscribe", { email: "bot@example.org", language: "en", website_url: "http://spam.example" });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/too quickly or incompletely/);
    expect(outbox(server, "bot@example.org")).toHaveLength(0);
  });

  it("refuses other methods and body types with a message", async () => {
    expect((await fetch(`${server.url}/api/newsletter/subscribe`)).status).toBe(405);
    const multipart = await fetch(`${server.url}/api/newsletter/subscribe`, { method: "POST", headers: { "content-type": "multipart/form-data; boundary=x" }, body: "--x--" });
    expect(multipart.status).toBe(415);
    const huge = await fetch(`${server.url}/api/newsletter/subscribe`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "x".repeat(200_000) }) });
    expect(huge.status).toBe(413);
  });
});

describe("practitioner registration", () => {
  const base = {
    name: "Dr. Fiona <script>alert(1)</script> Quast",
    city: "Kassel",
    email: "fiona.quast@example.org",
    speciality: "Osteopathie",
    languages: "de, en",
    zip: "34117",
    privacy: true,
    language: "de",
  };

  it("creates a hidden draft, mails a signed continue link, and the link saves until finished", async () => {
    const res = await json(server, "/api/practitioners/register", base);
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    // Not visible to anyone: the visitor API does not list drafts.
    const rest = await json(server, "/api/rest", { url: `gm-content-practitioners?$filter=${encodeURIComponent("data/city/iv eq 'Kassel'")}`, language: "de" });
    expect(JSON.stringify(await rest.json())).not.toContain(id);
    const row = sqlite(server, (db) => db.prepare("select status, data from contents where id = ?").get(id)) as { status: string; data: string };
    expect(row.status).toBe("Draft");
    const data = JSON.parse(row.data);
    expect(data.display.iv).toBe(false);
    expect(data.finishedPractitioner.iv).toBe(false);
    expect(data.languages.iv).toEqual(["de", "en"]);
    expect(data.speciality.de).toBe("Osteopathie");
    expect(data.name.iv).toBe(base.name);

    const mail = outbox(server, base.email).find((m) => m.kind === "registration-received")!;
    expect(mail.html).not.toContain("<script>alert(1)</script>");
    expect(mail.html).toContain("&lt;script&gt;");
    const continueUrl = link(mail, new RegExp(`http://127\\.0\\.0\\.1:\\d+/practitioners/register/${id}\\?token=[^\\s]+`));

    // A bare id, a forged token: a clear page, not a 500.
    const bare = await fetch(`${server.url}/practitioners/register/${id}`);
    expect(bare.status).toBe(403);
    expect(await bare.text()).toContain('data-registration-view="invalid"');
    const forged = await fetch(`${continueUrl}x`);
    expect(forged.status).toBe(403);

    const page = await fetch(continueUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    const html = await page.text();
    expect(html).toContain("Dr. Fiona &lt;script&gt;alert(1)&lt;/script&gt; Quast");
    expect(html).not.toContain("<script>alert(1)</script>");

    const token = continueUrl.searchParams.get("token")!;
    const saved = await json(server, "/api/practitioners/register", { ...base, id, token, city: "Göttingen" });
    expect(saved.status).toBe(200);
    // Without JavaScript: the continue page's own form, finished → the "finished" notice.
    const fields = { name: base.name, city: "Göttingen", email: base.email, zip: base.zip, languages: base.languages, privacy: "on", token, form_stamp: await stampOf(server, `${continueUrl.pathname}${continueUrl.search}`) };
    const savedNoJs = await form(server, `${continueUrl.pathname}${continueUrl.search}`, fields);
    expect(savedNoJs.status).toBe(200);
    expect(await savedNoJs.text()).toContain('data-registration-view="saved"');
    const finished = await form(server, `${continueUrl.pathname}${continueUrl.search}`, { ...fields, finish: "on" });
    expect(finished.status).toBe(303);
    const finishedPage = await fetch(`${server.url}${finished.headers.get("location")}`);
    expect(finishedPage.status).toBe(200);
    expect(await finishedPage.text()).toContain('data-registration-view="finished-now"');
    const after = JSON.parse((sqlite(server, (db) => db.prepare("select data from contents where id = ?").get(id)) as { data: string }).data);
    expect(after.city.iv).toBe("Göttingen");
    expect(after.finishedPractitioner.iv).toBe(true);
    expect(after.display.iv).toBe(false);

    // Finished: the link no longer changes anything.
    const again = await json(server, "/api/practitioners/register", { ...base, id, token, city: "Hamburg" });
    expect(again.status).toBe(403);
    const closedPage = await fetch(continueUrl);
    expect(closedPage.status).toBe(403);
    expect(await closedPage.text()).toContain('data-registration-view="finished"');
  });

  it("refuses an expired continue link with a clear page", async () => {
    const res = await json(server, "/api/practitioners/register", { ...base, email: "late@example.org" });
    const { id } = (await res.json()) as { id: string };
    const key = (sqlite(server, (db) => db.prepare("select value from app_settings where key = 'signing-key'").get()) as { value: string }).value;
    const past = new TokenSigner(key, () => Date.now() - 40 * 24 * 3600 * 1000).sign("registration", id, 3600);
    const page = await fetch(`${server.url}/en/practitioners/register/${id}?token=${encodeURIComponent(past)}`);
    expect(page.status).toBe(403);
    expect(await page.text()).toContain("This link has expired.");
  });

  it("checks the schema's rules on the server in the request's language", async () => {
    const res = await json(server, "/api/practitioners/register", { name: "x".repeat(101), city: "", email: "no", zip: "12", privacy: false, language: "de" });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: Record<string, string[]> };
    expect(body.errors.name).toEqual(["Name darf maximal 100 Zeichen enthalten."]);
    expect(body.errors.city).toEqual(["Ort ist erforderlich."]);
    expect(body.errors.email).toEqual(["E-Mail Adresse ist ungültig."]);
    expect(body.errors.zip).toEqual(["Die PLZ hat fünf Ziffern."]);
    expect(Object.keys(body.errors)).toContain("privacy");
    const en = await json(server, "/api/practitioners/register", { name: "", city: "Kassel", email: "a@b.de", privacy: true, language: "en" });
    expect((await en.json()).errors.name).toEqual(["Name is required."]);
  });
});

describe("rate limits", () => {
  let limited: RunningServer;
  beforeAll(async () => {
    // TRUST_PROXY: one test stands for a second visitor by X-Forwarded-For.
    limited = await startServer({ env: { RATE_LIMIT_PER_HOUR: "3", TRUST_PROXY: "loopback" } });
  }, 60_000);
  afterAll(async () => {
    await limited?.stop();
  });

  it("answers 429 with Retry-After and a message in the visitor's language once an address has tried too often", async () => {
    for (let i = 0; i < 3; i++) expect((await json(limited, "/api/newsletter/subscribe", { email: `n${i}@example.org`, language: "en" })).status).toBe(202);
    const res = await json(limited, "/api/newsletter/subscribe", { email: "n4@example.org", language: "de" });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await res.json()).message).toMatch(/^Zu viele Versuche/);
    expect(outbox(limited, "n4@example.org")).toHaveLength(0);
  });

  it("refuses a form sent faster than a person can fill it", async () => {
    const p = "/newsletter/fast%40example.org";
    const stamp = await stampOf(limited, p);
    const res = await form(limited, p, { intent: "subscribe", email: "fast@example.org", privacy: "on", form_stamp: stamp }, { "x-forwarded-for": "10.0.0.9" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("zu schnell");
  });
});

describe("the consent boxes link the privacy policy where editors keep it", () => {
  it("follows the privacy page's slug after an editor changes it", async () => {
    const auth = { authorization: `Bearer ${await squidexToken(server)}`, "content-type": "application/json" };
    const pageUrl = `${server.url}/api/squidex/api/content/praxisnetz/core-pages/page-privacy`;
    const privacyLink = (html: string) => html.match(/<a href="([^"]+)" class="underline" target="_blank"/)?.[1];
    expect(privacyLink(await (await fetch(`${server.url}/newsletter/x%40example.org`)).text())).toBe("/datenschutz");
    const item = (await (await fetch(pageUrl, { headers: auth })).json()) as { data: { seo: { de: Record<string, unknown> } } };
    const res = await fetch(pageUrl, { method: "PATCH", headers: auth, body: JSON.stringify({ seo: { ...item.data.seo, de: { ...item.data.seo.de, slug: "datenschutzerklaerung" } } }) });
    expect(res.status).toBe(200);
    for (const path of ["/newsletter/x%40example.org", "/practitioners/register"]) {
      expect(privacyLink(await (await fetch(`${server.url}${path}`)).text()), path).toBe("/datenschutzerklaerung");
    }
    expect(privacyLink(await (await fetch(`${server.url}/en/practitioners/register`)).text())).toBe("/en/privacy");
  });
});

describe("booking over HTTP", () => {
  let auth: Record<string, string>;
  beforeAll(async () => {
    auth = { authorization: `Bearer ${await squidexToken(server)}`, "content-type": "application/json" };
  });

  /** A published slot of a visible demo practitioner, `fromNowMs` from now. */
  async function newSlot(fromNowMs: number): Promise<string> {
    const res = await fetch(`${server.url}/api/squidex/api/content/praxisnetz/gm-appointments?publish=true`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ practitioner: { iv: ["prac-001"] }, start: { iv: new Date(Date.now() + fromNowMs).toISOString() }, durationMinutes: { iv: 30 }, booked: { iv: false } }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  }
  const booker = (n: string, language = "de") => ({ name: `Booker ${n}`, email: `booker.${n}@example.org`, phone: "+49 30 1234567", note: "", language, privacy: true });
  const book = (id: string, body: unknown, headers: Record<string, string> = {}) => json(server, `/api/appointments/${encodeURIComponent(id)}/book`, body, headers);

  it("books once: 201, a repeat with the same key gets the same booking, anyone else a 409 in their language", async () => {
    const id = await newSlot(3 * 24 * 3600 * 1000);
    const first = await book(id, booker("ida"), { "idempotency-key": "key-ida-000001" });
    expect(first.status).toBe(201);
    expect(first.headers.get("cache-control")).toBe("no-store");
    const { booking } = (await first.json()) as { booking: { id: string; appointmentId: string; name: string } };
    expect(booking).toMatchObject({ appointmentId: id, name: "Booker ida" });
    const again = await book(id, booker("ida"), { "idempotency-key": "key-ida-000001" });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { booking: { id: string } }).booking.id).toBe(booking.id);
    const other = await book(id, booker("ole", "en"), { "idempotency-key": "key-ole-000001" });
    expect(other.status).toBe(409);
    expect(await other.json()).toMatchObject({ message: "This appointment has just been booked by someone else." });
    const otherDe = await book(id, booker("ida"));
    expect(otherDe.status).toBe(409);
    expect((await otherDe.json()).message).toBe("Dieser Termin wurde gerade von jemand anderem gebucht.");
    // Visitors see the slot as booked, never who booked it.
    const rest = await json(server, "/api/rest", { url: `gm-appointments?$filter=${encodeURIComponent(`id eq '${id}'`)}`, language: "de" });
    const text = await rest.text();
    expect(text).toContain('"booked":true');
    expect(text).not.toContain("Booker ida");
    expect(text).not.toContain("booker.ida");
    expect(outbox(server, "booker.ida@example.org").map((m) => m.kind)).toEqual(["booking-confirmation"]);
  });

  it("refuses bad input with messages, unknown slots with 404, past ones with 409, malformed keys with 400", async () => {
    const id = await newSlot(4 * 24 * 3600 * 1000);
    const bad = await book(id, { name: "", email: "x", phone: "abc", language: "en", privacy: false });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { errors: Record<string, string[]> };
    expect(body.errors.name).toEqual(["Name is required."]);
    expect(body.errors.email).toEqual(["Please enter a valid email address."]);
    expect(Object.keys(body.errors).sort()).toEqual(["email", "name", "phone", "privacy"]);
    expect((await book("no-such-slot", booker("x"))).status).toBe(404);
    expect((await book("%00", booker("x"))).status).toBe(404);
    const past = await newSlot(-3600 * 1000);
    const pastRes = await book(past, booker("late", "en"));
    expect(pastRes.status).toBe(409);
    expect((await pastRes.json()).message).toBe("This appointment is in the past.");
    expect((await book(id, booker("k"), { "idempotency-key": "short" })).status).toBe(400);
    expect(sqlite(server, (db) => db.prepare("select count(*) as n from bookings where appointment_id in (?, ?)").get(id, past))).toEqual({ n: 0 });
  });

  it("200 requests for one slot at once: exactly one 201 and 199 × 409", async () => {
    const id = await newSlot(5 * 24 * 3600 * 1000);
    const statuses = await Promise.all(Array.from({ length: 200 }, (_, i) => book(id, booker(`race${i}`)).then(async (r) => (await r.arrayBuffer(), r.status))));
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(199);
    expect(sqlite(server, (db) => db.prepare("select count(*) as n from bookings where appointment_id = ?").get(id))).toEqual({ n: 1 });
  });

  it("the cancel link asks, then frees the slot; a second cancel is 410", async () => {
    const id = await newSlot(6 * 24 * 3600 * 1000);
    expect((await book(id, booker("cleo"))).status).toBe(201);
    const mail = outbox(server, "booker.cleo@example.org").find((m) => m.kind === "booking-confirmation")!;
    const cancel = link(mail, /http:\/\/127\.0\.0\.1:\d+\/appointments\/cancel\?token=[^\s]+/);
    const page = await fetch(cancel);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('data-cancel-view="confirm"');
    expect(sqlite(server, (db) => db.prepare("select count(*) as n from bookings where appointment_id = ?").get(id))).toEqual({ n: 1 });
    const token = cancel.searchParams.get("token")!;
    // The page's form posts back to its own address (with the token), as the browser does.
    const cancelPath = `${cancel.pathname}${cancel.search}`;
    const done = await form(server, cancelPath, { token });
    expect(done.status).toBe(303);
    const after = await fetch(`${server.url}${done.headers.get("location")}`);
    expect(after.status).toBe(200);
    expect(await after.text()).toContain('data-cancel-view="cancelled"');
    expect(sqlite(server, (db) => db.prepare("select count(*) as n from bookings where appointment_id = ?").get(id))).toEqual({ n: 0 });
    expect(outbox(server, "booker.cleo@example.org").map((m) => m.kind)).toEqual(["booking-confirmation", "booking-cancellation"]);
    expect((await form(server, cancelPath, { token })).status).toBe(410);
    expect((await form(server, `/appointments/cancel?token=${token}x`, { token: `${token}x` })).status).toBe(403);
    // Free again: the next visitor books it.
    expect((await book(id, booker("dana"))).status).toBe(201);
  });
});
