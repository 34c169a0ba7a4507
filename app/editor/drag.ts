/**
 * Dragging blocks on the canvas and from the palette, with pointer events (mouse, pen and touch
 * alike). While the pointer moves nothing goes through React: a ghost label follows the pointer and
 * one line shows where the drop would land, both moved once per frame; the page's blocks are not
 * re-rendered until the drop, which is one model action (see docs/decisions/0022-visual-editor.md).
 * Keyboard users move blocks with the move buttons and Alt+↑/↓, announced to screen readers.
 */

export interface DropTarget {
  parent: string;
  index: number;
  /** Where the line is drawn: before or after a block, or inside an empty container. */
  rect: { top: number; left: number; width: number; height: number };
  mode: "before" | "after" | "inside" | "end";
}

export interface DragOptions {
  /** The text on the ghost (the block's or palette entry's name). */
  label: string;
  /** Where the drop would land under the pointer, or null (over the dragged block itself, outside the canvas). */
  resolve(x: number, y: number): DropTarget | null;
  onDrop(target: DropTarget): void;
  /** The scrolling canvas: it scrolls when the pointer nears its top or bottom edge. */
  scroller: HTMLElement | null;
  /** Drag state on (§4): the editor marks the dragged blocks and itself. */
  onStateChange(dragging: boolean): void;
}

/** Pixels the pointer must travel before a press becomes a drag (a click on a handle stays a click). */
const THRESHOLD = 4;
const EDGE = 48;

const noSelect = (e: Event) => e.preventDefault();

/** Starts watching a press; it becomes a drag once the pointer moves past the threshold. */
export function pressForDrag(event: PointerEvent | React.PointerEvent, options: DragOptions): void {
  if (event.button !== 0) return;
  const startX = event.clientX;
  const startY = event.clientY;
  const pointerId = event.pointerId;
  let dragging = false;
  let x = startX;
  let y = startY;
  let frame = 0;
  let target: DropTarget | null = null;
  let ghost: HTMLElement | null = null;
  let line: HTMLElement | null = null;

  const begin = () => {
    dragging = true;
    ghost = document.createElement("div");
    ghost.textContent = options.label;
    ghost.setAttribute("aria-hidden", "true");
    ghost.className = "pointer-events-none fixed left-0 top-0 z-[100] rounded bg-[#0f5e63] px-3 py-1 text-sm font-semibold text-white shadow-lg";
    line = document.createElement("div");
    line.setAttribute("aria-hidden", "true");
    line.dataset.dropIndicator = "";
    line.className = "pointer-events-none fixed z-[99] rounded bg-[#e9785d]";
    line.style.display = "none";
    document.body.append(ghost, line);
    // No text selection while dragging. Not by a style on the body: its change would restyle every
    // element of the page at the drop.
    window.addEventListener("selectstart", noSelect, true);
    window.getSelection()?.removeAllRanges();
    options.onStateChange(true);
  };

  const paint = () => {
    frame = 0;
    if (!ghost || !line) return;
    ghost.style.transform = `translate(${x + 12}px, ${y + 12}px)`;
    const scroller = options.scroller;
    if (scroller) {
      const box = scroller.getBoundingClientRect();
      if (y < box.top + EDGE) scroller.scrollTop -= Math.ceil((box.top + EDGE - y) / 4);
      else if (y > box.bottom - EDGE) scroller.scrollTop += Math.ceil((y - (box.bottom - EDGE)) / 4);
    }
    target = options.resolve(x, y);
    if (!target) {
      line.style.display = "none";
    } else {
      const r = target.rect;
      const inside = target.mode === "inside";
      line.style.display = "block";
      line.style.opacity = inside ? "0.25" : "1";
      line.style.transform = `translate(${r.left}px, ${inside ? r.top : (target.mode === "before" ? r.top : r.top + r.height) - 2}px)`;
      line.style.width = `${r.width}px`;
      line.style.height = inside ? `${r.height}px` : "4px";
    }
    // Keep scrolling while the pointer rests near an edge.
    if (scroller && (y < scroller.getBoundingClientRect().top + EDGE || y > scroller.getBoundingClientRect().bottom - EDGE)) frame = requestAnimationFrame(paint);
  };

  const move = (e: PointerEvent) => {
    if (e.pointerId !== pointerId) return;
    x = e.clientX;
    y = e.clientY;
    if (!dragging) {
      if (Math.abs(x - startX) < THRESHOLD && Math.abs(y - startY) < THRESHOLD) return;
      begin();
    }
    e.preventDefault();
    if (!frame) frame = requestAnimationFrame(paint);
  };

  const finish = (drop: boolean) => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    window.removeEventListener("pointercancel", cancel);
    window.removeEventListener("keydown", key, true);
    if (frame) cancelAnimationFrame(frame);
    frame = 0;
    // The drop first, while the page's layout is the one the last frame drew: undoing the drag's
    // styles before it would make the browser restyle the whole page before the move (a cost that
    // grows with the page), instead of once, in the next frame, with the move.
    const final = dragging && drop ? options.resolve(x, y) : null;
    if (final) options.onDrop(final);
    ghost?.remove();
    line?.remove();
    window.removeEventListener("selectstart", noSelect, true);
    if (dragging) options.onStateChange(false);
  };
  const up = (e: PointerEvent) => {
    if (e.pointerId === pointerId) finish(true);
  };
  const cancel = () => finish(false);
  const key = (e: KeyboardEvent) => {
    if (e.key === "Escape" && dragging) {
      e.preventDefault();
      e.stopPropagation();
      finish(false);
    }
  };
  window.addEventListener("pointermove", move, { passive: false });
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", cancel);
  window.addEventListener("keydown", key, true);
}
