import { memo, Suspense, useLayoutEffect, useMemo, useRef, useState } from "react";
import { BLOCK_DEFINITIONS } from "~/blocks/registry";
import type { Block } from "~/blocks/types";
import { own } from "~/lib/input";
import { pressForDrag } from "./drag";
import { animateBlocks } from "./motion";
import { docOf, useEditor, useEditorStore } from "./editor-store";
import { useEnv, type EditorEnv } from "./env";
import { ROOT, type EditorBlock } from "./model";
import { takeFocusAfterMove, useMoveKeys } from "./move-keys";
import { sanitizeRichTextClient } from "./sanitize";
import { useDropResolver } from "./use-drop";

/**
 * The page on the canvas: the real block components (the same markup as the public page), each in
 * a frame that carries the editing contract (`data-block-id`, `data-block`, `aria-current` on the
 * active one). Every list and every block subscribes to its own slice of the editor state.
 */
export function CanvasList({ parent }: { parent: string }) {
  const ids = useEditor((s) => docOf(s).children[parent]);
  const { t } = useEnv();
  const keyOf = useMoveKeys(ids ?? NONE, hasFocus);
  if (!ids) return null;
  if (!ids.length) {
    return (
      <div data-drop-list={parent} className={parent === ROOT ? "px-4 py-16 text-center text-black/70" : "m-2 rounded border-2 border-dashed border-black/20 p-6 text-center text-sm text-black/70"}>
        {parent === ROOT ? t.emptyPage : t.emptyContainer}
      </div>
    );
  }
  return (
    <div data-drop-list={parent} className="contents">
      {ids.map((id, index) => (
        // Each block is a boundary of its own: opening edit mode hydrates the editor first and the
        // blocks after it, a few at a time (they are on screen already, as the server rendered
        // them); a click or a key on a block not yet hydrated hydrates that one at once and is then
        // handled. Blocks read their position only to know whether they open the page (h1, eager
        // images): past the first ones, every position is the same to them, so inserting or
        // removing a block does not re-render the blocks after it. Children of a section never
        // open the page.
        // A block moved far toward the start is remounted under a new key (move-keys.ts).
        <CanvasItem key={keyOf(id)} id={id} index={parent === ROOT ? Math.min(index, 2) : 2} />
      ))}
    </div>
  );
}

const NONE: readonly string[] = [];

/**
 * A block's boundary, memoised: when the list changes, the blocks that kept their place skip their
 * boundary too (an unmemoised Suspense boundary re-renders with its list, and React then visits
 * every one of them while committing: a cost that grew with the page).
 */
const CanvasItem = memo(function CanvasItem({ id, index }: { id: string; index: number }) {
  return (
    <Suspense fallback={null}>
      <CanvasBlock id={id} index={index} />
    </Suspense>
  );
});

/** Whether the focus is in the block `id`'s element. */
function hasFocus(id: string): boolean {
  const active = typeof document === "undefined" ? null : document.activeElement;
  return !!active?.closest(`[data-block-id="${CSS.escape(id)}"]`);
}

/** What a block's component gets: as the server prepared it until edited, then made safe here. */
function shownBlock(block: EditorBlock, env: EditorEnv): Block {
  const prepared = env.initial.get(block.id) === block ? env.prepared.get(block.id) : undefined;
  if (prepared) return prepared;
  const schema = env.schemas.get(block.schemaId);
  const shown: Block = { schemaId: block.schemaId, id: block.id, ...block.fields };
  for (const field of schema?.fields ?? []) {
    const value = shown[field.name];
    if ((field.editor === "Html" || field.fieldType === "RichText") && typeof value === "string") shown[field.name] = sanitizeRichTextClient(value);
  }
  return shown;
}

/**
 * The block bodies the server rendered, found once while the editor hydrates. Each is taken once,
 * by its block's hydration (blocks hydrate after the editor, see CanvasList), and is then gone:
 * a block mounted later with the same id (undo of a delete) renders as a component. A body taken
 * from here is hydrated as it stands: React does not walk markup set as HTML, so opening a long
 * page does not run every block's component again.
 */
let serverBodies: Map<string, HTMLElement> | undefined;

