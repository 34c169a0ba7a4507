/** The spec's reload guard: at most one automatic reload per this many milliseconds (§9). */
export const RELOAD_GUARD_MS = 10_000;
export const RELOAD_KEY = "pn-reload-at";

/**
 * Whether an automatic reload may happen now, and if so stamps the time: kept in sessionStorage,
 * so the guard survives the reload it allowed (a chunk that keeps failing never loops).
 */
export function claimReload(storage: Pick<Storage, "getItem" | "setItem">, now: number): boolean {
  try {
    // A garbled stamp is NaN and one from the future (a clock set back) is ignored: both allow.
    const last = Number(storage.getItem(RELOAD_KEY));
    if (now - last < RELOAD_GUARD_MS && now >= last) return false;
    storage.setItem(RELOAD_KEY, String(now));
    return true;
  } catch {
    // No storage (private mode, full): no guard to keep, so no automatic reload either.
    return false;
  }
}
