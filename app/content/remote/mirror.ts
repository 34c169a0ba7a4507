import type { Database } from "../db";
import { ROOT_FOLDER } from "../assets";
import { isValidId } from "../ids";
import type { ContentStore } from "../store";
import { assetContentPath, assetRow, folderRow, itemRecord, listRemoteAssets, listRemoteFolders, schemaRow } from "./squidex-rows";
import type { RemoteSquidex } from "./squidex-client";

type Json = Record<string, any>;
type ContentRow = Database["contents"];

const PAGE = 200;
/** How many items each page of a pull shares with the one before (see pullItems). */
const OVERLAP = 50;
const ACTOR = "client:squidex";

export interface MirrorStatus {
  /** When the last pull ended well (ISO), or null before the first. */
  lastSync: string | null;
  /** What went wrong with the last pull, in words; null when it went well. */
  lastError: string | null;
  /** Items written (new or newer) and removed by pulls since the start. */
  written: number;
  removed: number;
}

export class MirrorError extends Error {}

/**
 * The embedded store as a mirror of a remote Squidex app (SQUIDEX_URL; decision 0037). The site
 * reads only the mirror — so it serves at its own speed, and keeps serving what it has while Squidex
 * is down (stale if error) — and writes go to Squidex first (upstream.ts). The mirror is kept
 * current three ways:
 *
 * - **At start** a full pull: schemas, then every item of every content schema, a page at a time
 *   (current data with X-Unpublished, live data without where a draft is pending), written where
 *   new or newer by version; then the asset folders and assets (metadata by version, files by file
 *   version); what Squidex no longer has (asked for by id to be sure) is removed.
 * - **A webhook** (a Squidex rule, POST /api/content-webhook, signed): the one item or asset an event
 *   names is fetched and written (or removed); a schema event pulls the schemas.
 * - **Polling** every SQUIDEX_SYNC_INTERVAL_MS: items changed since the newest change seen
 *   (`lastModified ge …`, Squidex's own clock, so the two clocks need not agree), and every tenth
 *   time a full pull, which also finds deletions a missed webhook did not tell.
 *
 * A pull that fails is logged and leaves the mirror as it is; the next one tries again.
 */
export class ContentMirror {
  readonly status: MirrorStatus = { lastSync: null, lastError: null, written: 0, removed: 0 };
  /** The newest `lastModified` seen per schema: where the next changes pull starts. */
  private readonly seen = new Map<string, string>();
  /** The same for assets. */
  private seenAssets: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private ticks = 0;

  constructor(
    private readonly store: ContentStore,
    private readonly remote: RemoteSquidex,
    private readonly app: string,
    private readonly log: (level: "info" | "warn", message: string, details?: Record<string, unknown>) => void = () => {},
  ) {}

  private async getJson(path: string, headers: Record<string, string> = {}, query?: Record<string, string | number>): Promise<Json | null> {
    let res: Response;
    try {
      res = await this.remote.request("GET", path, { headers, query });
    } catch (error) {
      throw new MirrorError(`Squidex cannot be reached (${error instanceof Error ? error.message : String(error)}).`);
    }
    if (res.status === 404) {
      void res.body?.cancel().catch(() => {});
      return null;
    }
    if (!res.ok) throw new MirrorError(`Squidex answered ${res.status} to GET ${path}: ${(await res.text().catch(() => "")).slice(0, 200)}`);
    return (await res.json()) as Json;
  }

  private get appPath() {
    return encodeURIComponent(this.app);
  }

  /** One pull at a time: a webhook during a poll waits for it. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.running.then(fn, fn);
    this.running = next.catch(() => {});
    return next;
  }

  /** Schemas whose version differs from the one kept are written as Squidex has them. */
  async pullSchemas(): Promise<string[]> {
    const list = ((await this.getJson(`api/apps/${this.appPath}/schemas`))?.items ?? []) as Json[];
    const kept = new Map((await this.store.db.selectFrom("schemas").select(["name", "version"]).execute()).map((r) => [r.name, r.version]));
    const changed = list.filter((s) => kept.get(String(s.name)) !== Number(s.version ?? 0));
    if (!changed.length) return [];
    await this.store.transaction(async (tx) => {
      for (const s of changed) {
        const row = schemaRow(s, ACTOR);
        await tx.db.deleteFrom("schemas").where((eb) => eb.or([eb("name", "=", row.name), eb("id", "=", row.id)])).execute();
        await tx.db.insertInto("schemas").values(row).execute();
      }
      await tx.rebuildDerived(
        changed.map((s) => String(s.name)),
        new Map(),
      );
    });
    this.store.applyRemoteChange({ kind: "schema", id: "*" });
    return changed.map((s) => String(s.name));
  }

