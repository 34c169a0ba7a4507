import { createRequire } from "node:module";
import type { Logger } from "~/lib/logger.server";
import type { Outbox, OutboxClaim, OutboxEntry } from "./outbox";

export type MailLogger = Pick<Logger, "info" | "warn" | "error">;

export interface DeliveryOptions {
  /** smtp:// or smtps:// URL (SMTP_URL). Unset: nothing is sent, messages wait in the outbox. */
  smtpUrl?: string;
  /** The From header (MAIL_FROM), e.g. `Praxisnetz <noreply@example.org>`. */
  from: string;
  logger: MailLogger;
  /** Pause between delivery rounds; 0 runs no timer (only `runOnce`, for tests and scripts). Default 5 s. */
  intervalMs?: number;
  /** Messages sent at most per round, so one round never holds the loop for long. Default 50. */
  batchSize?: number;
  /** Attempts before a message is given up as failed. Default 12 (about 14 hours of retries). */
  maxAttempts?: number;
  /** How long `stop()` lets the message in flight finish before cutting its connection. Default 5 s. */
  stopGraceMs?: number;
  /** The clock (tests move it on instead of waiting for the backoff). */
  now?: () => Date;
}

export interface DeliveryResult {
  sent: number;
  /** Failed attempts that will be tried again. */
  retried: number;
  /** Messages given up on this round (status failed). */
  failed: number;
}

export interface MailDelivery {
  /** False without an SMTP URL: then rounds do nothing. */
  readonly enabled: boolean;
  /** One round: sends what is due now; joins the running round if there is one. */
  runOnce(): Promise<DeliveryResult>;
  /** Stops the timer, lets the message being sent finish (at most `stopGraceMs`), closes the SMTP connection. */
  stop(): Promise<void>;
}

const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 6 * 60 * 60 * 1000;
/** A send is cut off after this long (a server can trickle replies past every socket timeout)… */
const SEND_TIMEOUT_MS = 2 * 60 * 1000;
/** …well inside the claim, so no other node takes a message over while it is still being sent. */
const LEASE_MS = 10 * 60 * 1000;

/** Wait after the `attempts`-th failed attempt: 30 s, 1 min, 2 min, … doubling up to 6 h. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

/**
 * Sends the outbox's due messages over SMTP, one at a time, every `intervalMs`. Each message is
 * claimed in the database before it is sent (see Outbox.claimNext), so any number of app nodes can
 * run this on one database and still send each message once. A failed attempt is retried with
 * exponential backoff; after `maxAttempts` the message stays in the table as failed.
 *
 * Delivery is at least once, not exactly once: when a send is cut off or the node dies after the
 * server took the message but before it is marked sent, it goes out again. Retries keep the same
 * Message-ID, so receiving systems can tell.
 */
