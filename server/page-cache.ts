import { createHash, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { NextFunction, Request, Response } from "express";
import { CONSENT_COOKIE, parseConsent } from "../app/consent/consent";
import { ChangeClock, changedTags, runWithReadTags, TaggedLru } from "../app/content/read-tags";
import type { ContentChange } from "../app/content/types";
import type { Logger } from "../app/lib/logger.server";
import { etagMatches } from "../app/lib/etag";
import { carriesPrivateData, redactUrl } from "../app/lib/redact";
import { originOf, type TrustProxy } from "../app/lib/request-origin.server";
import type { CachedPages } from "../app/services.server";
import type { CdnPurger } from "./cdn";

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/**
 * Rendered responses for anonymous visitors, reused until something they read changes: a page costs
 * its rendering and its compression once per change, not once per view. An entry is ready bytes —
 * the page as sent, gzip and brotli (compressed once, when the page enters the cache),
 * its ETag and its headers — and a hit writes them out without passing through rendering, the
 * security-header middlewares or compression. That works because a page is the same bytes for every
 * visitor who may see it: its Content-Security-Policy admits its inline scripts by hash, not by a
 * per-response nonce.
 *
 * Keyed by origin, URL and consent choice (the only visitor state a public page depends on).
 * Requests with any other cookie or an Authorization header, other methods than GET/HEAD and answers
 * that set a cookie or are not 200 are never cached. Concurrent misses of one page wait for the
 * first one's rendering instead of rendering it again (after a change, a popular page is rendered
 * once, not once per visitor who asked in the meantime).
 *
 * Two parts: `handle()` in front of Express (a hit is answered there, as a bare Node server would),
 * and the `capture()` middleware just before the renderer (misses).
 */
const CACHEABLE = /^(text\/html|text\/x-script)/;
/** What a route says when its answer must not be kept (e.g. `private, no-store` on private data). */
const NOT_SHARED = /(?:^|[\s,])(?:no-store|private)(?:[\s,=]|$)/i;
/** Headers of one response that another response must not repeat. */
const PER_RESPONSE = new Set(["x-request-id", "date", "connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding", "etag", "vary", "x-page-cache", "cache-control", "set-cookie"]);

const NO_CHOICE = JSON.stringify(parseConsent(undefined));

interface Entry {
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
  /** The answer's headers, ready for writeHead, by encoding (and for a 304); the request id is added per response. */
  head: Record<Encoding | "notModified", string[]>;
  /** What rendering the page read (schema names, "assets"): a change to anything else keeps it. */
  tags: Set<string>;
}

interface Flight {
  key: string;
  settle(entry: Entry | undefined): void;
  /** The answer went to the cache's store step, which settles the flight. */
  handedOver?: boolean;
}

export type Encoding = "br" | "gzip" | "identity";

/** The best encoding the request accepts of brotli, gzip and none (q-values honoured, `*` understood). */
export function pickEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return "identity";
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const of = (name: string) => q.get(name) ?? q.get("*") ?? 0;
  if (of("br") > 0) return "br";
  if (of("gzip") > 0) return "gzip";
  return "identity";
}

export class PageCache implements CachedPages {
  private readonly lru: TaggedLru<Entry>;
  private readonly inFlight = new Map<string, Promise<Entry | undefined>>();
  private readonly cacheControl: string;
  private readonly flights = new WeakMap<IncomingMessage, Flight>();
  /** Whose X-Forwarded-* headers count: Express's compiled "trust proxy" setting. */
  private readonly trustProxy: TrustProxy;

  /**
   * `cdnSeconds` > 0: pages may be kept by shared caches (a CDN) that long, and served stale as long
   * again while they revalidate; they carry the tags of what they read, and `purger` tells the CDN
   * what a change here touched. 0: browsers and proxies revalidate every time (ETag).
   */
  constructor(opts: { max?: number; ttlMs: number; trustProxy: TrustProxy; cdnSeconds?: number; purger?: CdnPurger; logger?: Logger }) {
    this.trustProxy = opts.trustProxy;
    this.lru = new TaggedLru({ max: opts.max ?? 500, ttl: Math.max(1, opts.ttlMs) });
    this.cdn = (opts.cdnSeconds ?? 0) > 0;
    this.cacheControl = this.cdn ? `public, max-age=0, s-maxage=${opts.cdnSeconds}, stale-while-revalidate=${opts.cdnSeconds}` : "no-cache";
    this.purger = opts.purger;
    this.logger = opts.logger;
  }

  private readonly cdn: boolean;
  private readonly purger?: CdnPurger;
  private readonly logger?: Logger;

  clear() {
    this.clock.record("all");
    this.lru.clear();
    this.purger?.purge("all");
  }

