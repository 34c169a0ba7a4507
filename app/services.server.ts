import { AssetStore } from "./content/assets";
import { ContentCache } from "./content/cache";
import { createEmbeddedClient, type ContentClient } from "./content/client";
import { startChangeFeed } from "./content/change-feed";
import { openDatabase, type RawDatabase } from "./content/db";
import { SquidexAuth } from "./content/squidex/auth";
import { seedDemoContent } from "./content/seed-demo";
import { syncBlockSchemas } from "./content/block-sync";
import { demoSchemas } from "./content/seed/schemas";
import { ContentScheduler } from "./content/scheduler";
import { ContentStore } from "./content/store";
import type { ContentChange } from "./content/types";
import { remoteSquidexOf, type Env } from "./env.server";
import { createRemoteSquidex, type RemoteSquidex } from "./content/remote/squidex-client";
import { ContentMirror } from "./content/remote/mirror";
import { createAssetUpstream, createUpstream } from "./content/remote/upstream";
import type { Logger } from "./lib/logger.server";
import { SIGNING_KEY_SETTING, TokenSigner } from "./lib/tokens.server";
import { createRateLimits, type RateLimits } from "./lib/rate-limit.server";
import { Outbox } from "./mail/outbox";
import { startDelivery } from "./mail/delivery";
import { NewsletterService } from "./newsletter/newsletter.server";
import { BookingService } from "./booking/service";
import { startMaintenance } from "./maintenance.server";
import { RegistrationService } from "./registration/registration.server";
import { AuditLog } from "./auth/audit.server";
import { AuthService, ensureFirstSuperuser } from "./auth/auth.server";
import { newSessionKey, SESSION_KEY_SETTING, SessionSealer } from "./auth/session.server";
import { LoginThrottle } from "./auth/throttle.server";
import { UserStore } from "./auth/users.server";
import { ConsentRecords } from "./consent/records.server";
import { AnalyticsCollector, utcDay } from "./analytics/collector.server";
import { TokenBuckets } from "./analytics/token-bucket";

/** What the app needs of the server's page cache: to drop what a change touched, or everything. */
export interface CachedPages {
  invalidate(change: ContentChange): void;
  clear(): void;
}

export interface Services {
  env: Env;
  store: ContentStore;
  /** What domain code reads and writes content through (see content/client.ts). */
  content: ContentClient;
  cache: ContentCache;
  /** Rendered pages for anonymous visitors: HTTP middleware, made by the server (server/page-cache.ts). */
  pageCache: CachedPages;
  squidexAuth: SquidexAuth;
  /** The remote Squidex (SQUIDEX_URL), one client and one token for everything that talks to it; null: the embedded store. */
  remoteSquidex: RemoteSquidex | null;
  /** With a remote Squidex: the store's mirror of it, kept current by pulls and the webhook; null otherwise. */
  mirror: ContentMirror | null;
  /** Signs and checks the tokens of links in mails (key shared by all app nodes through the database). */
  tokens: TokenSigner;
  /** Mail: kept in the outbox table, delivered by SMTP when SMTP_URL is set. */
  mail: Outbox;
  /** Applies scheduled status changes when they are due (content/scheduler.ts), every SCHEDULER_INTERVAL_MS. */
  scheduler: ContentScheduler;
  /** The database driver itself, for libraries with their own SQL (rate limits). */
  raw: RawDatabase;
  /** Attempts per visitor address and per target (a slot, an e-mail address), shared through the database. */
  limits: RateLimits;
  newsletter: NewsletterService;
  /** Proof of consent: when, which banner text, which categories (no personal data). */
  consent: ConsentRecords;
  bookings: BookingService;
  registration: RegistrationService;
  /** Users, sessions, sign-in throttling, the audit log. */
  auth: AuthService;
  /** Page views and events into daily rollups (POST /api/event), and the per-address limit on them. */
  analytics: AnalyticsCollector;
  analyticsLimit: TokenBuckets;
  /** The secret /manage/flushcache wants (FLUSH_TOKEN, or one generated and kept in the database). */
  flushToken: string;
  logger: Logger;
  close(): Promise<void>;
}

