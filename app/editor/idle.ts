/**
 * Runs `fn` once the browser is idle after opening edit mode (at the latest after `timeoutMs`), not
 * in the commit that makes the editor ready: work the first screen does not need (the first
 * presence heartbeat, reading the clipboard from localStorage, which opens the origin's storage
 * synchronously in a fresh profile) stays off the critical path. Returns a cancel function.
 */
export function whenIdle(fn: () => void, timeoutMs = 500): () => void {
  if (typeof window.requestIdleCallback === "function") {
    const handle = window.requestIdleCallback(() => fn(), { timeout: timeoutMs });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = setTimeout(fn, 50);
  return () => clearTimeout(timer);
}
