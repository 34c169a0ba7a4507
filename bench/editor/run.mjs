// `npm run bench:editor`: the visual page editor side by side with Puck 0.23, at 20 and 200 blocks.
// Prints JSON on stdout (a short table on stderr):
//   { machine, puck: { 20: {...}, 200: {...} }, ours: { ... }, ratios: { figure: puck/ours at 200 },
//     slowdown: { ours: { figure: at 200 / at 20 }, puck: { ... } } }
// Per size, each figure as { p50, p95, n }:
//   open_ms           navigation start until the last block is in the canvas and the editor is
//                     ready, then the first task after that frame (fresh context, cold cache, each
//                     rep), opened from a page of the editor's own site that loads nothing, after
//                     a pause of BENCH_EDITOR_ARRIVAL_PAUSE_MS (default 1000) on it, as editors
//                     arrive (they read the admin or the page, then click); open_shown_ms that frame
//                     itself; open_new_tab_ms the same open typed into a new tab (from its blank
//                     page: a page with an opener policy then starts in a new browser process)
//   keystroke_ms      keydown in the active block's text field until the canvas shows the text
//   duplicate_ms, delete_ms, move_ms (one position, the editor's move control; down and back up),
//   undo_ms (of a delete: the block comes back), undo_duplicate_ms (of a duplicate: the copy goes),
//   paste_ms (of the active block, copied with the editor's copy control; an editor without a
//   clipboard for blocks has none: Puck 0.23)
//                     pointerdown on the control until the canvas shows the result
//   *_longtasks       long tasks (> 50 ms) from the input until 250 ms after the canvas showed it
//   drag_fps          requestAnimationFrame callbacks per second between press and release while
//                     dragging block 150 (3/4 of the page at 20) to position 10 by its handle, the
//                     pointer always moving (higher is better; with p5), drag_worst_frame_ms the
//                     longest frame
//   drop_commit_ms    release until the canvas shows the drop committed (the block moved, no drag
//                     state left); drop_missed lists drops that did not land at position 10
//   js_gzip_kb        the editor page's JavaScript files as the server sends them to a client that
//                     accepts gzip only, a second after opening (js_raw_kb decoded)
//   floor             the same harness on a static page whose handlers change the DOM at once
//                     (floor-side.mjs): open_ms, keystroke_ms and click_ms there are the least any
//                     editor can score on this machine (the wait for the next frame, and the frame)
// "Shows" is measured in the page: a MutationObserver sees the change, then the first task after the
// next animation frame (each *_dom_ms figure stops at the MutationObserver instead: the DOM has it,
// the screen not yet). Ratios are puck/ours of the p50 at 200 blocks (fps: higher is better, so
// a ratio below 1 means ours is smoother).
//
// Env: BENCH_EDITOR_REPS (default 10 per action and size), BENCH_EDITOR_OPEN_REPS (default: REPS),
// BENCH_EDITOR_DRAG_REPS (default: REPS), BENCH_EDITOR_SIZES (default "20,200"),
// BENCH_EDITOR_ONLY=puck|ours, BENCH_EDITOR_ARRIVAL_PAUSE_MS (default 1000), BENCH_EDITOR_PORT (default 3500; uses it and the next three).
// BENCH_EDITOR_OURS=double drives the contract double (bench/editor/double) instead of our editor:
// a self-test of our side's driver while the editor is not merged; its figures mean nothing.
import os from "node:os";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, findChromium } from "../../tests/support/chromium.mjs";
import { ARRIVAL_PAUSE_MS, measureActions, measureDrag, measureOpen } from "./driver.mjs";

const reps = Number(process.env.BENCH_EDITOR_REPS ?? 10);
const openReps = Number(process.env.BENCH_EDITOR_OPEN_REPS ?? reps);
const dragReps = Number(process.env.BENCH_EDITOR_DRAG_REPS ?? reps);
const sizes = (process.env.BENCH_EDITOR_SIZES ?? "20,200").split(",").filter(Boolean).map(Number);
const only = process.env.BENCH_EDITOR_ONLY ?? "";
if (only && !["puck", "ours"].includes(only)) throw new Error(`BENCH_EDITOR_ONLY must be "puck" or "ours", not "${only}"`);
const basePort = Number(process.env.BENCH_EDITOR_PORT ?? 3500);
const log = (line) => process.stderr.write(`  ${line}\n`);

const executablePath = findChromium();
if (!executablePath) throw new Error("no Chromium: set CHROMIUM_PATH or install /usr/bin/chromium");
// No request leaves the machine: every host name but the loopback address fails to resolve. This is
// done in the browser's resolver, not by intercepting requests (Playwright's route()), which sends
// every request of both editors through the driver process and back: that round trip held the
// scripts of a first open back by 100-400 ms on this machine, a cost neither editor has in use.
const OFFLINE_ARGS = ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"];
const browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS, ...OFFLINE_ARGS], headless: true });

const result = {
  // The load average says how shared the machine was (the figures move with it on a small machine).
  machine: { cores: os.availableParallelism(), cpu: os.cpus()[0]?.model ?? null, node: process.version, chromium: browser.version(), loadavgAtStart: os.loadavg().map((l) => Number(l.toFixed(2))) },
  settings: { reps, openReps, dragReps, sizes, arrivalPauseMs: ARRIVAL_PAUSE_MS },
};
const errors = {};

