import { describe, expect, it } from "vitest";
import { clientAddress } from "../../server/analytics-endpoint";
import { TokenBuckets } from "./token-bucket";

describe("TokenBuckets", () => {
  it("allows perMinute events at once, then refills at that rate", () => {
    let now = 0;
    const buckets = new TokenBuckets(3, 100, () => now);
    expect([1, 2, 3, 4].map(() => buckets.take("a"))).toEqual([true, true, true, false]);
    expect(buckets.take("b")).toBe(true);
    now += 20_000; // a third of a minute: one token
    expect(buckets.take("a")).toBe(true);
    expect(buckets.take("a")).toBe(false);
  });

  it("keeps at most maxKeys addresses, dropping the least recently seen", () => {
    const buckets = new TokenBuckets(1, 2, () => 0);
    buckets.take("a");
    buckets.take("b");
    buckets.take("a");
    buckets.take("c");
    expect(buckets.size).toBe(2);
    // b went; a is still empty.
    expect(buckets.take("a")).toBe(false);
    expect(buckets.take("b")).toBe(true);
  });
});

describe("clientAddress (the fast path's req.ip)", () => {
  const req = (remote: string, xff?: string) => ({ socket: { remoteAddress: remote }, headers: xff ? { "x-forwarded-for": xff } : {} }) as never;
  it("ignores X-Forwarded-For unless the proxy is trusted", () => {
    expect(clientAddress(req("10.0.0.1", "1.2.3.4"), () => false)).toBe("10.0.0.1");
    expect(clientAddress(req("10.0.0.1", "6.6.6.6, 1.2.3.4"), (addr) => addr.startsWith("10."))).toBe("1.2.3.4");
    expect(clientAddress(req("10.0.0.1", "6.6.6.6, 1.2.3.4"), (_a, i) => i < 1)).toBe("1.2.3.4");
    expect(clientAddress(req("10.0.0.1", "6.6.6.6, 1.2.3.4"), () => true)).toBe("6.6.6.6");
  });
});
