/**
 * Motion defaults of the whole site (§9), in one place: the editor animates with these, and the
 * public site's CSS (app/app.css, `--motion-*`) carries the same values (a test compares them).
 * - Lists: 250 ms ease-in-out when entries come, go or move (auto-animate).
 * - A spring with stiffness 500 and damping 25 (mass 1) where something is let go (a drop).
 * - Keyframes given as arrays run 800 ms.
 * Nothing moves for people who ask their system for reduced motion.
 */

export const LIST_MOTION = { duration: 250, easing: "ease-in-out" } as const;
export const SPRING = { stiffness: 500, damping: 25, mass: 1 } as const;
export const KEYFRAMES_MS = 800;

export const prefersReducedMotion = () => typeof window === "undefined" || window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/**
 * A damped spring's position over time (0 → 1), sampled into a CSS `linear()` easing, and how long
 * it takes to settle (within 0.1 % of the end).
 */
export function springEasing({ stiffness, damping, mass }: { stiffness: number; damping: number; mass: number } = SPRING): { easing: string; duration: number } {
  const w0 = Math.sqrt(stiffness / mass);
  const zeta = damping / (2 * Math.sqrt(stiffness * mass));
  const at = (t: number) => {
    if (zeta < 1) {
      const wd = w0 * Math.sqrt(1 - zeta * zeta);
      return 1 - Math.exp(-zeta * w0 * t) * (Math.cos(wd * t) + ((zeta * w0) / wd) * Math.sin(wd * t));
    }
    return 1 - Math.exp(-w0 * t) * (1 + w0 * t);
  };
  let settle = 0.05;
  while (settle < 3 && Math.abs(1 - at(settle)) > 0.001) settle += 0.01;
  const steps = 40;
  const points = Array.from({ length: steps + 1 }, (_, i) => at((settle * i) / steps).toFixed(4));
  return { easing: `linear(${points.join(", ")})`, duration: Math.round(settle * 1000) };
}

/** Keyframes (an array of states) animated on an element with the site's timing, or not at all under reduced motion. */
export function animateKeyframes(el: Element, keyframes: Keyframe[], options: KeyframeAnimationOptions = {}): Animation | undefined {
  if (prefersReducedMotion()) return undefined;
  return el.animate(keyframes, { duration: KEYFRAMES_MS, easing: LIST_MOTION.easing, ...options });
}
