import { createContext, useContext, useSyncExternalStore } from "react";
import { reduce, type EditorAction, type EditorState, type ModelContext } from "./model";

/**
 * The editor's state behind React: the model's pure actions (model.ts) applied one at a time, and
 * subscribers that each read one small slice. A canvas block reads only its own block and whether
 * it is active, so a keystroke in one block re-renders that block and the fields panel — not the
 * page (the model keeps every untouched block's object as it was, so their slices do not change).
 */
export interface EditorStore {
  get(): EditorState;
  dispatch(action: EditorAction): void;
  subscribe(listener: () => void): () => void;
  readonly ctx: ModelContext;
}

export function createEditorStore(initial: EditorState, ctx: ModelContext): EditorStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    ctx,
    get: () => state,
    dispatch(action) {
      const next = reduce(state, action, ctx);
      if (next === state) return;
      state = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

export const EditorStoreContext = createContext<EditorStore | null>(null);

export function useEditorStore(): EditorStore {
  const store = useContext(EditorStoreContext);
  if (!store) throw new Error("useEditorStore outside the editor");
  return store;
}

/** One slice of the state; the component re-renders only when the slice changes (Object.is). */
export function useEditor<T>(select: (state: EditorState) => T): T {
  const store = useEditorStore();
  const read = () => select(store.get());
  return useSyncExternalStore(store.subscribe, read, read);
}

/** The edited language's document. */
export const docOf = (s: EditorState) => s.docs[s.language];