  /**
   * One schema's items (or those changed since `since`) a page at a time, each page written before
   * the next is asked for, so a pull of 100 000 items holds one page in memory, not the app. Pages
   * go by creation time: an item changed during the pull keeps its place (by last change it would
   * move to the end and push another past the page being read, which would then be missed); pages
   * overlap by OVERLAP items, so up to that many items deleted during the pull move none past. Current
   * data comes with X-Unpublished; live data is asked for only where a draft is pending (elsewhere it
   * is the current data). Returns how many were written and the ids Squidex listed.
   */
  private async pullItems(schema: string, since?: string): Promise<{ written: number; ids: Set<string> }> {
    const ids = new Set<string>();
    let written = 0;
    let restarts = 0;
    // The last items of the page before: the next page must hold one of them, else more items went
    // during the pull than pages overlap, and the pages read past some unseen: read again.
    let tail: Set<string> | undefined;
    for (let skip = 0; ; skip += PAGE - OVERLAP) {
      const query: Record<string, string | number> = { $top: PAGE, $skip: skip, $orderby: "created asc" };
      if (since) query.$filter = `lastModified ge ${since}`;
      const got = ((await this.getJson(this.listPath(schema), { "X-Unpublished": "1" }, query))?.items ?? []) as Json[];
      if (tail && !got.some((item) => tail!.has(String(item.id)))) {
        if (++restarts > 3) throw new MirrorError(`The items of "${schema}" changed faster than they could be read; the next pull tries again.`);
        this.log("info", "items went on Squidex during a pull; reading them again", { schema });
        [skip, tail] = [-(PAGE - OVERLAP), undefined];
        continue;
      }
      const rows = await this.rowsOf(schema, got);
      for (const row of rows) ids.add(row.id);
      written += (await this.store.applyMirrored(schema, rows)).length;
      this.note(schema, rows);
      if (got.length < PAGE) return { written, ids };
      tail = new Set(got.slice(-OVERLAP).map((item) => String(item.id)));
    }
  }

  private listPath(schema: string) {
    return `api/content/${this.appPath}/${encodeURIComponent(schema)}`;
  }

  /** Rows for items Squidex listed with X-Unpublished, with the live data of those with a draft pending. */
  private async rowsOf(schema: string, items: readonly Json[]): Promise<ContentRow[]> {
    const drafted = items.filter((i) => i.status === "Published" && typeof i.newStatus === "string" && isValidId(i.id)).map((i) => String(i.id));
    const live = new Map<string, Json>();
    for (let i = 0; i < drafted.length; i += 100) {
      const page = await this.getJson(this.listPath(schema), {}, { ids: drafted.slice(i, i + 100).join(","), $top: 100 });
      for (const item of (page?.items ?? []) as Json[]) live.set(String(item.id), item);
    }
    const rows: ContentRow[] = [];
    for (const item of items) {
      // Ids become paths and keys here: one that is not a valid id is left out and said, never written.
      if (!isValidId(item.id)) this.log("warn", "an item from Squidex with an id that is not valid here was left out", { schema, id: String(item.id).slice(0, 100) });
      else rows.push(itemRow(schema, item, live.get(String(item.id))));
    }
    return rows;
  }

  /**
   * Of the ids a full pull did not see, those Squidex no longer has: each is asked for by id (an
   * item deleted during the pull moves the pages, and another may have gone unseen; it is kept).
   */
  private async confirmGone(schema: string, candidates: readonly string[]): Promise<string[]> {
    const gone: string[] = [];
    for (let i = 0; i < candidates.length; i += 100) {
      const batch = candidates.slice(i, i + 100);
      const found = ((await this.getJson(this.listPath(schema), { "X-Unpublished": "1" }, { ids: batch.join(","), $top: 100 }))?.items ?? []) as Json[];
      const there = new Set(found.map((item) => String(item.id)));
      await this.store.applyMirrored(schema, await this.rowsOf(schema, found));
      gone.push(...batch.filter((id) => !there.has(id)));
    }
    return gone;
  }

