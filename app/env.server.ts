import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";

/** Express's names for address ranges, accepted in TRUST_PROXY beside addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/**
 * TRUST_PROXY as Express's "trust proxy" setting: off (false) when unset, else a hop count (how many
 * proxies stand in front, e.g. 1 behind one CDN or load balancer) or a list of the proxies'
 * addresses, CIDR ranges and range names. `true` (every sender is a proxy) is refused: it would let
 * any client choose its address (and with it reset the per-address limits) by sending X-Forwarded-For.
 */
export function parseTrustProxy(value: string): false | number | string[] | { error: string } {
  const text = value.trim();
  if (text === "" || text === "false" || text === "0") return false;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= 10 ? hops : { error: "a hop count must be at most 10" };
  }
  if (text === "true") return { error: "name a hop count (1 behind one proxy) or the proxies' addresses; true would trust every client's X-Forwarded-For" };
  const entries = text.split(",").map((e) => e.trim());
  for (const entry of entries) {
    if (PROXY_RANGE_NAMES.has(entry)) continue;
    const [address = "", prefix, extra] = entry.split("/");
    const family = isIP(address);
    const bits = family === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (!family || !prefixOk || extra !== undefined)
      return { error: `"${entry.slice(0, 60)}" is not an IP address, a CIDR range (10.0.0.0/8) or one of loopback, linklocal, uniquelocal` };
  }
  return entries;
}

const urlOf = (value: string): URL | null => {
  try {
    return new URL(value);
  } catch {
    return null;
  }
};

/**
 * Every setting the server reads, checked once at boot. Defaults need no editing; a bad value stops
 * the server with a message naming the variable.
 */
