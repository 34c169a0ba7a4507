import { LRUCache } from "lru-cache";

/**
 * The one server-side cache for content reads. Entries expire after `ttlMs`; the whole cache is
 * cleared whenever content changes, so a cached answer is never older than the last write.
 */
export class ContentCache {
  private readonly lru: LRUCache<string, { value: unknown }>;
  hits = 0;
  misses = 0;

  constructor(opts: { max?: number; ttlMs?: number } = {}) {
    this.lru = new LRUCache({ max: opts.max ?? 1000, ttl: opts.ttlMs ?? 60_000 });
  }

  async getOrLoad<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.lru.get(key);
    if (hit) {
      this.hits++;
      return hit.value as T;
    }
    this.misses++;
    const value = await load();
    this.lru.set(key, { value });
    return value;
  }

  clear() {
    this.lru.clear();
  }

  get size() {
    return this.lru.size;
  }
}
