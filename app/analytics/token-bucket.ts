/**
 * Events per sender address, in memory: a token bucket per address that refills `perMinute` a
 * minute up to `perMinute`. At most `maxKeys` addresses are kept (the oldest go first), so a flood of
 * addresses costs bounded memory; one that is dropped starts again with a full bucket.
 */
export class TokenBuckets {
  private buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly maxKeys = 10_000,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Takes a token for `key`; false when there is none left. */
  take(key: string): boolean {
    const now = this.now();
    const bucket = this.buckets.get(key);
    let tokens = this.perMinute;
    if (bucket) {
      tokens = Math.min(this.perMinute, bucket.tokens + ((now - bucket.at) / 60_000) * this.perMinute);
      this.buckets.delete(key);
    } else if (this.buckets.size >= this.maxKeys) {
      this.buckets.delete(this.buckets.keys().next().value!);
    }
    const allowed = tokens >= 1;
    // Re-inserted: the map's order is least recently used first.
    this.buckets.set(key, { tokens: allowed ? tokens - 1 : tokens, at: now });
    return allowed;
  }

  get size(): number {
    return this.buckets.size;
  }
}
