import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, DEMO_ADMIN, invite, mailedToken, openStore, postForm, setPasswordWithToken, signIn, whoAmI } from "../support/auth";
import { squidexToken, startServer, type RunningServer } from "../support/server";

/**
 * The outbox screen never shows a live link (issue 20, finding 1): an editor who could read a
 * superuser's invitation or reset mail set its password and signed in as a superuser. Every kind
 * of mail with a signed link is made over HTTP (invitation, reset, newsletter confirm and welcome,
 * registration, booking); then neither role finds one of those tokens in any answer of
 * /manage/outbox (pages and their `.data`), editors see no account mail at all, and a superuser's
 * "send again" still sends the real, working link.
 */

let server: RunningServer;
let superuser: string;
let editor: string;

/** Every signed token (TokenSigner's `body.mac`) in the stored mails, by kind: read from the table, as a mailbox would. */
function storedTokens(): Map<string, string[]> {
  const db = openStore(server.dataDir);
  try {
    const rows = db.prepare("select kind, subject, text, html, headers from outbox").all() as Array<Record<string, string>>;
    const byKind = new Map<string, string[]>();
    for (const row of rows) {
      const found = `${row.subject}\n${row.text}\n${row.html}\n${row.headers}`.match(/[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{43}/g) ?? [];
      byKind.set(row.kind!, [...(byKind.get(row.kind!) ?? []), ...found]);
    }
    return byKind;
  } finally {
    db.close();
  }
}

function outboxRows(where: string, ...args: string[]): Array<{ id: string; kind: string }> {
  const db = openStore(server.dataDir);
  try {
    return db.prepare(`select id, kind from outbox where ${where} order by created, rowid`).all(...args) as Array<{ id: string; kind: string }>;
  } finally {
    db.close();
  }
}

function mailText(to: string): string {
  const db = openStore(server.dataDir);
  try {
    return (db.prepare("select text from outbox where recipient = ? order by created desc, rowid desc limit 1").get(to) as { text: string }).text;
  } finally {
    db.close();
  }
}

const json = (p: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${p}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

async function get(p: string, cookie: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${server.url}${p}`, { headers: { cookie } });
  return { status: res.status, body: await res.text() };
}

beforeAll(async () => {
  server = await startServer({ env: { RATE_LIMIT_PER_HOUR: "100000", FORM_MIN_FILL_SECONDS: "0" } });
  superuser = await signIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
  editor = await createUser(server, superuser, { email: "outbox-editor@example.com", password: "editor-password-123" });

  // Account mails: an invitation with superuser on, and a reset of an existing superuser.
  await invite(server, superuser, { email: "boss@example.com", superuser: true });
  await createUser(server, superuser, { email: "chief@example.com", password: "chief-password-123", superuser: true });
  const chief = outboxRows("recipient = ?", "chief@example.com");
  expect(chief).toHaveLength(1);
  const chiefId = (() => {
    const db = openStore(server.dataDir);
    try {
      return (db.prepare("select id from users where email = ?").get("chief@example.com") as { id: string }).id;
    } finally {
      db.close();
    }
  })();
  const reset = await postForm(server, "/manage/users", { intent: "reset", id: chiefId }, superuser);
  await reset.arrayBuffer();
  expect(reset.status).toBe(200);

  // The visitor flows' mails: newsletter confirm and welcome (present, unsubscribe), registration, booking.
  expect((await json("/api/newsletter/subscribe", { email: "reader@example.org", language: "de" })).status).toBe(202);
  const confirmUrl = new URL(mailText("reader@example.org").match(/http:\/\/\S+\?confirm=\S+/)![0]);
  const confirmed = await fetch(`${server.url}${confirmUrl.pathname}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url, "sec-fetch-site": "same-origin" },
    body: new URLSearchParams({ intent: "confirm", token: confirmUrl.searchParams.get("confirm")! }),
  });
  await confirmed.arrayBuffer();
  expect(confirmed.status).toBe(200);
  expect((await json("/api/practitioners/register", { name: "Rita Register", city: "Kassel", email: "rita@example.org", privacy: true, language: "de" })).status).toBe(201);
  const bearer = { authorization: `Bearer ${await squidexToken(server)}`, "content-type": "application/json" };
  const slot = await fetch(`${server.url}/api/squidex/api/content/praxisnetz/gm-appointments?publish=true`, {
    method: "POST",
    headers: bearer,
    body: JSON.stringify({ practitioner: { iv: ["prac-001"] }, start: { iv: new Date(Date.now() + 3 * 86_400_000).toISOString() }, durationMinutes: { iv: 30 }, booked: { iv: false } }),
  });
  expect(slot.status).toBe(201);
  const slotId = ((await slot.json()) as { id: string }).id;
  expect((await json(`/api/appointments/${slotId}/book`, { name: "Bea Booker", email: "bea@example.org", phone: "+49 30 1234567", language: "de", privacy: true })).status).toBe(201);
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe("the outbox shows no live link", () => {
  it("has a signed link in every kind of mail that carries one (the test's own premise)", () => {
    const tokens = storedTokens();
    for (const kind of ["user-invite", "user-reset", "newsletter-confirm", "newsletter-welcome", "registration-received", "booking-confirmation"]) {
      expect(tokens.get(kind)?.length ?? 0, kind).toBeGreaterThan(0);
    }
  });

  it("no token, nor its signature, is in any outbox answer, for either role (pages and .data, list and message)", async () => {
    const tokens = [...storedTokens().values()].flat();
    const secrets = [...new Set(tokens.flatMap((t) => [t, t.slice(t.indexOf(".") + 1)]))];
    const ids = outboxRows("1 = 1").map((r) => r.id);
    for (const [role, cookie] of [["editor", editor], ["superuser", superuser]] as const) {
      const paths = ["/manage/outbox", "/manage/outbox?status=pending", ...ids.map((id) => `/manage/outbox?id=${id}`)];
      for (const p of paths.flatMap((p) => [p, p.replace("/manage/outbox", "/manage/outbox.data")])) {
        const { status, body } = await get(p, cookie);
        expect([200, 404], `${role} ${p}`).toContain(status);
        for (const secret of secrets) expect(body.includes(secret), `${role} ${p} shows a link secret`).toBe(false);
      }
    }
    // The superuser reads the account mails, with the link masked and said so.
    const [invitation] = outboxRows("recipient = ? and kind = 'user-invite'", "boss@example.com");
    const page = await get(`/manage/outbox?id=${invitation!.id}`, superuser);
    expect(page.status).toBe(200);
    expect(page.body).toContain("/login?token=••••••");
    expect(page.body).toContain("Schlüssel in Links");
  });

  it("editors see no account mails: not listed, not opened, not sent again", async () => {
    for (const p of ["/manage/outbox", "/manage/outbox.data"]) {
      const { body } = await get(p, editor);
      expect(body).toContain("booking-confirmation");
      expect(body).not.toContain("user-invite");
      expect(body).not.toContain("user-reset");
      expect(body).not.toContain("boss@example.com");
    }
    for (const { id } of outboxRows("kind like 'user-%'")) {
      expect((await get(`/manage/outbox?id=${id}`, editor)).status).toBe(404);
      expect((await get(`/manage/outbox.data?id=${id}`, editor)).status).toBe(404);
    }
    const superuserList = await get("/manage/outbox", superuser);
    expect(superuserList.body).toContain('data-kind="user-invite"');
    expect(superuserList.body).toContain('data-kind="user-reset"');
  });

  it("a superuser's 'send again' sends the real link, which sets the password; an editor cannot send an account mail again", async () => {
    const [invitation] = outboxRows("recipient = ? and kind = 'user-invite'", "boss@example.com");
    const [reset] = outboxRows("recipient = ? and kind = 'user-reset'", "chief@example.com");
    const db = openStore(server.dataDir, false);
    try {
      // As delivery leaves a message it gave up on.
      db.prepare("update outbox set status = 'failed', attempts = 12, last_error = 'ECONNREFUSED' where id in (?, ?)").run(invitation!.id, reset!.id);
    } finally {
      db.close();
    }
    const byEditor = await postForm(server, "/manage/outbox", { intent: "requeue", id: reset!.id }, editor);
    await byEditor.arrayBuffer();
    expect(byEditor.status).toBe(404);
    expect(outboxRows("id = ? and status = 'failed'", reset!.id)).toHaveLength(1);

    const bySuperuser = await postForm(server, "/manage/outbox", { intent: "requeue", id: invitation!.id }, superuser);
    const answer = await bySuperuser.text();
    expect(bySuperuser.status).toBe(200);
    expect(answer).not.toMatch(/token=[A-Za-z0-9_-]{16,}\./);
    expect(outboxRows("id = ? and status = 'pending'", invitation!.id)).toHaveLength(1);
    // What goes out is the stored mail: its link works.
    const token = mailedToken(server.dataDir, "boss@example.com");
    const set = await setPasswordWithToken(server, token, "boss-password-123");
    await set.arrayBuffer();
    expect(set.status).toBe(200);
    expect(await whoAmI(server, await signIn(server, "boss@example.com", "boss-password-123"))).toMatchObject({ email: "boss@example.com", superuser: true });
  });
});