function serverBody(id: string): string | undefined {
  if (typeof document === "undefined") return undefined;
  if (serverBodies === undefined) {
    serverBodies = new Map();
    for (const el of document.querySelectorAll<HTMLElement>("[data-block-body]")) {
      const owner = el.parentElement?.getAttribute("data-block-id");
      if (owner) serverBodies.set(owner, el);
    }
  }
  const el = serverBodies.get(id);
  if (!el) return undefined;
  serverBodies.delete(id);
  // Still the server's: a block hydrating now, not one mounted after the page changed.
  return el.isConnected ? el.innerHTML : undefined;
}

const CanvasBlock = memo(function CanvasBlock({ id, index }: { id: string; index: number }) {
  const block = useEditor((s) => docOf(s).blocks[id]);
  const active = useEditor((s) => s.active === id);
  const selected = useEditor((s) => s.selected.length > 1 && s.selected.includes(id));
  const env = useEnv();
  env.probe?.blockRendered(id);
  const store = useEditorStore();
  const resolve = useDropResolver();
  const shown = useMemo(() => (block ? shownBlock(block, env) : null), [block, env]);
  // Bumped after an in-place edit: the block's markup is made again from its data (the browser
  // changed that text's DOM while it was editable).
  const [generation, setGeneration] = useState(0);
  const definition = block ? own(BLOCK_DEFINITIONS, block.schemaId) : undefined;
  const container = block ? env.schemas.get(block.schemaId)?.container === true : false;
  // The server's markup stays until the block is edited or changes place (its position decides its
  // heading level and image loading); from then on the component renders it, for good.
  const [server] = useState(() => ({ body: definition && !definition.live && !container ? serverBody(id) : undefined, index }));
  const rendered = useRef(false);
  if (server.body === undefined || generation > 0 || index !== server.index || env.initial.get(id) !== block) rendered.current = true;
  const serverMarkup = rendered.current ? undefined : server.body;
  // Remounted to move (move-keys.ts) while the focus was in it: the new element takes the focus.
  const frame = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (takeFocusAfterMove(id)) frame.current?.focus({ preventScroll: true });
  }, [id]);
  // The block's own rendering depends only on its data: moving, selecting or a sibling's edit
  // leaves it as it is.
  const content = useMemo(() => {
    if (serverMarkup !== undefined || !definition || !shown) return null;
    env.probe?.bodyRendered?.(id);
    return <definition.Component key={generation} block={shown} data={env.data} index={index} slot={container ? <CanvasList parent={id} /> : undefined} />;
  }, [serverMarkup, definition, shown, env.data, env.probe, index, container, id, generation]);
  if (!block || !definition) return null;
  const label = env.label(block.schemaId);
  return (
    <div
      ref={frame}
      data-block-id={id}
      data-block={block.schemaId}
      aria-current={active ? "true" : undefined}
      data-selected={selected ? "true" : undefined}
      role="group"
      aria-label={label}
      tabIndex={0}
      // Links and forms inside a block do not navigate in edit mode: a click chooses the block.
      onClickCapture={(e) => {
        if ((e.target as HTMLElement).closest("a, button:not([data-editor-control]), summary")) e.preventDefault();
      }}
      onSubmitCapture={(e) => e.preventDefault()}
      onDoubleClick={(e) => {
        const el = (e.target as HTMLElement).closest<HTMLElement>("[data-edit-field]");
        if (!el || el.closest("[data-block-id]") !== e.currentTarget || el.isContentEditable) return;
        e.stopPropagation();
        editInPlace(el, (value) => {
          setGeneration((g) => g + 1);
          const field = el.dataset.editField!;
          if (value !== undefined && value !== store.get().docs[store.get().language].blocks[id]?.fields[field]) store.dispatch({ type: "setField", id, field, value });
        });
      }}
      onClick={(e) => {
        if ((e.target as HTMLElement).closest("[data-editor-control]")) return;
        e.stopPropagation();
        store.dispatch({ type: "select", id, mode: e.shiftKey ? "range" : e.ctrlKey || e.metaKey ? "toggle" : "replace" });
      }}
      onFocus={(e) => {
        // Reaching a block by keyboard chooses it; a click chooses it in onClick (with Shift/Ctrl).
        if (e.target === e.currentTarget && e.currentTarget.matches(":focus-visible") && store.get().active !== id) store.dispatch({ type: "select", id, mode: "replace" });
      }}
    >
      {active ? (
        <div className="absolute right-2 top-2 z-30 flex gap-1 rounded bg-[#0f5e63] p-1 text-xs text-white shadow" data-block-bar>
          <button
            type="button"
            data-editor-control
            data-drag-handle
            aria-label={env.t.dragHandle(label)}
            title={env.t.dragHandle(label)}
            className="cursor-grab touch-none rounded px-2 py-1 hover:bg-white/20 focus-visible:outline-2 focus-visible:outline-white"
            onPointerDown={(e) => {
              const ids = store.get().selected.includes(id) ? [...store.get().selected] : [id];
              pressForDrag(e, {
                label,
                scroller: (e.currentTarget as HTMLElement).closest<HTMLElement>("[data-canvas-scroller]"),
                resolve: (x, y) => resolve(x, y, ids, ids.some((i) => env.schemas.get(store.get().docs[store.get().language].blocks[i]?.schemaId ?? "")?.container)),
                onStateChange: (on) => setDragging(ids, on),
                onDrop: (target) => {
                  animateBlocks(ids, () => store.dispatch({ type: "move", ids, parent: target.parent, index: target.index }), "spring");
                  env.announce(`${label}: ${target.index + 1}`);
                },
              });
            }}
          >
            ⠿ {label}
          </button>
          <BarButton label={env.t.moveUp} onClick={() => animateBlocks([id], () => store.dispatch({ type: "moveBy", ids: [id], delta: -1 }))}>
            ↑
          </BarButton>
          <BarButton label={env.t.moveDown} onClick={() => animateBlocks([id], () => store.dispatch({ type: "moveBy", ids: [id], delta: 1 }))}>
            ↓
          </BarButton>
          <BarButton label={env.t.duplicate} onClick={() => store.dispatch({ type: "duplicate", ids: [id] })}>
            ⧉
          </BarButton>
          <BarButton label={env.t.remove} onClick={() => store.dispatch({ type: "remove", ids: [id] })}>
            ✕
          </BarButton>
        </div>
      ) : null}
      {serverMarkup !== undefined ? (
        <div key="server" data-block-body className="contents" suppressHydrationWarning dangerouslySetInnerHTML={{ __html: serverMarkup }} />
      ) : (
        <div key="rendered" data-block-body className="contents">
          {content}
        </div>
      )}
    </div>
  );
});

