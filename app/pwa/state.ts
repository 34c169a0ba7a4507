import { createValue, useValue } from "~/lib/value";

/** The service worker's states for the UI (§4). */
export interface PwaState {
  offlineReady: boolean;
  needRefresh: boolean;
  installAvailable: boolean;
  installed: boolean;
  registrationError: boolean;
}

const INITIAL: PwaState = { offlineReady: false, needRefresh: false, installAvailable: false, installed: false, registrationError: false };
const state = createValue(INITIAL);
const serverState = () => INITIAL;

export const getPwaState = () => state.get();

/**
 * Changes the state; the UI's components hear of it, and other scripts too: `window.praxisnetzPwa`
 * holds the current state and a `praxisnetz:pwa` event on window tells each change.
 */
export function setPwaState(patch: Partial<PwaState>): void {
  state.set((current) => ({ ...current, ...patch }));
  (window as { praxisnetzPwa?: PwaState }).praxisnetzPwa = state.get();
  window.dispatchEvent(new CustomEvent("praxisnetz:pwa", { detail: state.get() }));
}

export function usePwaState(): PwaState {
  return useValue(state, serverState);
}