export function startDelivery(outbox: Outbox, options: DeliveryOptions): MailDelivery {
  const { logger, from } = options;
  const intervalMs = options.intervalMs ?? 5000;
  const batchSize = options.batchSize ?? 50;
  const maxAttempts = options.maxAttempts ?? 12;
  const stopGraceMs = options.stopGraceMs ?? 5000;
  const now = options.now ?? (() => new Date());
  const idle: DeliveryResult = { sent: 0, retried: 0, failed: 0 };

  if (!options.smtpUrl) {
    logger.info("mail: SMTP_URL is not set; messages stay in the outbox unsent");
    return { enabled: false, runOnce: async () => ({ ...idle }), stop: async () => {} };
  }

  const secrets = credentialsOf(options.smtpUrl);
  const messageDomain = /@([^\s<>@]+?)>?\s*$/.exec(from)?.[1] ?? "praxisnetz.localhost";
  // Required only when mail is sent: most starts (no SMTP_URL) never load nodemailer.
  const nodemailer = createRequire(import.meta.url)("nodemailer") as typeof import("nodemailer");
  const transport = nodemailer.createTransport({
    url: options.smtpUrl,
    // One connection, kept open briefly between messages of a round. The pool must not resend on
    // its own: the outbox decides about retries.
    pool: true,
    maxConnections: 1,
    maxRequeues: 0,
    idleTimeout: 30_000,
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
    // Messages come from the database: never let a field make nodemailer read a file or fetch a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  // Aborts the send in flight when stop() has waited long enough.
  const cutOff = new AbortController();
  let stopped: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<DeliveryResult> | undefined;

  const send = async (claim: OutboxClaim): Promise<keyof DeliveryResult> => {
    const entry = claim.entry;
    try {
      await transport.sendMail({ ...toNodemailer(entry, from, messageDomain), signal: AbortSignal.any([cutOff.signal, AbortSignal.timeout(SEND_TIMEOUT_MS)]) });
    } catch (error) {
      const attempts = entry.attempts + 1;
      const retryAt = attempts < maxAttempts ? new Date(now().getTime() + retryDelayMs(attempts)) : null;
      const reason = describeError(error, secrets);
      if (!(await outbox.markFailed(claim, reason, now(), retryAt))) logger.warn({ id: entry.id, kind: entry.kind }, "mail: claim ran out while sending; another sender has the message");
      if (retryAt) {
        logger.warn({ id: entry.id, kind: entry.kind, attempts, error: reason, retryAt: retryAt.toISOString() }, "mail: delivery failed, will retry");
        return "retried";
      }
      logger.error({ id: entry.id, kind: entry.kind, attempts, error: reason }, "mail: delivery failed, giving up (message kept as failed)");
      return "failed";
    }
    if (!(await outbox.markSent(claim, now()))) logger.warn({ id: entry.id, kind: entry.kind }, "mail: sent after the claim ran out; it may go out twice");
    logger.info({ id: entry.id, kind: entry.kind, attempts: entry.attempts + 1 }, "mail: sent");
    return "sent";
  };

  const round = async (): Promise<DeliveryResult> => {
    const result = { ...idle };
    try {
      for (let i = 0; i < batchSize && !stopped; i++) {
        const start = now();
        const claim = await outbox.claimNext(start, new Date(start.getTime() + LEASE_MS));
        if (!claim) break;
        result[await send(claim)]++;
      }
    } catch (error) {
      // The database is away (restart, failover): what was not claimed is still due next round.
      logger.warn({ err: error }, "mail: delivery round failed; trying again next round");
    }
    return result;
  };

  const runOnce = (): Promise<DeliveryResult> => {
    if (stopped) return Promise.resolve({ ...idle });
    running ??= round().finally(() => (running = undefined));
    return running;
  };

  const schedule = () => {
    if (stopped || !intervalMs) return;
    // The next round is planned when this one ends, so rounds never overlap however slow SMTP is.
    timer = setTimeout(() => void runOnce().finally(schedule), intervalMs);
    timer.unref();
  };
  schedule();

  return {
    enabled: true,
    runOnce,
    stop() {
      stopped ??= (async () => {
        clearTimeout(timer);
        if (running) {
          const grace = setTimeout(() => cutOff.abort(new Error("mail delivery stopped")), stopGraceMs);
          await running;
          clearTimeout(grace);
        }
        transport.close();
      })();
      return stopped;
    },
  };
}

/** Header names a message may set; the addressing and MIME structure are nodemailer's alone. */
const RESERVED_HEADERS = new Set(["from", "to", "cc", "bcc", "sender", "subject", "date", "message-id", "mime-version", "content-type", "content-transfer-encoding", "return-path"]);

function toNodemailer(entry: OutboxEntry, from: string, messageDomain: string) {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(entry.headers)) {
    if (/^[A-Za-z][A-Za-z0-9-]*$/.test(name) && !RESERVED_HEADERS.has(name.toLowerCase())) headers[name] = oneLine(String(value));
  }
  return {
    from,
    to: entry.to,
    subject: oneLine(entry.subject),
    text: entry.text,
    html: entry.html,
    headers,
    attachments: entry.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
    // The same id on every attempt: a receiver that got a message twice can see that it is one.
    messageId: `<${entry.id}@${messageDomain}>`,
    date: new Date(entry.created),
  };
}

function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, " ").trim();
}

/** User name and password of the SMTP URL, as written and decoded: kept out of stored errors. */
function credentialsOf(smtpUrl: string): string[] {
  try {
    const url = new URL(smtpUrl);
    return [url.username, url.password].flatMap((part) => (part ? [part, decodeURIComponent(part)] : [])).filter((s) => s.length >= 3);
  } catch {
    return [];
  }
}

/**
 * The reason an attempt failed, short enough for the admin list: nodemailer's code, the server's
 * reply code and message. Credentials never appear, even when a server echoes them.
 */
function describeError(error: unknown, secrets: string[]): string {
  const e = (typeof error === "object" && error ? error : {}) as { code?: unknown; response?: unknown; message?: unknown };
  const text = typeof e.response === "string" ? e.response : typeof e.message === "string" ? e.message : String(error);
  const code = typeof e.code === "string" ? e.code : "";
  let reason = [code, text].filter(Boolean).join(": ");
  reason = reason.replace(/\/\/[^/\s@]+@/g, "//***@");
  for (const secret of secrets) reason = reason.split(secret).join("***");
  return oneLine(reason).slice(0, 200);
}
