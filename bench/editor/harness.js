// In-page measuring for `npm run bench:editor`, installed with page.addInitScript before any of
// the page's own scripts. Everything is timed in the top document (performance.now(), whose origin
// is the navigation start); the canvas may be a same-origin iframe (Puck) or the page itself (ours).
//
// - open: a requestAnimationFrame loop from document start until the canvas holds the last block
//   and the editor's ready marker; `shown` is that frame, `interactive` the first task the main
//   thread runs after it (a setTimeout(0) queued in that frame).
// - actions: arm(trigger, cond) waits for the trigger event (pointerdown, keydown or pointerup,
//   captured on the top window and the canvas window), then a MutationObserver on the canvas
//   checks cond after each batch of mutations; `dom` is when the canvas first reflects the change,
//   `paint` the first task after the next frame (the change is on screen by then).
// - drag: frames counted with requestAnimationFrame between pointerdown and pointerup, then the
//   drop measured like an action from the pointerup.
// - long tasks (PerformanceObserver "longtask", buffered) are kept for the whole page's life.
export function installHarness(cfg) {
  if (window.top !== window) return;
  const longtasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) longtasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
  } catch {
    /* no long task timing: the figures say so (null) */
  }

  const canvasWindow = () => {
    if (!cfg.frame) return window;
    const el = document.querySelector(cfg.frame);
    return el && el.contentWindow ? el.contentWindow : null;
  };
  const canvasDoc = () => {
    const w = canvasWindow();
    try {
      return w ? w.document : null;
    } catch {
      return null;
    }
  };
  const sel = (id) => `[${cfg.blockAttr}="${String(id).replace(/["\\]/g, "\\$&")}"]`;
  const busy = (doc) => (cfg.busySelector ? doc.querySelector(cfg.busySelector) !== null : false);
  /** Top-level blocks in document order (a block inside another block's element is nested). */
  const topLevel = (doc) =>
    [...doc.querySelectorAll(`[${cfg.blockAttr}]`)]
      .filter((el) => !el.parentElement?.closest(`[${cfg.blockAttr}]`))
      .map((el) => el.getAttribute(cfg.blockAttr));

  function check(cond) {
    const doc = canvasDoc();
    if (!doc) return false;
    switch (cond.type) {
      case "text": {
        const el = doc.querySelector(sel(cond.id));
        return !!el && el.textContent.includes(cond.text);
      }
      case "count":
        return doc.querySelectorAll(`[${cfg.blockAttr}]`).length === cond.count && !busy(doc);
      case "present":
        return (doc.querySelector(sel(cond.id)) !== null) === cond.present && !busy(doc);
      case "index": {
        if (busy(doc)) return false;
        return topLevel(doc).indexOf(cond.id) === cond.index;
      }
      case "moved": {
        // A drop committed anywhere: no drag state left and the block no longer where it was.
        if (busy(doc)) return false;
        const at = topLevel(doc).indexOf(cond.id);
        return at >= 0 && at !== cond.from;
      }
      default:
        throw new Error(`unknown condition ${cond.type}`);
    }
  }

  const nextPaint = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0)));

  // ---- open ----
  const open = { shown: null, interactive: null };
  open.done = new Promise((resolve) => {
    const poll = () => {
      const doc = canvasDoc();
      const ok = doc && doc.querySelector(sel(cfg.lastId)) && (!cfg.readySelector || document.querySelector(cfg.readySelector) || doc.querySelector(cfg.readySelector));
      if (!ok) return requestAnimationFrame(poll);
      open.shown = performance.now();
      setTimeout(() => {
        open.interactive = performance.now();
        resolve();
      }, 0);
    };
    requestAnimationFrame(poll);
  });

  // ---- actions ----
  let pending = null;
  const TRIGGERS = { click: "pointerdown", key: "keydown", release: "pointerup" };

  function listenOnce(type, fn) {
    const targets = [window];
    const cw = canvasWindow();
    if (cw && cw !== window) targets.push(cw);
    const handler = () => {
      for (const t of targets) t.removeEventListener(type, handler, true);
      fn(performance.now());
    };
    for (const t of targets) t.addEventListener(type, handler, true);
  }

  function watch(cond, t0, timeoutMs, resolve) {
    const doc = canvasDoc();
    let done = false;
    const finish = async (dom) => {
      if (done) return;
      done = true;
      observer.disconnect();
      clearTimeout(timer);
      const paint = await nextPaint();
      resolve({ t0, dom, paint });
    };
    const observer = new MutationObserver(() => {
      if (check(cond)) finish(performance.now());
    });
    observer.observe(doc.documentElement, { subtree: true, childList: true, characterData: true, attributes: true });
    const timer = setTimeout(() => {
      if (done) return;
      done = true;
      observer.disconnect();
      resolve({ t0, dom: null, paint: null, timeout: true });
    }, timeoutMs);
    // The change may already be in the DOM when the trigger's own handler ran synchronously.
    queueMicrotask(() => {
      if (check(cond)) finish(performance.now());
    });
  }

  /** Arms a measurement: resolves once `trigger` happened and the canvas satisfies `cond`. */
  function arm(trigger, cond, timeoutMs = 15000) {
    if (check(cond)) throw new Error(`condition already true before the action: ${JSON.stringify(cond)}`);
    pending = new Promise((resolve) => listenOnce(TRIGGERS[trigger], (t0) => watch(cond, t0, timeoutMs, resolve)));
    return true;
  }

  /** Arms a drag: frames between pointerdown and pointerup, then the drop until `cond`. */
  function armDrag(cond, timeoutMs = 15000) {
    if (check(cond)) throw new Error(`condition already true before the drag: ${JSON.stringify(cond)}`);
    pending = new Promise((resolve) => {
      let frames = 0;
      let counting = false;
      let down = 0;
      let last = 0;
      let worstGap = 0;
      const tick = (ts) => {
        if (!counting) return;
        frames++;
        if (last) worstGap = Math.max(worstGap, ts - last);
        last = ts;
        requestAnimationFrame(tick);
      };
      listenOnce("pointerdown", (t) => {
        down = t;
        counting = true;
        requestAnimationFrame(tick);
        listenOnce("pointerup", (t0) => {
          counting = false;
          const dragMs = t0 - down;
          watch(cond, t0, timeoutMs, (r) => resolve({ ...r, frames, dragMs, fps: (frames * 1000) / dragMs, worstFrameGap: worstGap }));
        });
      });
    });
    return true;
  }

  function longtasksBetween(from, to) {
    const hit = longtasks.filter((l) => l.start < to && l.start + l.duration > from);
    return { count: hit.length, totalMs: hit.reduce((s, l) => s + l.duration, 0), maxMs: hit.reduce((m, l) => Math.max(m, l.duration), 0) };
  }

  /** The JavaScript files the page loaded (its document and the canvas's), with their decoded sizes. */
  function jsFiles() {
    const docs = [window];
    const cw = canvasWindow();
    if (cw && cw !== window) docs.push(cw);
    const seen = new Map();
    for (const w of docs) {
      for (const e of w.performance.getEntriesByType("resource")) {
        if (/\.m?js$/.test(new URL(e.name).pathname)) seen.set(e.name, e.decodedBodySize);
      }
    }
    return [...seen].map(([url, decodedBytes]) => ({ url, decodedBytes }));
  }

  /** What the open condition still lacks, for the error message. */
  function missing() {
    const doc = canvasDoc();
    if (!doc) return `no canvas document (${cfg.frame})`;
    const lacks = [];
    if (!doc.querySelector(sel(cfg.lastId))) lacks.push(`no last block ${sel(cfg.lastId)} (${doc.querySelectorAll(`[${cfg.blockAttr}]`).length} elements with ${cfg.blockAttr})`);
    if (cfg.readySelector && !document.querySelector(cfg.readySelector) && !doc.querySelector(cfg.readySelector)) lacks.push(`no ${cfg.readySelector}`);
    return lacks.join("; ") || "nothing (timing)";
  }

  window.__bench = {
    missing,
    cfg,
    open,
    arm,
    armDrag,
    result: () => pending,
    check,
    topLevel: () => topLevel(canvasDoc()),
    count: () => canvasDoc().querySelectorAll(`[${cfg.blockAttr}]`).length,
    longtasksBetween,
    longtaskSupported: () => PerformanceObserver.supportedEntryTypes.includes("longtask"),
    jsFiles,
  };
}