const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL (leave it unset for the embedded SQLite store)")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  PUBLIC_ORIGIN: z
    .string()
    .url("must be the site's public origin, like https://www.example.org")
    .transform((v) => new URL(v).origin)
    .optional()
    .or(z.literal("").transform(() => undefined)),
  SITE_NAME: z.string().min(1).default("praxisnetz"),
  SITE_VARIANT: z.enum(["directory", "booking"]).default("booking"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  ASSET_MAX_BYTES: z.coerce.number().int().positive().default(10 * 1024 * 1024),
  /**
   * Hosts (name or name:port, comma-separated) an asset may be downloaded from by URL although they
   * are in a private network (an intranet's image server); every other host must be public.
   */
  ASSET_URL_ALLOW_HOSTS: z
    .string()
    .default("")
    .transform((v) => new Set(v.split(",").map((h) => h.trim().toLowerCase()).filter(Boolean))),
  CACHE_TTL_SECONDS: z.coerce.number().int().min(0).default(300),
  API_BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1024 * 1024),
  SEED_DEMO: z.enum(["true", "false"]).default("true").transform((v) => v === "true"),
  SQUIDEX_APP_NAME: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "must be a lower-case app name like praxisnetz").default("praxisnetz"),
  /** The embedded API client's secret; with SQUIDEX_URL, the remote client's (see remoteSquidexOf). */
  SQUIDEX_CLIENT_SECRET: z.string().min(16, "must be at least 16 characters").optional().or(z.literal("").transform(() => undefined)),
  /** A remote Squidex (with SQUIDEX_APP, SQUIDEX_CLIENT_ID, SQUIDEX_CLIENT_SECRET); unset: the embedded store. */
  SQUIDEX_URL: z
    .string()
    .url("must be the base URL of a Squidex, like https://cloud.squidex.io")
    .refine((v) => /^https?:$/.test(urlOf(v)?.protocol ?? "http:"), "must be an http or https URL")
    .refine((v) => !urlOf(v)?.username && !urlOf(v)?.password, "must not hold credentials (use SQUIDEX_CLIENT_ID and SQUIDEX_CLIENT_SECRET)")
    .refine((v) => !/[?#]/.test(v), "must have no query and no fragment")
    .transform((v) => v.replace(/\/+$/, ""))
    .optional()
    .or(z.literal("").transform(() => undefined)),
  SQUIDEX_APP: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "must be the remote app's name, lower-case like praxisnetz").optional().or(z.literal("").transform(() => undefined)),
  SQUIDEX_CLIENT_ID: z.string().regex(/^[\w.:-]{1,200}$/, "must be a Squidex client id like praxisnetz:default").optional().or(z.literal("").transform(() => undefined)),
  /** How often the mirror of a remote Squidex pulls its changes (remote/mirror.ts); 0: only at start and by webhook. */
  SQUIDEX_SYNC_INTERVAL_MS: z.coerce.number().int().min(0).max(86_400_000).default(30_000),
  /** The shared secret of the Squidex webhook rule that calls /api/content-webhook (default: FLUSH_TOKEN). */
  SQUIDEX_WEBHOOK_SECRET: z.string().min(16, "must be at least 16 characters").optional().or(z.literal("").transform(() => undefined)),
  GEOCODER_URL: z.string().url("must be the search URL of a Nominatim-compatible geocoder").default("https://nominatim.openstreetmap.org/search"),
  MAP_STYLE_URL: z.string().url("must be a URL of a MapLibre style").default("https://tiles.openfreemap.org/styles/positron"),
  /** An external consent tool's loader script (with CONSENT_SERVICE_ID); https, or http on this machine for tests. */
  CONSENT_SERVICE_URL: z
    .string()
    .url("must be the URL of the consent service's loader script")
    .refine((u) => /^https:\/\//.test(u) || /^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?\//.test(u), "must be an https URL")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  CONSENT_SERVICE_ID: z.string().regex(/^[\w-]{1,100}$/, "must be the id of the consent service's settings (letters, digits, - and _)").optional().or(z.literal("").transform(() => undefined)),
  TEST_ROUTES: z.enum(["true", "false"]).default("false").transform((v) => v === "true"),
  HSTS_INCLUDE_SUBDOMAINS: z.enum(["true", "false"]).default("false").transform((v) => v === "true"),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** How often this node looks for scheduled status changes that are due (0: never; another node does it). */
  SCHEDULER_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(5000),
  SQL_SLOW_MS: z.coerce.number().min(0).default(0),
  CDN_CACHE_SECONDS: z.coerce.number().int().min(0).max(31_536_000).default(0),
  CDN_PURGE_URL: z
    .string()
    .url("must be the URL of the CDN's purge hook (leave it unset when there is none)")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  CDN_PURGE_TOKEN: z.string().optional().or(z.literal("").transform(() => undefined)),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL (leave it unset to keep mail in the outbox)")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  MAIL_FROM: z.string().min(3).default("Praxisnetz <noreply@praxisnetz.localhost>"),
  BOOKING_RETENTION_DAYS: z.coerce.number().int().min(0).max(3650).default(90),
  FORM_MIN_FILL_SECONDS: z.coerce.number().min(0).max(600).default(3),
  RATE_LIMIT_PER_HOUR: z.coerce.number().int().min(1).default(20),
  ADMIN_EMAIL: z
    .string()
    .email("must be the e-mail address of the first superuser")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  ADMIN_PASSWORD: z.string().optional().or(z.literal("").transform(() => undefined)),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(60 * 24 * 30).default(12 * 60),
  SESSION_MAX_HOURS: z.coerce.number().int().min(1).max(24 * 365).default(7 * 24),
  FLUSH_TOKEN: z.string().min(16, "must be at least 16 characters (leave it unset to have one generated)").optional().or(z.literal("").transform(() => undefined)),
  PLAUSIBLE_URL: z
    .string()
    .url("must be the origin of a Plausible server, like https://plausible.example.org (leave it unset to count on this server)")
    .transform((v) => new URL(v).origin)
    .optional()
    .or(z.literal("").transform(() => undefined)),
  PLAUSIBLE_DOMAIN: z.string().regex(/^[a-z0-9.-]+$/i, "must be the site's domain as registered in Plausible, like www.example.org").optional().or(z.literal("").transform(() => undefined)),
  ANALYTICS_EVENTS_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  ANALYTICS_TRACK_LOCALHOST: z.enum(["true", "false"]).default("false").transform((v) => v === "true"),
  SITEMAP_URLS_PER_FILE: z.coerce.number().int().min(10).max(50_000).default(50_000),
  TRUST_PROXY: z
    .string()
    .default("")
    .transform((value, ctx) => {
      const setting = parseTrustProxy(value);
      if (typeof setting === "object" && !Array.isArray(setting)) {
        ctx.addIssue({ code: "custom", message: setting.error });
        return z.NEVER;
      }
      return setting;
    }),
})
  .superRefine((env, ctx) => {
    // All four or none: a remote Squidex half configured would fail on the first request, not at boot.
    const remote = { SQUIDEX_URL: env.SQUIDEX_URL, SQUIDEX_APP: env.SQUIDEX_APP, SQUIDEX_CLIENT_ID: env.SQUIDEX_CLIENT_ID };
    const given = Object.values(remote).some((v) => v !== undefined);
    if (!given) return;
    for (const [name, value] of Object.entries({ ...remote, SQUIDEX_CLIENT_SECRET: env.SQUIDEX_CLIENT_SECRET }))
      if (value === undefined)
        ctx.addIssue({ code: "custom", path: [name], message: "is needed for a remote Squidex: set SQUIDEX_URL, SQUIDEX_APP, SQUIDEX_CLIENT_ID and SQUIDEX_CLIENT_SECRET together, or none of the first three" });
  });

/** The remote Squidex the env names, or null for the embedded store. */
export function remoteSquidexOf(env: Pick<Env, "SQUIDEX_URL" | "SQUIDEX_APP" | "SQUIDEX_CLIENT_ID" | "SQUIDEX_CLIENT_SECRET">): { url: string; app: string; clientId: string; clientSecret: string } | null {
  if (!env.SQUIDEX_URL || !env.SQUIDEX_APP || !env.SQUIDEX_CLIENT_ID || !env.SQUIDEX_CLIENT_SECRET) return null;
  return { url: env.SQUIDEX_URL, app: env.SQUIDEX_APP, clientId: env.SQUIDEX_CLIENT_ID, clientSecret: env.SQUIDEX_CLIENT_SECRET };
}

export type Env = z.infer<typeof schema> & { sqlitePath: string; assetsDir: string };

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = schema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message} (got ${JSON.stringify(source[String(i.path[0])])})`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  const env = result.data;
  const dataDir = path.resolve(env.DATA_DIR);
  return { ...env, DATA_DIR: dataDir, sqlitePath: path.join(dataDir, "praxisnetz.sqlite"), assetsDir: path.join(dataDir, "assets") };
}
