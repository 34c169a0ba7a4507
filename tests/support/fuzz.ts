import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import fc from "fast-check";
import { buildAppointmentSeed } from "~/content/seed/appointments";
import { buildDemoContent, type DemoItem } from "~/content/seed/content";
import type { RunningServer } from "./server";
import { envInt } from "./env";

/**
 * Harness for the HTTP fuzz suite (tests/fuzz): sends generated requests to the one started server
 * over real HTTP on 127.0.0.1 and checks every answer against the oracles every endpoint must meet
 * (no 5xx, an answer within the time bound, no private or unpublished data in a visitor's answer),
 * collecting every distinct failure for the summary at the end.
 */

export const FUZZ_SEED = envInt("FUZZ_SEED", 20261123);
export const FUZZ_RUNS = envInt("FUZZ_RUNS", 50);
/**
 * The fixed seed finds the same inputs every time; a short second campaign per property with a seed
 * drawn afresh on every run of `npm test` finds what it never generates (`GET //` was one). Off
 * when FUZZ_SEED is given (a replay, or `npm run fuzz`'s own random seed) or FUZZ_FRESH_RUNS=0.
 */
export const FUZZ_FRESH_SEED = process.env.FUZZ_SEED?.trim() ? undefined : Math.floor(Math.random() * 2 ** 31);
/** Runs of the fresh-seed campaign per property (a fifth of a property's fixed runs, at most this). */
export const FUZZ_FRESH_RUNS = envInt("FUZZ_FRESH_RUNS", 10);
/** An answer that takes longer than this counts as a hang. */
export const FUZZ_TIMEOUT_MS = envInt("FUZZ_TIMEOUT_MS", 5000);


/** fc.assert options shared by every property: fixed seed by default, verbose counterexamples. */
export function fuzzParams<T>(overrides: fc.Parameters<T> = {}): fc.Parameters<T> {
  return { seed: FUZZ_SEED, numRuns: FUZZ_RUNS, verbose: 1, ...overrides };
}

/** How to replay a failure of the fresh-seed campaign (the fixed seed's replay is the default). */
export const freshReplay = (runs: number) => `FUZZ_SEED=${FUZZ_FRESH_SEED} FUZZ_RUNS=${runs}`;

/** The fresh campaign's options for a property whose fixed campaign has `params`, or undefined when it is off. */
export function freshFuzzParams<T>(params: fc.Parameters<T> = {}): fc.Parameters<T> | undefined {
  if (FUZZ_FRESH_SEED === undefined || FUZZ_FRESH_RUNS <= 0) return undefined;
  const numRuns = Math.max(1, Math.min(FUZZ_FRESH_RUNS, Math.ceil((params.numRuns ?? FUZZ_RUNS) / 5)));
  return { ...params, seed: FUZZ_FRESH_SEED, numRuns, verbose: 1 };
}

/** Per-test timeout that grows with the run count (shrinking included), the fresh campaign's runs too. */
export const fuzzTestTimeout = (runs = FUZZ_RUNS, perRunMs = 400) => 90_000 + (runs + (FUZZ_FRESH_SEED === undefined ? 0 : FUZZ_FRESH_RUNS)) * perRunMs;

// ---- requests -----------------------------------------------------------------------------------

export interface FuzzRequest {
  method: string;
  /** Request target exactly as sent: not normalised, not encoded (may hold any character). */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/**
 * A 501 the Squidex API gives on purpose: an endpoint Squidex has that this service does not offer
 * (app management), answered as an ErrorDto with errorCode NOT_IMPLEMENTED (a HEAD has no body to
 * show it; its GET is fuzzed too). Any other 5xx is a failure.
 */
function deliberatelyNotImplemented(req: FuzzRequest, res: FuzzResponse): boolean {
  return res.status === 501 && (req.method === "HEAD" || /"errorCode":"NOT_IMPLEMENTED"/.test(res.body));
}

export interface FuzzResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  ms: number;
  /** How it was sent: node:http, or raw bytes over node:net when node:http refused them. */
  via: "http" | "raw";
}


