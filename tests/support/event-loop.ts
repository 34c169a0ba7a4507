import { envInt } from "./env";

/**
 * How long the server may keep /healthz waiting while hostile requests run. A request that blocks
 * the event loop holds up every other one: 500 sort keys held it for up to 2 s, three such requests
 * at once for 5.8 s. The target is ~50 ms (measured by `npm run bench -- --only=hostile`); this bound
 * is far above it so that a busy machine cannot fail the test, and far below what was seen.
 */
export const EVENT_LOOP_BOUND_MS = envInt("EVENT_LOOP_BOUND_MS", 1500);

/**
 * Runs `work` while a probe asks `${base}/healthz` again and again (one request at a time, 10 ms
 * apart) and returns the slowest answer the probe got: how long the server kept a request that
 * needs nothing but its event loop (and one tiny query) waiting.
 */
export async function worstHealthzWhile<T>(base: string, work: () => Promise<T>): Promise<{ worstMs: number; probes: number; result: T }> {
  let running = true;
  let worstMs = 0;
  let probes = 0;
  const probe = (async () => {
    while (running) {
      const started = performance.now();
      const res = await fetch(`${base}/healthz`).catch(() => undefined);
      await res?.arrayBuffer();
      worstMs = Math.max(worstMs, performance.now() - started);
      probes++;
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  try {
    const result = await work();
    return { worstMs: Math.round(worstMs), probes, result };
  } finally {
    running = false;
    await probe;
  }
}
