import fs from "node:fs";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { migrate, openDatabase, type DB } from "~/content/db";
import { retryDelayMs, startDelivery, type DeliveryOptions, type MailDelivery } from "./delivery";
import { dropPgSchema } from "../../tests/support/store-backends";
import { TokenSigner } from "~/lib/tokens.server";
import { Outbox, type MailMessage } from "./outbox";
import { MASKED_SECRET } from "./readers";
import { renderMail } from "./templates";

/**
 * The outbox and its delivery on a SQLite file (always) and on PostgreSQL (its own schema, when
 * TEST_DATABASE_URL is set), with real SMTP servers on loopback: messages are kept until sent,
 * two senders on one database never send a message twice, failed attempts back off and are
 * retried (the clock is moved on rather than waited for), and what arrives over SMTP carries
 * the message's headers, both bodies and its calendar attachment.
 */

interface Backend {
  /** A new connection to the suite's one database (two of them are two app nodes). */
  open(): Promise<DB>;
  dispose(): Promise<void>;
}

function sqliteBackend(): Backend {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-mail-"));
  return {
    open: async () => (await openDatabase({ sqlitePath: path.join(dir, "mail.sqlite") })).db,
    dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

function postgresBackend(databaseUrl: string): Backend {
  const pgSchema = `t_mail_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  return {
    open: async () => (await openDatabase({ databaseUrl, pgSchema })).db,
    dispose: () => dropPgSchema(databaseUrl, pgSchema),
  };
}

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on a free loopback port; set `reject` to refuse messages with that reply. */
async function startSmtp() {
  const state = {
    received: [] as Received[],
    /** Messages offered (accepted or not). */
    offered: 0,
    reject: null as null | { code: number; message: string },
    /** Take the data and never answer (a server hanging mid-delivery). */
    stall: false,
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    closeTimeout: 1000,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        state.offered++;
        if (state.stall) return;
        if (state.reject) return callback(Object.assign(new Error(state.reject.message), { responseCode: state.reject.code }));
        const mailFrom = session.envelope.mailFrom;
        state.received.push({ from: mailFrom ? mailFrom.address : "", to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return Object.assign(state, {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
type Smtp = Awaited<ReturnType<typeof startSmtp>>;

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A logger that keeps its lines (to check what gets logged, and what never does). */
function recorder() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { lines, logger };
}

const FROM = "Praxisnetz <noreply@praxisnetz.example>";
const message = (n: number, over: Partial<MailMessage> = {}): MailMessage => ({
  kind: "test-mail",
  to: `person${n}@example.org`,
  subject: `Nachricht ${n}`,
  text: `Text ${n}`,
  html: `<p>Text ${n}</p>`,
  ...over,
});

/** A clock the test moves on. */
function testClock(start = "2026-03-02T09:00:00.000Z") {
  let now = new Date(start);
  return { now: () => now, advance: (ms: number) => (now = new Date(now.getTime() + ms)) };
}

function suite(name: string, makeBackend: (() => Backend) | undefined) {
  describe.skipIf(!makeBackend)(`mail outbox on ${name}`, () => {
    let backend: Backend;
    let db: DB;
    /** A second connection: another app node. */
    let db2: DB;
    let outbox: Outbox;
    const deliveries: MailDelivery[] = [];
    const servers: Smtp[] = [];
    /** A delivery loop without a timer: the test runs its rounds. */
    const deliver = (on: Outbox, options: DeliveryOptions) => {
      const delivery = startDelivery(on, { intervalMs: 0, ...options });
      deliveries.push(delivery);
      return delivery;
    };
    const smtp = async () => {
      const server = await startSmtp();
      servers.push(server);
      return server;
    };

    beforeAll(async () => {
      backend = makeBackend!();
      db = await backend.open();
      await migrate(db);
      db2 = await backend.open();
      outbox = new Outbox(db);
    });
    beforeEach(async () => {
      await db.deleteFrom("outbox").execute();
    });
    afterEach(async () => {
      for (const delivery of deliveries.splice(0)) await delivery.stop();
      for (const server of servers.splice(0)) await server.close();
    });
    afterAll(async () => {
      await db?.destroy();
      await db2?.destroy();
      await backend?.dispose();
    });

    it("keeps messages with everything they need and lists them newest first", async () => {
      const attachments = [{ filename: "termin.ics", contentType: "text/calendar; charset=utf-8; method=REQUEST", content: "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n" }];
      const first = await outbox.enqueue(message(1, { kind: "booking-confirmation", attachments }), undefined, new Date("2026-03-01T10:00:00.000Z"));
      const second = await outbox.enqueue(message(2, { headers: { "List-Unsubscribe": "<https://x.example/u>" } }), undefined, new Date("2026-03-01T11:00:00.000Z"));
      // In a transaction that fails, the mail goes with the change that caused it.
      await expect(
        db.transaction().execute(async (tx) => {
          await outbox.enqueue(message(3), tx);
          throw new Error("the booking failed");
        }),
      ).rejects.toThrow("the booking failed");

      const all = await outbox.list();
      expect(all.map((m) => m.id)).toEqual([second, first]);
      expect(all[1]).toEqual({
        id: first,
        kind: "booking-confirmation",
        to: "person1@example.org",
        subject: "Nachricht 1",
        text: "Text 1",
        html: "<p>Text 1</p>",
        headers: {},
        attachments,
        status: "pending",
        attempts: 0,
        nextAttemptAt: "2026-03-01T10:00:00.000Z",
        lastError: null,
        created: "2026-03-01T10:00:00.000Z",
        sentAt: null,
      });
      expect(all[0]!.headers).toEqual({ "List-Unsubscribe": "<https://x.example/u>" });
      expect((await outbox.list({ to: "person2@example.org" })).map((m) => m.id)).toEqual([second]);
      expect((await outbox.list({ kind: "booking-confirmation" })).map((m) => m.id)).toEqual([first]);
      expect(await outbox.list({ status: "sent" })).toEqual([]);
      expect(await outbox.list({ limit: 1 })).toHaveLength(1);
    });

    it("pages newest first with a keyset, ties on the same instant kept apart by id", async () => {
      const at = new Date("2026-04-01T10:00:00.000Z");
      const ids: string[] = [];
      // Five at the same instant and five a minute apart: no message is skipped or shown twice.
      for (let i = 0; i < 10; i++) ids.push(await outbox.enqueue(message(100 + i, { kind: "paging" }), undefined, new Date(at.getTime() + (i < 5 ? 0 : i * 60_000))));
      const seen: string[] = [];
      let before: { created: string; id: string } | undefined;
      for (let round = 0; round < 10; round++) {
        const page = await outbox.list({ kind: "paging", limit: 3, ...(before ? { before } : {}) });
        seen.push(...page.map((m) => m.id));
        if (page.length < 3) break;
        before = { created: page.at(-1)!.created, id: page.at(-1)!.id };
      }
      expect(seen).toEqual((await outbox.list({ kind: "paging", limit: 500 })).map((m) => m.id));
      expect(new Set(seen).size).toBe(10);
      expect(seen.slice(0, 5)).toEqual(ids.slice(5).reverse());
    });

    it("lets people read only the kinds they may, a full page at a time, with link secrets masked", async () => {
      const token = new TokenSigner(TokenSigner.newKey()).sign("set-password", "u1.0", 3600);
      const link = `https://praxis.example/login?token=${token}`;
      const at = new Date("2026-05-01T10:00:00.000Z");
      const kinds = ["user-invite", "booking-confirmation", "user-reset", "newsletter-confirm", "registration-received", "test-mail"];
      for (let i = 0; i < 12; i++)
        await outbox.enqueue(message(200 + i, { kind: kinds[i % kinds.length]!, text: `Öffnen: ${link}`, html: `<a href="${link}">x</a>`, headers: { "List-Unsubscribe": `<${link}>` } }), undefined, new Date(at.getTime() + i * 1000));
      const editor = { superuser: false };
      // A page of 3 is 3 readable ones (filtered in the query), and paging on finds all 6.
      const first = await outbox.listFor(editor, { limit: 3 });
      expect(first).toHaveLength(3);
      const rest = await outbox.listFor(editor, { before: { created: first.at(-1)!.created, id: first.at(-1)!.id } });
      const readable = [...first, ...rest];
      expect(readable.map((m) => m.kind).sort()).toEqual(["booking-confirmation", "booking-confirmation", "newsletter-confirm", "newsletter-confirm", "registration-received", "registration-received"]);
      const everything = await outbox.listFor({ superuser: true }, { limit: 500 });
      expect(everything).toHaveLength(12);
      for (const m of [...readable, ...everything]) expect(JSON.stringify(m)).not.toContain(token.split(".")[1]);
      expect(everything[0]!.text).toBe(`Öffnen: https://praxis.example/login?token=${MASKED_SECRET}`);
      const invitation = everything.find((m) => m.kind === "user-invite")!;
      expect(await outbox.getFor(editor, invitation.id)).toBeUndefined();
      expect((await outbox.getFor({ superuser: true }, invitation.id))!.headers["List-Unsubscribe"]).toBe(`<https://praxis.example/login?token=${MASKED_SECRET}>`);
      // What delivery reads is the mail as stored.
      expect((await outbox.get(invitation.id))!.text).toContain(token);
    });

    it("lets exactly one of two nodes claim a message", async () => {
      const clock = testClock();
      const ids = new Set<string>();
      for (let i = 0; i < 8; i++) ids.add(await outbox.enqueue(message(i), undefined, clock.now()));
      const nodes = [new Outbox(db), new Outbox(db2)];
      const lease = new Date(clock.now().getTime() + 60_000);
      // Sixteen claims at once for eight messages, half from each connection.
      const claims = await Promise.all(Array.from({ length: 16 }, (_, i) => nodes[i % 2]!.claimNext(clock.now(), lease)));
      const claimed = claims.flatMap((c) => (c ? [c.entry.id] : []));
      expect(claimed.sort()).toEqual([...ids].sort());
      expect(await outbox.claimNext(clock.now(), lease)).toBeUndefined();

      // A sender that died leaves its messages due again once the lease ran out; the late sender
      // can then no longer record an outcome over the new holder's claim.
      clock.advance(60_000);
      const again = await nodes[1]!.claimNext(clock.now(), new Date(clock.now().getTime() + 60_000));
      expect(again).toBeDefined();
      const staleForAgain = claims.find((c) => c?.entry.id === again!.entry.id)!;
      expect(await nodes[0]!.markSent(staleForAgain, clock.now())).toBe(false);
      expect(await nodes[1]!.markSent(again!, clock.now())).toBe(true);
      expect((await outbox.get(again!.entry.id))!.status).toBe("sent");
    });

    it("has two delivery loops on one database send every message exactly once", async () => {
      const server = await smtp();
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push(await outbox.enqueue(message(i)));
      const loops = [deliver(new Outbox(db), { smtpUrl: server.url, from: FROM, logger: recorder().logger }), deliver(new Outbox(db2), { smtpUrl: server.url, from: FROM, logger: recorder().logger })];
      const sentBy = [0, 0];
      for (let round = 0; round < 5 && sentBy[0]! + sentBy[1]! < 12; round++) {
        const results = await Promise.all(loops.map((loop) => loop.runOnce()));
        results.forEach((r, i) => (sentBy[i]! += r.sent));
      }
      expect(sentBy[0]! + sentBy[1]!).toBe(12);
      // Both really worked the same table at the same time.
      expect(sentBy[0]).toBeGreaterThan(0);
      expect(sentBy[1]).toBeGreaterThan(0);
      const subjects = server.received.map((r) => /^Subject: (.*)$/m.exec(r.raw)![1]).sort();
      expect(subjects).toEqual(Array.from({ length: 12 }, (_, i) => `Nachricht ${i}`).sort());
      expect(server.offered).toBe(12);
      const stored = await outbox.list();
      expect(stored.every((m) => m.status === "sent" && m.attempts === 1 && m.sentAt !== null && m.lastError === null)).toBe(true);
      expect(await Promise.all(loops.map((loop) => loop.runOnce()))).toEqual([
        { sent: 0, retried: 0, failed: 0 },
        { sent: 0, retried: 0, failed: 0 },
      ]);
    });

    it("keeps a refused message, backs off, and delivers it once the server takes it", async () => {
      const server = await smtp();
      server.reject = { code: 451, message: "4.3.0 Mailbox temporarily unavailable" };
      const clock = testClock();
      const { lines, logger } = recorder();
      const id = await outbox.enqueue(message(1, { to: "jana@example.org" }), undefined, clock.now());
      const loop = deliver(outbox, { smtpUrl: server.url, from: FROM, logger, now: clock.now });

      expect(await loop.runOnce()).toEqual({ sent: 0, retried: 1, failed: 0 });
      let entry = (await outbox.get(id))!;
      expect(entry).toMatchObject({ status: "pending", attempts: 1, sentAt: null });
      expect(entry.lastError).toMatch(/451.*temporarily unavailable/);
      expect(entry.nextAttemptAt).toBe(new Date(clock.now().getTime() + 30_000).toISOString());

      // Not due yet: nothing is tried.
      clock.advance(29_000);
      expect(await loop.runOnce()).toEqual({ sent: 0, retried: 0, failed: 0 });
      expect(server.offered).toBe(1);

      clock.advance(1_000);
      expect(await loop.runOnce()).toEqual({ sent: 0, retried: 1, failed: 0 });
      entry = (await outbox.get(id))!;
      expect(entry.attempts).toBe(2);
      expect(entry.nextAttemptAt).toBe(new Date(clock.now().getTime() + 60_000).toISOString());

      server.reject = null;
      clock.advance(60_000);
      expect(await loop.runOnce()).toEqual({ sent: 1, retried: 0, failed: 0 });
      const sentAt = clock.now().toISOString();
      expect(await loop.runOnce()).toEqual({ sent: 0, retried: 0, failed: 0 });
      clock.advance(24 * 60 * 60 * 1000);
      expect(await loop.runOnce()).toEqual({ sent: 0, retried: 0, failed: 0 });
      expect(server.received).toHaveLength(1);
      expect(server.offered).toBe(3);
      expect(await outbox.get(id)).toMatchObject({ status: "sent", attempts: 3, lastError: null, sentAt });
      // The log says what happened without naming the recipient.
      expect(lines.map((l) => l.msg)).toEqual(["mail: delivery failed, will retry", "mail: delivery failed, will retry", "mail: sent"]);
      expect(JSON.stringify(lines)).not.toContain("jana@example.org");
    });

    it("gives a message up after the last attempt, keeps it as failed and lets an editor requeue it", async () => {
      const port = await closedPort();
      const clock = testClock();
      const id = await outbox.enqueue(message(1), undefined, clock.now());
      const loop = deliver(outbox, { smtpUrl: `smtp://mailer:s3cret-Passw0rd@127.0.0.1:${port}`, from: FROM, logger: recorder().logger, now: clock.now, maxAttempts: 3 });
      const results = [];
      for (let attempt = 1; attempt <= 3; attempt++) {
        results.push(await loop.runOnce());
        clock.advance(retryDelayMs(attempt));
      }
      expect(results).toEqual([
        { sent: 0, retried: 1, failed: 0 },
        { sent: 0, retried: 1, failed: 0 },
        { sent: 0, retried: 0, failed: 1 },
      ]);
      const entry = (await outbox.get(id))!;
      expect(entry).toMatchObject({ status: "failed", attempts: 3 });
      expect(entry.lastError).toMatch(/ECONNREFUSED/);
      expect(entry.lastError).not.toMatch(/s3cret|mailer/);
      // Failed mail is never claimed again, nor purged.
      clock.advance(365 * 24 * 60 * 60 * 1000);
      expect(await loop.runOnce()).toEqual({ sent: 0, retried: 0, failed: 0 });
      expect(await outbox.purgeSent(30, clock.now())).toBe(0);
      expect(await outbox.list({ status: "failed" })).toHaveLength(1);

      expect(await outbox.requeue(id, clock.now())).toBe(true);
      expect(await outbox.requeue(id, clock.now())).toBe(false);
      expect(await outbox.get(id)).toMatchObject({ status: "pending", attempts: 0, nextAttemptAt: clock.now().toISOString() });
    });

    it("purges sent mail older than the given days, and only that", async () => {
      const clock = testClock("2026-01-01T00:00:00.000Z");
      const lease = () => new Date(clock.now().getTime() + 60_000);
      const old = await outbox.enqueue(message(1), undefined, clock.now());
      const oldClaim = (await outbox.claimNext(clock.now(), lease()))!;
      expect(oldClaim.entry.id).toBe(old);
      expect(await outbox.markSent(oldClaim, clock.now())).toBe(true);
      const oldPending = await outbox.enqueue(message(2), undefined, clock.now());
      clock.advance(20 * 24 * 60 * 60 * 1000);
      const recent = await outbox.enqueue(message(3), undefined, clock.now());
      // The oldest due message comes first.
      const pendingClaim = (await outbox.claimNext(clock.now(), lease()))!;
      expect(pendingClaim.entry.id).toBe(oldPending);
      expect(await outbox.markFailed(pendingClaim, "450 later", clock.now(), new Date(clock.now().getTime() + 30_000))).toBe(true);
      const recentClaim = (await outbox.claimNext(clock.now(), lease()))!;
      expect(recentClaim.entry.id).toBe(recent);
      expect(await outbox.markSent(recentClaim, clock.now())).toBe(true);

      clock.advance(11 * 24 * 60 * 60 * 1000);
      expect(await outbox.purgeSent(30, clock.now())).toBe(1);
      expect((await outbox.list()).map((m) => m.id).sort()).toEqual([oldPending, recent].sort());
      expect(await outbox.purgeSent(0, clock.now())).toBe(1);
      expect((await outbox.list()).map((m) => m.id)).toEqual([oldPending]);
      await expect(outbox.purgeSent(-1)).rejects.toThrow();
    });
  });
}