async function measureSide(name, start) {
  process.stderr.write(`\n${name}\n`);
  let side;
  try {
    side = await start();
  } catch (error) {
    (errors[name] ??= []).push(`start: ${error instanceof Error ? error.message : error}`);
    return null;
  }
  const out = {};
  if (side.notes?.length) (result.notes ??= {})[name] = side.notes;
  try {
    for (const n of sizes) {
      out[n] = {};
      let openFailed = null;
      for (const [what, fn, r] of [
        ["open", measureOpen, openReps],
        ["actions", measureActions, reps],
        ["drag", measureDrag, dragReps],
      ]) {
        if (r === 0) continue;
        if (openFailed) {
          (errors[name] ??= []).push(`${what} at ${n}: skipped, the editor did not open`);
          continue;
        }
        try {
          Object.assign(out[n], await fn(browser, side.adapter, n, r, log));
        } catch (error) {
          const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
          (errors[name] ??= []).push(`${what} at ${n}: ${message}`);
          log(`FAILED ${what} at ${n}: ${message}`);
          if (what === "open" && /did not open/.test(message)) openFailed = message;
        }
      }
    }
  } finally {
    await side.stop();
  }
  return out;
}

try {
  // The floor first: the least this harness can measure here (floor-side.mjs).
  process.stderr.write("\nfloor\n");
  const { startFloor } = await import("./floor-side.mjs");
  const floor = await startFloor(basePort + 3);
  try {
    const { measureFloor } = await import("./driver.mjs");
    result.floor = await measureFloor(browser, floor.adapter, Math.max(reps, 10));
  } catch (error) {
    (errors.floor ??= []).push(error instanceof Error ? error.message.split("\n")[0] : String(error));
  } finally {
    await floor.stop();
  }
  if (only !== "ours") {
    const { startPuck } = await import("./puck-side.mjs");
    result.puck = await measureSide("puck", () => startPuck(basePort));
  }
  if (only !== "puck") {
    if (process.env.BENCH_EDITOR_OURS === "double") {
      const { startDouble } = await import("./double-side.mjs");
      result.ours = await measureSide("ours", () => startDouble(basePort + 2));
    } else {
      const { startOurs } = await import("./ours-side.mjs");
      result.ours = await measureSide("ours", () => startOurs(basePort + 1, log));
    }
  }
} finally {
  await browser.close();
}

result.machine.loadavgAtEnd = os.loadavg().map((l) => Number(l.toFixed(2)));
const FIGURES = ["open_ms", "open_new_tab_ms", "keystroke_ms", "duplicate_ms", "delete_ms", "move_ms", "undo_ms", "undo_duplicate_ms", "paste_ms", "drag_fps", "drop_commit_ms", "js_gzip_kb"];
const p50 = (side, n, f) => {
  const v = result[side]?.[n]?.[f];
  return typeof v === "number" ? v : (v?.p50 ?? null);
};
const ratio = (a, b) => (a != null && b != null && b !== 0 ? Number((a / b).toFixed(2)) : null);
const big = Math.max(...sizes);
const small = Math.min(...sizes);
if (result.puck && result.ours) result.ratios = Object.fromEntries(FIGURES.map((f) => [f, ratio(p50("puck", big, f), p50("ours", big, f))]));
result.slowdown = {};
for (const side of ["ours", "puck"]) {
  if (result[side] && big !== small) result.slowdown[side] = Object.fromEntries(FIGURES.filter((f) => f !== "js_gzip_kb").map((f) => [f, ratio(p50(side, big, f), p50(side, small, f))]));
}
if (Object.keys(errors).length) result.errors = errors;

process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);

// The short human table.
const cell = (side, n, f) => {
  const v = result[side]?.[n]?.[f];
  if (v == null) return "—";
  if (typeof v === "number") return String(v);
  return v.p50 == null ? "—" : `${v.p50} / ${v.p95}`;
};
const cols = [];
for (const side of ["puck", "ours"]) for (const n of sizes) if (result[side]) cols.push([side, n]);
const rows = [["figure (p50 / p95)", ...cols.map(([s, n]) => `${s} ${n}`), ...(result.ratios ? [`puck/ours ${big}`] : [])]];
for (const f of FIGURES) rows.push([f, ...cols.map(([s, n]) => cell(s, n, f)), ...(result.ratios ? [String(result.ratios[f] ?? "—")] : [])]);
// Long tasks: per action the p95 of how many, and the longest one seen.
for (const a of ["open", "keystroke", "duplicate", "delete", "move", "undo", "paste", "drop"]) {
  const lt = (s, n) => {
    const v = result[s]?.[n]?.[`${a}_longtasks`];
    return v?.count?.n ? `${v.count.p95} × ≤${Math.round(v.maxMs)} ms` : "—";
  };
  rows.push([`${a} long tasks (p95 n, max)`, ...cols.map(([s, n]) => lt(s, n)), ...(result.ratios ? [""] : [])]);
}
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
process.stderr.write(`\n${rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join("  ")).join("\n")}\n`);
if (result.floor) {
  const f = result.floor;
  process.stderr.write(`\nfloor (p50 / p95, a static page, handlers that change the DOM at once): open ${f.open_ms.p50} / ${f.open_ms.p95}, keystroke ${f.keystroke_ms.p50} / ${f.keystroke_ms.p95} (DOM ${f.keystroke_dom_ms.p50}), click ${f.click_ms.p50} / ${f.click_ms.p95} (DOM ${f.click_dom_ms.p50})\n`);
}
if (result.errors) process.stderr.write(`\nnot measured:\n${Object.entries(result.errors).flatMap(([s, e]) => e.map((x) => `  ${s}: ${x}`)).join("\n")}\n`);
