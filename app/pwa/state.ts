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

export function setPwaState(patch: Partial<PwaState>): void {
  state = { ...state, ...patch };
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

export function usePwaState(): PwaState {
  return useSyncExternalStore(subscribe, getPwaState, () => SERVER_STATE);
}