suite("SQLite", () => sqliteBackend());
const databaseUrl = process.env.TEST_DATABASE_URL;
suite(databaseUrl ? "PostgreSQL" : "PostgreSQL (set TEST_DATABASE_URL to run)", databaseUrl ? () => postgresBackend(databaseUrl) : undefined);

/** Header fields of one MIME entity (names lower-cased, folded lines joined) and its decoded body. */
interface MimePart {
  headers: Map<string, string>;
  body: string;
  parts: MimePart[];
}

function parseMime(raw: string): MimePart {
  const split = raw.indexOf("\r\n\r\n");
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? "" : raw.slice(split + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, " ").split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  const type = headers.get("content-type") ?? "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    const sections = body.split(`--${boundary}`).slice(1, -1);
    return { headers, body: "", parts: sections.map((s) => parseMime(s.replace(/^\r\n/, "").replace(/\r\n$/, ""))) };
  }
  const encoding = headers.get("content-transfer-encoding")?.toLowerCase();
  const decoded =
    encoding === "base64"
      ? Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8")
      : encoding === "quoted-printable"
        ? decodeQuotedPrintable(body)
        : body;
  return { headers, body: decoded, parts: [] };
}

function decodeQuotedPrintable(value: string): string {
  const text = value.replace(/=\r\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "=" && /^[0-9A-F]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(text.charCodeAt(i));
  }
  return Buffer.from(bytes).toString("utf8");
}