  /** Drops the pages that read what `change` changed (and tells the CDN, for a change made here). */
  invalidate(change: ContentChange) {
    this.clock.record(change);
    this.lru.drop(change);
    if (this.purger && !change.remote) this.purger.purge(changedTags(change));
  }

  /** A page rendered across a change to something it read may show old data and is not kept. */
  private readonly clock = new ChangeClock();

  get size() {
    return this.lru.size;
  }

  private keyOf(req: IncomingMessage): string | null {
    if (req.method !== "GET" && req.method !== "HEAD") return null;
    if (req.headers.authorization) return null;
    const url = req.url ?? "";
    if (!url.startsWith("/") || url.startsWith("/api/") || url.startsWith("/assets/") || url === "/healthz" || url === "/readyz") return null;
    // A page about one visitor (/newsletter/{email}, a link with ?token=) is never kept nor shared
    // with a concurrent request, whatever headers its route sends.
    if (carriesPrivateData(url)) return null;
    const cookie = req.headers.cookie;
    if (cookie) for (const part of cookie.split(/;\s*/)) if (part && !part.startsWith(`${CONSENT_COOKIE}=`)) return null;
    // Pages hold absolute URLs made from the origin they were asked under (Host and trusted proxy
    // headers): one entry per origin, so a request with forged headers never reaches other visitors.
    const origin = originOf(req, this.trustProxy);
    if (!origin) return null;
    // The page depends on the consent choice, not on how the cookie spells it.
    return `${origin}${url}\u0000${cookie ? JSON.stringify(parseConsent(cookie)) : NO_CHOICE}`;
  }

  /**
   * Writes `entry` as the answer: a hit (in front of Express, with a request id of its own) or the
   * miss that rendered it (through `end`, past the capture's own wrapper, with Express's request id).
   */
  private send(req: IncomingMessage, res: ServerResponse, entry: Entry, miss?: { requestId: string; end: (body?: Buffer) => unknown }) {
    const started = !miss && this.logger?.isLevelEnabled("info") ? performance.now() : undefined;
    const incoming = req.headers["x-request-id"];
    const requestId = miss?.requestId ?? (typeof incoming === "string" && /^[\w.-]{1,100}$/.test(incoming) ? incoming : randomUUID());
    const extra = ["X-Page-Cache", miss ? "miss" : "hit", "X-Request-Id", requestId];
    const end = miss?.end ?? ((body?: Buffer) => res.end(body));
    if (etagMatches(req.headers["if-none-match"], entry.etag)) {
      res.writeHead(304, entry.head.notModified.concat(extra));
      end();
    } else {
      const encoding = pickEncoding(req.headers["accept-encoding"]);
      res.writeHead(200, entry.head[encoding].concat(extra));
      end(req.method === "HEAD" ? undefined : entry[encoding]);
    }
    if (started !== undefined) {
      this.logger!.info({ req: { id: requestId, method: req.method, url: redactUrl(req.url ?? "") }, res: { statusCode: res.statusCode }, responseTime: Math.round(performance.now() - started) }, "request completed");
    }
  }

  /**
   * In front of Express: answers a request the cache holds, waits for a rendering of the same page
   * already under way, or hands the request to `fallback` (Express) to be rendered and captured.
   */
  handle(req: IncomingMessage, res: ServerResponse, fallback: () => void): void {
    const key = this.keyOf(req);
    if (!key) return fallback();
    const hit = this.lru.get(key);
    if (hit) return this.send(req, res, hit);
    const flight = this.inFlight.get(key);
    if (flight) {
      void flight.then((entry) => (entry && !res.headersSent ? this.send(req, res, entry) : fallback()));
      return;
    }
    // Only a GET renders the body a cache entry needs.
    if (req.method === "GET") {
      let settle!: (entry: Entry | undefined) => void;
      const promise = new Promise<Entry | undefined>((resolve) => (settle = resolve));
      this.inFlight.set(key, promise);
      let settled = false;
      const done = (entry: Entry | undefined) => {
        if (settled) return;
        settled = true;
        if (this.inFlight.get(key) === promise) this.inFlight.delete(key);
        settle(entry);
      };
      const own: Flight = { key, settle: done };
      this.flights.set(req, own);
      // An answer that is not kept (client gone, error, never captured) lets the waiting requests go on.
      res.once("close", () => {
        if (!own.handedOver) done(undefined);
      });
    } else this.flights.set(req, { key, settle: () => {} });
    fallback();
  }

