import { useSyncExternalStore } from "react";

/** The service worker's states for the UI (§4). */
export interface PwaState {
  offlineReady: boolean;
  needRefresh: boolean;
  installAvailable: boolean;
  installed: boolean;
  registrationError: boolean;
}

let state: PwaState = { offlineReady: false, needRefresh: false, installAvailable: false, installed: false, registrationError: false };
const listeners = new Set<() => void>();
const SERVER_STATE = state;

export const getPwaState = () => state;

/**
 * Changes the state; the UI's components hear of it, and other scripts too: `window.praxisnetzPwa`
 * holds the current state and a `praxisnetz:pwa` event on window tells each change.
 */
export function setPwaState(patch: Partial<PwaState>): void {
  state = { ...state, ...patch };
  listeners.forEach((listener) => listener());
  (window as { praxisnetzPwa?: PwaState }).praxisnetzPwa = state;
  window.dispatchEvent(new CustomEvent("praxisnetz:pwa", { detail: state }));
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

export function usePwaState(): PwaState {
  return useSyncExternalStore(subscribe, getPwaState, () => SERVER_STATE);
}
