import { expect, test } from "./fixtures";
import { waitForHydration } from "./helpers";

/**
 * A visitor's page paints first and asks for its scripts afterwards (app/lib/scripts-after-paint.server.ts),
 * then hydrates as before. The order is read on the page's own clock: the first animation frame (the
 * one that paints; frames wait for the stylesheets) is noted by a script that runs before the page's,
 * and no script of the build may be asked for before it.
 */
for (const path of ["/", "/practitioners", "/en/practitioners/juergen-weiss"]) {
  test(`${path}: painted before any script is asked for, then hydrated`, async ({ page }) => {
    await page.addInitScript(() => requestAnimationFrame(() => ((window as { firstFrameAt?: number }).firstFrameAt = performance.now())));
    await page.goto(path);
    await waitForHydration(page);
    const { frame, scripts } = await page.evaluate(() => ({
      frame: (window as { firstFrameAt?: number }).firstFrameAt ?? null,
      scripts: performance
        .getEntriesByType("resource")
        .filter((e) => /\/assets\/[^/]+\.js$/.test(new URL(e.name).pathname))
        .map((e) => ({ name: new URL(e.name).pathname, start: e.startTime })),
    }));
    expect(frame, "the first frame was noted").not.toBeNull();
    expect(scripts.length).toBeGreaterThanOrEqual(3);
    for (const s of scripts) expect(s.start, `${s.name} asked for at ${s.start} ms, first frame at ${frame} ms`).toBeGreaterThanOrEqual(frame!);
  });
}
