import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { KEYFRAMES_MS, LIST_MOTION, SPRING, springEasing } from "./motion";

describe("motion defaults (§9)", () => {
  it("are the spec's: lists 250 ms ease-in-out, a spring of stiffness 500 and damping 25, keyframes 800 ms", () => {
    expect(LIST_MOTION).toEqual({ duration: 250, easing: "ease-in-out" });
    expect(SPRING).toMatchObject({ stiffness: 500, damping: 25 });
    expect(KEYFRAMES_MS).toBe(800);
  });

  it("the site's CSS carries the same values, and none under reduced motion", () => {
    const css = fs.readFileSync(path.resolve(import.meta.dirname, "../app.css"), "utf8");
    expect(css).toContain(`--motion-list-duration: ${LIST_MOTION.duration}ms;`);
    expect(css).toContain(`--motion-list-easing: ${LIST_MOTION.easing};`);
    expect(css).toContain(`--motion-keyframes-duration: ${KEYFRAMES_MS}ms;`);
    const reduced = css.slice(css.indexOf("@media (prefers-reduced-motion: reduce)"));
    expect(reduced).toMatch(/--motion-list-duration: 0s;[\s\S]*--motion-keyframes-duration: 0s;/);
  });

  it("the spring starts at 0, ends at 1 and settles within a second (damping 25 overshoots a little)", () => {
    const { easing, duration } = springEasing();
    const points = easing.slice("linear(".length, -1).split(", ").map(Number);
    expect(points[0]).toBe(0);
    expect(Math.abs(points.at(-1)! - 1)).toBeLessThan(0.002);
    expect(Math.max(...points)).toBeGreaterThan(1);
    expect(duration).toBeGreaterThan(100);
    expect(duration).toBeLessThan(1000);
  });
});
