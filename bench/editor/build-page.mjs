// Builds a benchmark page (production, minified) with Vite's JS API: `root` holds index.html and
// its JSX, the result goes to `outDir`. Used for the Puck page (bench/editor/puck) and the
// contract double (bench/editor/double).
import { build } from "vite";

export async function buildPage(root, outDir, base = "./") {
  await build({
    root,
    configFile: false,
    logLevel: "warn",
    mode: "production",
    base,
    oxc: { jsx: { runtime: "automatic" } },
    build: {
      outDir,
      emptyOutDir: true,
      target: "es2022",
      reportCompressedSize: false,
      chunkSizeWarningLimit: 5000,
      // Radix's "use client" directives mean nothing in a client bundle; the warning is noise.
      // The build's own timing report is noise here too (it reports a loaded machine, not a problem).
      rolldownOptions: {
        onwarn: (w, warn) => (w.code === "MODULE_LEVEL_DIRECTIVE" ? undefined : warn(w)),
        checks: { bundlerTimings: false },
      },
    },
  });
}
