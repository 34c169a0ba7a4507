// Puck's side of `npm run bench:editor`: the page in bench/editor/puck built with Vite into a temp
// dir, served by a minimal static server, and the adapter the driver uses on it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildPage } from "./build-page.mjs";
import { serveStatic } from "./static-server.mjs";

const VIEWPORT = { width: 1440, height: 900 };

/** Builds and serves the page; returns the adapter and a stop function. */
export async function startPuck(port) {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-bench-puck-"));
  await buildPage(path.join(import.meta.dirname, "puck"), outDir);
  const server = await serveStatic(outDir, port);
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await new Promise((r) => server.close(r));
    fs.rmSync(outDir, { recursive: true, force: true });
  };
  return { adapter: puckAdapter(base), stop };
}

/** The block ids of config.jsx's benchData(n): block-1 … block-n, kinds Heading/Text/Button/Card in turn. */
function layout(n) {
  const ids = Array.from({ length: n }, (_, i) => `block-${i + 1}`);
  // The active block: a CardBlock (title + description, like our cta) near the middle.
  let active = Math.floor(n / 2);
  while (active % 4 !== 0) active++;
  const dragNumber = n >= 200 ? 150 : Math.round((n * 3) / 4);
  return { ids, lastId: ids.at(-1), activeId: `block-${active}`, dragId: `block-${dragNumber}` };
}

function puckAdapter(base) {
  const frame = (page) => page.frameLocator("#preview-frame");
  const LABELS = { duplicate: "Duplicate", delete: "Delete", up: "Move up", down: "Move down" };
  return {
    name: "puck",
    layout,
    url: (n) => `${base}/?n=${n}`,
    /** A page of the same site that loads nothing (static-server.mjs). */
    startUrl: () => `${base}/start.txt`,
    harnessConfig: (l) => ({
      frame: "#preview-frame",
      blockAttr: "data-puck-component",
      lastId: l.lastId,
      readySelector: "[data-puck-entry]",
      // While a drag is under way (or being dropped) Puck marks the dragged item and its placeholder.
      busySelector: "[data-dnd-dragging], [data-dnd-placeholder]",
    }),
    async newContext(browser) {
      const context = await browser.newContext({ viewport: VIEWPORT });
      // Puck's CSS imports the Inter font from rsms.me: the browser resolves no host but loopback (run.mjs).
      return context;
    },
    block: (page, id) => frame(page).locator(`[data-puck-component="${id}"]`),
    /**
     * Selected when the fields panel shows this block's fields (their ids start with the block id;
     * Puck renders the panel twice, one copy hidden, hence :visible).
     */
    async ensureActive(page, id) {
      const field = page.locator(`[id^="${id}_"]:visible`).first();
      if (await field.count()) return;
      const block = frame(page).locator(`[data-puck-component="${id}"]`);
      await block.scrollIntoViewIfNeeded();
      await block.click({ position: { x: 8, y: 8 } });
      await field.waitFor();
    },
    textField: (page, id) => page.locator(`[id="${id}_text_title"]:visible`),
    button(page, name) {
      if (name === "undo") return page.locator('button[title="undo"]');
      // The selected component's action bar, portalled into the canvas iframe (a hovered one has
      // its own, hidden; Puck's CSS-module class names keep their readable part).
      return frame(page).locator(`[class*="DraggableComponent--isSelected"] button[title="${LABELS[name]}"]`);
    },
    async settle() {},
    async prepareDrag() {},
    /** Puck items are dragged by their whole body. */
    dragHandle: (page, id) => frame(page).locator(`[data-puck-component="${id}"]`),
    /** Where the dragged item would land now: its placeholder's index among the other top-level items. */
    previewIndex: (page, id) =>
      frame(page)
        .locator('[data-puck-dropzone="root:default-zone"]')
        .evaluate((zone, dragged) => {
          const items = [...zone.children].filter((el) => el.hasAttribute("data-puck-component") && !el.hasAttribute("data-dnd-dragging"));
          return items.findIndex((el) => el.hasAttribute("data-dnd-placeholder") && el.getAttribute("data-puck-component") === dragged);
        }, id),
    viewport: (page) => page.locator("#preview-frame").boundingBox(),
  };
}
