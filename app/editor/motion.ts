/**
 * Motion in the editor (§9): list changes animate 250 ms ease-in-out, a drop settles with a spring
 * (stiffness 500, damping 25), and nothing moves for people who ask for reduced motion. Only the
 * blocks an action touched are measured and animated (two reads each, one Web Animation): the
 * other blocks of a long page cost nothing. The values are the site's (app/lib/motion.ts).
 */
import { LIST_MOTION, prefersReducedMotion as reduced, springEasing } from "~/lib/motion";

let spring: { easing: string; duration: number } | null = null;

const elementOf = (id: string) => document.querySelector<HTMLElement>(`[data-block-id="${CSS.escape(id)}"]`);

/**
 * Runs `change` (a model action) and animates the given blocks from where they were to where the
 * change put them: 250 ms ease-in-out for buttons and keys, the spring for a drop.
 */
export function animateBlocks(ids: readonly string[], change: () => void, kind: "list" | "spring" = "list"): void {
  if (reduced() || !ids.length) return change();
  const before = new Map<string, DOMRect>();
  for (const id of ids) {
    const el = elementOf(id);
    if (el) before.set(id, el.getBoundingClientRect());
  }
  change();
  requestAnimationFrame(() => {
    const timing = kind === "spring" ? (spring ??= springEasing()) : LIST_MOTION;
    for (const id of ids) {
      const el = elementOf(id);
      const from = before.get(id);
      if (!el) continue;
      if (!from) {
        // New here (inserted, pasted, duplicated): it fades and grows in.
        el.animate([{ opacity: 0, transform: "scale(0.98)" }, { opacity: 1, transform: "none" }], LIST_MOTION);
        continue;
      }
      const to = el.getBoundingClientRect();
      const dx = from.left - to.left;
      const dy = from.top - to.top;
      if (dx || dy) el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], timing);
    }
  });
}

/** Animates blocks that just appeared (after an insert, paste or duplicate made them). */
export function animateNew(ids: readonly string[]): void {
  if (reduced() || !ids.length) return;
  requestAnimationFrame(() => {
    for (const id of ids) elementOf(id)?.animate([{ opacity: 0, transform: "scale(0.98)" }, { opacity: 1, transform: "none" }], LIST_MOTION);
  });
}
