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

export function getPwaState(): PwaState {
  return state;
}

export function setPwaState(patch: Partial<PwaState>): void {
  state = { ...state, ...patch };
  // Tests and styles can read the states off the document.
  const root = document.documentElement;
  root.dataset.pwa = (Object.keys(state) as Array<keyof PwaState>).filter((k) => state[k]).join(" ") || "none";
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

const SERVER_STATE: PwaState = { ...state };

export function usePwaState(): PwaState {
  return useSyncExternalStore(subscribe, getPwaState, () => SERVER_STATE);
}