  /**
   * Keeps the page a miss renders (right before the renderer: it sees the body uncompressed). A
   * page that can be kept is held back whole, compressed once into its cache entry, and the miss is
   * answered with the entry's own bytes and headers — compression middleware untouched, the same
   * bytes and ETag as every hit after it. Anything else passes through as it is.
   */
  capture() {
    return (req: Request, res: Response, next: NextFunction) => {
      const flight = this.flights.get(req);
      if (!flight) return next();
      res.setHeader("X-Page-Cache", "miss");
      res.setHeader("Cache-Control", this.cacheControl);
      // Pages differ by consent cookie: caches between us and the visitor must know that.
      res.setHeader("Vary", "Cookie");
      const tags = new Set<string>();
      const started = this.clock.now();
      const chunks: Buffer[] = [];
      const write = res.write.bind(res) as (...args: unknown[]) => boolean;
      const end = res.end.bind(res) as (...args: unknown[]) => Response;
      // Decided when the body starts, once status and headers are known.
      let keeping: boolean | undefined;
      const keepable = () => (keeping ??= !this.markedPrivate(res) && req.method === "GET" && res.statusCode === 200 && !res.getHeader("set-cookie") && CACHEABLE.test(String(res.getHeader("content-type") ?? "")));
      const keep = (chunk: unknown, encoding?: unknown) => {
        if (chunk === undefined || chunk === null || typeof chunk === "function") return;
        chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8"));
      };
      res.write = ((chunk: unknown, ...rest: unknown[]) => {
        if (!keepable()) return write(chunk, ...rest);
        keep(chunk, rest[0]);
        return true;
      }) as Response["write"];
      res.end = ((chunk?: unknown, ...rest: unknown[]) => {
        if (!keepable()) {
          flight.settle(undefined);
          return end(chunk, ...rest);
        }
        keep(chunk, rest[0]);
        flight.handedOver = true;
        const headers: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(res.getHeaders())) {
          if (value !== undefined && !PER_RESPONSE.has(name)) headers[name] = typeof value === "number" ? String(value) : value;
        }
        // The document is rendered whole before it ends: the tags are complete here.
        if (this.cdn && tags.size) {
          headers["cache-tag"] = [...tags].sort().join(",");
          headers["surrogate-key"] = [...tags].sort().join(" ");
        }
        const requestId = String(res.getHeader("x-request-id") ?? "");
        void this.store(flight, Buffer.concat(chunks), headers, tags, started).then(
          (entry) => this.send(req, res, entry, { requestId, end: (body) => end(body) }),
          (error: unknown) => {
            this.logger?.error({ err: error, requestId }, "page cache: compressing a page failed");
            if (!res.headersSent) res.statusCode = 500;
            end();
          },
        );
        return res;
      }) as Response["end"];
      // Everything the rendering reads is recorded into `tags` (see content/read-tags.ts).
      runWithReadTags(tags, () => next());
    };
  }

  /**
   * Whether the route marked its answer private (`Cache-Control: private` or `no-store`). React
   * Router appends its headers to the one set above: the answer then carries only the route's own,
   * so no cache between us and the visitor sees a `public` beside them.
   */
  private markedPrivate(res: Response): boolean {
    const header = res.getHeader("cache-control");
    const values = (Array.isArray(header) ? header : header === undefined ? [] : [String(header)]).filter((value) => value !== this.cacheControl);
    if (!values.some((value) => NOT_SHARED.test(value))) return false;
    if (!res.headersSent) res.setHeader("Cache-Control", values.join(", "));
    return true;
  }

  /**
   * Compresses the page once, off the main thread, and keeps it unless something it read changed
   * while it was rendered (then it is still the answer to the request that rendered it). Brotli at
   * quality 5: 10 % larger than at 11 for a 30 KB page, but 2 ms of CPU instead of 45 — paid again
   * for every page a change drops. gzip at level 9 costs under a millisecond.
   */
  private async store(flight: Flight, identity: Buffer, headers: Record<string, string | string[]>, tags: Set<string>, started: number): Promise<Entry> {
    let kept: Entry | undefined;
    try {
      const [gz, br] = await Promise.all([
        gzip(identity, { level: 9 }),
        brotli(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
      ]);
      const etag = `W/"${createHash("sha1").update(identity).digest("base64url")}"`;
      const common = Object.entries(headers).flatMap(([name, value]) => (Array.isArray(value) ? value.flatMap((v) => [name, v]) : [name, value]));
      common.push("ETag", etag, "Vary", "Accept-Encoding, Cookie", "Cache-Control", this.cacheControl);
      const head = {
        identity: [...common, "Content-Length", String(identity.length)],
        gzip: [...common, "Content-Encoding", "gzip", "Content-Length", String(gz.length)],
        br: [...common, "Content-Encoding", "br", "Content-Length", String(br.length)],
        notModified: common,
      };
      const entry: Entry = { identity, gzip: gz, br, head, tags, etag };
      if (!this.clock.changedSince(tags, started)) this.lru.set(flight.key, (kept = entry));
      return entry;
    } finally {
      flight.settle(kept);
    }
  }
}