/** RFC 2047 encoded words (=?UTF-8?Q?…?= / =?UTF-8?B?…?=) as text. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, kind: string, data: string) =>
      kind.toLowerCase() === "b" ? Buffer.from(data, "base64").toString("utf8") : decodeQuotedPrintable(data.replace(/_/g, " ")),
    );
}

function leaves(part: MimePart): MimePart[] {
  return part.parts.length ? part.parts.flatMap(leaves) : [part];
}

describe("mail delivery over SMTP", () => {
  let backend: Backend;
  let db: DB;
  let outbox: Outbox;
  let server: Smtp;
  let delivery: MailDelivery | undefined;

  beforeEach(async () => {
    backend = sqliteBackend();
    db = await backend.open();
    await migrate(db);
    outbox = new Outbox(db);
    server = await startSmtp();
  });
  afterEach(async () => {
    await delivery?.stop();
    delivery = undefined;
    await server.close();
    await db.destroy();
    await backend.dispose();
  });

  it("hands subject, headers, both bodies and the calendar attachment to the SMTP server intact", async () => {
    const ics = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Praxisnetz//Termine//DE", "METHOD:REQUEST", "BEGIN:VEVENT", "UID:booking-42@praxisnetz", "DTSTART:20261201T080000Z", "DTEND:20261201T083000Z", "SUMMARY:Termin bei Dr. Müller", "END:VEVENT", "END:VCALENDAR", ""].join("\r\n");
    const mail = renderMail({
      kind: "booking-confirmation",
      to: "jana@example.org",
      language: "de",
      subject: "Ihr Termin bei Dr. Müller – 1. Dezember",
      greeting: "Guten Tag <script>alert(1)</script>,",
      paragraphs: ["Ihr Termin ist gebucht.", "Im Anhang finden Sie ihn für Ihren Kalender."],
      action: { label: "Termin absagen", url: "https://praxisnetz.example/termin/absagen?token=abc" },
      headers: { "List-Unsubscribe": "<https://praxisnetz.example/api/newsletter/unsubscribe?token=abc>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      attachments: [{ filename: "termin.ics", contentType: "text/calendar; charset=utf-8; method=REQUEST", content: ics }],
    });
    // A header the message may not set: the recipients are the outbox's alone.
    const id = await outbox.enqueue({ ...mail, headers: { ...mail.headers, Bcc: "evil@example.org", "X-Bad Name": "x" } });
    delivery = startDelivery(outbox, { smtpUrl: server.url, from: FROM, logger: recorder().logger, intervalMs: 0 });
    expect(await delivery.runOnce()).toEqual({ sent: 1, retried: 0, failed: 0 });

    expect(server.received).toHaveLength(1);
    const { from, to, raw } = server.received[0]!;
    expect(from).toBe("noreply@praxisnetz.example");
    expect(to).toEqual(["jana@example.org"]);
    const root = parseMime(raw);
    const header = (name: string) => decodeHeader(root.headers.get(name) ?? "");
    expect(header("subject")).toBe("Ihr Termin bei Dr. Müller – 1. Dezember");
    expect(header("from")).toBe("Praxisnetz <noreply@praxisnetz.example>");
    expect(header("to")).toBe("jana@example.org");
    expect(header("message-id")).toBe(`<${id}@praxisnetz.example>`);
    expect(header("list-unsubscribe")).toBe("<https://praxisnetz.example/api/newsletter/unsubscribe?token=abc>");
    expect(header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    expect(root.headers.has("bcc")).toBe(false);
    expect(raw).not.toContain("evil@example.org");
    expect(raw).not.toContain("X-Bad");

    expect(root.headers.get("content-type")).toMatch(/^multipart\/mixed/);
    const [plain, html, calendar, ...rest] = leaves(root);
    expect(rest).toEqual([]);
    expect(plain!.headers.get("content-type")).toMatch(/^text\/plain; charset=utf-8/);
    expect(plain!.body.replace(/\r\n/g, "\n")).toBe(mail.text);
    expect(html!.headers.get("content-type")).toMatch(/^text\/html; charset=utf-8/);
    expect(html!.body.replace(/\r\n/g, "\n")).toBe(mail.html);
    expect(html!.body).toContain("Guten Tag &lt;script&gt;alert(1)&lt;/script&gt;,");
    const calendarType = calendar!.headers.get("content-type")!;
    expect(calendarType).toMatch(/^text\/calendar/);
    expect(calendarType).toMatch(/method=REQUEST/);
    expect(calendarType).toMatch(/charset=utf-8/);
    expect(calendar!.headers.get("content-disposition")).toMatch(/^attachment; filename="?termin\.ics"?/);
    expect(calendar!.body).toBe(ics);
    expect(calendar!.body).toContain("UID:booking-42@praxisnetz");

    expect(await outbox.get(id)).toMatchObject({ status: "sent", attempts: 1 });
  });

  it("sends nothing without an SMTP URL: messages wait in the outbox", async () => {
    const { lines, logger } = recorder();
    const id = await outbox.enqueue(message(1));
    delivery = startDelivery(outbox, { from: FROM, logger, intervalMs: 10 });
    expect(delivery.enabled).toBe(false);
    expect(await delivery.runOnce()).toEqual({ sent: 0, retried: 0, failed: 0 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await outbox.get(id)).toMatchObject({ status: "pending", attempts: 0 });
    expect(lines.map((l) => l.msg)).toEqual(["mail: SMTP_URL is not set; messages stay in the outbox unsent"]);
  });

  it("delivers on its timer and stops cleanly", async () => {
    delivery = startDelivery(outbox, { smtpUrl: server.url, from: FROM, logger: recorder().logger, intervalMs: 20 });
    await outbox.enqueue(message(1));
    await waitFor(async () => (await outbox.list({ status: "sent" })).length === 1);
    expect(server.received).toHaveLength(1);

    await delivery.stop();
    await delivery.stop();
    expect(await delivery.runOnce()).toEqual({ sent: 0, retried: 0, failed: 0 });
    const id = await outbox.enqueue(message(2));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await outbox.get(id)).toMatchObject({ status: "pending" });
    expect(server.offered).toBe(1);
  });

  it("cuts off a send that hangs when stopped, and keeps the message for a retry", async () => {
    server.stall = true;
    const id = await outbox.enqueue(message(1));
    delivery = startDelivery(outbox, { smtpUrl: server.url, from: FROM, logger: recorder().logger, intervalMs: 0, stopGraceMs: 50 });
    const round = delivery.runOnce();
    await waitFor(async () => server.offered === 1);
    const started = Date.now();
    await delivery.stop();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await round).toEqual({ sent: 0, retried: 1, failed: 0 });
    const entry = (await outbox.get(id))!;
    expect(entry).toMatchObject({ status: "pending", attempts: 1 });
    expect(entry.lastError).toMatch(/abort|stopped/i);
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 3000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