/** Opens the store, runs migrations, fills an empty store with the demo content, wires the cache. */
export async function createServices(env: Env, logger: Logger, pageCache: CachedPages): Promise<Services> {
  const { db, dialect, raw } = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    sqlitePath: env.sqlitePath,
    checkpointInBackground: true,
    slowQueryMs: env.SQL_SLOW_MS,
    onSlowQuery: (query) => logger.warn({ ms: query.ms, sql: query.sql, parameters: query.parameters.length }, "slow SQL statement"),
  });
  const store = new ContentStore(db, dialect, new AssetStore(env.assetsDir, env.ASSET_MAX_BYTES));
  // The content model the site's code reads: no one deletes these schemas, by any path.
  store.requiredSchemas = new Set(demoSchemas.map((s) => s.name));
  const applied = await store.migrate();
  if (applied.length) logger.info({ migrations: applied, dialect }, "database migrated");
  const remote = remoteSquidexOf(env);
  // On a remote Squidex the content is Squidex's: no demo content and no block schemas of ours go in.
  if (env.SEED_DEMO && !remote) {
    const seeded = await seedDemoContent(store);
    if (seeded) logger.info(seeded, "demo content created");
  }
  // Block kinds new in this version reach stores made by an older one (additions only).
  const synced = remote ? [] : await syncBlockSchemas(store);
  if (synced.length) logger.info({ changes: synced }, "block schemas brought up to date");
  const cache = new ContentCache({ ttlMs: env.CACHE_TTL_SECONDS * 1000 });
  // A change drops only the cached reads and pages that read what changed (on every app node: the
  // change feed below replays other nodes' changes here).
  store.onChange((change) => {
    cache.invalidate(change);
    pageCache.invalidate(change);
  });
  const squidexAuth = await SquidexAuth.create(store, {
    appName: env.SQUIDEX_APP_NAME,
    // With a remote Squidex the secret is the remote's; the embedded API client keeps its own.
    clientSecret: remoteSquidexOf(env) ? undefined : env.SQUIDEX_CLIENT_SECRET,
    dataDir: env.DATA_DIR,
  });
  const remoteSquidex = remote
    ? createRemoteSquidex({ ...remote, onError: (message, details) => logger.warn(details, message) })
    : null;
  // The store as a mirror of the remote app (items and assets): writes go there first, pulls keep it current (decision 0037).
  let mirror: ContentMirror | null = null;
  if (remote && remoteSquidex) {
    const log = (level: "info" | "warn", message: string, details: Record<string, unknown> = {}) => logger[level]({ squidex: remote.url, app: remote.app, ...details }, message);
    store.upstream = createUpstream(remoteSquidex, remote.app, (message, details) => log("warn", message, details));
    store.assets.upstream = createAssetUpstream(remoteSquidex, remote.app, (message, details) => log("warn", message, details));
    mirror = new ContentMirror(store, remoteSquidex, remote.app, log);
    // A first start waits for the content; a restart serves what the mirror kept and catches up
    // meanwhile. Squidex down at start: the site starts with what it has and the pulls try again.
    const empty = (await store.countContents()) === 0;
    const first = mirror.pullAll().catch(() => {});
    if (empty) await first;
    if (env.SQUIDEX_SYNC_INTERVAL_MS > 0) mirror.start(env.SQUIDEX_SYNC_INTERVAL_MS);
  }
  const tokens = new TokenSigner(await store.ensureSetting(SIGNING_KEY_SETTING, TokenSigner.newKey()));
  const mail = new Outbox(db);
  const newsletter = new NewsletterService(db, mail, tokens);
  const limits = createRateLimits(raw, {
    perHour: env.RATE_LIMIT_PER_HOUR,
    logger,
    // Consent records (proof of consent): a person changes their choice a few times; a script that
    // posts in a loop must not fill the database. Past this, the choice still works, unrecorded.
    kinds: { consent: { perIp: { points: 200, durationSeconds: 60 * 60 }, perTarget: null } },
  });
  await limits.ready();
  const registration = new RegistrationService(store, mail, tokens, env.SITE_NAME);
  const refuseDemoPassword = env.NODE_ENV === "production" && !!env.PUBLIC_ORIGIN?.startsWith("https:");
  const users = new UserStore(db);
  await ensureFirstSuperuser(users, { adminEmail: env.ADMIN_EMAIL, adminPassword: env.ADMIN_PASSWORD, refuseDemoPassword }, logger);
  const sealer = new SessionSealer(await store.ensureSetting(SESSION_KEY_SETTING, newSessionKey()), {
    idleSeconds: env.SESSION_IDLE_MINUTES * 60,
    maxSeconds: env.SESSION_MAX_HOURS * 3600,
  });
  const auth = new AuthService(users, sealer, new LoginThrottle(raw, logger), new AuditLog(db), tokens, { refuseDemoPassword }, logger);
  const flushToken = env.FLUSH_TOKEN ?? (await store.ensureSetting("flush-token", TokenSigner.newKey()));
  const content = createEmbeddedClient({ store, cache, siteName: env.SITE_NAME });
  const bookings = new BookingService(store, content, mail, tokens, { siteName: env.SITE_NAME, retentionDays: env.BOOKING_RETENTION_DAYS, log: (message, details) => logger.error(details, message) });
  const analytics = new AnalyticsCollector(db, { onError: (error) => logger.warn({ err: error }, "analytics events not written yet; tried again") });
  const analyticsLimit = new TokenBuckets(env.ANALYTICS_EVENTS_PER_MINUTE);
  const maintenance = startMaintenance(
    [
      { name: "analytics visitor hashes of past days", run: (now) => analytics.rotate(utcDay(now)) },
      { name: "booker details past retention", run: (now) => bookings.purgeExpired(now) },
      { name: "unconfirmed newsletter addresses", run: (now) => newsletter.purgePending(now) },
      { name: "sent mail", run: (now) => mail.purgeSent(30, now) },
      { name: "expired signed-out sessions", run: (now) => users.purgeEndedSessions(now) },
    ],
    logger,
  );
  const delivery = startDelivery(mail, { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, logger, stopGraceMs: Math.min(5000, env.SHUTDOWN_TIMEOUT_MS / 2) });
  const feed = env.DATABASE_URL ? await startChangeFeed(store, env.DATABASE_URL, logger) : null;
  // After the change feed: what it applies drops cached pages on the other nodes too. Jobs that fell
  // due while no node ran are applied by its first tick, at once.
  const scheduler = new ContentScheduler(store, { logger }).start(env.SCHEDULER_INTERVAL_MS);
  return {
    env,
    store,
    content,
    cache,
    pageCache,
    squidexAuth,
    remoteSquidex,
    mirror,
    tokens,
    mail,
    scheduler,
    raw,
    limits,
    newsletter,
    consent: new ConsentRecords(db),
    bookings,
    registration,
    auth,
    flushToken,
    analytics,
    analyticsLimit,
    logger,
    close: async () => {
      maintenance.stop();
      await scheduler.stop();
      await mirror?.stop();
      await analytics.close().catch((error) => logger.warn({ err: error }, "analytics events lost at shutdown"));
      await delivery.stop();
      limits.close();
      await feed?.close();
      await store.close();
    },
  };
}