function isRefusedByClient(e: unknown): boolean {
  const code = (e as { code?: string }).code;
  return (
    code === "ERR_INVALID_CHAR" ||
    code === "ERR_INVALID_HTTP_TOKEN" ||
    code === "ERR_UNESCAPED_CHARACTERS" ||
    code === "ERR_HTTP_INVALID_HEADER_VALUE" ||
    code === "ERR_INVALID_ARG_VALUE" ||
    code === "ERR_INVALID_ARG_TYPE"
  );
}

/** Sends one request; bytes node:http refuses to send (CR/LF/NUL, non-Latin-1, spaces) go out raw. */
export async function send(server: RunningServer, req: FuzzRequest): Promise<FuzzResponse> {
  try {
    return await sendHttp(server, req);
  } catch (e) {
    if (isRefusedByClient(e)) return sendRaw(server, req);
    throw e;
  }
}

function sendHttp(server: RunningServer, req: FuzzRequest): Promise<FuzzResponse> {
  const { port } = new URL(server.url);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let request: http.ClientRequest;
    const headers: Record<string, string> = { ...req.headers };
    const names = Object.keys(headers).map((k) => k.toLowerCase());
    // node:http sends no Content-Length for a DELETE/GET body: say it, so the body is never read as a next request.
    if (req.body !== undefined && !names.includes("content-length") && !names.includes("transfer-encoding"))
      headers["content-length"] = String(Buffer.byteLength(req.body));
    try {
      // A fresh connection per request (agent: false): what one request leaves on a socket cannot touch the next.
      request = http.request({
        host: "127.0.0.1",
        port: Number(port),
        method: req.method,
        path: req.path,
        headers,
        agent: false,
        // Read answers with large headers too (a long Location is the server's answer, not a client failure).
        maxHeaderSize: 1024 * 1024,
        signal: AbortSignal.timeout(FUZZ_TIMEOUT_MS),
      });
    } catch (e) {
      return reject(e);
    }
    let answered = false;
    request.on("response", (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        resolve({
          status: res.statusCode ?? 0,
          headers: flatHeaders(res.headers),
          body: Buffer.concat(chunks).toString("utf8"),
          ms: Math.round(performance.now() - started),
          via: "http",
        });
        request.destroy(); // an early answer (before the body was sent) leaves the request open
      });
      res.on("error", (e) => reject(noAnswer(req, e, started)));
    });
    request.on("error", (e) => {
      if (answered) return;
      // A server may refuse a request head over its header limit (16 KB in Node) or a body over its
      // limit and close the connection while we are still writing: the reset is then its answer.
      const code = (e as { code?: string }).code;
      const over = oversize(req);
      if ((code === "ECONNRESET" || code === "EPIPE") && over) return resolve(refusedOversize(over, code, started, "http"));
      reject(noAnswer(req, e, started));
    });
    void (async () => {
      try {
        if (req.body !== undefined && Buffer.byteLength(req.body) > EARLY_ANSWER_BYTES) {
          // Head first: a server that refuses on the headers alone (413, 415) answers and closes at
          // once, and a reset caused by a body it never reads could swallow that answer.
          request.flushHeaders();
          await earlyAnswer(() => answered);
          if (!answered) request.end(req.body);
        } else if (req.body !== undefined) request.end(req.body);
        else request.end();
      } catch (e) {
        request.destroy();
        reject(e);
      }
    })();
  });
}

/** Bodies above this size are sent only after a short wait for an early answer to the head. */
const EARLY_ANSWER_BYTES = 32 * 1024;
const earlyAnswer = async (answered: () => boolean) => {
  for (let i = 0; i < 10 && !answered(); i++) await new Promise((r) => setTimeout(r, 5));
};

/** Node's limits: 16 KB of request head; the app's: API_BODY_LIMIT_BYTES (1 MB) of JSON body. */
function oversize(req: FuzzRequest): 431 | 413 | undefined {
  const head = Buffer.byteLength(req.path) + Buffer.byteLength(JSON.stringify(req.headers ?? {}));
  const body = req.body === undefined ? 0 : Buffer.byteLength(req.body);
  return head > 16 * 1024 ? 431 : body > 1024 * 1024 ? 413 : undefined;
}