  private note(schema: string, rows: readonly ContentRow[]) {
    for (const r of rows) if (r.last_modified > (this.seen.get(schema) ?? "")) this.seen.set(schema, r.last_modified);
  }

  private async contentSchemas(): Promise<string[]> {
    return (await this.store.listSchemas()).filter((s) => s.type !== "Component").map((s) => s.name);
  }

  /** The whole app: schemas, every item, and removal of what Squidex no longer has. */
  pullAll(): Promise<{ written: number; removed: number }> {
    return this.serial(() =>
      this.tracked(async () => {
        await this.pullSchemas();
        let written = 0;
        let removed = 0;
        for (const schema of await this.contentSchemas()) {
          const pulled = await this.pullItems(schema);
          written += pulled.written;
          const unseen = [...(await this.store.mirroredVersions(schema)).keys()].filter((id) => !pulled.ids.has(id));
          const gone = await this.confirmGone(schema, unseen);
          await this.store.removeMirrored(schema, gone);
          removed += gone.length;
        }
        const assets = await this.syncAssets(true);
        return { written: written + assets.written, removed: removed + assets.removed };
      }),
    );
  }

  /** Items changed since the newest change seen per schema (a full pull for a schema not seen yet). */
  pullChanges(): Promise<{ written: number; removed: number }> {
    return this.serial(() =>
      this.tracked(async () => {
        await this.pullSchemas();
        let written = 0;
        for (const schema of await this.contentSchemas()) written += (await this.pullItems(schema, this.seen.get(schema))).written;
        written += (await this.syncAssets(false)).written;
        return { written, removed: 0 };
      }),
    );
  }

  /** One item as Squidex has it now (a webhook's event): written, or removed when it is gone there. */
  pullItem(schema: string, id: string): Promise<{ written: number; removed: number }> {
    return this.serial(() =>
      this.tracked(async () => {
        const path = `api/content/${this.appPath}/${encodeURIComponent(schema)}/${encodeURIComponent(id)}`;
        const current = await this.getJson(path, { "X-Unpublished": "1" });
        if (!current) {
          const had = (await this.store.mirroredVersions(schema)).has(id);
          await this.store.removeMirrored(schema, [id]);
          return { written: 0, removed: had ? 1 : 0 };
        }
        const live = current.status === "Published" ? await this.getJson(path) : null;
        const row = itemRow(schema, current, live ?? undefined);
        const written = (await this.store.applyMirrored(schema, [row])).length;
        this.note(schema, [row]);
        return { written, removed: 0 };
      }),
    );
  }

  /** One asset as Squidex has it now (a webhook's asset event): written with its file, or removed when it is gone there. */
  pullAsset(id: string): Promise<{ written: number; removed: number }> {
    return this.serial(() =>
      this.tracked(async () => {
        const current = await this.getJson(`api/apps/${this.appPath}/assets/${encodeURIComponent(id)}`);
        if (!current) {
          const had = (await this.store.assets.mirroredVersions()).has(id);
          await this.store.assets.removeMirrored([id]);
          return { written: 0, removed: had ? 1 : 0 };
        }
        return { written: await this.applyAssets([current]), removed: 0 };
      }),
    );
  }

  /**
   * Assets: every one (`full`: with the folder tree, and removing what Squidex no longer has), or
   * those changed since the newest change seen. Metadata is written where new or newer by version,
   * the file fetched only where its file version is new (or its file is missing here).
   */
  private async syncAssets(full: boolean): Promise<{ written: number; removed: number }> {
    let removed = 0;
    if (full) removed += await this.syncFolders(true);
    const list = await listRemoteAssets((p) => this.getJson(p), this.app, full ? undefined : this.seenAssets);
    const written = await this.applyAssets(list);
    if (full) {
      const remoteIds = new Set(list.map((a) => String(a.id)));
      const gone = [...(await this.store.assets.mirroredVersions()).keys()].filter((id) => !remoteIds.has(id));
      await this.store.assets.removeMirrored(gone);
      removed += gone.length;
    }
    return { written, removed };
  }

