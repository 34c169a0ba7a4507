import { createHash } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { CONSENT_COOKIE, parseConsent } from "../app/consent/consent";
import { ChangeClock, runWithReadTags, TaggedLru } from "../app/content/read-tags";
import type { ContentChange } from "../app/content/types";
import { requestOrigin } from "../app/lib/request-origin.server";
import type { CachedPages } from "../app/services.server";

/**
 * Rendered responses for anonymous visitors, reused until content changes: the rendering cost of a
 * page is paid once per change, not once per view. Each entry stores the body with the CSP nonce
 * taken out; every hit gets the nonce of its own response put back in.
 *
 * Keyed by host, URL and consent choice (the only visitor state a public page depends on). Requests with
 * any other cookie or an Authorization header, non-GET requests and answers that set a cookie or
 * are not 200 are never cached.
 */
const NONCE_SLOT = "__PN_CSP_NONCE__";
const CACHEABLE = /^(text\/html|text\/x-script)/;

interface Entry {
  body: string;
  type: string;
  etag: string;
  /** What rendering the page read (schema names, "assets"): a change to anything else keeps it. */
  tags: Set<string>;
}

export class PageCache implements CachedPages {
  private readonly lru: TaggedLru<Entry>;

  constructor(opts: { max?: number; ttlMs: number }) {
    this.lru = new TaggedLru({ max: opts.max ?? 500, ttl: Math.max(1, opts.ttlMs) });
  }

  clear() {
    this.clock.record("all");
    this.lru.clear();
  }

  /** Drops the pages that read what `change` changed. */
  invalidate(change: ContentChange) {
    this.clock.record(change);
    this.lru.drop(change);
  }

  /** A page rendered across a change to something it read may show old data and is not kept. */
  private readonly clock = new ChangeClock();

  get size() {
    return this.lru.size;
  }

  private keyOf(req: Request): string | null {
    if (req.method !== "GET" && req.method !== "HEAD") return null;
    if (req.headers.authorization) return null;
    if (req.path.startsWith("/api/") || req.path.startsWith("/assets/") || req.path.startsWith("/__test/")) return null;
    for (const part of (req.headers.cookie ?? "").split(/;\s*/).filter(Boolean)) {
      if (!part.startsWith(`${CONSENT_COOKIE}=`)) return null;
    }
    // The page depends on the consent choice, not on how the cookie spells it.
    const consent = JSON.stringify(parseConsent(req.headers.cookie));
    // Pages hold absolute URLs made from the origin they were asked under (Host and trusted proxy
    // headers): one entry per origin, so a request with forged headers never reaches other visitors.
    return `${requestOrigin(req)}${req.originalUrl}\u0000${consent}`;
  }

  middleware() {
    return (req: Request, res: Response, next: NextFunction) => {
      const key = this.keyOf(req);
      if (!key) return next();
      const nonce = String(res.locals.cspNonce ?? "");
      // Pages differ by consent cookie: caches between us and the visitor must know that.
      res.setHeader("Vary", "Cookie");
      const hit = this.lru.get(key);
      if (hit) {
        res.setHeader("X-Page-Cache", "hit");
        res.setHeader("ETag", hit.etag);
        res.setHeader("Cache-Control", "no-cache");
        if (req.headers["if-none-match"] === hit.etag) return void res.status(304).end();
        res.type(hit.type);
        return void res.send(hit.body.split(NONCE_SLOT).join(nonce));
      }
      res.setHeader("X-Page-Cache", "miss");
      const tags = new Set<string>();
      const started = this.clock.now();
      const chunks: Buffer[] = [];
      const write = res.write.bind(res) as (...args: unknown[]) => boolean;
      const end = res.end.bind(res) as (...args: unknown[]) => Response;
      const keep = (chunk: unknown, encoding?: unknown) => {
        if (chunk === undefined || chunk === null || typeof chunk === "function") return;
        chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8"));
      };
      res.write = ((chunk: unknown, ...rest: unknown[]) => {
        keep(chunk, rest[0]);
        return write(chunk, ...rest);
      }) as Response["write"];
      res.end = ((chunk?: unknown, ...rest: unknown[]) => {
        keep(chunk, rest[0]);
        const type = String(res.getHeader("content-type") ?? "");
        if (res.statusCode === 200 && !res.getHeader("set-cookie") && CACHEABLE.test(type) && !this.clock.changedSince(tags, started)) {
          const body = Buffer.concat(chunks).toString("utf8");
          const stored = nonce ? body.split(nonce).join(NONCE_SLOT) : body;
          this.lru.set(key, { body: stored, type, tags, etag: `W/"${createHash("sha1").update(stored).digest("base64url")}"` });
        }
        return end(chunk, ...rest);
      }) as Response["end"];
      // Everything the rendering reads is recorded into `tags` (see content/read-tags.ts).
      runWithReadTags(tags, () => next());
    };
  }
}
