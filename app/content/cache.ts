import { ChangeClock, recordRead, TaggedLru, withReadTags } from "./read-tags";
import type { ContentChange } from "./types";

/**
 * The one server-side cache for content reads and what is built from them (site data, practitioner
 * lists). Each entry remembers which schemas its loader read (see read-tags.ts); a change drops
 * only the entries that read what changed. Entries also expire after `ttlMs`.
 */
export class ContentCache {
  private readonly lru: TaggedLru<{ value: unknown; tags: Set<string> }>;
  /** A load that overlapped a change to something it read may hold old data and is not kept. */
  private readonly clock = new ChangeClock();
  hits = 0;
  misses = 0;

  constructor(opts: { max?: number; ttlMs?: number } = {}) {
    this.lru = new TaggedLru({ max: opts.max ?? 1000, ttl: opts.ttlMs ?? 60_000 });
  }

  async getOrLoad<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.lru.get(key);
    if (hit) {
      this.hits++;
      // Whoever uses this value read what it was built from.
      recordRead(...hit.tags);
      return hit.value as T;
    }
    // Callers that miss together share one load (after a change under load, one rebuild, not one
    // per request), unless what it read changed since it started.
    const running = this.loading.get(key);
    if (running) {
      const { value, tags } = await running.result;
      if (!this.clock.changedSince(tags, running.started)) {
        this.hits++;
        recordRead(...tags);
        return value as T;
      }
    }
    this.misses++;
    const started = this.clock.now();
    const result = withReadTags(load);
    const mine = { started, result };
    this.loading.set(key, mine);
    try {
      const { value, tags } = await result;
      if (!this.clock.changedSince(tags, started)) this.lru.set(key, { value, tags });
      return value;
    } finally {
      if (this.loading.get(key) === mine) this.loading.delete(key);
    }
  }

  private readonly loading = new Map<string, { started: number; result: Promise<{ value: unknown; tags: Set<string> }> }>();

  /** Drops the entries that read what `change` changed. */
  invalidate(change: ContentChange) {
    this.clock.record(change);
    this.lru.drop(change);
  }

  clear() {
    this.clock.record("all");
    this.lru.clear();
  }

  get size() {
    return this.lru.size;
  }
}
