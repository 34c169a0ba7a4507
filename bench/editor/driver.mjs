// The editor-neutral part of `npm run bench:editor`: opens an editor through an adapter (Puck's or
// ours, see puck-side.mjs and ours-side.mjs) and runs the figures on it. The timing happens in the
// page (harness.js); Playwright only drives real input and reads the results afterwards.
import http from "node:http";
import { installHarness } from "./harness.js";

/**
 * The bytes the server sends for `url` to a client that accepts gzip only (the browser would
 * negotiate brotli where the server offers it; the figure is gzip for both editors).
 */
function gzipTransferSize(url, headers = {}) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "accept-encoding": "gzip", ...headers } }, (res) => {
        let bytes = 0;
        res.on("data", (chunk) => (bytes += chunk.length));
        res.on("end", () => (res.statusCode === 200 ? resolve({ bytes, encoding: res.headers["content-encoding"] ?? "identity" }) : reject(new Error(`${url}: ${res.statusCode}`))));
      })
      .on("error", reject);
  });
}

/** The q-quantile of sorted values, linear between the closest ranks. */
function quantile(sorted, q) {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** p50 and p95 (and any `extra` quantiles, as pNN), rounded; null for no samples. */
export function percentiles(values, digits = 1, extra = []) {
  const v = values.filter((x) => typeof x === "number" && Number.isFinite(x)).sort((a, b) => a - b);
  const round = (x) => (v.length ? Number(x.toFixed(digits)) : null);
  const out = { p50: round(v.length ? quantile(v, 0.5) : 0), p95: round(v.length ? quantile(v, 0.95) : 0), n: v.length };
  for (const q of extra) out[`p${Math.round(q * 100)}`] = round(v.length ? quantile(v, q) : 0);
  return out;
}

/** Long tasks of several actions, summarised: per action how many and how long in total. */
function longtaskSummary(samples) {
  return {
    count: percentiles(samples.map((s) => s.count), 0),
    totalMs: percentiles(samples.map((s) => s.totalMs), 0),
    maxMs: samples.length ? Math.max(...samples.map((s) => s.maxMs)) : null,
  };
}

const pause = (page, ms) => page.waitForTimeout(ms);

/**
 * Holds the pointer at (x, y) for `ms` with the hand's tremor (a 1 px move per frame or so): a drag
 * has no idle frames, and a still pointer would count free frames into the drag's frame rate.
 */
async function hold(page, x, y, ms) {
  const end = performance.now() + ms;
  for (let i = 0; performance.now() < end; i++) {
    await page.mouse.move(x + (i % 2), y);
    await pause(page, 16);
  }
}
/** Time after an action before the next, so its trailing work does not land in the next sample. */
const SETTLE_MS = 300;
/** Long tasks this long after the canvas showed the change still count as the action's. */
const TRAILING_MS = 250;

/** Waits until the harness saw the editor open; names what is missing after `timeoutMs`. */
async function waitOpen(page, timeoutMs = 30_000) {
  const r = await page.evaluate(
    (ms) =>
      Promise.race([
        window.__bench.open.done.then(() => ({ shown: window.__bench.open.shown, interactive: window.__bench.open.interactive })),
        new Promise((resolve) => setTimeout(() => resolve(null), ms)),
      ]),
    timeoutMs,
  );
  if (r) return r;
  const missing = await page.evaluate(() => window.__bench.missing());
  throw new Error(`the editor did not open within ${timeoutMs / 1000} s: ${missing}`);
}

async function newEditorPage(browser, adapter, n) {
  const context = await adapter.newContext(browser);
  const page = await context.newPage();
  const layout = adapter.layout(n);
  await page.addInitScript(installHarness, adapter.harnessConfig(layout));
  return { context, page, layout };
}

/**
 * Between the site's page and the click into the editor: a person reads the page first. Without
 * it, the editor's page was asked for while the browser was still busy with the fresh context's
 * first page (the page's /favicon.ico request came in then, among other work). On this 2-core
 * machine the server, rendering the editor's page on the same cores, answered in 80–230 ms instead
 * of 20–40 ms (decision 0044). The same pause for every editor.
 */
export const ARRIVAL_PAUSE_MS = Number(process.env.BENCH_EDITOR_ARRIVAL_PAUSE_MS ?? 1000);
if (!Number.isFinite(ARRIVAL_PAUSE_MS) || ARRIVAL_PAUSE_MS < 0)
  throw new Error(`BENCH_EDITOR_ARRIVAL_PAUSE_MS must be a number of milliseconds (0 or more), not "${process.env.BENCH_EDITOR_ARRIVAL_PAUSE_MS}"`);

/**
 * One open: a fresh context (cold HTTP cache), then, unless `newTab`, a page of the editor's own
 * site that loads nothing (adapter.startUrl), a pause of ARRIVAL_PAUSE_MS, and from there the
 * editor, as an editor arrives from the admin or the page itself; with `newTab`, the editor straight from a new tab's blank page.
 * The two differ where the editor's page sets Cross-Origin-Opener-Policy (ours does, Puck's
 * static page does not): from a blank page the browser then starts the page in a new process.
 */
async function openOnce(browser, adapter, n, newTab) {
  const { context, page, layout } = await newEditorPage(browser, adapter, n);
  try {
    if (!newTab) {
      await page.goto(adapter.startUrl());
      await pause(page, ARRIVAL_PAUSE_MS);
    }
    await page.goto(adapter.url(n, layout), { waitUntil: "commit" });
    return { context, page, ...(await waitOpen(page)) };
  } catch (error) {
    // A failed open leaves no browser context behind for the rest of the run.
    await context.close();
    throw error;
  }
}

/** Figure 1 and 9: opening (fresh context, cold HTTP cache, each rep) and the JavaScript transferred. */
export async function measureOpen(browser, adapter, n, reps, log) {
  const shown = [];
  const interactive = [];
  const newTab = [];
  const openLongtasks = [];
  let js = null;
  for (let i = 0; i < reps; i++) {
    const { context, page, ...r } = await openOnce(browser, adapter, n, false);
    try {
      shown.push(r.shown);
      interactive.push(r.interactive);
      openLongtasks.push(await page.evaluate((to) => window.__bench.longtasksBetween(0, to), r.interactive));
      if (i === 0) {
        // Whatever the page loads once it is open (lazy chunks) counts too: a quiet second later.
        await pause(page, 1000);
        const files = await page.evaluate(() => window.__bench.jsFiles());
        const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
        const sizes = await Promise.all(files.map((f) => gzipTransferSize(f.url, cookie ? { cookie } : {})));
        js = {
          files: files.length,
          encodedBytes: sizes.reduce((sum, x) => sum + x.bytes, 0),
          decodedBytes: files.reduce((sum, f) => sum + f.decodedBytes, 0),
          notGzipped: files.filter((_, i) => sizes[i].encoding !== "gzip").length,
        };
      }
    } finally {
      await context.close();
    }
    // The same open from a new tab, alternated with the one above so both see the same machine.
    const t = await openOnce(browser, adapter, n, true);
    newTab.push(t.interactive);
    await t.context.close();
    log?.(`open ${n}: ${interactive.at(-1).toFixed(0)} ms (from a new tab ${newTab.at(-1).toFixed(0)} ms)`);
  }
  return {
    open_ms: percentiles(interactive, 0),
    open_shown_ms: percentiles(shown, 0),
    open_new_tab_ms: percentiles(newTab, 0),
    open_longtasks: longtaskSummary(openLongtasks),
    js_gzip_kb: js ? Number((js.encodedBytes / 1024).toFixed(1)) : null,
    js_raw_kb: js ? Number((js.decodedBytes / 1024).toFixed(1)) : null,
    js_files: js?.files ?? null,
    js_files_not_gzipped: js?.notGzipped ?? null,
  };
}

/**
 * Between getting ready for an input (the pointer over the control, the caret placed) and the input
 * itself: a person's hand is never quicker. Without it, the frame the preparation caused (a hover
 * style, the caret moved) was still within its 16.7 ms when the input came, and the frame showing
 * the change had to wait for the next slot: up to a frame of waiting that belonged to the
 * preparation, not to the change. The same for every editor and the floor.
 */
const INPUT_GAP_MS = 100;

/** Arms the in-page measurement, waits INPUT_GAP_MS, runs `act` (real input), returns the sample. */
async function timed(page, trigger, cond, act) {
  await page.evaluate(([t, c]) => window.__bench.arm(t, c), [trigger, cond]);
  await pause(page, INPUT_GAP_MS);
  await act();
  const r = await page.evaluate(() => window.__bench.result());
  if (r.timeout) throw new Error(`the canvas did not show ${JSON.stringify(cond)} within 15 s`);
  await pause(page, SETTLE_MS);
  const longtasks = await page.evaluate(([a, b]) => window.__bench.longtasksBetween(a, b), [r.t0, r.paint + TRAILING_MS]);
  return { ms: r.paint - r.t0, domMs: r.dom - r.t0, longtasks };
}

/** A click on `control`, timed from its pointerdown; the pointer is over the control before the gap. */
async function timedClick(page, cond, control) {
  await control.hover();
  return timed(page, "click", cond, () => control.click());
}

/** Figures 2–6 and 8 on one open editor with `n` blocks. */
export async function measureActions(browser, adapter, n, reps, log) {
  const { context, page, layout } = await newEditorPage(browser, adapter, n);
  const samples = { keystroke: [], duplicate: [], delete: [], move: [], undo: [], undo_duplicate: [], paste: [] };
  try {
    await page.goto(adapter.url(n, layout));
    await waitOpen(page);
    const id = layout.activeId;
    const count = await page.evaluate(() => window.__bench.count());
    const KEYS = "abcdefghij";
    for (let i = 0; i < reps; i++) {
      // (2) a keystroke in the active block's text field until the canvas shows it
      await adapter.ensureActive(page, id);
      const field = adapter.textField(page, id);
      await field.focus();
      await page.keyboard.press("End");
      const before = await field.inputValue();
      const ch = KEYS[i % KEYS.length];
      samples.keystroke.push(await timed(page, "key", { type: "text", id, text: before + ch }, () => page.keyboard.press(ch)));
      await adapter.settle(page);

      // (3) duplicate, then its undo (timed apart from undo_ms: taking a block away, not restoring one)
      await adapter.ensureActive(page, id);
      samples.duplicate.push(await timedClick(page, { type: "count", count: count + 1 }, adapter.button(page, "duplicate", id)));
      await adapter.settle(page);
      samples.undo_duplicate.push(await timedClick(page, { type: "count", count }, adapter.button(page, "undo", id)));
      await adapter.settle(page);

      // (7) paste of the active block, copied by the editor's copy control, then undone, untimed.
      // An editor without a clipboard for blocks (Puck 0.23) lists no "paste" in adapter.buttons.
      if (adapter.buttons?.includes("paste")) {
        await adapter.ensureActive(page, id);
        await adapter.button(page, "copy", id).click();
        const paste = adapter.button(page, "paste", id);
        await page.waitForFunction((el) => !el.disabled, await paste.elementHandle());
        samples.paste.push(await timedClick(page, { type: "count", count: count + 1 }, paste));
        await adapter.settle(page);
        await adapter.button(page, "undo", id).click();
        await page.waitForFunction((c) => window.__bench.count() === c, count);
        await adapter.settle(page);
      }

      // (4) delete, (6) undo of the delete
      await adapter.ensureActive(page, id);
      samples.delete.push(await timedClick(page, { type: "present", id, present: false }, adapter.button(page, "delete", id)));
      await adapter.settle(page);
      samples.undo.push(await timedClick(page, { type: "present", id, present: true }, adapter.button(page, "undo", id)));
      await adapter.settle(page);

      // (5) move one position down by the editor's move control, then back up (both timed)
      const from = (await page.evaluate(() => window.__bench.topLevel())).indexOf(id);
      await adapter.ensureActive(page, id);
      samples.move.push(await timedClick(page, { type: "index", id, index: from + 1 }, adapter.button(page, "down", id)));
      await adapter.settle(page);
      await adapter.ensureActive(page, id);
      samples.move.push(await timedClick(page, { type: "index", id, index: from }, adapter.button(page, "up", id)));
      await adapter.settle(page);
      log?.(`actions ${n}: rep ${i + 1}/${reps}`);
    }
  } finally {
    await context.close();
  }
  const out = {};
  for (const [name, s] of Object.entries(samples)) {
    if (!s.length) continue;
    out[`${name}_ms`] = percentiles(s.map((x) => x.ms));
    out[`${name}_dom_ms`] = percentiles(s.map((x) => x.domMs));
    out[`${name}_longtasks`] = longtaskSummary(s.map((x) => x.longtasks));
  }
  return out;
}

/**
 * The floor (floor-side.mjs): a keystroke and a click whose handlers change the DOM at once,
 * timed like the editors' keystroke and delete, and the open of a one-screen static page.
 */
export async function measureFloor(browser, adapter, reps) {
  const open = await measureOpen(browser, adapter, 0, reps);
  const { context, page, layout } = await newEditorPage(browser, adapter, 0);
  const samples = { keystroke: [], click: [] };
  try {
    await page.goto(adapter.url(0, layout));
    await waitOpen(page);
    const field = page.locator("#text");
    for (let i = 0; i < reps; i++) {
      await field.focus();
      const before = await field.inputValue();
      samples.keystroke.push(await timed(page, "key", { type: "text", id: "text-block", text: before + "x" }, () => page.keyboard.press("x")));
      const present = (await page.locator('[data-block-id="removable"]').count()) > 0;
      samples.click.push(await timedClick(page, { type: "present", id: "removable", present: !present }, page.locator("#remove")));
    }
  } finally {
    await context.close();
  }
  return {
    open_ms: open.open_ms,
    keystroke_ms: percentiles(samples.keystroke.map((x) => x.ms)),
    keystroke_dom_ms: percentiles(samples.keystroke.map((x) => x.domMs)),
    click_ms: percentiles(samples.click.map((x) => x.ms)),
    click_dom_ms: percentiles(samples.click.map((x) => x.domMs)),
  };
}

/**
 * Figure 7: drag block `layout.dragId` (block 150 at 200, the 3/4 block at 20) to position 10 by
 * its drag handle: press, a few px to pass the sensor's activation distance, then the wheel and
 * short moves until position 10 is in the canvas's middle, onto its upper part (corrected while
 * the adapter can tell where the drop would land), release. Frames per second between press and
 * release, and the time from release until the canvas shows the drop committed. An untimed undo
 * puts the block back.
 */
export async function measureDrag(browser, adapter, n, reps, log) {
  const { context, page, layout } = await newEditorPage(browser, adapter, n);
  const fps = [];
  const commit = [];
  const worstGap = [];
  const longtasks = [];
  const misses = [];
  const commitDom = [];
  try {
    await page.goto(adapter.url(n, layout));
    await waitOpen(page);
    const { dragId } = layout;
    const targetIndex = 9;
    for (let i = 0; i < reps; i++) {
      const order = await page.evaluate(() => window.__bench.topLevel());
      const from = order.indexOf(dragId);
      const targetId = order[targetIndex];
      await adapter.prepareDrag(page, dragId);
      const handle = adapter.dragHandle(page, dragId);
      await handle.scrollIntoViewIfNeeded();
      const hb = await handle.boundingBox();
      const x = hb.x + hb.width / 2;
      let y = hb.y + Math.min(hb.height / 2, 12);
      await page.mouse.move(x, y);
      // Any committed drop ends the measurement; one that missed position 10 is counted as a miss.
      await page.evaluate((c) => window.__bench.armDrag(c), { type: "moved", id: dragId, from });
      await page.mouse.down();
      await page.mouse.move(x, y + 3);
      await page.mouse.move(x, y + 8, { steps: 2 });
      const view = await adapter.viewport(page);
      const target = adapter.block(page, targetId);
      // Toward the top: wheel the canvas with the button held, moving a little between turns, until
      // position 10 is in the middle band of the canvas (clear of the edges, where auto-scroll acts).
      for (let turn = 0; turn < 200; turn++) {
        const tb = await target.boundingBox();
        const mid = view.y + view.height / 2;
        const off = tb ? tb.y + tb.height * 0.25 - mid : -10_000;
        if (Math.abs(off) < view.height * 0.15) break;
        await page.mouse.wheel(0, Math.max(-400, Math.min(400, off)));
        y = Math.max(view.y + view.height * 0.3, y - 20);
        await page.mouse.move(x + (turn % 2 ? 2 : -2), y, { steps: 2 });
      }
      await hold(page, x, y, 200);
      let last = null;
      let nudge = 0;
      let aim = { x, y };
      for (let attempt = 0; attempt < 16; attempt++) {
        const tb = await target.boundingBox();
        aim = { x: tb.x + tb.width / 2, y: tb.y + Math.max(2, tb.height * 0.25) + nudge };
        await page.mouse.move(aim.x, aim.y, { steps: attempt === 0 ? 10 : 3 });
        await hold(page, aim.x, aim.y, 150);
        const preview = adapter.previewIndex ? await adapter.previewIndex(page, dragId) : undefined;
        if (process.env.BENCH_EDITOR_DEBUG) log?.(`aim ${attempt}: target ${JSON.stringify(tb)} nudge ${nudge} preview ${preview}`);
        if (preview === targetIndex) break;
        if (preview === undefined && last && Math.abs(last.y - aim.y) < 1) break;
        // Once the target holds still: landing below position 10, a little higher; above it, lower.
        if (typeof preview === "number" && preview >= 0 && last && Math.abs(last.y - aim.y) < 2) nudge += preview > targetIndex ? -3 : 3;
        last = aim;
      }
      await hold(page, aim.x, aim.y, 100);
      await page.mouse.up();
      const r = await page.evaluate(() => window.__bench.result());
      if (r.timeout) throw new Error(`drag ${n}: no drop of ${dragId} committed in the canvas within 15 s`);
      const landed = (await page.evaluate(() => window.__bench.topLevel())).indexOf(dragId);
      if (landed !== targetIndex) misses.push(landed + 1);
      await pause(page, SETTLE_MS);
      fps.push(r.fps);
      commit.push(r.paint - r.t0);
      commitDom.push(r.dom - r.t0);
      worstGap.push(r.worstFrameGap);
      longtasks.push(await page.evaluate(([a, b]) => window.__bench.longtasksBetween(a, b), [r.t0, r.paint + TRAILING_MS]));
      log?.(`drag ${n}: ${r.fps.toFixed(0)} fps over ${(r.dragMs / 1000).toFixed(1)} s, drop ${(r.paint - r.t0).toFixed(0)} ms${landed === targetIndex ? "" : ` (landed at ${landed + 1}, not 10)`}`);
      await adapter.settle(page);
      await adapter.button(page, "undo", dragId).click();
      await page.waitForFunction(([id, idx]) => window.__bench.topLevel().indexOf(id) === idx, [dragId, from]);
      await adapter.settle(page);
    }
  } finally {
    await context.close();
  }
  return {
    // For frames per second the low end matters: p5 too.
    drag_fps: percentiles(fps, 1, [0.05]),
    drag_worst_frame_ms: percentiles(worstGap, 0),
    drop_commit_ms: percentiles(commit),
    drop_commit_dom_ms: percentiles(commitDom),
    drop_longtasks: longtaskSummary(longtasks),
    // Drops that landed elsewhere than position 10 (their positions); their timings count all the same.
    drop_missed: misses,
  };
}
