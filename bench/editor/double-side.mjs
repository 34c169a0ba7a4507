// `BENCH_EDITOR_OURS=double`: our side's driver (ours-side.mjs, same adapter and SEL) against the
// contract double in bench/editor/double instead of the real editor, to test the driver before the
// editor is merged. Its figures are the double's, not our editor's: the output says so.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildPage as buildBundle } from "./build-page.mjs";
import { oursAdapter } from "./ours-side.mjs";
import { buildPage } from "./ours-pages.mjs";
import { serveStatic } from "./static-server.mjs";

export async function startDouble(port) {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-bench-double-"));
  await buildBundle(path.join(import.meta.dirname, "double"), outDir, "/");
  fs.mkdirSync(path.join(outDir, "pages"));
  const pages = {};
  for (const n of [20, 200]) {
    pages[n] = buildPage(n, { slug: `bench-editor-${n}`, nested: n >= 200, uuid: randomUUID });
    fs.writeFileSync(path.join(outDir, "pages", `${pages[n].slug}.json`), JSON.stringify(pages[n].data));
  }
  const server = await serveStatic(outDir, port, { fallback: true });
  const stop = async () => {
    await new Promise((r) => server.close(r));
    fs.rmSync(outDir, { recursive: true, force: true });
  };
  const notes = ["CONTRACT DOUBLE (bench/editor/double), not our editor: these figures test the driver only"];
  return { adapter: oursAdapter(`http://127.0.0.1:${port}`, pages, undefined), stop, notes };
}