function refusedOversize(status: 431 | 413, how: string, started: number, via: FuzzResponse["via"]): FuzzResponse {
  return { status, headers: { connection: "close", "x-fuzz-note": `connection closed on an oversize request (${how})` }, body: "", ms: Math.round(performance.now() - started), via };
}

function flatHeaders(h: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join("\n") : v;
  return out;
}

export class NoAnswer extends Error {}

function noAnswer(req: FuzzRequest, cause: unknown, started: number): NoAnswer {
  const ms = Math.round(performance.now() - started);
  const name = (cause as Error)?.name;
  const what = name === "TimeoutError" || name === "AbortError" ? `no answer within ${FUZZ_TIMEOUT_MS} ms (hang)` : `no answer: ${String((cause as Error)?.message ?? cause)}`;
  return new NoAnswer(`${what} after ${ms} ms for ${req.method} ${snippet(req.path, 300)}`);
}

/** The request as bytes over a plain socket: for what node:http will not put on the wire. */
export function sendRaw(server: RunningServer, req: FuzzRequest): Promise<FuzzResponse> {
  const { port } = new URL(server.url);
  const body = req.body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body, "utf8");
  const headers = { host: `127.0.0.1:${port}`, ...req.headers };
  const lower = Object.keys(headers).map((k) => k.toLowerCase());
  const lines = [`${req.method} ${req.path} HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  if (!lower.includes("connection")) lines.push("connection: close");
  if (body.length && !lower.includes("content-length") && !lower.includes("transfer-encoding")) lines.push(`content-length: ${body.length}`);
  return sendBytes(server, [Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "utf8"), body], `${req.method} ${snippet(req.path, 300)}`, oversize(req));
}

/**
 * Writes bytes as they are and reads the answer until the server closes the connection. A server
 * may refuse an oversize request by closing the connection while the bytes still arrive; the
 * reset can swallow its 431/413, so for an oversize request (`over`) a close is taken as that answer.
 */
export function sendBytes(server: RunningServer, bytes: Buffer | [head: Buffer, body: Buffer], what = "raw request", over?: 431 | 413): Promise<FuzzResponse> {
  const { port } = new URL(server.url);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: "127.0.0.1", port: Number(port) });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new NoAnswer(`no answer within ${FUZZ_TIMEOUT_MS} ms (hang) for ${what}`));
    }, FUZZ_TIMEOUT_MS);
    socket.on("data", (c) => chunks.push(c));
    socket.on("error", () => {
      /* a reset after the answer is fine; judged on close */
    });
    socket.on("close", () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks);
      const head = raw.subarray(0, Math.max(0, raw.indexOf("\r\n\r\n"))).toString("latin1");
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(head);
      if (!m && over) return resolve(refusedOversize(over, "closed", started, "raw"));
      if (!m) return reject(new NoAnswer(`connection closed without an HTTP answer (${raw.length} bytes) for ${what}`));
      const headers: Record<string, string> = {};
      for (const line of head.split("\r\n").slice(1)) {
        const i = line.indexOf(":");
        if (i > 0) {
          const k = line.slice(0, i).trim().toLowerCase();
          headers[k] = headers[k] ? `${headers[k]}\n${line.slice(i + 1).trim()}` : line.slice(i + 1).trim();
        }
      }
      let body: Buffer = raw.subarray(head.length + 4);
      if (/chunked/i.test(headers["transfer-encoding"] ?? "")) body = dechunk(body);
      resolve({ status: Number(m[1]), headers, body: body.toString("utf8"), ms: Math.round(performance.now() - started), via: "raw" });
    });
    if (Buffer.isBuffer(bytes)) socket.write(bytes);
    else {
      // Head first, as in sendHttp: an answer to a refused head must not be lost to a reset.
      const [head, body] = bytes;
      socket.write(head);
      void (async () => {
        if (body.length > EARLY_ANSWER_BYTES) await earlyAnswer(() => chunks.length > 0 || socket.destroyed);
        if (!(body.length > EARLY_ANSWER_BYTES && (chunks.length > 0 || socket.destroyed)) && body.length) socket.write(body);
      })();
    }
  });
}

function dechunk(buf: Buffer): Buffer {
  const out: Buffer[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const eol = buf.indexOf("\r\n", pos);
    if (eol < 0) break;
    const size = parseInt(buf.subarray(pos, eol).toString("latin1"), 16);
    if (!Number.isFinite(size) || size <= 0) break;
    out.push(buf.subarray(eol + 2, eol + 2 + size));
    pos = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}

// ---- what visitors must never see ------------------------------------------------------------------

export interface Secret {
  value: string;
  /** private: booker details, practitioner email/phone; draft: a draft item's data; hidden: a practitioner not shown on this site. */
  kind: "private" | "draft" | "hidden";
  source: string;
}

function leafStrings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => leafStrings(v, out));
  else if (value && typeof value === "object") Object.values(value).forEach((v) => leafStrings(v, out));
  return out;
}

const ivOf = (item: DemoItem, field: string): unknown => item.data[field]?.iv;

/**
 * Collected from the seed modules the server was filled from: booker names, e-mails, phones and notes,
 * practitioners' e-mail and phone, and the distinctive strings of draft items and of practitioners not
 * shown on this site (strings that occur in no published, visible item).
 */
export function collectSecrets(siteName = "praxisnetz"): Secret[] {
  const items = buildDemoContent(new Date());
  const secrets: Secret[] = [];
  const add = (value: unknown, kind: Secret["kind"], source: string) => {
    if (typeof value === "string" && value.trim().length >= 4 && !secrets.some((s) => s.value === value)) secrets.push({ value, kind, source });
  };
  for (const booking of buildAppointmentSeed(new Date()).bookings)
    for (const f of ["name", "email", "phone", "note"] as const) add(booking[f], "private", `booking ${booking.appointmentId}.${f}`);
  for (const item of items) {
    if (item.schema === "gm-content-practitioners") for (const f of ["email", "phone"]) add(ivOf(item, f), "private", `${item.id}.${f}`);
  }
  const visible = (item: DemoItem) =>
    item.status === "Published" &&
    (item.schema !== "gm-content-practitioners" ||
      (ivOf(item, "display") !== false && (((ivOf(item, "websites") as string[] | undefined) ?? [siteName.toUpperCase()]).includes(siteName.toUpperCase()))));
  const publicText = items.filter(visible).flatMap((i) => [i.id, ...leafStrings(i.data)]).join("\n");
  for (const item of items.filter((i) => !visible(i))) {
    const kind = item.status === "Published" ? "hidden" : "draft";
    for (const s of [item.id, ...leafStrings(item.data)]) if (s.length >= 8 && !publicText.includes(s)) add(s, kind, item.id);
  }
  return secrets;
}

const htmlEscape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
const variants = (s: string) => [...new Set([s, htmlEscape(s), s.replace(/'/g, "&#39;"), JSON.stringify(s).slice(1, -1), encodeURIComponent(s)])];

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return s;
  }
}

// ---- the oracle -------------------------------------------------------------------------------------

export interface Failure {
  signature: string;
  property: string;
  kind: string;
  request: string;
  status?: number;
  serverError?: string;
  count: number;
  /** Where the whole request is kept (the report shows only its start). */
  saved?: string;
}

/** Failing requests are kept whole here (git-ignored), one file per distinct failure. */
export const FUZZ_FAILURE_DIR = path.resolve(import.meta.dirname, "../../test-results/fuzz");

/**
 * Keeps a failing request whole: `<name>.json` (method, path, headers, the error and the server's
 * log while it answered) and `<name>.body` (the body's exact bytes). Returns the JSON file's path
 * and a curl line that sends the same request again to a server on `origin`. Never throws: a full
 * disk must not hide the failure itself.
 */
let savedFiles = 0;
export function saveFailingRequest(req: FuzzRequest, facts: Record<string, unknown>, origin = "http://127.0.0.1:3000"): { file: string; replay: string } | undefined {
  // Shrinking fails many times over: the first few hundred are plenty to find the cause.
  if (++savedFiles > 300) return undefined;
  try {
    fs.mkdirSync(FUZZ_FAILURE_DIR, { recursive: true });
    const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body, "utf8");
    const name = createHash("sha256").update(`${req.method} ${req.path}\n${JSON.stringify(req.headers ?? {})}\n`).update(body ?? "").digest("hex").slice(0, 16);
    const file = path.join(FUZZ_FAILURE_DIR, `${name}.json`);
    const bodyFile = path.join(FUZZ_FAILURE_DIR, `${name}.body`);
    if (body) fs.writeFileSync(bodyFile, body);
    fs.writeFileSync(file, `${JSON.stringify({ method: req.method, path: req.path, headers: req.headers ?? {}, bodyFile: body ? bodyFile : null, bodyBytes: body?.length ?? 0, ...facts }, null, 2)}\n`);
    const quote = (v: string) => `'${v.replace(/'/g, "'\\''")}'`;
    const headerArgs = Object.entries(req.headers ?? {}).map(([k, v]) => `-H ${quote(`${k}: ${v}`)}`);
    const replay = ["curl -sS -i --path-as-is", `-X ${quote(req.method)}`, ...headerArgs, ...(body ? [`--data-binary @${quote(bodyFile)}`] : []), quote(`${origin}${req.path}`)].join(" ");
    return { file, replay };
  } catch {
    return undefined;
  }
}