  /** The folder tree as Squidex has it: new and changed folders written; with `remove`, the ones gone there removed. */
  private async syncFolders(remove: boolean): Promise<number> {
    const list = await listRemoteFolders((p) => this.getJson(p), this.app);
    const kept = await this.store.assets.mirroredFolderVersions();
    const now = new Date().toISOString();
    const changed = list.filter((f) => isValidId(f.id) && kept.get(String(f.id)) !== Number(f.version ?? 0)).map((f) => folderRow(f, ACTOR, now));
    await this.store.assets.writeMirroredFolders(changed);
    if (!remove) return 0;
    const remoteIds = new Set(list.map((f) => String(f.id)));
    const gone = [...kept.keys()].filter((id) => !remoteIds.has(id));
    await this.store.assets.removeMirroredFolders(gone);
    return gone.length;
  }

  /** Asset DTOs into the store, one at a time (a file is held in memory only while it is written). */
  private async applyAssets(list: readonly Json[]): Promise<number> {
    const kept = await this.store.assets.mirroredVersions();
    const folders = await this.store.assets.mirroredFolderVersions();
    // An asset in a folder not seen yet: the folders first, so the library shows where it is.
    if (list.some((a) => a.parentId && a.parentId !== ROOT_FOLDER && !folders.has(String(a.parentId)))) await this.syncFolders(false);
    let written = 0;
    for (const a of list) {
      if (!isValidId(a.id)) {
        this.log("warn", "an asset of Squidex with an id this site cannot keep was left out", { id: String(a.id).slice(0, 120) });
        continue;
      }
      const row = assetRow(a, ACTOR);
      if (row.last_modified > (this.seenAssets ?? "")) this.seenAssets = row.last_modified;
      const have = kept.get(row.id);
      const needsFile = !have || have.fileVersion !== row.file_version || !this.store.assets.hasFile({ id: row.id, fileVersion: row.file_version });
      // Kept newer (the site's own write, answered by Squidex, before this list was read), or the same.
      if (have && (have.version > row.version || (have.version === row.version && !needsFile))) continue;
      let body: Buffer | undefined;
      if (needsFile) {
        const bytes = await this.getBytes(assetContentPath(this.app, row.id));
        // Gone between the list and now: the next pull sees it gone.
        if (!bytes) continue;
        body = bytes;
        row.file_size = bytes.length;
      }
      await this.store.assets.writeMirrored([{ row, ...(body ? { body } : {}) }]);
      written++;
    }
    return written;
  }

  private async getBytes(path: string): Promise<Buffer | null> {
    let res: Response;
    try {
      res = await this.remote.request("GET", path);
    } catch (error) {
      throw new MirrorError(`Squidex cannot be reached (${error instanceof Error ? error.message : String(error)}).`);
    }
    if (res.status === 404) {
      void res.body?.cancel().catch(() => {});
      return null;
    }
    if (!res.ok) throw new MirrorError(`Squidex answered ${res.status} to GET ${path}.`);
    return Buffer.from(await res.arrayBuffer());
  }

  private async tracked(fn: () => Promise<{ written: number; removed: number }>): Promise<{ written: number; removed: number }> {
    try {
      const done = await fn();
      this.status.lastSync = new Date().toISOString();
      this.status.lastError = null;
      this.status.written += done.written;
      this.status.removed += done.removed;
      if (done.written || done.removed) this.log("info", "content mirrored from Squidex", done);
      return done;
    } catch (error) {
      this.status.lastError = error instanceof Error ? error.message : String(error);
      this.log("warn", "mirroring from Squidex failed; the site keeps what it has", { error: this.status.lastError });
      throw error;
    }
  }

  /** Polls every `intervalMs` (every tenth time a full pull); failures are logged and tried again. */
  start(intervalMs: number): this {
    const tick = () => {
      this.ticks++;
      const pull = this.ticks % 10 === 0 ? this.pullAll() : this.pullChanges();
      pull.catch(() => {}).finally(() => {
        if (this.timer) this.timer = setTimeout(tick, intervalMs).unref();
      });
    };
    this.timer = setTimeout(tick, intervalMs).unref();
    return this;
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }
}

/** An item as Squidex serves it (current data, and the live data of a published one) as a contents row. */
export function itemRow(schema: string, item: Json, published: Json | undefined): ContentRow {
  const row = itemRecord(schema, item, published, ACTOR);
  return { ...row, data: JSON.stringify(row.data), published_data: row.published_data === null ? null : JSON.stringify(row.published_data) };
}
