import { AsyncLocalStorage } from "node:async_hooks";
import { LRUCache } from "lru-cache";
import type { ContentChange } from "./types";

/**
 * What a piece of work read, as tags (a schema's name; "assets"), so whatever it produced — a
 * cached read, a rendered page — can be dropped when exactly that changes and kept otherwise.
 * The store records every read into the scopes that are open in the current async context; a
 * scope's tags flow into the scope around it when it ends.
 */
const scopes = new AsyncLocalStorage<Set<string>[]>();

export const ASSETS_TAG = "assets";

export function recordRead(...tags: string[]): void {
  const open = scopes.getStore();
  if (!open) return;
  for (const scope of open) for (const tag of tags) scope.add(tag);
}

/** Runs `fn` and reports every tag read while it ran (and while the work it started ran). */
export async function withReadTags<T>(fn: () => Promise<T>): Promise<{ value: T; tags: Set<string> }> {
  const tags = new Set<string>();
  const value = await scopes.run([...(scopes.getStore() ?? []), tags], fn);
  return { value, tags };
}

/** Opens a scope for work that finishes later than the call (a streamed response): read `tags` when it is done. */
export function runWithReadTags(tags: Set<string>, fn: () => void): void {
  scopes.run([...(scopes.getStore() ?? []), tags], fn);
}

/**
 * The tags a change invalidates, or "all" (schemas change what every read means; a change we know
 * nothing about, e.g. after a lost connection to the other nodes, may have touched anything).
 */
export function changedTags(change: ContentChange): Set<string> | "all" {
  if (change.kind === "schema") return "all";
  if (change.kind === "asset" || change.kind === "asset-folder") return new Set([ASSETS_TAG]);
  return change.schemaName ? new Set([change.schemaName]) : "all";
}

/**
 * An LRU cache whose entries carry the tags they read, with an index from tag to keys: a change
 * drops exactly the entries that read what changed, without looking at the others (a write under a
 * full cache used to walk every entry).
 */
export class TaggedLru<V extends { tags: ReadonlySet<string> }> {
  private readonly lru: LRUCache<string, V>;
  private readonly byTag = new Map<string, Set<string>>();

  constructor(opts: { max: number; ttl: number }) {
    // Called for every entry that leaves: evicted, expired, deleted, replaced or cleared.
    this.lru = new LRUCache<string, V>({ ...opts, dispose: (value, key) => this.unindex(key, value) });
  }

  get(key: string): V | undefined {
    return this.lru.get(key);
  }

  set(key: string, value: V): void {
    this.lru.set(key, value);
    for (const tag of value.tags) {
      let keys = this.byTag.get(tag);
      if (!keys) this.byTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
  }

  /** Drops the entries that read what `change` changed. */
  drop(change: ContentChange): void {
    const tags = changedTags(change);
    if (tags === "all") return this.clear();
    for (const tag of tags) for (const key of [...(this.byTag.get(tag) ?? [])]) this.lru.delete(key);
  }

  clear(): void {
    this.lru.clear();
    this.byTag.clear();
  }

  get size(): number {
    return this.lru.size;
  }

  /** Keys indexed under `tag` (for tests). */
  keysOf(tag: string): string[] {
    return [...(this.byTag.get(tag) ?? [])];
  }

  private unindex(key: string, value: V) {
    for (const tag of value.tags) {
      const keys = this.byTag.get(tag);
      if (!keys) continue;
      keys.delete(key);
      if (!keys.size) this.byTag.delete(tag);
    }
  }
}

/**
 * When each tag last changed, as a sequence number. Work that started at `now()` may keep its result
 * unless something it read changed since (`changedSince`): a change to anything else, which is most
 * changes under steady bookings, does not cost it its result.
 */
export class ChangeClock {
  private seq = 0;
  private allAt = 0;
  private readonly at = new Map<string, number>();

  now(): number {
    return this.seq;
  }

  record(change: ContentChange | "all"): void {
    this.seq++;
    const tags = change === "all" ? "all" : changedTags(change);
    if (tags === "all") this.allAt = this.seq;
    else for (const tag of tags) this.at.set(tag, this.seq);
  }

  changedSince(tags: ReadonlySet<string>, since: number): boolean {
    if (this.allAt > since) return true;
    for (const tag of tags) if ((this.at.get(tag) ?? 0) > since) return true;
    return false;
  }
}
