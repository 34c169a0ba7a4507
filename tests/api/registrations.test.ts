import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, DEMO_ADMIN, openStore, postForm, signIn } from "../support/auth";
import { startServer, type RunningServer } from "../support/server";

/**
 * Issue 22, points 5 and 7, over HTTP: an editor approves and rejects registrations on
 * /manage/registrations. Approving mails the practitioner in their language, an unfinished one only
 * once confirmed; rejecting needs a reason (a 400 with a message without one) and mails it; both
 * are audited under the editor; without a session nothing changes. The dashboard's counts follow.
 */

let server: RunningServer;
let editor: string;
const EDITOR = { email: "regs-editor@example.com", name: "Erika Prüfer", password: "editor-password-123" };

interface Mail {
  kind: string;
  recipient: string;
  subject: string;
  text: string;
  html: string;
}

function read<T>(fn: (db: ReturnType<typeof openStore>) => T): T {
  const db = openStore(server.dataDir);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const mails = (to: string) => read((db) => db.prepare("select kind, recipient, subject, text, html from outbox where recipient = ? order by created, rowid").all(to) as Mail[]);
const item = (id: string) => read((db) => db.prepare("select status, version, data from contents where id = ?").get(id) as { status: string; version: number; data: string });
const auditOf = (id: string) => read((db) => db.prepare("select action, user_email, detail from audit_log where item_id = ? order by at, rowid").all(id) as Array<{ action: string; user_email: string; detail: string | null }>);

const json = (p: string, body: unknown) => fetch(`${server.url}${p}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

/** A registration through the public API, in `language`; finished through its continue link when asked. */
async function register(v: { name: string; email: string; language: "de" | "en"; speciality?: string; finish?: boolean }): Promise<string> {
  const base = { name: v.name, city: "Kassel", email: v.email, privacy: true, language: v.language, ...(v.speciality ? { speciality: v.speciality } : {}) };
  const res = await json("/api/practitioners/register", base);
  expect(res.status, await res.clone().text()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  if (v.finish) {
    const mail = mails(v.email).find((m) => m.kind === "registration-received")!;
    const token = new URL(mail.text.match(/https?:\/\/\S+\?token=\S+/)![0]).searchParams.get("token")!;
    const done = await json("/api/practitioners/register", { ...base, id, token, finish: true });
    expect(done.status, await done.clone().text()).toBe(200);
  }
  return id;
}

/** A form post to the registrations screen as the editor, or (cookie null) without a session. */
async function decide(fields: Record<string, string>, cookie: string | null = editor): Promise<{ status: number; body: string }> {
  const res = await postForm(server, "/manage/registrations", fields, cookie ?? undefined);
  return { status: res.status, body: await res.text() };
}

/** The dashboard's count of one kind, as the page shows it (data-count) and as the editor reads it. */
async function dashboard(cookie = editor): Promise<{ html: string; count: (key: string) => number }> {
  const res = await fetch(`${server.url}/manage`, { headers: { cookie } });
  expect(res.status).toBe(200);
  const html = await res.text();
  return {
    html,
    count: (key) => {
      const m = html.match(new RegExp(`data-dashboard="${key}"[^>]*data-count="(\\d+)"`));
      expect(m, `dashboard count ${key}`).toBeTruthy();
      return Number(m![1]);
    },
  };
}

beforeAll(async () => {
  server = await startServer({ env: { RATE_LIMIT_PER_HOUR: "100000", FORM_MIN_FILL_SECONDS: "0" } });
  const superuser = await signIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
  editor = await createUser(server, superuser, EDITOR);
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe("approving and rejecting registrations", () => {
  let unfinished: string;
  let finished: string;
  let before: number;

  beforeAll(async () => {
    before = (await dashboard()).count("registrations");
    unfinished = await register({ name: "Una Unfertig", email: "una@example.org", language: "en" });
    finished = await register({ name: "Fritz Fertig", email: "fritz@example.org", language: "de", speciality: "Osteopathie", finish: true });
  });

  it("lists both with their real state: finished or not, not visible, no 'published' badge", async () => {
    const res = await fetch(`${server.url}/manage/registrations`, { headers: { cookie: editor } });
    const html = await res.text();
    expect(res.status).toBe(200);
    const row = (id: string) => html.slice(html.indexOf(`data-registration="${id}"`), html.indexOf("</tr>", html.indexOf(`data-registration="${id}"`)));
    expect(row(unfinished)).toContain('data-finished="false"');
    expect(row(unfinished)).toContain("Nicht abgeschlossen");
    expect(row(unfinished)).toContain('data-visibility="hidden-draft"');
    expect(row(unfinished)).toContain(`href="/manage/registrations?confirm=${unfinished}"`);
    expect(row(finished)).toContain('data-finished="true"');
    expect(row(finished)).not.toContain("Veröffentlicht");
    expect((await dashboard()).count("registrations")).toBe(before + 2);
  });

  it("changes nothing without a session", async () => {
    const { version } = item(finished);
    const posts: Array<Record<string, string>> = [
      { intent: "approve", id: finished, version: String(version) },
      { intent: "reject", id: finished, version: String(version), reason: "Nein." },
    ];
    for (const fields of posts) {
      const res = await decide(fields, null);
      expect([302, 303, 401]).toContain(res.status);
    }
    expect(item(finished)).toMatchObject({ status: "Draft", version });
    expect(mails("fritz@example.org").map((m) => m.kind)).toEqual(["registration-received", "registration-finished"]);
  });

  it("asks before approving an unfinished registration, then approves it and mails in the practitioner's language", async () => {
    const { version } = item(unfinished);
    const asked = await decide({ intent: "approve", id: unfinished, version: String(version) });
    expect(asked.status).toBe(409);
    expect(asked.body).toContain("Una Unfertig hat die Registrierung noch nicht abgeschlossen. Bitte bestätigen Sie die Freigabe.");
    expect(item(unfinished).status).toBe("Draft");

    // The confirm step names the person and posts the confirmation (a plain form: no JavaScript needed).
    const step = await (await fetch(`${server.url}/manage/registrations?confirm=${unfinished}`, { headers: { cookie: editor } })).text();
    expect(step).toContain('data-registration-step="confirm"');
    expect(step).toContain("Una Unfertig freigeben?");
    expect(step).toContain('name="confirmed" value="yes"');

    const ok = await decide({ intent: "approve", id: unfinished, version: String(version), confirmed: "yes" });
    expect(ok.status).toBe(200);
    expect(ok.body).toContain("Freigegeben: Una Unfertig ist jetzt im Verzeichnis sichtbar.");
    const stored = item(unfinished);
    expect(stored.status).toBe("Published");
    expect(JSON.parse(stored.data).display).toEqual({ iv: true });
    const mail = mails("una@example.org").at(-1)!;
    expect(mail).toMatchObject({ kind: "registration-approved", subject: "Your Praxisnetz entry is approved" });
    expect(mail.html).toContain('<html lang="en"');
    expect(mail.text).toContain("Hello Una Unfertig,");
    expect(mail.text).toMatch(/\/en\/practitioners\/una-unfertig/);
    expect(auditOf(unfinished).filter((a) => a.action === "approve-registration").map((a) => a.user_email)).toEqual([EDITOR.email, EDITOR.email]);
  });

  it("refuses a rejection without a reason with a message, then rejects with one and mails it", async () => {
    const { version } = item(finished);
    for (const reason of [undefined, "", "   "]) {
      const res = await decide({ intent: "reject", id: finished, version: String(version), ...(reason === undefined ? {} : { reason }) });
      expect(res.status).toBe(400);
      expect(res.body).toContain("Bitte geben Sie eine Begründung an");
    }
    expect(item(finished)).toMatchObject({ status: "Draft", version });

    const reason = "Ihre Praxis liegt außerhalb unseres Verzeichnisgebiets.";
    const ok = await decide({ intent: "reject", id: finished, version: String(version), reason });
    expect(ok.status).toBe(200);
    expect(ok.body).toContain("Abgelehnt: Fritz Fertig.");
    expect(item(finished).status).toBe("Archived");
    const mail = mails("fritz@example.org").at(-1)!;
    expect(mail).toMatchObject({ kind: "registration-rejected", subject: "Ihre Registrierung im Praxisnetz" });
    expect(mail.html).toContain('<html lang="de"');
    expect(mail.text).toContain(reason);
    expect(auditOf(finished).at(-1)).toEqual({ action: "reject-registration", user_email: EDITOR.email, detail: reason });

    // Settled: a second decision is refused with a message, and the list no longer has it.
    const again = await decide({ intent: "approve", id: finished, version: String(version + 1) });
    expect(again.status).toBe(404);
    expect(again.body).toContain("bereits bearbeitet");
    expect(await (await fetch(`${server.url}/manage/registrations`, { headers: { cookie: editor } })).text()).not.toContain(`data-registration="${finished}"`);
  });

  it("shows on the dashboard: the count back down, the changes with the editor's name and the practitioners' names", async () => {
    const { html, count } = await dashboard();
    expect(count("registrations")).toBe(before);
    expect(count("failed-mails")).toBe(0);
    expect(count("bookings-today")).toBeGreaterThanOrEqual(0);
    const recent = html.slice(html.indexOf("data-recent-changes"));
    expect(recent).toContain(EDITOR.name);
    expect(recent).toContain("Fritz Fertig");
    expect(recent).toContain("Una Unfertig");
    expect(recent).toContain("hat die Registrierung abgelehnt:");
  });
});

describe("the dashboard", () => {
  it("formats counts with thousands separators in the editor's language", async () => {
    // 1 234 failed mails an editor may read, written as the outbox would keep them.
    const db = openStore(server.dataDir, false);
    try {
      const insert = db.prepare(
        "insert into outbox (id, kind, recipient, subject, text, html, headers, attachments, status, attempts, next_attempt_at, last_error, created, sent_at) values (?, 'booking-confirmation', 'x@example.org', 's', 't', 'h', '{}', '[]', 'failed', 5, ?, 'refused', ?, null)",
      );
      const now = new Date().toISOString();
      db.transaction(() => {
        for (let i = 0; i < 1234; i++) insert.run(`dash-${i}`, now, now);
      })();
    } finally {
      db.close();
    }
    const { html, count } = await dashboard();
    expect(count("failed-mails")).toBe(1234);
    expect(html).toContain("1.234 E-Mails nicht zugestellt");
    expect(html).toContain('href="/manage/outbox?status=failed"');
  });
});
