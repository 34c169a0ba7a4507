import type { Block } from "~/blocks/types";
import type { EditorStore } from "./editor-store";
import type { EditorEnv } from "./env";
import { blocksFromDoc, documentOrder, type EditorDoc } from "./model";
import { insertionPoint } from "./palette";

/** The clipboard lives in localStorage: copy on one page (or tab), paste on another. */
const KEY = "praxisnetz-editor-clipboard";
/** Said on this tab after a copy (other tabs hear the storage event). */
export const CLIPBOARD_EVENT = "praxisnetz-clipboard";

/** Blocks (with their children) in page form, in document order. */
export function blocksOf(doc: EditorDoc, ids: readonly string[]): Block[] {
  return documentOrder(doc, ids).map((id) => {
    const b = doc.blocks[id]!;
    const children = doc.children[id];
    return { schemaId: b.schemaId, id: b.id, ...b.fields, ...(children ? { blocks: blocksFromDoc(doc, id) } : {}) };
  });
}

export function copySelection(store: EditorStore): number {
  const state = store.get();
  const ids = state.selected.length ? state.selected : state.active ? [state.active] : [];
  if (!ids.length) return 0;
  localStorage.setItem(KEY, JSON.stringify({ blocks: blocksOf(state.docs[state.language], ids) }));
  window.dispatchEvent(new Event(CLIPBOARD_EVENT));
  return ids.length;
}

/** Only kinds this site has (and their children's): anything else is left out of a paste. */
function known(blocks: unknown, env: EditorEnv): Block[] {
  if (!Array.isArray(blocks)) return [];
  const out: Block[] = [];
  for (const b of blocks) {
    if (!b || typeof b !== "object" || typeof (b as Block).schemaId !== "string" || !env.schemas.has((b as Block).schemaId)) continue;
    const block = { ...(b as Block) };
    if (Array.isArray(block.blocks)) block.blocks = known(block.blocks, env);
    out.push(block);
  }
  return out;
}

/** Whether something pasteable is on the clipboard (paste is offered only then). */
export function canPaste(env: EditorEnv): boolean {
  try {
    return known((JSON.parse(localStorage.getItem(KEY) ?? "null") as { blocks?: unknown } | null)?.blocks, env).length > 0;
  } catch {
    return false;
  }
}

/** Pastes at the cursor, with new ids for every block and child (the model gives them). */
export function paste(store: EditorStore, env: EditorEnv): boolean {
  let blocks: Block[] = [];
  try {
    blocks = known((JSON.parse(localStorage.getItem(KEY) ?? "null") as { blocks?: unknown } | null)?.blocks, env);
  } catch {
    blocks = [];
  }
  if (!blocks.length) return false;
  const { parent, index } = insertionPoint(store, env, blocks.some((b) => env.schemas.get(b.schemaId)?.container));
  store.dispatch({ type: "paste", parent, index, blocks });
  env.refreshData();
  return true;
}