/**
 * A long string with its repetitions folded: `"not ("×12000 + "id eq 'x'" + ")"×12000`, so a
 * counterexample of a hundred thousand characters still reads in one line.
 */
export function compact(s: string, max = 400): string {
  if (s.length <= max) return JSON.stringify(s);
  const parts: string[] = [];
  let plain = "";
  let i = 0;
  while (i < s.length) {
    let best: { unit: string; times: number } | undefined;
    for (let len = 1; len <= 24 && i + len <= s.length; len++) {
      const unit = s.slice(i, i + len);
      let times = 1;
      while (s.startsWith(unit, i + times * len)) times++;
      if (times >= 8 && times * len >= 32 && (!best || times * len > best.times * best.unit.length)) best = { unit, times };
    }
    if (best) {
      if (plain) parts.push(JSON.stringify(plain));
      plain = "";
      parts.push(`${JSON.stringify(best.unit)}×${best.times}`);
      i += best.unit.length * best.times;
    } else plain += s[i++];
  }
  if (plain) parts.push(JSON.stringify(plain));
  const folded = parts.join(" + ");
  return folded.length <= max * 2 ? `${folded} (${s.length} chars)` : `${folded.slice(0, max)}… (${s.length} chars)`;
}

export const snippet = (s: string, max = 200) => (s.length > max ? compact(s, max) : JSON.stringify(s));

