import { useCallback } from "react";
import type { DropTarget } from "./drag";
import { docOf, useEditorStore } from "./editor-store";
import { useEnv } from "./env";
import { isDescendant, pathOf, ROOT } from "./model";

/**
 * Where a drop under the pointer would land: before or after the innermost block there (by the
 * block's middle; side by side in columns, by its horizontal middle), inside an empty container,
 * or at the end of the page over empty canvas. Never on or inside a dragged block.
 */
export function useDropResolver() {
  const store = useEditorStore();
  const env = useEnv();
  return useCallback(
    (x: number, y: number, dragged: readonly string[], rootOnly = false): DropTarget | null => {
      const canvas = document.querySelector("[data-canvas]");
      const hit = document.elementFromPoint(x, y);
      if (!canvas || !hit || !canvas.contains(hit)) return null;
      const doc = docOf(store.get());
      let el = hit.closest<HTMLElement>("[data-block-id]");
      // A container goes only onto the page itself (one nesting level): over a container's child,
      // the drop is before or after that container.
      if (el && rootOnly) {
        const top = pathOf(doc, el.dataset.blockId!)[0];
        if (top) el = document.querySelector<HTMLElement>(`[data-block-id="${CSS.escape(top)}"]`);
      }
      if (!el) {
        const list = rootOnly ? null : hit.closest<HTMLElement>("[data-drop-list]");
        const parent = list?.dataset.dropList ?? ROOT;
        const box = (list ?? canvas).getBoundingClientRect();
        return { parent, index: doc.children[parent]?.length ?? 0, rect: { top: box.bottom - 4, left: box.left, width: box.width, height: 4 }, mode: "end" };
      }
      const id = el.dataset.blockId!;
      if (dragged.some((d) => d === id || isDescendant(doc, id, d))) return null;
      const box = el.getBoundingClientRect();
      const rect = { top: box.top, left: box.left, width: box.width, height: box.height };
      const block = doc.blocks[id];
      if (!rootOnly && block && env.schemas.get(block.schemaId)?.container && (doc.children[id]?.length ?? 0) === 0) return { parent: id, index: 0, rect, mode: "inside" };
      const parent = doc.parent[id] ?? ROOT;
      const index = doc.children[parent]?.indexOf(id) ?? -1;
      if (index < 0) return null;
      const list = el.parentElement?.closest("[data-block-id], [data-canvas]")?.getBoundingClientRect();
      const sideBySide = list ? box.width < list.width * 0.6 : false;
      const after = sideBySide ? x > box.left + box.width / 2 : y > box.top + box.height / 2;
      return { parent, index: after ? index + 1 : index, rect, mode: after ? "after" : "before" };
    },
    [store, env],
  );
}
