// Builds the Puck benchmark page (production, minified) with Vite's JS API into `outDir`.
import path from "node:path";
import { build } from "vite";

export async function buildPuckPage(outDir) {
  const root = import.meta.dirname;
  await build({
    root,
    configFile: false,
    logLevel: "warn",
    mode: "production",
    base: "./",
    // The app's node_modules (a symlink to the main checkout) resolves react and @puckeditor/core.
    resolve: { preserveSymlinks: false },
    oxc: { jsx: { runtime: "automatic" } },
    build: {
      outDir,
      emptyOutDir: true,
      target: "es2022",
      reportCompressedSize: false,
      chunkSizeWarningLimit: 5000,
      // Radix's "use client" directives mean nothing in a client bundle; the warning is noise.
      rolldownOptions: { onwarn: (w, warn) => (w.code === "MODULE_LEVEL_DIRECTIVE" ? undefined : warn(w)) },
    },
  });
  return path.join(outDir, "index.html");
}
