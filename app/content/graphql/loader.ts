/**
 * A tiny per-request batch loader (the DataLoader idea, our own): every `load` asked for while the
 * executor walks one level of the result is answered by one call of `batch`, and each key is loaded
 * once per request. GraphQL resolvers call it per item; the store sees one query per batch.
 */
export class BatchLoader<V> {
  private readonly results = new Map<string, Promise<V | undefined>>();
  private pending: { key: string; resolve: (value: V | undefined) => void; reject: (error: unknown) => void }[] = [];

  constructor(private readonly batch: (keys: string[]) => Promise<Map<string, V>>) {}

  load(key: string): Promise<V | undefined> {
    let result = this.results.get(key);
    if (!result) {
      result = new Promise((resolve, reject) => {
        // After the executor's current round of resolvers: they all queue their keys first.
        if (!this.pending.length) setImmediate(() => void this.dispatch());
        this.pending.push({ key, resolve, reject });
      });
      this.results.set(key, result);
    }
    return result;
  }

  /** A value already at hand (an item a list query returned) is not loaded again. */
  prime(key: string, value: V): void {
    if (!this.results.has(key)) this.results.set(key, Promise.resolve(value));
  }

  private async dispatch() {
    const batch = this.pending;
    this.pending = [];
    try {
      const found = await this.batch([...new Set(batch.map((p) => p.key))]);
      for (const p of batch) p.resolve(found.get(p.key));
    } catch (error) {
      for (const p of batch) p.reject(error);
    }
  }
}

/** The loaders of one request, one per group (e.g. a schema and a language). */
export class Loaders {
  private readonly groups = new Map<string, BatchLoader<unknown>>();

  get<V>(group: string, batch: (keys: string[]) => Promise<Map<string, V>>): BatchLoader<V> {
    let loader = this.groups.get(group);
    if (!loader) {
      loader = new BatchLoader<V>(batch) as BatchLoader<unknown>;
      this.groups.set(group, loader);
    }
    return loader as BatchLoader<V>;
  }
}
