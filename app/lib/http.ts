/**
 * The one HTTP client of the browser and the server (§7, §9): a base URL, a JSON body by default,
 * and retries with backoff for requests that may be repeated.
 *
 * - A request is retried when it is idempotent (GET, HEAD, OPTIONS, PUT, DELETE, or marked so, e.g.
 *   a POST with an idempotency key) and the answer is 408, 409, 425, 429, 500, 502, 503 or 504, or
 *   the network failed. A POST that may have arrived is never sent twice on its own.
 * - The wait doubles from `retryDelayMs` (with some jitter, so many clients do not come back at the
 *   same moment); a `Retry-After` the server sends is followed, up to `maxRetryDelayMs`.
 * - `retry: false` for calls that must not be repeated: the session read (§9), a save whose conflict
 *   the caller shows, anything the user is waiting to see fail.
 * - A timeout per try (`timeoutMs`) and the caller's own `signal` both abort; an abort is never retried.
 *
 * `http()` answers the Response, whatever its status: the caller decides what a 4xx means (and
 * tells the person in their words).
 */

export const RETRY_STATUSES: ReadonlySet<number> = new Set([408, 409, 425, 429, 500, 502, 503, 504]);
const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

export interface HttpOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as JSON (Content-Type set); wins over `body`. */
  json?: unknown;
  body?: BodyInit | null;
  /** Added to the URL's query; undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  /** How many times to try again (default: the client's, 2), or false for never. */
  retry?: number | false;
  /** A POST or PATCH that may be repeated safely (an idempotency key, a pure query). */
  idempotent?: boolean;
  /** Per try; default the client's (none in the browser unless given). */
  timeoutMs?: number;
  signal?: AbortSignal;
  credentials?: RequestCredentials;
  keepalive?: boolean;
  cache?: RequestCache;
  redirect?: RequestRedirect;
}


export interface HttpConfig {
  /** Prefixed to relative paths ("" in the browser: the page's own origin). */
  baseURL?: string;
  fetch?: typeof fetch;
  retries?: number;
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  timeoutMs?: number;
  headers?: Record<string, string>;
  /** Waits between tries (tests pass one that records instead of waiting). */
  sleep?: (ms: number) => Promise<void>;
  /** Jitter source in [0, 1). */
  random?: () => number;
}

export type HttpClient = (path: string, opts?: HttpOptions) => Promise<Response>;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Seconds or an HTTP date, as milliseconds from now; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The wait before try number `attempt` (1 = the first retry). */
export function backoffMs(attempt: number, config: { retryDelayMs: number; maxRetryDelayMs: number }, random: () => number, retryAfter?: number): number {
  if (retryAfter !== undefined) return Math.min(retryAfter, config.maxRetryDelayMs);
  const base = config.retryDelayMs * 2 ** (attempt - 1);
  return Math.min(config.maxRetryDelayMs, Math.round(base * (0.75 + random() * 0.5)));
}

export function createHttpClient(config: HttpConfig = {}): HttpClient {
  const settings = {
    retries: config.retries ?? 2,
    retryDelayMs: config.retryDelayMs ?? 300,
    maxRetryDelayMs: config.maxRetryDelayMs ?? 5000,
  };
  const sleep = config.sleep ?? wait;
  const random = config.random ?? Math.random;

  const urlOf = (path: string, query: HttpOptions["query"]) => {
    let url = /^[a-z][a-z0-9+.-]*:/i.test(path) ? path : `${config.baseURL ?? ""}${path}`;
    const entries = Object.entries(query ?? {}).filter((e): e is [string, string | number | boolean] => e[1] !== undefined);
    if (entries.length) url += (url.includes("?") ? "&" : "?") + new URLSearchParams(entries.map(([k, v]) => [k, String(v)]));
    return url;
  };

  const request = async (path: string, opts: HttpOptions = {}): Promise<Response> => {
    const method = (opts.method ?? (opts.json !== undefined || opts.body ? "POST" : "GET")).toUpperCase();
    const url = urlOf(path, opts.query);
    const headers: Record<string, string> = { accept: "application/json", ...config.headers, ...opts.headers };
    let body = opts.body ?? null;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers["content-type"] = "application/json";
    }
    const repeatable = opts.idempotent ?? IDEMPOTENT.has(method);
    const retries = opts.retry === false || !repeatable ? 0 : (opts.retry ?? settings.retries);
    const timeoutMs = opts.timeoutMs ?? config.timeoutMs;
    const doFetch = config.fetch ?? globalThis.fetch;
    for (let attempt = 0; ; attempt++) {
      const signals = [opts.signal, timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined].filter((s): s is AbortSignal => !!s);
      const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
      let response: Response | undefined;
      try {
        response = await doFetch(url, { method, headers, body, signal, credentials: opts.credentials ?? "same-origin", keepalive: opts.keepalive, cache: opts.cache, redirect: opts.redirect });
      } catch (error) {
        // An abort (the caller's or the timeout's on the caller's signal) is final; a network failure may be retried.
        if (opts.signal?.aborted || attempt >= retries) throw error;
        await sleep(backoffMs(attempt + 1, settings, random));
        continue;
      }
      if (attempt >= retries || !RETRY_STATUSES.has(response.status)) return response;
      const after = retryAfterMs(response.headers.get("retry-after"));
      // The unread body of a try that is repeated is let go.
      void response.body?.cancel().catch(() => {});
      await sleep(backoffMs(attempt + 1, settings, random, after));
      if (opts.signal?.aborted) throw opts.signal.reason;
    }
  };

  return request;
}

/** The site's own client: same origin in the browser. */
export const http = createHttpClient();