/** fast-check prints counterexamples with this: long strings folded (see compact). */
export function printable<T>(value: T): T {
  if (value === null || typeof value !== "object") return value;
  const copy = (Array.isArray(value) ? [...value] : { ...value }) as T & object;
  Object.defineProperty(copy, fc.toStringMethod, { value: () => show(value), enumerable: false });
  return copy;
}

function show(v: unknown): string {
  if (typeof v === "string") return compact(v, 300);
  if (Buffer.isBuffer(v)) return `Buffer<${v.length > 120 ? `${v.subarray(0, 120).toString("hex")}… (${v.length} bytes)` : v.toString("hex")}>`;
  if (Array.isArray(v)) return v.length > 12 ? `[${v.slice(0, 6).map(show).join(", ")}, … ${v.length - 7} more …, ${show(v[v.length - 1])}]` : `[${v.map(show).join(", ")}]`;
  if (v && typeof v === "object") return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${show(x)}`).join(", ")}}`;
  return String(v);
}

function describeRequest(req: FuzzRequest): string {
  const body = req.body === undefined ? "" : ` body=${snippet(Buffer.isBuffer(req.body) ? req.body.toString("latin1") : req.body, 300)}`;
  return `${req.method} ${snippet(req.path, 300)} headers=${snippet(JSON.stringify(req.headers ?? {}), 300)}${body}`;
}

