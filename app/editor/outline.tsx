import { memo } from "react";
import { docOf, useEditor, useEditorStore } from "./editor-store";
import { useEnv } from "./env";
import { ROOT, type EditorBlock } from "./model";
import { useMoveKeys } from "./move-keys";

/** A block's line in the outline: its kind and the start of its first text. */
function summary(block: EditorBlock): string {
  for (const value of Object.values(block.fields)) {
    if (typeof value === "string" && value.trim() && !value.startsWith("/")) {
      const plain = value.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim();
      if (plain) return plain.length > 40 ? `${plain.slice(0, 40)}…` : plain;
    }
  }
  return "";
}

/**
 * The page as a tree (the outline): click to choose a block, Shift/Ctrl (Cmd) to choose several,
 * which the toolbar then moves, copies or deletes together. Each row follows its own block only.
 */
export const Outline = memo(function Outline() {
  return <OutlineList parent={ROOT} />;
});

const NONE: readonly string[] = [];

function OutlineList({ parent }: { parent: string }) {
  const ids = useEditor((s) => docOf(s).children[parent]);
  const keyOf = useMoveKeys(ids ?? NONE);
  if (!ids?.length) return null;
  return (
    <ul className={parent === ROOT ? "space-y-0.5" : "ml-4 mt-0.5 space-y-0.5 border-l border-black/15 pl-2"}>
      {ids.map((id) => (
        <OutlineRow key={keyOf(id)} id={id} />
      ))}
    </ul>
  );
}

const OutlineRow = memo(function OutlineRow({ id }: { id: string }) {
  const block = useEditor((s) => docOf(s).blocks[id]);
  const active = useEditor((s) => s.active === id);
  const selected = useEditor((s) => s.selected.includes(id));
  const env = useEnv();
  const store = useEditorStore();
  if (!block) return null;
  const text = summary(block);
  return (
    <li>
      <button
        type="button"
        data-outline-id={id}
        aria-current={active ? "true" : undefined}
        aria-pressed={selected}
        className={`w-full truncate rounded px-2 py-1 text-left text-sm ${active ? "bg-[#0f5e63] text-white" : selected ? "bg-[#0f5e63]/15" : "hover:bg-black/5"}`}
        onClick={(e) => {
          store.dispatch({ type: "select", id, mode: e.shiftKey ? "range" : e.ctrlKey || e.metaKey ? "toggle" : "replace" });
          if (!e.shiftKey && !e.ctrlKey && !e.metaKey) document.querySelector(`[data-block-id="${CSS.escape(id)}"]`)?.scrollIntoView({ block: "nearest" });
        }}
      >
        <span className="font-medium">{env.label(block.schemaId)}</span>
        {text ? <span className={active ? "text-white/90" : "text-black/70"}> – {text}</span> : null}
      </button>
      {env.schemas.get(block.schemaId)?.container ? <OutlineList parent={id} /> : null}
    </li>
  );
});
