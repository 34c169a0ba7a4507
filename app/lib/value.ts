import { useSyncExternalStore } from "react";

/**
 * One value that components subscribe to outside React state (useValue): only the components that
 * read it render when it changes. The session, the service worker's state and the editor's save
 * state are such values.
 */
export interface Value<T> {
  get(): T;
  /** A new value, or a function of the current one; listeners hear only of a real change. */
  set(next: T | ((current: T) => T)): void;
  subscribe(listener: () => void): () => void;
}

export function createValue<T>(initial: T): Value<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      const v = typeof next === "function" ? (next as (current: T) => T)(value) : next;
      if (Object.is(v, value)) return;
      value = v;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/** The value in a component; `serverValue` is what the server rendered with (default: the current one). */
export function useValue<T>(value: Value<T>, serverValue?: () => T): T {
  return useSyncExternalStore(value.subscribe, value.get, serverValue ?? value.get);
}