/** Error lines the server logged while answering: the first real error and where it was thrown. */
function serverErrors(log: string): string | undefined {
  const found: string[] = [];
  for (const line of log.split("\n")) {
    if (!line.trim()) continue;
    if (line.startsWith("{")) {
      try {
        const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { type?: string; message?: string; stack?: string } };
        if ((entry.level ?? 0) < 50 || !entry.err || /^failed with status code/.test(entry.err.message ?? "")) continue;
        const frame = entry.err.stack?.split("\n").find((l) => /^\s+at /.test(l) && !/node:internal|node_modules/.test(l));
        found.push(`${entry.err.type}: ${entry.err.message}${frame ? ` (${frame.trim().replace(/file:\/\/\S*\/build\//, "build/")})` : ""} [${entry.msg}]`);
      } catch {
        /* not JSON */
      }
    } else if (/^\w*Error\b|^\s+at /.test(line)) {
      if (!/^\s+at /.test(line)) found.push(line.trim());
      else if (found.length && !found[found.length - 1]!.includes(" at ") && !/node:internal|node_modules/.test(line))
        found[found.length - 1] += ` ${line.trim()}`;
    }
  }
  return found.length ? [...new Set(found)].join(" | ") : undefined;
}

/** Error type, message and throwing function, without positions or quoted input. */
const normalise = (s: string) =>
  s
    .replace(/\(at [^)]*?([\w$.<>]+) \([^)]*\)\)/g, "(in $1)")
    .replace(/"[^"]*"/g, '"…"')
    .replace(/:\d+:\d+/g, "")
    .replace(/\d+/g, "N")
    .slice(0, 200);

export class Fuzzer {
  readonly secrets: Secret[];
  readonly failures = new Map<string, Failure>();
  property = "";
  requests = 0;
  /** The slowest answer so far (the bound for a hang is FUZZ_TIMEOUT_MS). */
  slowest = { ms: 0, request: "" };

  constructor(readonly server: RunningServer) {
    this.secrets = collectSecrets();
  }

  /**
   * Sends a request and checks the answer: an answer within the bound, no 5xx, and for a visitor
   * (no Authorization header) no private value and no draft or hidden data, unless the request itself
   * carried that string (an echo of the visitor's own input is no leak). `family` names the endpoint
   * for the summary.
   */
  async request(family: string, req: FuzzRequest): Promise<FuzzResponse> {
    const mark = this.server.output().length;
    this.requests++;
    let res: FuzzResponse;
    try {
      res = await send(this.server, req);
    } catch (e) {
      if (e instanceof NoAnswer) {
        await new Promise((r) => setTimeout(r, 50));
        this.fail(family, e.message.startsWith("no answer within") ? "hang" : "no answer", req, undefined, this.server.output().slice(mark), e.message);
      }
      throw e;
    }
    if (res.ms > this.slowest.ms) this.slowest = { ms: res.ms, request: `${req.method} ${snippet(req.path, 120)}` };
    if (res.status >= 500 && !deliberatelyNotImplemented(req, res)) {
      await new Promise((r) => setTimeout(r, 30));
      this.fail(family, `${res.status}`, req, res, this.server.output().slice(mark));
    }
    if (!hasAuthorization(req)) this.checkNoSecrets(family, req, res);
    return res;
  }

  checkNoSecrets(family: string, req: FuzzRequest, res: FuzzResponse) {
    const reqText = `${req.path}\n${safeDecode(req.path)}\n${JSON.stringify(req.headers ?? {})}\n${req.body === undefined ? "" : Buffer.isBuffer(req.body) ? req.body.toString("utf8") : req.body}`;
    const reqTextFolded = `${reqText}\n${safeDecode(reqText)}`.toLowerCase();
    const resText = `${Object.entries(res.headers)
      .map(([k, v]) => `${k}: ${v}`)
      .join("\n")}\n${res.body}`;
    for (const secret of this.secrets) {
      if (reqTextFolded.includes(secret.value.toLowerCase())) continue;
      const hit = variants(secret.value).find((v) => resText.includes(v));
      if (hit !== undefined) {
        const at = resText.indexOf(hit);
        this.fail(
          family,
          `leak:${secret.kind}`,
          req,
          res,
          undefined,
          `visitor answer ${res.status} contains ${secret.kind} value ${JSON.stringify(secret.value)} (${secret.source}): …${resText.slice(Math.max(0, at - 80), at + hit.length + 40)}…`,
          `${secret.kind}:${secret.source.replace(/^.*\./, "")}`,
        );
      }
    }
  }

  /** Records a failure (deduplicated by a signature) and throws it, for fast-check to shrink. */
  fail(family: string, kind: string, req: FuzzRequest, res?: FuzzResponse, log?: string, detail?: string, key?: string): never {
    const serverError = log ? serverErrors(log) : undefined;
    const signature = `${family} | ${kind} | ${key ?? normalise(serverError ?? "")}`;
    const saved = saveFailingRequest(req, { family, kind, property: this.property, status: res?.status, detail, serverLog: log?.slice(-20_000), answer: res && { ...res, body: res.body.slice(0, 20_000) } }, this.server.url.replace(/\/$/, ""));
    const known = this.failures.get(signature);
    if (known) known.count++;
    else
      this.failures.set(signature, {
        signature,
        property: this.property,
        kind,
        request: describeRequest(req),
        status: res?.status,
        serverError,
        count: 1,
        saved: saved?.file,
      });
    const lines = [
      `${/^\d+$/.test(kind) ? `status ${kind}` : kind.startsWith("leak") ? `privacy leak (${kind.slice(5)})` : kind} from ${family}`,
      `request: ${describeRequest(req)}`,
      ...(res ? [`answer: ${res.status} in ${res.ms} ms via ${res.via}, headers=${snippet(JSON.stringify(res.headers), 400)}, body=${snippet(res.body, 400)}`] : []),
      ...(detail ? [detail] : []),
      ...(serverError ? [`server log: ${serverError}`] : []),
      ...(saved ? [`whole request: ${saved.file}`, `send it again: ${saved.replay}`] : []),
    ];
    throw new Error(lines.join("\n  "));
  }

  /** A check of one endpoint's own promise (beyond the shared oracles). */
  expect(ok: boolean, family: string, kind: string, req: FuzzRequest, res: FuzzResponse, detail: string, key = "") {
    if (!ok) this.fail(family, kind, req, res, undefined, detail, key);
  }

  summary(): string {
    const fresh = FUZZ_FRESH_SEED === undefined ? "" : ` (and fresh seed ${FUZZ_FRESH_SEED}, up to ${FUZZ_FRESH_RUNS} runs)`;
    const head = `fuzz: ${this.requests} requests, seed ${FUZZ_SEED}, runs ${FUZZ_RUNS}${fresh}, slowest answer ${this.slowest.ms} ms (${this.slowest.request})`;
    if (!this.failures.size) return `${head}: no failures`;
    const rows = [...this.failures.values()].map(
      (f, i) =>
        `${i + 1}. [${f.property}] ${f.kind}${f.status ? ` (${f.status})` : ""} ×${f.count}\n     ${f.request.slice(0, 400)}${f.serverError ? `\n     server: ${f.serverError.slice(0, 400)}` : ""}${f.saved ? `\n     whole request: ${f.saved}` : ""}`,
    );
    return `${head}: ${this.failures.size} distinct failure(s)\n${rows.join("\n")}`;
  }
}

const hasAuthorization = (req: FuzzRequest) => Object.keys(req.headers ?? {}).some((k) => k.toLowerCase() === "authorization");
