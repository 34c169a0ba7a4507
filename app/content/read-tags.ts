import { AsyncLocalStorage } from "node:async_hooks";
import type { LRUCache } from "lru-cache";
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
  if (change.kind === "asset") return new Set([ASSETS_TAG]);
  return change.schemaName ? new Set([change.schemaName]) : "all";
}

/** Drops the entries of a tagged cache (cached reads, rendered pages) that read what `change` changed. */
export function dropChanged<V extends { tags: ReadonlySet<string> }>(lru: LRUCache<string, V>, change: ContentChange): void {
  const tags = changedTags(change);
  if (tags === "all") return lru.clear();
  for (const [key, entry] of lru.entries()) if ([...entry.tags].some((t) => tags.has(t))) lru.delete(key);
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