/**
 * Simple text edited where it stands (a heading, a caption): double-click makes it editable as plain
 * text; Enter or leaving it keeps the text, Escape puts the old one back. The fields panel stays the
 * way to every field, by keyboard too.
 */
function editInPlace(el: HTMLElement, done: (value: string | undefined) => void) {
  const before = el.textContent ?? "";
  el.contentEditable = "plaintext-only";
  el.dataset.editing = "true";
  el.focus();
  let finished = false;
  const finish = (keep: boolean) => {
    if (finished) return;
    finished = true;
    el.removeEventListener("keydown", key);
    el.removeEventListener("blur", blur);
    const value = (el.textContent ?? "").replace(/\s+/g, " ").trim();
    el.removeAttribute("contenteditable");
    delete el.dataset.editing;
    done(keep && value !== before ? value : undefined);
  };
  const key = (e: KeyboardEvent) => {
    e.stopPropagation();
    if (e.key === "Enter") {
      e.preventDefault();
      finish(true);
    } else if (e.key === "Escape") {
      e.preventDefault();
      finish(false);
    }
  };
  const blur = () => finish(true);
  el.addEventListener("keydown", key);
  el.addEventListener("blur", blur);
}

function BarButton({ label, onClick, children }: { label: string; onClick(): void; children: React.ReactNode }) {
  return (
    <button type="button" data-editor-control aria-label={label} title={label} onClick={onClick} className="rounded px-2 py-1 hover:bg-white/20 focus-visible:outline-2 focus-visible:outline-white">
      <span aria-hidden="true">{children}</span>
    </button>
  );
}

/** Drag state (§4): the editor root and the dragged blocks say so (styled by attribute, no re-render). */
function setDragging(ids: readonly string[], on: boolean) {
  const root = document.querySelector<HTMLElement>("[data-editor-root]");
  if (root) root.dataset.dragging = on ? "true" : "false";
  for (const id of ids) {
    const el = document.querySelector<HTMLElement>(`[data-block-id="${CSS.escape(id)}"]`);
    if (el) el.style.opacity = on ? "0.4" : "";
  }
}
